"""Shared helpers of the Connect Four search imitator's tests: seeded positions and a plain
minimax without pruning (the reference the alpha-beta search must match)."""

from __future__ import annotations

import numpy as np

from ime.games.connect4.board import Geometry, has_four, possible
from ime.imitators.connect4_features import features_into, masks
from ime.imitators.connect4_search import TERMINAL

GEO = Geometry()


def legal_columns(me: int, opp: int, geo: Geometry = GEO) -> list[tuple[int, int]]:
    """(column, cell bit) of every legal move, columns ascending."""
    nxt = int(possible(np.uint64(me), np.uint64(opp), geo.g))
    return [(x, nxt & geo.columns[x]) for x in range(geo.width) if nxt & geo.columns[x]]


def random_positions(n: int, seed: int, geo: Geometry = GEO, min_ply: int = 2,
                     max_ply: int = 30) -> list[tuple[int, int]]:
    """``n`` unfinished positions (side to move's discs, the opponent's) from seeded random
    games at random plies."""
    rng = np.random.default_rng(seed)
    out: list[tuple[int, int]] = []
    while len(out) < n:
        me, opp = 0, 0
        stop = int(rng.integers(min_ply, max_ply + 1))
        ok = True
        for _ in range(stop):
            moves = legal_columns(me, opp, geo)
            if not moves:
                ok = False
                break
            _, cell = moves[int(rng.integers(len(moves)))]
            mine = me | cell
            if has_four(np.uint64(mine), geo.g):
                ok = False
                break
            me, opp = opp, mine
        if ok and legal_columns(me, opp, geo):
            out.append((me, opp))
    return out


def minimax_root(me: int, opp: int, w: np.ndarray, depth: int, phases: int = 1,
                 geo: Geometry = GEO) -> dict[int, float]:
    """Every legal column's ``depth``-ply minimax value, no pruning, by the module's rules."""
    m = masks(geo)
    buf = np.zeros(len(w))

    def value_of_move(me: int, opp: int, cell: int, depth: int) -> float:
        mine = me | cell
        empty = geo.cells - bin(mine | opp).count("1")
        if has_four(np.uint64(mine), geo.g):
            return TERMINAL + empty
        if empty == 0:
            return 0.0
        if depth == 1:
            features_into(np.uint64(opp), np.uint64(mine), geo.g, m, np.int64(phases), buf)
            return -float(w @ buf)
        return -max(value_of_move(opp, mine, c, depth - 1)
                    for _, c in legal_columns(opp, mine, geo))

    return {x: value_of_move(me, opp, cell, depth) for x, cell in legal_columns(me, opp, geo)}
