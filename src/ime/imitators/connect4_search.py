"""A deterministic Connect Four search over a linear evaluation (numba): the Connect Four search
imitator's engine.

Why its own search rather than a zoo bot's: the imitator must not use any target's code, and the
fit needs what a playing bot does not give: the exact searched value of *every* legal root move
(for the softmax over moves and an exact tie rule) and, for each, its principal variation's leaf
features (the gradient of that value with respect to the weights, as in MMTO).

* **Negamax alpha-beta**, fail-soft, on :func:`ime.imitators.connect4_features.evaluate`, to a
  fixed ``depth`` in plies (depth 1: every move's child is evaluated). Children are searched
  centre column first (the usual Connect Four ordering; it changes nodes, never values).
* **Root**: every legal column gets its exact depth-limited minimax value (a full window each),
  so ties are real ties.
* **Finished games**: a move that makes four is worth ``TERMINAL + empties`` to its mover
  (``empties``: playable cells still empty after it, so a faster win is worth more and a slower
  loss costs less); a move that fills the board without four is a draw, 0. Both are above or
  apart from any evaluation and carry no features (``terminal``).
* **Ties** (root values within ``1e-9`` relative) by a generic rule: ``first``/``last``, the
  lowest/highest column; ``centre``/``centre_right``, the column nearest the centre, the left
  (right) one of two at the same distance.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ime.core.bits import ctpop
from ime.games.connect4.board import (
    G_CELLS,
    G_WIDTH,
    ZERO,
    Geometry,
    centre_order,
    column_cells,
    has_four,
    possible,
)
from ime.imitators.connect4_features import evaluate, masks, num_features
from ime.imitators.mmto import SearchResults

INF = 1e30
TERMINAL = 1e6
MAX_PLY = 64
TIE_RULES = ("first", "last", "centre", "centre_right")


def tie_ranks(tie: str, width: int) -> np.ndarray:
    """Rank of every column under tie rule ``tie`` (lower = preferred)."""
    cols = np.arange(width)
    if tie == "first":
        return cols
    if tie == "last":
        return width - 1 - cols
    if tie in ("centre", "centre_right"):
        dist = np.abs(2 * cols - (width - 1))
        side = cols if tie == "centre" else width - 1 - cols
        return np.argsort(np.argsort(dist * width + side, kind="stable"), kind="stable")
    raise ValueError(f"tie must be one of {TIE_RULES}, got {tie!r}")


@njit(cache=True)
def _negamax(me, opp, depth, alpha, beta, w, g, m, phases, order, buf, leaf, term, ply,
             counters):
    """Fail-soft alpha-beta value of (``me`` to move, ``opp``), ``depth >= 1`` plies. Leaves
    ``leaf[ply]`` the signed features of its principal variation's leaf (the value is
    ``w @ leaf[ply]``) unless ``term[ply]`` (a finished game: no features)."""
    counters[0] += 1
    moves = possible(me, opp, g)
    cells = np.int64(g[G_CELLS])
    best = -INF
    term[ply] = True
    for i in range(order.shape[0]):
        mv = moves & column_cells(order[i], g)
        if mv == ZERO:
            continue
        mine = me | mv
        empty = cells - ctpop(mine | opp)
        t = True
        if has_four(mine, g):
            v = TERMINAL + empty
        elif empty == 0:
            v = 0.0
        elif depth == 1:
            v = -evaluate(opp, mine, g, m, w, phases, buf[ply])
            t = False
        else:
            v = -_negamax(opp, mine, depth - 1, -beta, -alpha, w, g, m, phases, order, buf,
                          leaf, term, ply + 1, counters)
            t = term[ply + 1]
        if v > best:
            best = v
            term[ply] = t
            if t:
                leaf[ply, :] = 0.0
            elif depth == 1:
                leaf[ply, :] = -buf[ply, :]
            else:
                leaf[ply, :] = -leaf[ply + 1, :]
            if v > alpha:
                alpha = v
                if alpha >= beta:
                    break
    if best == -INF:  # a full board: a draw (a searched position always has a move)
        best = 0.0
        leaf[ply, :] = 0.0
    return best


@njit(cache=True)
def search_batch(ME, OPP, depth, w, g, m, phases, order, offsets, cols, vals, feats, term_out,
                 nodes):
    """Every legal column of every position (``offsets``: CSR rows, columns ascending) with its
    exact ``depth``-ply value, PV-leaf features and whether that PV ends the game."""
    k = w.shape[0]
    buf = np.zeros((MAX_PLY + 1, k), dtype=np.float64)
    leaf = np.zeros((MAX_PLY + 1, k), dtype=np.float64)
    term = np.zeros(MAX_PLY + 1, dtype=np.bool_)
    counters = np.zeros(1, dtype=np.int64)
    width = np.int64(g[G_WIDTH])
    cells = np.int64(g[G_CELLS])
    child_ply = np.int64(1)  # not a literal 1: one signature of the recursive kernel, which
    # numba's cache can reload (board.py's note)
    for p in range(ME.shape[0]):
        me, opp = ME[p], OPP[p]
        moves = possible(me, opp, g)
        counters[0] = 1
        r = offsets[p]
        for c in range(width):
            mv = moves & column_cells(c, g)
            if mv == ZERO:
                continue
            mine = me | mv
            empty = cells - ctpop(mine | opp)
            cols[r] = c
            feats[r, :] = 0.0
            term_out[r] = True
            if has_four(mine, g):
                vals[r] = TERMINAL + empty
            elif empty == 0:
                vals[r] = 0.0
            elif depth == 1:
                counters[0] += 1
                vals[r] = -evaluate(opp, mine, g, m, w, phases, buf[0])
                feats[r, :] = -buf[0, :]
                term_out[r] = False
            else:
                vals[r] = -_negamax(opp, mine, depth - 1, -INF, INF, w, g, m, phases, order, buf,
                                    leaf, term, child_ply, counters)
                term_out[r] = term[1]
                if not term[1]:
                    feats[r, :] = -leaf[1, :]
            r += 1
        nodes[p] = counters[0]


@njit(cache=True)
def move_counts(ME, OPP, g):
    """Legal columns of every position."""
    out = np.zeros(ME.shape[0], dtype=np.int64)
    for p in range(ME.shape[0]):
        out[p] = ctpop(possible(ME[p], OPP[p], g))
    return out


def legal_offsets(me: np.ndarray, opp: np.ndarray, geo: Geometry) -> np.ndarray:
    """CSR offsets of the positions' legal columns; every position must have one."""
    counts = move_counts(np.ascontiguousarray(me, dtype=np.uint64),
                         np.ascontiguousarray(opp, dtype=np.uint64), geo.g)
    if (counts == 0).any():
        raise ValueError(f"position {int(np.flatnonzero(counts == 0)[0])} has no legal column")
    return np.concatenate([[0], np.cumsum(counts)]).astype(np.int64)


def search_all(me: np.ndarray, opp: np.ndarray, w: np.ndarray, depth: int, phases: int,
               geo: Geometry) -> SearchResults:
    """Search every position (``me``: the side to move's discs) to ``depth`` plies with weights
    ``w``: every legal column's exact value and signed PV-leaf features."""
    if depth < 1 or depth >= MAX_PLY:
        raise ValueError(f"depth must be in 1..{MAX_PLY - 1}, got {depth}")
    w = np.ascontiguousarray(w, dtype=np.float64)
    if len(w) != num_features(phases):
        raise ValueError(f"{len(w)} weights for {num_features(phases)} features")
    m = masks(geo)  # refuses a wide board
    me = np.ascontiguousarray(me, dtype=np.uint64)
    opp = np.ascontiguousarray(opp, dtype=np.uint64)
    off = legal_offsets(me, opp, geo)
    n_rows = int(off[-1])
    cols = np.zeros(n_rows, dtype=np.int64)
    vals = np.zeros(n_rows, dtype=np.float64)
    feats = np.zeros((n_rows, len(w)), dtype=np.float64)
    term = np.zeros(n_rows, dtype=np.bool_)
    nodes = np.zeros(len(me), dtype=np.int64)
    search_batch(me, opp, np.int64(depth), w, geo.g, m, np.int64(phases),
                 centre_order(geo.width), off, cols, vals, feats, term, nodes)
    return SearchResults(off, cols, vals, feats, term, nodes, np.ones(n_rows, dtype=np.bool_),
                         np.full(len(me), depth, dtype=np.int64))

