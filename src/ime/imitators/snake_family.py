"""Snake's ``search`` imitator family: the fitted maximin search of
:mod:`ime.imitators.snake_fit` as a module the pipeline trains, saves, loads and plays like a
policy net (the plug-in protocol of :mod:`ime.imitators.family`).

Why a module: every downstream stage calls an imitator as ``model(planes, mask) -> logits``. The
dataset's planes are from the deciding snake's view (plane 0 its head, 1 its body, 2 the opponent, 3
obstacles, a fifth off-board plane for the variable-size ``pad`` and the ``ego`` layouts:
:mod:`ime.games.snake.encode`); the module turns them into the search's positions
(:func:`ime.imitators.snake_features.planes_to_positions`; with the ``opponent_head``,
``turn_plane`` and ``order_plane`` planes when the dataset's encoder has them, ``game.params``),
searches the mask's legal directions with its fitted weights and settings, and returns
log-probabilities as the other families do (:func:`ime.imitators.family.search_logits`).

Config: ``config/net/search.yaml``'s ``search:`` section. Snake reads ``depths``, ``passes``,
``patience``, ``inner_iters``, ``l2``, ``loss``, ``hinge_margin``, ``max_fit``,
``select_share``, ``max_select``, for its budget stage ``budgets``, ``budget_depth``,
``budget_passes`` and ``budget_kinds``, for its round-value climb ``round_evals`` and
``round_positions``, and for its Monte-Carlo stage (decoupled UCT over the fitted
evaluation, :func:`ime.imitators.snake_fit.fit_mcts`) ``mcts_sims``, ``mcts_cs``,
``mcts_scales`` (in units of the evaluation's spread), ``mcts_depths`` (safe-random playout
turns before the evaluation, 0: none), ``mcts_positions`` and ``mcts_rounds``;
it always tries its own tie rules (direction orders and the search's root order:
:data:`ime.imitators.snake_search.TIE_RULES`) and both its child orderings
(:data:`ime.imitators.snake_search.ORDERS`) with a budget, and ignores the other keys
(Reversi's square-order ties, orderings, endgame solver, root windows and the round stage's
refits and sparse start, the other Monte-Carlo keys; Connect Four's phases and pass patience).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

import numpy as np
import torch
from torch import nn

from ime.games.snake.encode import extra_options
from ime.imitators.family import MCTS_KEYS, TRAIN_KEYS, DecisionMemo, search_logits
from ime.imitators.fit_state import FitState
from ime.imitators.snake_features import feature_names, num_features, planes_to_positions
from ime.imitators.snake_fit import SnakeFitConfig, SnakeSettings, decide, fit

FIT_KEYS = ("depths", "passes", "patience", "inner_iters", "l2", "loss", "hinge_margin",
            "max_fit", "budgets", "budget_depth", "budget_passes", "budget_kinds", "round_evals",
            "round_positions", "mcts_sims", "mcts_cs", "mcts_scales", "mcts_depths",
            "mcts_positions", "mcts_rounds")
"""Keys of ``net.search`` that go to :class:`SnakeFitConfig`."""
IGNORED_KEYS = ("ties", "endgames", "endgame_modes", "endgames_wld", "endgame_picks",
                "orderings", "pv_firsts", "budget_screen", "budget_keep",
                "margin", "order_min", "round_extra_share",
                "round_refit_positions", "round_refit_passes", "round_repeats", "round_settings",
                "round_enter_shares",
                "phases", "pass_patience")
"""Keys of ``net.search`` that are the other games' searches'."""


class SnakeSearchPolicy(nn.Module):
    """A fitted Snake search imitator with the nets' call signature."""

    def __init__(self, config: Mapping[str, Any]):
        super().__init__()
        self.config = dict(config)
        self.name = str(config.get("name", "search"))
        self.settings = SnakeSettings(**dict(config["settings"]))
        self.opponent_head = bool(config.get("opponent_head", False))
        self.turn_plane = bool(config.get("turn_plane", False))
        self.order_plane = bool(config.get("order_plane", False))
        # the features it was fitted with, by name (a checkpoint fitted before a feature was
        # added weighs it 0)
        self.features = list(config.get("features", feature_names()))
        unknown = sorted(set(self.features) - set(feature_names()))
        if unknown:
            raise ValueError(f"a Snake search imitator weighs features this code has not: "
                             f"{unknown}")
        self.columns = np.array([feature_names().index(f) for f in self.features])
        # a parameter (not a buffer) so that Table 4.4's parameter count shows the fitted weights
        self.weights = nn.Parameter(torch.zeros(len(self.features), dtype=torch.float64),
                                    requires_grad=True)
        self.memo = DecisionMemo()  # positions asked again are not searched again

    def decide(self, planes: np.ndarray, mask: np.ndarray | None = None
               ) -> tuple[np.ndarray, np.ndarray]:
        """The search's directions and, per position, the softmax of its root values over the
        4 directions (the Monte-Carlo mode's root visit shares where it decides); ``mask``
        (``[N, 4]``): the directions searched (else the free ones)."""
        positions = planes_to_positions(planes, opponent_head=self.opponent_head,
                                        turn_plane=self.turn_plane, order_plane=self.order_plane)
        roots = None if mask is None else [np.flatnonzero(m > 0).tolist() for m in mask]
        w = np.zeros(num_features())
        w[self.columns] = self.weights.detach().cpu().numpy().astype(np.float64)
        return decide(w, self.settings, positions, roots)

    def moves(self, planes: np.ndarray, mask: np.ndarray | None = None) -> np.ndarray:
        """The search's direction for each position."""
        return self.decide(planes, mask)[0]

    def forward(self, planes: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
        return search_logits(self.decide, planes, mask, memo=self.memo,
                             state=self.weights.detach().cpu().numpy().tobytes())


def fit_config(config: Mapping[str, Any], seed: int) -> SnakeFitConfig:
    """``net.search`` as this family's fit config (see the module doc for the keys read)."""
    unknown = sorted(set(config) - set(FIT_KEYS) - set(IGNORED_KEYS) - set(MCTS_KEYS)
                     - {"name", *TRAIN_KEYS})
    if unknown:
        raise ValueError(f"net.search: unknown keys {unknown}")
    if config.get("mcts_sims") and int(config.get("mcts_climb_evals") or 0):
        raise ValueError("Snake's Monte-Carlo mode has no weight climb (Reversi's only: "
                         "net.search.mcts_climb_evals must be 0)")
    kw = {k: config[k] for k in FIT_KEYS if config.get(k) is not None}
    for key in ("depths", "budgets", "mcts_sims", "mcts_depths"):
        if key in kw:
            kw[key] = tuple(int(x) for x in kw[key])
    for key in ("mcts_cs", "mcts_scales"):
        if key in kw:
            kw[key] = tuple(float(x) for x in kw[key])
    if "budget_kinds" in kw:
        kw["budget_kinds"] = tuple(str(x) for x in kw["budget_kinds"])
    if "passes" in kw and not isinstance(kw["passes"], int):
        kw["passes"] = tuple(int(x) for x in kw["passes"])
    return SnakeFitConfig(**kw, seed=seed)


class SnakeSearchFamily:
    """:class:`ime.imitators.family.ImitatorFamily` for Snake."""

    def fit(self, planes: np.ndarray, actions: np.ndarray, fit_rows: np.ndarray,
            select_rows: np.ndarray, config: Mapping[str, Any], *, seed: int,
            say: Callable[[str], None], threads: int = 1,
            state: FitState | None = None, encoder_version: str = "") -> nn.Module:
        # one core: this family's searches are not split over threads; its fit takes minutes
        # and keeps no stages to resume (a written fold is kept: family.fit_member)
        del threads, state
        cfg = fit_config(config, seed)
        sel = select_rows if len(select_rows) else fit_rows
        actions = np.asarray(actions, dtype=np.int64)
        extra = extra_options(encoder_version)
        result = fit(planes_to_positions(planes[fit_rows], **extra), actions[fit_rows],
                     planes_to_positions(planes[sel], **extra), actions[sel], cfg, log=say)
        summary = {k: v for k, v in result.summary.items() if k != "fit_seconds"}
        model = SnakeSearchPolicy({
            "name": str(config.get("name", "search")), "kind": "search", "game": "snake",
            "settings": result.settings.to_dict(), "features": feature_names(),
            "fit": summary, **{k: True for k, on in extra.items() if on}})
        with torch.no_grad():
            model.weights.copy_(torch.as_tensor(result.weights, dtype=torch.float64))
        return model

    def build(self, config: Mapping[str, Any]) -> nn.Module:
        return SnakeSearchPolicy(config)


FAMILY = SnakeSearchFamily()
