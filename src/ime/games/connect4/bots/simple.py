"""Cheap seeded opponents: uniformly random, and greedy (win, else block, else random).

Every draw comes from ``decision_rng(ctx)``, so a decision is reproducible from (seed, match,
ply, player) while the matches of a target against them all differ.
"""

from __future__ import annotations

import numpy as np

from ime.core.bot import Bot, DecisionContext, decision_rng
from ime.games.connect4 import wide as wd
from ime.games.connect4.board import bit_column, winning_cells


def _wide_columns(cells: int, stride: int) -> list[int]:
    """Columns of the cells of a wide (Python-int) board, lowest first."""
    out = []
    while cells:
        low = cells & -cells
        out.append((low.bit_length() - 1) // stride)
        cells ^= low
    return out


def _columns(cells: np.uint64, g: np.ndarray) -> list[int]:
    out = []
    c = int(cells)
    while c:
        low = c & -c
        out.append(int(bit_column(np.uint64(low), g)))
        c ^= low
    return out


class RandomBot(Bot):
    """A uniformly random column that is not full."""

    deterministic = False

    def __init__(self, bot_id: str = "random"):
        self.bot_id = bot_id

    def act(self, state, ctx: DecisionContext) -> int:
        legal = state.legal_actions()
        return int(legal[int(decision_rng(ctx, "random").integers(len(legal)))])


class GreedyBot(Bot):
    """Win at once if possible, else block the opponent's immediate win, else a random column,
    drawn with weight ``1 + centre * closeness to the centre`` (``centre = 0``: uniform)."""

    deterministic = False

    def __init__(self, bot_id: str = "greedy", centre: float = 1.0):
        self.bot_id = bot_id
        self.centre = float(centre)

    def act(self, state, ctx: DecisionContext) -> int:
        rng = decision_rng(ctx, "greedy")
        me, opp = state.own_opp()
        geo = state.game.geometry
        g = geo.g
        nxt = state.next_cells()
        for p in (me, opp):
            if geo.wide:
                cells = wd.winning_cells(wd.to_words(p), wd.to_words(me), wd.to_words(opp), g,
                                         geo.gw)
                cols = _wide_columns(wd.from_words(cells) & nxt, geo.stride)
            else:
                cols = _columns(winning_cells(p, me, opp, g) & nxt, g)
            if cols:
                return cols[int(rng.integers(len(cols)))]
        legal = state.legal_actions()
        half = (state.game.width - 1) / 2
        w = np.array([1.0 + self.centre * (1.0 - abs(c - half) / max(half, 1.0)) for c in legal])
        return int(legal[int(rng.choice(len(legal), p=w / w.sum()))])
