"""Reversi's ``search`` imitator family: the fitted alpha-beta of :mod:`ime.imitators.search_fit`
as a module the pipeline trains, saves, loads and plays like a policy net.

Why a module: every downstream stage calls an imitator as ``model(planes, mask) -> logits``
(the imitator bot of every later stage, :func:`ime.train.loop.evaluate`). The dataset's planes
are already from the side to move's view (plane 0 its discs, plane 1 the opponent's), which is
the whole position a Reversi search needs, so the module turns planes back into the engine's
bitboards (:func:`ime.imitators.data.planes_to_bitboards`), runs the search with its fitted
weights and settings, and returns log-probabilities that put the search's move first: half of
the mass on it, the other half spread as the softmax of the root values (the distribution the fit
trained), the nets' mask value for illegal moves. One model so always plays its search's move; an
ensemble of folds (``evaluate.imitator.fold: ensemble``, the mean of the folds' softmax) is a
vote of the folds' moves whose ties go to the move the folds value most.

The fit's knobs are ``config/net/search.yaml``'s ``search:`` section (docs/imitators.md); the
fitted settings and the fit's selection grid are saved in the checkpoint's net config, the
weights as its state dict.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

import numpy as np
import torch
from torch import nn

from ime.imitators.data import Decisions, planes_to_bitboards
from ime.imitators.family import MCTS_KEYS, TRAIN_KEYS, DecisionMemo, search_logits
from ime.imitators.fit_state import FitState
from ime.imitators.mmto import root_softmax
from ime.imitators.reversi_features import feature_names, weights_by_name
from ime.imitators.reversi_search import SearchSettings
from ime.imitators.search_fit import (
    FitConfig,
    choices,
    fit,
    predict,
    search_all,
    set_search_threads,
    solve_endgames,
)

SOFT_MARGIN = 12.0
"""Root window of a decision: moves valued more than this below the best get a bound, not a
value (their softmax weight is below e^-12)."""

FIT_KEYS = ("depths", "passes", "patience", "pass_patience", "phases", "ties", "endgames",
            "endgame_modes", "endgames_wld", "endgame_picks", "budgets", "orderings",
            "pv_firsts", "budget_depth", "budget_passes", "budget_screen", "budget_keep",
            "max_fit", "inner_iters", "l2", "margin", "order_min", "loss", "hinge_margin",
            "round_evals", "round_positions", "round_extra_share",
            "round_refit_positions", "round_refit_passes", "round_repeats", "round_settings",
            "round_enter_shares", *MCTS_KEYS)
"""Keys of ``net.search`` that go to :class:`ime.imitators.search_fit.FitConfig` (the rest, e.g.
``select_share`` and ``max_select``, are the train stage's: ``family.TRAIN_KEYS``)."""
OTHER_KEYS = ("budget_kinds",)
"""Keys of ``net.search`` that are another game's search's (Snake's), ignored here."""


class ReversiSearchPolicy(nn.Module):
    """A fitted Reversi search imitator with the nets' call signature."""

    def __init__(self, config: Mapping[str, Any]):
        super().__init__()
        self.config = dict(config)
        self.name = str(config.get("name", "search"))
        self.settings = SearchSettings(**dict(config["settings"]))
        # the checkpoint's own feature names (one saved before a feature was added has fewer;
        # the search weighs the missing ones 0, weights_by_name)
        self.features = list(config.get("features") or feature_names(self.settings.phases))
        k = len(self.features)
        # a parameter (not a buffer) so that Table 4.4's parameter count shows the fitted weights
        self.weights = nn.Parameter(torch.zeros(k, dtype=torch.float64), requires_grad=True)
        self.memo = DecisionMemo()  # positions asked again are not searched again

    def moves(self, planes: np.ndarray) -> np.ndarray:
        """The search's move for each position given as ``[N, 2, 8, 8]`` planes (each must have a
        legal move)."""
        return self.decide(planes)[0]

    def decide(self, planes: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """The search's moves and, per position, the softmax of its root values over the 64
        squares (the distribution the fit trained; 0 off the legal moves)."""
        P, O = planes_to_bitboards(np.asarray(planes).round().astype(np.uint8))
        w = self.search_weights()
        s = self.settings
        res = search_all(P, O, w, s, margin=SOFT_MARGIN)
        # margin 12 gives exact values to every move that could be best or tied: the tie rule
        # then chooses as the deciding window would, and the solver's positions as predict's;
        # a node budget counts the deciding window's nodes, so with one the move comes from
        # that search itself; so it does where the Monte-Carlo mode decides (UCT's move)
        chosen = (predict(w, s, P, O) if s.budget or s.mcts_sims
                  else solve_endgames(w, s, P, O, choices(res, s.tie)))
        return chosen, root_softmax(res, 64)

    def search_weights(self) -> np.ndarray:
        """The weights in the search's feature order (:func:`feature_names`)."""
        w = self.weights.detach().cpu().numpy().astype(np.float64)
        if self.features == feature_names(self.settings.phases):
            return w
        return weights_by_name(dict(zip(self.features, w, strict=True)), self.settings.phases,
                               f"search imitator {self.name!r}")

    def forward(self, planes: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
        return search_logits(lambda p, _m: self.decide(p), planes, mask, memo=self.memo,
                             state=self.weights.detach().cpu().numpy().tobytes())


def _decisions(planes: np.ndarray, actions: np.ndarray, rows: np.ndarray) -> Decisions:
    P, O = planes_to_bitboards(np.asarray(planes[rows]).round().astype(np.uint8))
    return Decisions(P, O, np.asarray(actions[rows], dtype=np.int64),
                     np.zeros(len(rows), dtype=object))


class ReversiSearchFamily:
    """:class:`ime.imitators.family.ImitatorFamily` for Reversi."""

    def fit(self, planes: np.ndarray, actions: np.ndarray, fit_rows: np.ndarray,
            select_rows: np.ndarray, config: Mapping[str, Any], *, seed: int,
            say: Callable[[str], None], threads: int = 1,
            state: FitState | None = None, encoder_version: str = "") -> nn.Module:
        """The fit's searches, and this process's later ones (the fold's metrics), run on
        ``threads`` threads (:func:`ime.imitators.search_fit.set_search_threads`): the same
        moves for any count. ``state``: the fit's finished stages are kept there and a stopped
        fit resumes from them (:mod:`ime.imitators.fit_state`)."""
        set_search_threads(threads)
        if tuple(planes.shape[1:]) != (2, 8, 8):
            raise ValueError(f"Reversi's search imitator reads [N, 2, 8, 8] planes, got "
                             f"{tuple(planes.shape[1:])}")
        unknown = sorted(set(config) - set(FIT_KEYS) - set(OTHER_KEYS) - {"name", *TRAIN_KEYS})
        if unknown:
            raise ValueError(f"net.search: unknown keys {unknown} (known: "
                             f"{', '.join(FIT_KEYS + TRAIN_KEYS)})")
        kw = {k: config[k] for k in FIT_KEYS if config.get(k) is not None}
        for k in ("depths", "phases", "ties", "endgames", "endgame_modes", "endgames_wld",
                  "endgame_picks", "budgets", "orderings", "pv_firsts", "round_enter_shares",
                  "mcts_sims", "mcts_cs",
                  "mcts_depths", "mcts_playouts", "mcts_scales", "mcts_aboves"):
            if k in kw:
                kw[k] = tuple(kw[k])
        if "passes" in kw and not isinstance(kw["passes"], int):
            kw["passes"] = tuple(int(x) for x in kw["passes"])
        train = _decisions(planes, actions, fit_rows)
        select = _decisions(planes, actions, select_rows if len(select_rows) else fit_rows)
        imitator = fit(train, select, FitConfig(**kw, seed=seed), log=say, state=state)
        summary = {k: v for k, v in imitator.summary.items() if k != "fit_seconds"}
        model = ReversiSearchPolicy({
            "name": str(config.get("name", "search")), "kind": "search", "game": "reversi",
            "settings": imitator.settings.to_dict(),
            "features": feature_names(imitator.settings.phases), "fit": summary})
        with torch.no_grad():
            model.weights.copy_(torch.as_tensor(imitator.weights, dtype=torch.float64))
        return model

    def build(self, config: Mapping[str, Any]) -> nn.Module:
        return ReversiSearchPolicy(config)


FAMILY = ReversiSearchFamily()
