"""UCT Monte-Carlo tree search for Reversi in numba (the engine behind thesis bot 3).

After seed 002 (a Connect-Four UCT agent): UCB1 with C = 0.707,
``I_j = X_j + C sqrt(2 ln n / T_j)``,
one new node per simulation, and *heuristic* playouts, which that report found lifted its win rate
from ~30% to ~90%. Its "win now / block the opponent's win" rules become, in Reversi:

* take a corner when one is available;
* otherwise avoid the X and C squares next to an *empty* corner (they hand the opponent that
  corner) whenever another move exists;
* otherwise play uniformly at random.

Budget is a number of simulations, never time. All randomness comes from one Mersenne Twister
stream, seeded once per call from the ``seed`` argument (numba's ``np.random`` stream, replicated
in the workspace), so a decision is a pure function of (position, parameters, seed). Nodes live in
a workspace the bot allocates once (``simulations + 2`` nodes; each node's children are a block of
consecutive edges). Values are stored from the point of view of the player who made the move into
the node (a win counts 1, a draw 0.5). The move played is the root child with the most visits
(ties: more wins, then the newest child).

Speed (issue 31, BENCHMARKS.md "rev3 (round 3)"): the kernel ``mcts_in`` makes exactly the
decisions of the linked-list kernel it replaced (tests/games/reversi/mcts_reference.py, compared
in tests/games/reversi/test_reversi_mcts.py); every shortcut below says why it is exact.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

import numpy as np
from numba import njit

from ime.core.bits import ctlz
from ime.core.bot import Bot, DecisionContext
from ime.games.reversi.bitboard import (
    ONE,
    PASS,
    RAYS,
    ZERO,
    lowest_bit_index,
    popcount,
)
from ime.games.reversi.bots.evaluation import (
    P_CORNER,
    P_DISC,
    P_FRONTIER,
    P_MOBILITY,
    P_PARITY,
    P_STABLE,
    SearchParams,
    row_tables,
    weight_table,
)
from ime.games.reversi.bots.search import (
    BYTE,
    AlphaBetaBot,
    _edge_stable,
    _neighbours,
    decision_seed,
    evaluate,
)
from ime.games.reversi.bots.simd import flips_v, legal_moves_v
from ime.games.reversi.game import ReversiState

U64 = np.uint64
CORNERS = U64(0x8100000000000081)
# X and C squares next to each corner (A1, H1, A8, H8).
ADJ_A1 = U64((1 << 1) | (1 << 8) | (1 << 9))
ADJ_H1 = U64((1 << 6) | (1 << 14) | (1 << 15))
ADJ_A8 = U64((1 << 48) | (1 << 49) | (1 << 57))
ADJ_H8 = U64((1 << 54) | (1 << 55) | (1 << 62))
SQ_A1 = U64(1)
SQ_H1 = U64(1 << 7)
SQ_A8 = U64(1 << 56)
SQ_H8 = U64(1 << 63)

# Result vector of ``mcts``.
M_MOVE = 0
M_VISITS = 1  # visits of the chosen child
M_NODES = 2  # tree nodes allocated
SIG_HALF = 4096  # leaf evaluations with |s| <= this are squashed by table look-up


# --- the generator: numba's Mersenne Twister, held in the workspace ---------------------------
# Why not ``np.random`` inside the kernel (as before): every draw there first fetches numba's
# thread-local generator through a call into its helper library (``numba_get_np_random_state``,
# a TLS look-up), some 25,000 times a decision. Here the state is an array of the workspace and
# the draw is inlined. The arithmetic is numba's own (``numba_rnd_init``, ``numba_rnd_shuffle``,
# ``get_next_int32`` and ``randint``'s rejection loop on the low bits), so a seed gives the very
# stream ``np.random.seed`` + ``np.random.randint`` gave: tests/games/reversi/test_reversi_mcts.py
# checks the two draw for draw.
MT_N = 624
MT_M = 397
MT_IDX = MT_N  # the stream position is stored after the 624 state words
MT_SIZE = MT_N + 1
M32 = U64(0xFFFFFFFF)
MT_UPPER = U64(0x80000000)
MT_LOWER = U64(0x7FFFFFFF)
MT_A = U64(0x9908B0DF)


@njit(cache=True, inline="always")
def mt_seed(rs, seed):
    """``np.random.seed(seed)`` of numba (Knuth's initialisation, as ``numba_rnd_init``)."""
    s = U64(seed) & M32
    for pos in range(MT_N):
        rs[pos] = s
        s = (U64(1812433253) * (s ^ (s >> U64(30))) + U64(pos + 1)) & M32
    rs[MT_IDX] = U64(MT_N)


@njit(cache=True)
def _mt_twist(rs):
    """The next 624 state words (``numba_rnd_shuffle``); not inlined: once per 624 draws."""
    for i in range(MT_N):
        y = (U64(rs[i]) & MT_UPPER) | (U64(rs[(i + 1) % MT_N]) & MT_LOWER)
        v = U64(rs[(i + MT_M) % MT_N]) ^ (y >> ONE)
        if y & ONE:
            v ^= MT_A
        rs[i] = v


@njit(cache=True, inline="always")
def _temper(y):
    """MT19937's tempering of a state word (``uint64`` holding 32 bits)."""
    y ^= y >> U64(11)
    y ^= (y << U64(7)) & U64(0x9D2C5680)
    y ^= (y << U64(15)) & U64(0xEFC60000)
    return y ^ (y >> U64(18))


@njit(cache=True, inline="always")
def _rand_mask(n):
    """``randint(0, n)``'s mask for ``n >= 2``: the low ``bit_length(n - 1)`` bits."""
    return M32 >> U64(32 - (64 - ctlz(U64(n - 1))))


@njit(cache=True)
def mt_randints(seed, ns):
    """``np.random.seed(seed)`` then ``np.random.randint(0, n)`` for each ``n`` of ``ns`` (all
    >= 1), by this module's generator: what tests compare with numba's own draws. The kernel
    writes the same steps inline (``mcts_in``: a helper taking the state array would be
    reference-counted on every call)."""
    rs = np.zeros(MT_SIZE, dtype=np.uint64)
    mt_seed(rs, seed)
    mti = MT_N
    out = np.zeros(len(ns), dtype=np.int64)
    for j in range(len(ns)):
        n = ns[j]
        if n == 1:
            continue
        mask = _rand_mask(n)
        while True:
            if mti >= MT_N:
                _mt_twist(rs)
                mti = 0
            r = np.int64(_temper(rs[mti]) & mask)
            mti += 1
            if r < n:
                out[j] = r
                break
    return out


@njit(cache=True, inline="always")
def _kth_bit(b, k):
    """Index of the ``k``-th lowest set bit of ``b`` (``k`` < popcount): a binary search by
    popcounts of halves, five steps without a data-dependent loop (clearing ``k`` low bits one by
    one ended in a branch the CPU mispredicts about every other draw)."""
    pos = np.int64(0)
    for w in (32, 16, 8, 4, 2):
        lo = b & ((ONE << U64(w)) - ONE)
        c = popcount(lo)
        if k >= c:
            k -= c
            b >>= U64(w)
            pos += w
        else:
            b = lo
    if k >= popcount(b & ONE):
        pos += 1
    return pos


@njit(cache=True, inline="always")
def _random_bit(b):
    """Index of a uniformly chosen set bit of non-empty ``b`` (numba's seeded generator)."""
    return _kth_bit(b, np.random.randint(0, popcount(b)))


@njit(cache=True, inline="always")
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


@njit(cache=True, inline="always")
def _candidates(P, O, moves, corner_rule, avoid_rule):
    """The moves the playout policy draws from: the corners if any (``corner_rule``), else the
    moves off the X/C squares of empty corners if any (``avoid_rule``), else all."""
    if corner_rule and (moves & CORNERS):
        return moves & CORNERS
    if avoid_rule:
        safe = moves & ~_danger(P, O)
        if safe:
            return safe
    return moves


@njit(cache=True)
def playout_move(P, O, moves, corner_rule, avoid_rule):
    """The playout policy's move for the side owning ``P`` (``moves`` non-empty), drawn from
    numba's generator (the reference form; ``mcts_in`` draws from its own copy of that stream)."""
    return _random_bit(_candidates(P, O, moves, corner_rule, avoid_rule))


@njit(cache=True, inline="always")
def _flips(P, O, sq):
    """Discs flipped when ``P`` plays ``sq`` (the vector kernel of ``bots/simd.py``)."""
    i = np.int64(sq)  # element by element: a row view of RAYS would be refcounted per call
    return flips_v(P, O, RAYS[i, 0], RAYS[i, 1], RAYS[i, 2], RAYS[i, 3], RAYS[i, 4], RAYS[i, 5],
                   RAYS[i, 6], RAYS[i, 7])


@njit(cache=True, inline="always")
def _terms_s(P, O, moves, mob, front, corner, parity, disc, stable):
    """``search._terms`` with the parameters as scalars (no array to reference-count): every
    term of the evaluation but the positional one, integers, so the same sum in any order."""
    s = np.int64(0)
    if mob != 0:
        s += mob * (popcount(moves) - popcount(legal_moves_v(O, P)))
    if front != 0:
        nb = _neighbours(~(P | O))
        s += front * (popcount(O & nb) - popcount(P & nb))
    if corner != 0:
        s += corner * (popcount(P & CORNERS) - popcount(O & CORNERS))
    if parity != 0:
        empties = 64 - popcount(P | O)
        s += parity if empties % 2 == 1 else -parity
    if disc != 0:
        s += disc * (popcount(P) - popcount(O))
    if stable != 0:
        s += stable * (_edge_stable(P) - _edge_stable(O))
    return s


@njit(cache=True)
def leaf_value(P, O, corner_rule, avoid_rule, depth, tab, prm, scale):
    """Value in [0, 1] of a leaf for the side owning ``P``: win 1, draw 0.5, loss 0.

    ``depth == 0``: a heuristic playout to the end of the game (plain UCT). ``depth > 0``: at most
    ``depth`` playout moves, then, if the game is not over, the static evaluation ``s`` of
    ``evaluate`` squashed to a win probability ``1 / (1 + exp(-s / scale))``. Truncated playouts
    cut the variance of random playouts, so the bot's choice depends far less on its seed.
    This is the rule in plain form, on numba's generator; ``mcts_in`` runs it inlined.
    """
    sign = 1
    k = 0
    while True:
        moves = legal_moves_v(P, O)
        if moves == ZERO:
            if legal_moves_v(O, P) == ZERO:
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
        f = _flips(P, O, sq)
        P, O = O ^ f, P | f | (ONE << U64(sq))
        sign = -sign
        k += 1


@njit(cache=True)
def sigmoid_table(scale):
    """``1 / (1 + exp(-s / scale))`` for the integer evaluations ``s`` in +-SIG_HALF, by the
    leaf's own expression (hence the same doubles): one ``exp`` per leaf saved."""
    t = np.empty(2 * SIG_HALF + 1, dtype=np.float64)
    for i in range(2 * SIG_HALF + 1):
        s = np.int64(i - SIG_HALF)
        t[i] = 1.0 / (1.0 + math.exp(-float(s) / scale))
    return t


@njit(cache=True)
def log2_table(simulations):
    """``2 ln n`` for ``n = 0 .. simulations + 1`` (a node's visit count is a whole number at most
    ``simulations``), by UCB1's own expression: one ``log`` per tree level saved. Entry 0 is
    never read (a node is selected only once visited)."""
    t = np.empty(simulations + 2, dtype=np.float64)
    t[0] = 0.0
    for n in range(1, simulations + 2):
        t[n] = 2.0 * math.log(float(n))
    return t


# --- the tree -----------------------------------------------------------------------------------
# Nodes (one per simulation, numbered in creation order) and edges (one per child) live in a
# workspace the bot allocates once. A node's children are the edges ``cstart .. cstart + nch - 1``
# of a block reserved when the node is first expanded (as many edges as it then has moves, or
# one for a forced pass), so UCB1 reads its children's statistics from consecutive memory and
# computes all their scores in one vectorisable loop; the scores are then compared newest child
# first, the order of the linked list this replaces, with the same strict ``>``. Each edge keeps
# its child's mean ``wins / visits`` (updated in the backpropagation, the same division as UCB1's,
# hence the same double), so selection does one division per child, not two.
# Fields of a node, one 64-byte row of the int64 table ``nd`` (one cache line a node; boards as
# their bit patterns): the position, its untried moves, the move into it, its edge block (start,
# children so far), a pending forced pass, game over.
N_P, N_O, N_UNTRIED, N_MOVE, N_CSTART, N_NCH, N_PASS, N_TERM = 0, 1, 2, 3, 4, 5, 6, 7
N_FIELDS = 8
E_VISITS, E_WINS, E_MEAN = 0, 1, 2  # rows of the float64 edge table ``ef``
MAX_MOVES = 60  # a block holds at most one edge per empty square
MAX_PATH = 200


def mcts_workspace(simulations: int) -> tuple[np.ndarray, ...]:
    """The arrays :func:`mcts_in` works in for a budget of ``simulations`` (reused across
    decisions: every entry is written before it is read, so nothing is cleared). The edge table
    is sized for the worst case (every node expanded, 60 moves each) but only its used front is
    ever touched, so its untouched pages cost no memory."""
    n_nodes = simulations + 2
    n_edges = MAX_MOVES * n_nodes + 8  # + 8: the score loop reads whole vectors
    return (
        np.zeros((n_nodes, N_FIELDS), dtype=np.int64),  # nd
        np.zeros((3, n_edges), dtype=np.float64),  # ef (zeros: lazily mapped pages)
        np.empty(n_edges, dtype=np.int64),  # en: child node of an edge
        np.zeros(MT_SIZE, dtype=np.uint64),  # rs: the random stream
        np.empty(MAX_MOVES + 4, dtype=np.float64),  # ub: UCB1 scores of one node's children
        np.empty(MAX_PATH, dtype=np.int64),  # path: edges from the root to the leaf
    )


@njit(cache=True, error_model="numpy")
def mcts_in(P, O, simulations, c, seed, corner_rule, avoid_rule, depth, tab, prm, scale,
            l2t, sig, nd, ef, en, rs, ub, path):
    """UCT search from the side owning ``P``; returns int64[3] = move, visits, nodes.

    ``seed`` must satisfy 0 <= seed < 2**32. ``depth``, ``tab``, ``prm``, ``scale``: the leaf
    evaluation of ``leaf_value`` (``depth == 0``: full playouts; the others are then unused).
    ``l2t`` = ``log2_table(simulations)``, ``sig`` = ``sigmoid_table(scale)``; the rest is
    ``mcts_workspace(simulations)``. ``error_model="numpy"``: no zero-division checks in the
    score loop (a child is always visited once it exists), so it vectorises.
    """
    out = np.zeros(3, dtype=np.int64)
    root_moves = legal_moves_v(P, O)
    if root_moves == ZERO:
        out[M_MOVE] = PASS
        return out
    if popcount(root_moves) == 1:
        out[M_MOVE] = lowest_bit_index(root_moves)
        return out
    mt_seed(rs, seed)
    mti = MT_N  # position in the stream (kept in a register, not in rs)
    mob = prm[P_MOBILITY]
    front = prm[P_FRONTIER]
    corner = prm[P_CORNER]
    parity = prm[P_PARITY]
    disc = prm[P_DISC]
    stable = prm[P_STABLE]
    n_max = simulations + 2
    nd[0, N_P] = np.int64(P)
    nd[0, N_O] = np.int64(O)
    nd[0, N_UNTRIED] = np.int64(root_moves)
    nd[0, N_CSTART] = -1
    nd[0, N_NCH] = 0
    nd[0, N_PASS] = 0
    nd[0, N_TERM] = 0
    count = 1
    n_edges = 0
    root_visits = 0.0
    for _ in range(simulations):
        node = 0
        visits = root_visits
        plen = 0
        # Selection: descend while the node is fully expanded and not terminal.
        while nd[node, N_TERM] == 0 and nd[node, N_UNTRIED] == 0 and nd[node, N_PASS] == 0:
            k2 = l2t[np.int64(visits)]
            s = nd[node, N_CSTART]
            m = nd[node, N_NCH]
            # Scores in whole vectors of 8 (the lanes past the last child read other edges or
            # zeros: finite or not, they are overwritten below and never compared).
            mpad = (m + 7) & ~7
            for i in range(mpad):
                j = U64(s + i)  # unsigned: no negative-index wrap-around, so no gathers
                ub[i] = ef[E_MEAN, j] + c * math.sqrt(k2 / ef[E_VISITS, j])
            for i in range(m, mpad):
                ub[i] = -1.0
            # The largest score (eight independent maxima, then a tree: max is exact in any
            # order), then the newest child holding it: what "newest first, strictly greater"
            # picked.
            a0 = ub[0]
            a1 = ub[1]
            a2 = ub[2]
            a3 = ub[3]
            a4 = ub[4]
            a5 = ub[5]
            a6 = ub[6]
            a7 = ub[7]
            for i in range(8, mpad, 8):
                a0 = max(a0, ub[i])
                a1 = max(a1, ub[i + 1])
                a2 = max(a2, ub[i + 2])
                a3 = max(a3, ub[i + 3])
                a4 = max(a4, ub[i + 4])
                a5 = max(a5, ub[i + 5])
                a6 = max(a6, ub[i + 6])
                a7 = max(a7, ub[i + 7])
            bv = max(max(max(a0, a1), max(a2, a3)), max(max(a4, a5), max(a6, a7)))
            best = 0
            for i in range(m):
                if ub[i] == bv:
                    best = i
            e = s + best
            path[plen] = e
            plen += 1
            node = en[e]
            visits = ef[E_VISITS, e]
        # Expansion: one new child.
        if nd[node, N_TERM] == 0 and count < n_max:
            p = U64(nd[node, N_P])
            o = U64(nd[node, N_O])
            if nd[node, N_CSTART] < 0:
                nd[node, N_CSTART] = n_edges
                n_edges += popcount(U64(nd[node, N_UNTRIED])) + nd[node, N_PASS]
            if nd[node, N_PASS]:
                nd[node, N_PASS] = 0
                sq = PASS
                cp = o
                co = p
            else:
                # sq = a uniformly drawn untried move: numba's randint(0, popcount), inline
                b = U64(nd[node, N_UNTRIED])
                n = popcount(b)
                kk = np.int64(0)
                if n > 1:
                    mask = _rand_mask(n)
                    while True:
                        if mti >= MT_N:
                            _mt_twist(rs)
                            mti = 0
                        kk = np.int64(_temper(rs[mti]) & mask)
                        mti += 1
                        if kk < n:
                            break
                sq = _kth_bit(b, kk)
                nd[node, N_UNTRIED] &= np.int64(~(ONE << U64(sq)))
                f = _flips(p, o, sq)
                cp = o ^ f
                co = p | f | (ONE << U64(sq))
            k = count
            count += 1
            nd[k, N_P] = np.int64(cp)
            nd[k, N_O] = np.int64(co)
            nd[k, N_MOVE] = sq
            cm = legal_moves_v(cp, co)
            nd[k, N_UNTRIED] = np.int64(cm)
            nd[k, N_CSTART] = -1
            nd[k, N_NCH] = 0
            nd[k, N_PASS] = 0
            nd[k, N_TERM] = 0
            if cm == ZERO:
                if legal_moves_v(co, cp) == ZERO:
                    nd[k, N_TERM] = 1
                else:
                    nd[k, N_PASS] = 1
            e = nd[node, N_CSTART] + nd[node, N_NCH]
            nd[node, N_NCH] += 1
            en[e] = k
            ef[E_VISITS, e] = 0.0
            ef[E_WINS, e] = 0.0
            path[plen] = e
            plen += 1
            node = k
            moves = cm
        else:
            moves = legal_moves_v(U64(nd[node, N_P]), U64(nd[node, N_O]))
        # Simulation from the leaf, scored for the side to move there (``leaf_value``, inline:
        # a helper taking the arrays would be reference-counted on every call).
        lp = U64(nd[node, N_P])
        lo = U64(nd[node, N_O])
        sign = 1
        ply = 0
        while True:
            if moves == ZERO:
                omoves = legal_moves_v(lo, lp)
                if omoves == ZERO:
                    d = popcount(lp) - popcount(lo)
                    r = 1.0 if d > 0 else 0.0 if d < 0 else 0.5
                    if sign < 0:
                        r = 1.0 - r
                    break
                lp, lo = lo, lp
                moves = omoves
                sign = -sign
                continue
            if depth > 0 and ply >= depth:
                sc = _terms_s(lp, lo, moves, mob, front, corner, parity, disc, stable)
                for row in range(8):
                    sh = U64(8 * row)
                    sc += (tab[row, np.int64((lp >> sh) & BYTE)]
                           - tab[row, np.int64((lo >> sh) & BYTE)])
                if -SIG_HALF <= sc <= SIG_HALF:
                    r = sig[sc + SIG_HALF]
                else:
                    r = 1.0 / (1.0 + math.exp(-float(sc) / scale))
                if sign < 0:
                    r = 1.0 - r
                break
            b = _candidates(lp, lo, moves, corner_rule, avoid_rule)
            n = popcount(b)
            kk = np.int64(0)
            if n > 1:
                mask = _rand_mask(n)
                while True:
                    if mti >= MT_N:
                        _mt_twist(rs)
                        mti = 0
                    kk = np.int64(_temper(rs[mti]) & mask)
                    mti += 1
                    if kk < n:
                        break
            sq = _kth_bit(b, kk)
            f = _flips(lp, lo, sq)
            lp, lo = lo ^ f, lp | f | (ONE << U64(sq))
            moves = legal_moves_v(lp, lo)
            sign = -sign
            ply += 1
        # Backpropagation: an edge's value belongs to the player who made its move.
        reward = 1.0 - r
        for i in range(plen - 1, -1, -1):
            e = path[i]
            v = ef[E_VISITS, e] + 1.0
            w = ef[E_WINS, e] + reward
            ef[E_VISITS, e] = v
            ef[E_WINS, e] = w
            ef[E_MEAN, e] = w / v
            reward = 1.0 - reward
        root_visits += 1.0
    # The most visited root child (ties: more wins, then the newest, as the list order was).
    s = nd[0, N_CSTART]
    best = -1
    for e in range(s + nd[0, N_NCH] - 1, s - 1, -1):
        if (
            best < 0
            or ef[E_VISITS, e] > ef[E_VISITS, best]
            or (ef[E_VISITS, e] == ef[E_VISITS, best] and ef[E_WINS, e] >= ef[E_WINS, best])
        ):
            best = e
    out[M_MOVE] = nd[en[best], N_MOVE]
    out[M_VISITS] = np.int64(ef[E_VISITS, best])
    out[M_NODES] = count
    return out


@njit(cache=True)
def mcts(P, O, simulations, c, seed, corner_rule, avoid_rule, depth, tab, prm, scale):
    """:func:`mcts_in` with its tables and workspace built for this one call (the bot keeps
    them instead)."""
    n_nodes = simulations + 2
    n_edges = MAX_MOVES * n_nodes + 8
    return mcts_in(
        P, O, simulations, c, seed, corner_rule, avoid_rule, depth, tab, prm, scale,
        log2_table(simulations), sigmoid_table(scale),
        np.zeros((n_nodes, N_FIELDS), dtype=np.int64),
        np.zeros((3, n_edges), dtype=np.float64), np.empty(n_edges, dtype=np.int64),
        np.zeros(MT_SIZE, dtype=np.uint64), np.empty(MAX_MOVES + 4, dtype=np.float64),
        np.empty(MAX_PATH, dtype=np.int64),
    )


# --- the bot ------------------------------------------------------------------------------------

DEFAULT_ENDGAME: dict[str, Any] = {
    "weights": "standard",
    "max_depth": 15,
    "nodes": 200000,
    "mobility": 8,
    "ordering": "mobility",
    "endgame_empties": 12,
    "endgame_nodes": 400000,
    "tie": "random",
}


class MCTSBot(Bot):
    """UCT with heuristic playouts, switching to alpha-beta when few squares are empty (bot 3).

    Stochastic, but every random draw of a decision comes from ``decision_rng(ctx)``: the same
    (config, seed, match_id, ply, player) always gives the same move, a different one usually a
    different tree. With at most ``endgame_empties`` empty squares the move comes from the
    alpha-beta search configured by ``endgame`` (a ``SearchParams`` mapping; by default
    iterative deepening capped at depth 15 plus an exact solve), with its ties broken at random
    from the same per-decision seed.
    """

    deterministic = False

    def __init__(
        self,
        bot_id: str = "mcts",
        simulations: int = 2000,
        c: float = 0.707,
        corner_rule: bool = True,
        avoid_rule: bool = True,
        endgame_empties: int = 12,
        endgame: SearchParams | Mapping[str, Any] | None = None,
        playout_depth: int = 0,
        leaf_eval: SearchParams | Mapping[str, Any] | None = None,
        leaf_scale: float = 20.0,
    ):
        if simulations < 1:
            raise ValueError("simulations must be >= 1")
        if playout_depth < 0:
            raise ValueError("playout_depth must be >= 0 (0: play out to the end)")
        if leaf_scale <= 0:
            raise ValueError("leaf_scale must be > 0")
        self.bot_id = bot_id
        self.simulations = int(simulations)
        self.c = float(c)
        self.corner_rule = bool(corner_rule)
        self.avoid_rule = bool(avoid_rule)
        self.endgame_empties = int(endgame_empties)
        if endgame is None:
            endgame = dict(DEFAULT_ENDGAME)
        self.endgame_bot = AlphaBetaBot(f"{bot_id}/endgame", endgame)
        self.playout_depth = int(playout_depth)
        self.leaf_scale = float(leaf_scale)
        if leaf_eval is None:
            leaf_eval = {"weights": "standard", "mobility": 8}
        if not isinstance(leaf_eval, SearchParams):
            leaf_eval = SearchParams.from_mapping(leaf_eval)
        self._leaf_tab = row_tables(weight_table(leaf_eval.weights))
        self._leaf_prm = leaf_eval.pack()
        # Built once per bot: the tables of UCB1's logarithms and the leaves' squashing, and the
        # workspace of the tree (reused by every decision).
        self._l2t = log2_table(np.int64(self.simulations))
        self._sig = sigmoid_table(self.leaf_scale)
        self._ws = mcts_workspace(self.simulations)

    def act(self, state: ReversiState, ctx: DecisionContext) -> int:
        P, O = state.own_opp(state.to_move)
        empties = 64 - int(popcount(P | O))
        seed = decision_seed(ctx, "mcts")
        if empties <= self.endgame_empties:
            return self.endgame_bot.analyse(state, seed)["move"]
        r = mcts_in(
            P, O, np.int64(self.simulations), self.c, np.int64(seed),
            self.corner_rule, self.avoid_rule, np.int64(self.playout_depth),
            self._leaf_tab, self._leaf_prm, self.leaf_scale, self._l2t, self._sig, *self._ws,
        )
        return int(r[M_MOVE])
