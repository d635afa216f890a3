"""The rev3 MCTS kernel as it was before issue 31's speed-up (commit 23a3e06, verbatim but for
``cache=False``): linked-list children, UCB1 recomputed in full per child, numba's ``np.random``,
the scalar bitboard kernels. tests/games/reversi/test_reversi_mcts.py checks that the fast kernel
of ``ime.games.reversi.bots.mcts`` returns exactly what this one returns (move, visits of the
chosen child, nodes) for seeded positions, seeds and settings. Not collected by pytest (no
``test_`` prefix); loaded from its path by the test."""

from __future__ import annotations

import math

import numpy as np
from numba import njit

from ime.games.reversi.bitboard import (
    ONE,
    PASS,
    ZERO,
    flips,
    legal_moves,
    lowest_bit_index,
    popcount,
)
from ime.games.reversi.bots.search import evaluate

U64 = np.uint64
CORNERS = U64(0x8100000000000081)
ADJ_A1 = U64((1 << 1) | (1 << 8) | (1 << 9))
ADJ_H1 = U64((1 << 6) | (1 << 14) | (1 << 15))
ADJ_A8 = U64((1 << 48) | (1 << 49) | (1 << 57))
ADJ_H8 = U64((1 << 54) | (1 << 55) | (1 << 62))
SQ_A1 = U64(1)
SQ_H1 = U64(1 << 7)
SQ_A8 = U64(1 << 56)
SQ_H8 = U64(1 << 63)
M_MOVE = 0
M_VISITS = 1
M_NODES = 2


@njit(cache=False, inline="always")
def _random_bit(b):
    """Index of a uniformly chosen set bit of non-empty ``b`` (numba's seeded generator)."""
    k = np.random.randint(0, popcount(b))
    for _ in range(k):
        b &= b - ONE
    return lowest_bit_index(b)


@njit(cache=False, inline="always")
def _danger(P, O):
    """X/C squares next to an empty corner: playing there tends to give that corner away."""
    occ = P | O
    d = ZERO
    if not (occ & SQ_A1):
        d |= ADJ_A1
    if not (occ & SQ_H1):
        d |= ADJ_H1
    if not (occ & SQ_A8):
        d |= ADJ_A8
    if not (occ & SQ_H8):
        d |= ADJ_H8
    return d


@njit(cache=False)
def playout_move(P, O, moves, corner_rule, avoid_rule):
    """The playout policy's move for the side owning ``P`` (``moves`` non-empty)."""
    cand = moves
    if corner_rule and (moves & CORNERS):
        cand = moves & CORNERS
    elif avoid_rule:
        safe = moves & ~_danger(P, O)
        if safe:
            cand = safe
    return _random_bit(cand)


@njit(cache=False)
def leaf_value(P, O, corner_rule, avoid_rule, depth, tab, prm, scale):
    """Value in [0, 1] of a leaf for the side owning ``P``: win 1, draw 0.5, loss 0.

    ``depth == 0``: a heuristic playout to the end of the game (plain UCT). ``depth > 0``: at most
    ``depth`` playout moves, then, if the game is not over, the static evaluation ``s`` of
    ``evaluate`` squashed to a win probability ``1 / (1 + exp(-s / scale))``. Truncated playouts
    cut the variance of random playouts, so the bot's choice depends far less on its seed.
    """
    sign = 1
    k = 0
    while True:
        moves = legal_moves(P, O)
        if moves == ZERO:
            if legal_moves(O, P) == ZERO:
                d = popcount(P) - popcount(O)
                r = 1.0 if d > 0 else 0.0 if d < 0 else 0.5
                return r if sign > 0 else 1.0 - r
            P, O = O, P
            sign = -sign
            continue
        if depth > 0 and k >= depth:
            v = 1.0 / (1.0 + math.exp(-float(evaluate(P, O, moves, tab, prm)) / scale))
            return v if sign > 0 else 1.0 - v
        sq = playout_move(P, O, moves, corner_rule, avoid_rule)
        f = flips(P, O, sq)
        P, O = O ^ f, P | f | (ONE << U64(sq))
        sign = -sign
        k += 1


@njit(cache=False)
def mcts(P, O, simulations, c, seed, corner_rule, avoid_rule, depth, tab, prm, scale):
    """UCT search from the side owning ``P``; returns int64[3] = move, visits, nodes.

    ``seed`` must satisfy 0 <= seed < 2**32. ``depth``, ``tab``, ``prm``, ``scale``: the leaf
    evaluation of ``leaf_value`` (``depth == 0``: full playouts; the others are then unused).
    """
    np.random.seed(seed)
    out = np.zeros(3, dtype=np.int64)
    root_moves = legal_moves(P, O)
    if root_moves == ZERO:
        out[M_MOVE] = PASS
        return out
    if popcount(root_moves) == 1:
        out[M_MOVE] = lowest_bit_index(root_moves)
        return out
    n_max = simulations + 2
    nP = np.zeros(n_max, dtype=np.uint64)
    nO = np.zeros(n_max, dtype=np.uint64)
    mv = np.full(n_max, -1, dtype=np.int64)
    first = np.full(n_max, -1, dtype=np.int64)
    sib = np.full(n_max, -1, dtype=np.int64)
    untried = np.zeros(n_max, dtype=np.uint64)
    pass_pending = np.zeros(n_max, dtype=np.int8)
    terminal = np.zeros(n_max, dtype=np.int8)
    visits = np.zeros(n_max, dtype=np.float64)
    wins = np.zeros(n_max, dtype=np.float64)
    path = np.zeros(200, dtype=np.int64)

    nP[0] = P
    nO[0] = O
    untried[0] = root_moves
    count = 1
    for _ in range(simulations):
        node = 0
        plen = 1
        path[0] = 0
        # Selection: descend while the node is fully expanded and not terminal.
        while terminal[node] == 0 and untried[node] == ZERO and pass_pending[node] == 0:
            logn = math.log(visits[node])
            best = -1
            bv = -1e300
            ch = first[node]
            while ch >= 0:
                u = wins[ch] / visits[ch] + c * math.sqrt(2.0 * logn / visits[ch])
                if u > bv:
                    bv = u
                    best = ch
                ch = sib[ch]
            node = best
            path[plen] = node
            plen += 1
        # Expansion: one new child.
        if terminal[node] == 0 and count < n_max:
            p = nP[node]
            o = nO[node]
            if pass_pending[node]:
                pass_pending[node] = 0
                sq = PASS
                cp = o
                co = p
            else:
                sq = _random_bit(untried[node])
                untried[node] &= ~(ONE << U64(sq))
                f = flips(p, o, sq)
                cp = o ^ f
                co = p | f | (ONE << U64(sq))
            k = count
            count += 1
            nP[k] = cp
            nO[k] = co
            mv[k] = sq
            cm = legal_moves(cp, co)
            untried[k] = cm
            if cm == ZERO:
                if legal_moves(co, cp) == ZERO:
                    terminal[k] = 1
                else:
                    pass_pending[k] = 1
            sib[k] = first[node]
            first[node] = k
            node = k
            path[plen] = node
            plen += 1
        # Simulation from the leaf, scored for the side to move there.
        r = leaf_value(nP[node], nO[node], corner_rule, avoid_rule, depth, tab, prm, scale)
        # Backpropagation: a node's value belongs to the player who moved into it.
        reward = 1.0 - r
        for i in range(plen - 1, -1, -1):
            nd = path[i]
            visits[nd] += 1.0
            wins[nd] += reward
            reward = 1.0 - reward
    # Children were prepended; walk them in creation order for the tie rule.
    best = -1
    ch = first[0]
    while ch >= 0:
        if (
            best < 0
            or visits[ch] > visits[best]
            or (visits[ch] == visits[best] and wins[ch] >= wins[best])
        ):
            best = ch
        ch = sib[ch]
    out[M_MOVE] = mv[best]
    out[M_VISITS] = np.int64(visits[best])
    out[M_NODES] = count
    return out
