"""The search imitator's Monte-Carlo stage: UCT's own settings fitted to the target's moves.

Why a stage of its own: an alpha-beta search with fitted weights takes one move per position, so
against a target that samples its move from a Monte-Carlo tree it agrees only where that tree's
favourite is the minimax move. The stage keeps the fitted evaluation and asks, on the selection
fold, whether UCT over it (:mod:`ime.imitators.reversi_mcts`) names the target's move more often,
and with which settings: simulations, exploration constant, playout length and rule, the leaves'
squashing scale, and the empties above which UCT decides (below, the alpha-beta search and its
exact endgame keep deciding). Only the logged moves decide; the grid is generic.

The search is a coordinate ascent: from the first value of every list, each setting in turn
takes the value of its list that agrees most with the others held (ties keep the current one),
for at most ``mcts_rounds`` rounds or until a round changes nothing. Every candidate is scored on
the same seeded sample of ``mcts_positions`` selection positions; UCT's moves are computed once
per candidate on the sample's positions above the lowest threshold tried, so the threshold itself
costs nothing to vary. The mode is kept only if it then agrees more than the search alone on the
whole selection fold.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from typing import Any

import numpy as np

from ime.imitators.data import Decisions, empties
from ime.imitators.mmto import subsample
from ime.imitators.reversi_mcts import PLAYOUTS, uct_moves
from ime.imitators.reversi_search import SearchSettings

KNOBS = ("sims", "c", "depth", "playout", "scale", "above")
"""The settings the stage fits, in the order the ascent visits them."""


@dataclass(frozen=True)
class MctsGrid:
    """What the stage tries: one list per setting (the first value is the ascent's start)."""

    sims: Sequence[int]
    c: Sequence[float] = (0.707, 0.35, 1.0, 1.4)
    depth: Sequence[int] = (2, 0, 1, 4, 8)
    playout: Sequence[str] = ("corners_xc", "corners", "random")
    scale: Sequence[float] = (4.0, 1.0, 2.0, 8.0, 16.0)
    above: Sequence[int] = (12, 8, 10, 14, 16, 20)
    positions: int = 1000
    rounds: int = 2

    def __post_init__(self) -> None:
        for k in KNOBS:
            if not len(getattr(self, k)):
                raise ValueError(f"net.search.mcts_{k}s: at least one value (to turn the "
                                 f"Monte-Carlo stage off, set mcts_sims to [])")
        bad = [p for p in self.playout if p not in PLAYOUTS]
        if bad:
            raise ValueError(f"net.search.mcts_playouts: {bad} not among {PLAYOUTS}")
        if min(self.sims) < 1 or min(self.c) < 0 or min(self.depth) < 0 \
                or min(self.scale) <= 0 or min(self.above) < 0:
            raise ValueError(f"net.search.mcts_*: sims >= 1, c >= 0, depth >= 0, scale > 0 and "
                             f"above >= 0 are required, got {self}")
        if self.positions < 1 or self.rounds < 1:
            raise ValueError(f"net.search.mcts_positions and mcts_rounds must be >= 1, got "
                             f"{self.positions} and {self.rounds}")


def fit_mcts(w: np.ndarray, base: SearchSettings, select: Decisions, grid: MctsGrid, *,
             seed: int = 0, say: Callable[[str], None] = lambda _l: None,
             ) -> tuple[SearchSettings, float, list[dict[str, Any]]]:
    """The settings (``base`` with the Monte-Carlo mode, or ``base`` itself when the mode does
    not agree more on the whole selection fold), their selection agreement (percent) and every
    candidate scored (for the fit's summary)."""
    from ime.imitators.search_fit import predict  # the search's own decision (no cycle)

    idx = subsample(len(select), grid.positions, seed)
    P, O, A = select.P[idx], select.O[idx], select.action[idx]
    emp = empties(P, O)
    ab = predict(w, base, P, O)
    low = np.flatnonzero(emp > min(grid.above))
    uct_cache: dict[tuple, np.ndarray] = {}
    scored: dict[tuple, float] = {}
    rows: list[dict[str, Any]] = []

    def score(v: dict[str, Any]) -> float:
        key = tuple(v[k] for k in KNOBS)
        if key in scored:
            return scored[key]
        ukey = key[:-1]
        if ukey not in uct_cache:
            moves = np.full(len(P), -1, dtype=np.int64)
            moves[low] = uct_moves(P[low], O[low], w, base.phases, sims=int(v["sims"]),
                                   c=float(v["c"]), depth=int(v["depth"]),
                                   playout=str(v["playout"]), scale=float(v["scale"]),
                                   seed=seed)
            uct_cache[ukey] = moves
        chosen = np.where(emp > v["above"], uct_cache[ukey], ab)
        acc = 100.0 * float(np.mean(chosen == A))
        scored[key] = acc
        rows.append({"stage": "mcts", **v, "acc": acc})
        return acc

    base_acc = 100.0 * float(np.mean(ab == A))
    cur = {k: getattr(grid, k)[0] for k in KNOBS}
    best = score(cur)
    say(f"mcts: the search alone {base_acc:.2f}% on {len(A)} selection positions; UCT from "
        f"{cur}: {best:.2f}%")
    for r in range(grid.rounds):
        changed = False
        for k in KNOBS:
            for x in getattr(grid, k):
                if x == cur[k]:
                    continue
                acc = score({**cur, k: x})
                if acc > best + 1e-9:
                    best, cur, changed = acc, {**cur, k: x}, True
            say(f"mcts round {r} {k}: {cur} {best:.2f}%")
        if not changed:
            break
    chosen = replace(base, mcts_sims=int(cur["sims"]), mcts_c=float(cur["c"]),
                     mcts_depth=int(cur["depth"]), mcts_playout=str(cur["playout"]),
                     mcts_scale=float(cur["scale"]), mcts_above=int(cur["above"]),
                     mcts_seed=int(seed))
    full_base = 100.0 * float(np.mean(predict(w, base, select.P, select.O) == select.action))
    full = 100.0 * float(np.mean(predict(w, chosen, select.P, select.O) == select.action))
    keep = full > full_base + 1e-9
    say(f"mcts: on the whole selection fold ({len(select)} positions) UCT {full:.2f}% against "
        f"the search's {full_base:.2f}%: {'kept' if keep else 'not kept'}")
    return (chosen, full, rows) if keep else (base, full_base, rows)
