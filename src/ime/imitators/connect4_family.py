"""Connect Four's ``search`` imitator family: the fitted alpha-beta of
:mod:`ime.imitators.connect4_fit` as a module the pipeline trains, saves, loads and plays like a
policy net (the plug-in protocol of :mod:`ime.imitators.family`).

Why a module: every downstream stage calls an imitator as ``model(planes, mask) -> logits``.
The dataset's planes are from the side to move's view (plane 0 its discs, plane 1 the
opponent's, plane 2 the blocked cells, row 0 the top row: :mod:`ime.games.connect4.encode`),
which is the whole position, so the module turns them back into the engine's bitboards and
board geometry, runs the search with its fitted weights and settings, and returns
log-probabilities as Reversi's family does (:func:`ime.imitators.family.search_logits`):
``CHOICE_SHARE`` of the mass on the search's column, the rest the
softmax of the root values, the nets' mask value on full columns.

Config: ``config/net/search.yaml``'s ``search:`` section. Connect Four reads ``depths``,
``passes``, ``patience``, ``pass_patience``, ``phases`` (1 or 2), ``inner_iters``, ``l2``,
``loss``, ``hinge_margin``, ``max_fit``, ``select_share``, ``max_select`` and its Monte-Carlo
stage's ``mcts_sims`` (empty: no stage), ``mcts_cs``, ``mcts_positions`` and ``mcts_rounds``
(:func:`ime.imitators.connect4_fit.fit_mcts`; the stage's move rules are always its own
three); it always tries
its own four tie rules (column orders: ``first``, ``last``, ``centre``, ``centre_right``) rather
than ``ties`` (Reversi's square orders), and has no endgame solve, node budget or root window, so
it ignores those keys (a nonzero budget is refused: it cannot honour one).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

import numpy as np
import torch
from torch import nn

from ime.games.connect4.board import Geometry
from ime.imitators.connect4_features import feature_names, num_features
from ime.imitators.connect4_fit import Connect4FitConfig, Connect4Settings, decide, fit
from ime.imitators.family import MCTS_KEYS, TRAIN_KEYS, DecisionMemo, search_logits
from ime.imitators.fit_state import FitState
from ime.imitators.mmto import root_softmax

FIT_KEYS = ("depths", "passes", "patience", "pass_patience", "phases", "inner_iters", "l2",
            "loss", "hinge_margin", "max_fit")
"""Keys of ``net.search`` that go to :class:`Connect4FitConfig`."""
MCTS_FIT_KEYS = ("mcts_sims", "mcts_cs", "mcts_positions", "mcts_rounds")
"""Keys of ``net.search`` of the Monte-Carlo stage that Connect Four reads; the other
:data:`ime.imitators.family.MCTS_KEYS` are Reversi's (playout lengths and rules, leaf scales,
the empties threshold, the weight climb and the tree fit) and are ignored, except a nonzero
``mcts_climb_evals`` with the stage on, which is refused."""
IGNORED_KEYS = ("ties", "endgames", "endgame_modes", "endgames_wld", "endgame_picks",
                "budgets", "orderings", "pv_firsts", "budget_depth", "budget_passes",
                "budget_kinds", "budget_screen", "budget_keep",
                "margin", "order_min", "round_evals", "round_positions", "round_extra_share",
                "round_refit_positions", "round_refit_passes", "round_repeats", "round_settings",
                "round_enter_shares")
"""Keys of ``net.search`` that are Reversi's search's (square-order ties, the endgame solver,
node budgets, root windows)."""


def planes_to_boards(planes: np.ndarray) -> tuple[np.ndarray, np.ndarray, Geometry]:
    """``[N, 3, H, W]`` planes -> the side to move's and the opponent's bitboards
    (``uint64[N]``) and the board (its blocked cells from plane 2, the same in every row)."""
    p = np.asarray(planes)
    if p.ndim != 4 or p.shape[1] != 3:
        raise ValueError(f"Connect Four's search imitator reads [N, 3, H, W] planes, got "
                         f"{tuple(p.shape)}")
    n, _, h, w = p.shape
    if w * (h + 1) > 64:
        raise ValueError(f"Connect Four's search imitator supports boards of at most 64 bits; "
                         f"{w}x{h} is a wide board")
    cells = p[:, :, ::-1, :].transpose(0, 1, 3, 2) > 0.5  # [N, C, x, y from the bottom]
    blocked = cells[:, 2]
    if n and not (blocked == blocked[:1]).all():
        raise ValueError("the rows' blocked cells differ (one board per imitator)")
    grid = np.zeros((n, 2, w, h + 1), dtype=np.uint8)  # bit x * (h + 1) + y; sentinels 0
    grid[..., :h] = cells[:, :2]
    bits = np.zeros((n, 2, 64), dtype=np.uint8)
    bits[:, :, : w * (h + 1)] = grid.reshape(n, 2, w * (h + 1))
    boards = np.packbits(bits, axis=2, bitorder="little").view("<u8")[..., 0]
    geo = Geometry(width=w, height=h, blocked=tuple(
        (int(x), int(y)) for x, y in zip(*np.nonzero(blocked[0]), strict=True)) if n else ())
    return (np.ascontiguousarray(boards[:, 0], dtype=np.uint64),
            np.ascontiguousarray(boards[:, 1], dtype=np.uint64), geo)


class Connect4SearchPolicy(nn.Module):
    """A fitted Connect Four search imitator with the nets' call signature."""

    def __init__(self, config: Mapping[str, Any]):
        super().__init__()
        self.config = dict(config)
        self.name = str(config.get("name", "search"))
        self.settings = Connect4Settings(**dict(config["settings"]))
        # a parameter (not a buffer) so that Table 4.4's parameter count shows the fitted weights
        self.weights = nn.Parameter(torch.zeros(num_features(self.settings.phases),
                                                dtype=torch.float64), requires_grad=True)
        self.memo = DecisionMemo()  # positions asked again are not searched again

    def decide(self, planes: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """The search's columns and, per position, the softmax of its root values over the
        columns (0 on full ones)."""
        me, opp, geo = planes_to_boards(planes)
        w = self.weights.detach().cpu().numpy().astype(np.float64)
        chosen, res = decide(w, self.settings, me, opp, geo)
        return chosen, root_softmax(res, geo.width)

    def moves(self, planes: np.ndarray) -> np.ndarray:
        """The search's column for each position (each must have a legal column)."""
        return self.decide(planes)[0]

    def forward(self, planes: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
        return search_logits(lambda p, _m: self.decide(p), planes, mask, memo=self.memo,
                             state=self.weights.detach().cpu().numpy().tobytes())


def fit_config(config: Mapping[str, Any], seed: int) -> Connect4FitConfig:
    """``net.search`` as this family's fit config (see the module doc for the keys read)."""
    unknown = sorted(set(config) - set(FIT_KEYS) - set(IGNORED_KEYS) - set(MCTS_KEYS)
                     - {"name", *TRAIN_KEYS})
    if unknown:
        raise ValueError(f"net.search: unknown keys {unknown}")
    if config.get("round_evals"):
        raise ValueError("Connect Four's search imitator has no round-value stage (Reversi's only: "
                         "net.search.round_evals must be 0)")
    if config.get("mcts_sims") and int(config.get("mcts_climb_evals") or 0):
        raise ValueError("Connect Four's Monte-Carlo mode has no weight climb (Reversi's only: "
                         "net.search.mcts_climb_evals must be 0)")
    if any(int(b) for b in config.get("budgets") or ()):
        raise ValueError("Connect Four's search imitator has no node budget (net.search.budgets "
                         "must be [0])")
    kw = {k: config[k] for k in FIT_KEYS if config.get(k) is not None}
    for k in ("depths", "phases"):
        if k in kw:
            kw[k] = tuple(int(x) for x in kw[k])
    if "passes" in kw and not isinstance(kw["passes"], int):
        kw["passes"] = tuple(int(x) for x in kw["passes"])
    mcts = {k: config[k] for k in MCTS_FIT_KEYS if config.get(k) is not None}
    for k, cast in (("mcts_sims", int), ("mcts_cs", float)):
        if k in mcts:
            mcts[k] = tuple(cast(x) for x in mcts[k])
    return Connect4FitConfig(**kw, **mcts, seed=seed)


class Connect4SearchFamily:
    """:class:`ime.imitators.family.ImitatorFamily` for Connect Four."""

    def fit(self, planes: np.ndarray, actions: np.ndarray, fit_rows: np.ndarray,
            select_rows: np.ndarray, config: Mapping[str, Any], *, seed: int,
            say: Callable[[str], None], threads: int = 1,
            state: FitState | None = None, encoder_version: str = "") -> nn.Module:
        # one core: this family's searches are not split over threads; its fit takes minutes
        # and keeps no stages to resume (a written fold is kept: family.fit_member)
        del threads, state
        cfg = fit_config(config, seed)
        me, opp, geo = planes_to_boards(planes)
        sel = select_rows if len(select_rows) else fit_rows
        actions = np.asarray(actions, dtype=np.int64)
        result = fit(me[fit_rows], opp[fit_rows], actions[fit_rows], me[sel], opp[sel],
                     actions[sel], geo, cfg, log=say)
        summary = {k: v for k, v in result.summary.items() if k != "fit_seconds"}
        model = Connect4SearchPolicy({
            "name": str(config.get("name", "search")), "kind": "search", "game": "connect4",
            "settings": result.settings.to_dict(), "board": geo.options(),
            "features": feature_names(result.settings.phases), "fit": summary})
        with torch.no_grad():
            model.weights.copy_(torch.as_tensor(result.weights, dtype=torch.float64))
        return model

    def build(self, config: Mapping[str, Any]) -> nn.Module:
        return Connect4SearchPolicy(config)


FAMILY = Connect4SearchFamily()
