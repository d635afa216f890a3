"""NegaMax alpha-beta over bitboards (numba), with iterative deepening under a *node* budget.

Why a node budget and not wall time: a decision must be a pure function of (config, position,
seed) so that any ply of a logged match can be replayed ("forked") and give the same move. The
budget counts every call of the recursive search (interior nodes and leaves alike).

Search protocol (``search``):

1. A position with one legal move returns it at once; no legal move returns ``PASS``.
2. If at most ``endgame_empties`` squares are empty, an exact solver searches to the end of the
   game scoring the final disc difference (``exact``) or only its sign (``wld``: win/loss/draw).
   Wins dominate everything either way. If the solver exceeds ``endgame_nodes`` it is abandoned.
3. Otherwise (or after an abandoned solve) iterative deepening from depth 1 up to
   ``min(max_depth, empties)``, all iterations sharing one node budget. When the budget runs out
   in the middle of an iteration, that iteration is discarded and the best move of the last
   *completed* iteration is played. If not even depth 1 completes (budget below the number of
   legal moves), the first move in ordering order is played.

Tie-breaking at the root is exact: with ``tie != first`` every later root move is searched with
alpha lowered by one, so a score equal to the best so far is a true tie (fail-soft values strictly
inside the window are exact). ``first`` keeps the earliest move in search order, ``last`` the
latest, ``random`` picks uniformly among tied moves with numba's generator seeded from the
``seed`` argument (reservoir sampling), so the choice is reproducible per decision.

Evaluation (side to move's view, integers): positional table (via per-row byte look-ups) +
mobility * (own moves - opponent moves) + frontier * (opponent frontier - own frontier) +
corner * corner difference + parity (odd empties favour the side to move) + disc * disc difference
+ stable * (edge discs chained from an owned corner). A terminal node scores
``sign(diff) * WIN + diff``, so any win beats any heuristic score.

A pass does not consume depth. Move ordering: ``none`` (square order), ``table`` (weight table,
best first), ``mobility`` (fewest opponent replies first, at remaining depth >= 2; table order
below), plus optionally the previous iteration's best move first at the root.

Move generation and flips run on the vector kernels of ``bots/simd.py`` (the bitboard module's
arithmetic, four axes or rays a vector: the same moves and flips, fewer instructions).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np
from numba import njit

from ime.core.bot import Bot, DecisionContext, decision_rng
from ime.games.reversi.bitboard import (
    INNER_COLS,
    ONE,
    PASS,
    RAYS,
    ZERO,
    _moves_dir,
    legal_moves,
    lowest_bit_index,
    play,
    popcount,
)
from ime.games.reversi.bots.evaluation import (
    N_PARAMS,
    P_CORNER,
    P_DISC,
    P_END_EMPTIES,
    P_END_MODE,
    P_END_NODES,
    P_FRONTIER,
    P_MAX_DEPTH,
    P_MOBILITY,
    P_NODES,
    P_ORDER,
    P_PARITY,
    P_PV_FIRST,
    P_STABLE,
    P_TIE,
    SearchParams,
    row_tables,
)
from ime.games.reversi.bots.simd import flips_v, legal_moves_v
from ime.games.reversi.game import ReversiState

U64 = np.uint64
NOT_A = U64(0xFEFEFEFEFEFEFEFE)  # every column but x = 0
NOT_H = U64(0x7F7F7F7F7F7F7F7F)  # every column but x = 7
CORNERS = U64(0x8100000000000081)
COL_A = U64(0x0101010101010101)  # column x = 0
COL_GATHER = U64(0x0102040810204080)  # (b & COL_A) * this >> 56: column x = 0 as one byte
BYTE = U64(255)
S1 = U64(1)
S7 = U64(7)
S8 = U64(8)
S9 = U64(9)
S2 = U64(2)
S56 = U64(56)
S14 = U64(14)
S16 = U64(16)
S18 = U64(18)

INF = np.int64(1) << np.int64(40)
WIN = np.int64(1) << np.int64(30)
MAX_PLY = 130  # passes do not consume depth, so a line can hold up to ~2x the empties
# Every int and bool handed to another njit function goes through these non-literal values: a bare
# constant is typed ``Literal[int](1)``, which gives a recursive function a second specialisation,
# and numba's on-disk cache segfaults when it reloads such mismatched recursion (numba#6061/#6713).
# tests/test_bots_reversi.py checks that each recursive kernel keeps a single signature.
I0 = np.int64(0)
I1 = np.int64(1)
I2 = np.int64(2)

# Result vector of ``search``.
R_MOVE = 0
R_SCORE = 1
R_DEPTH = 2  # last completed iteration (the number of empties when solved exactly)
R_NODES = 3  # nodes spent in total (solver + mid-game search)
R_SOLVED = 4  # 1 if the move comes from a completed endgame solve
N_RESULT = 5

# The workspace: ONE int64 vector holds everything the recursive kernels read and write (node
# counters, the packed parameters, the weight table, its row tables, the per-ply move and key
# buffers). Why one: numba increfs every array argument on entry to a function and decrefs it on
# exit, each an atomic call, and the recursion is entered once per interior node; with the six
# arrays the kernels used to take, that refcounting was the largest single cost of a node
# (issue 31's profile). Offsets in int64 entries:
W_NODES = 0  # nodes spent so far
W_BUDGET = 1  # node budget of the current search phase
W_ABORT = 2  # 1 once the budget ran out (the phase is abandoned)
W_RES = 3  # move and score of the last completed root iteration (2 entries)
W_PRM = 8  # SearchParams.pack() (N_PARAMS entries)
W_W = 32  # the 64-entry weight table (move ordering)
W_TAB = W_W + 64  # row tables, T[r, byte] at W_TAB + 256 * r + byte (evaluation)
W_ORDER = W_TAB + 8 * 256  # ``table`` order: the square of rank k (0 = best) at W_ORDER + k
W_RANK = W_ORDER + 64  # a row's byte as a rank mask: R[r, byte] at W_RANK + 256 * r + byte
W_MOVES = W_RANK + 8 * 256  # moves of ply p, best first, at W_MOVES + 64 * p
W_KEYS = W_MOVES + 64 * MAX_PLY  # their ordering keys (``mobility``), at W_KEYS + 64 * p
W_FLIPS = W_KEYS + 64 * MAX_PLY  # ``mobility``: flips of square sq at ply p, W_FLIPS + 64 * p + sq
W_REPLIES = W_FLIPS + 64 * MAX_PLY  # ``mobility``: the opponent's moves after it (same indexing)
W_SIZE = W_REPLIES + 64 * MAX_PLY


def _edge_chain_table() -> np.ndarray:
    """``EDGE_CHAIN[b]``: for one edge as a byte ``b`` (a corner at each end), the discs chained
    from an owned end corner along the edge (corner excluded, at most 6 from each end; a full
    edge counts its six inner squares twice, as the square-by-square walk this replaces did)."""
    t = np.zeros(256, dtype=np.int64)
    for b in range(256):
        n = 0
        for corner, step in ((0, 1), (7, -1)):
            if (b >> corner) & 1:
                sq = corner + step
                for _ in range(6):
                    if not (b >> sq) & 1:
                        break
                    n += 1
                    sq += step
        t[b] = n
    return t


EDGE_CHAIN = _edge_chain_table()


@njit(cache=True, inline="always")
def _flips(P, O, sq):
    """Discs flipped when ``P`` plays ``sq``: the bitboard's ray kernel, four rays a vector."""
    r = RAYS[np.int64(sq)]
    return flips_v(P, O, r[0], r[1], r[2], r[3], r[4], r[5], r[6], r[7])


@njit(cache=True, inline="always")
def _has_moves(P, O):
    """Whether the side owning ``P`` has a legal move: :func:`legal_moves_inline` one axis at
    a time, stopping at the first that has one (nearly always the first in the mid-game). For
    leaves of an evaluation without mobility, which only need to know whether the side passes."""
    empty = ~(P | O)
    h = O & INNER_COLS
    if _moves_dir(P, h, S1, S2) & empty:
        return True
    if _moves_dir(P, O, S8, S16) & empty:
        return True
    if _moves_dir(P, h, S7, S14) & empty:
        return True
    return (_moves_dir(P, h, S9, S18) & empty) != ZERO


@njit(cache=True, inline="always")
def _neighbours(b):
    """Squares adjacent (8-connected) to any square of ``b``."""
    e = b & NOT_H
    w = b & NOT_A
    return (
        (b << S8) | (b >> S8) | (e << S1) | (w >> S1)
        | (e << S9) | (w << S7) | (e >> S7) | (w >> S9)
    )


@njit(cache=True, inline="always")
def _edge_stable(P):
    """Own discs chained along an edge from an own corner (a cheap lower bound on stability):
    the owned corners plus, per edge, ``EDGE_CHAIN`` of the edge's byte (rows y = 0 and 7 are
    bytes of the board; columns x = 0 and 7 are gathered into one by a multiply)."""
    return (
        popcount(P & CORNERS)
        + EDGE_CHAIN[np.int64(P & BYTE)]
        + EDGE_CHAIN[np.int64(P >> S56)]
        + EDGE_CHAIN[np.int64(((P & COL_A) * COL_GATHER) >> S56)]
        + EDGE_CHAIN[np.int64((((P >> S7) & COL_A) * COL_GATHER) >> S56)]
    )


@njit(cache=True, inline="always")
def _positional(P, O, tab, toff):
    """The positional term alone: row tables at ``tab[toff:]`` (``T[r, byte]`` at
    ``toff + 256 * r + byte``) summed over ``P``'s rows minus ``O``'s."""
    s = np.int64(0)
    for r in range(8):
        sh = U64(8 * r)
        row = toff + 256 * r
        s += tab[row + np.int64((P >> sh) & BYTE)] - tab[row + np.int64((O >> sh) & BYTE)]
    return s


@njit(cache=True, inline="always")
def _table_sum(b, tab, toff):
    """The row tables summed over the squares of ``b`` (the weight of a set of squares)."""
    s = np.int64(0)
    for r in range(8):
        s += tab[toff + 256 * r + np.int64((b >> U64(8 * r)) & BYTE)]
    return s


@njit(cache=True, inline="always")
def _terms(P, O, moves, prm, poff):
    """Every term of the evaluation but the positional one (packed parameters at
    ``prm[poff:]``)."""
    s = np.int64(0)
    mob = prm[poff + P_MOBILITY]
    if mob != 0:
        s += mob * (popcount(moves) - popcount(legal_moves_v(O, P)))
    front = prm[poff + P_FRONTIER]
    if front != 0:
        nb = _neighbours(~(P | O))
        s += front * (popcount(O & nb) - popcount(P & nb))
    corner = prm[poff + P_CORNER]
    if corner != 0:
        s += corner * (popcount(P & CORNERS) - popcount(O & CORNERS))
    parity = prm[poff + P_PARITY]
    if parity != 0:
        empties = 64 - popcount(P | O)
        s += parity if empties % 2 == 1 else -parity
    disc = prm[poff + P_DISC]
    if disc != 0:
        s += disc * (popcount(P) - popcount(O))
    stable = prm[poff + P_STABLE]
    if stable != 0:
        s += stable * (_edge_stable(P) - _edge_stable(O))
    return s


@njit(cache=True, inline="always")
def _score(P, O, moves, tab, toff, prm, poff):
    """Heuristic score of a non-terminal position for the side owning ``P``: the row tables at
    ``tab[toff:]`` (``T[r, byte]`` at ``toff + 256 * r + byte``), the packed parameters at
    ``prm[poff:]``. Integer terms, so their order does not change the sum."""
    return _positional(P, O, tab, toff) + _terms(P, O, moves, prm, poff)


@njit(cache=True)
def evaluate(P, O, moves, tab, prm):
    """Heuristic score of a non-terminal position for the side owning ``P`` (``tab`` the 8x256
    row tables, ``prm`` the packed ``SearchParams``): the search's own evaluation, for callers
    outside the search (the MCTS bot's leaves)."""
    s = np.int64(0)
    for r in range(8):
        sh = U64(8 * r)
        s += tab[r, np.int64((P >> sh) & BYTE)] - tab[r, np.int64((O >> sh) & BYTE)]
    return s + _terms(P, O, moves, prm, I0)


@njit(cache=True, inline="always")
def _terminal(P, O):
    d = popcount(P) - popcount(O)
    if d > 0:
        return WIN + d
    if d < 0:
        return -WIN + d
    return np.int64(0)


@njit(cache=True, inline="always")
def _ranks(moves, ws):
    """``moves`` in rank space: bit k set when the square of ``table`` rank k is in ``moves``
    (eight row look-ups). Walking its bits lowest first visits the moves in ``table`` order."""
    r = ZERO
    for row in range(8):
        r |= U64(ws[W_RANK + 256 * row + np.int64((moves >> U64(8 * row)) & BYTE)])
    return r


@njit(cache=True, inline="always")
def _order(P, O, moves, ply, mode, ws):
    """Write the moves of ``moves`` into ply ``ply``'s move buffer best first; returns their
    number.

    The order is that of the keys ``-sq`` (``none``: square order), ``w[sq] * 64 - sq``
    (``table``) or ``-replies * 1000000 + w[sq] * 64 - sq`` (``mobility``; ``replies`` the
    opponent's moves after the move), best (largest) first. Keys end in ``-sq``, so no two are
    equal and the order is fully determined (deterministic).

    How, cheaply: ``table`` order is a fixed order of the 64 squares (``W_ORDER``), so it needs
    no sort: the moves are mapped to rank space (:func:`_ranks`) and read off lowest bit first.
    ``mobility`` starts from that order and insertion-sorts it by the full key; it also keeps
    each move's flips and the opponent's replies (``W_FLIPS``, ``W_REPLIES``, indexed by square)
    for the search loop, which would otherwise compute both again.
    """
    mb = W_MOVES + 64 * ply
    n = 0
    if mode == 0:
        m = moves
        while m:
            ws[mb + n] = lowest_bit_index(m)
            m &= m - ONE
            n += 1
        return n
    m = _ranks(moves, ws)
    while m:
        ws[mb + n] = ws[W_ORDER + lowest_bit_index(m)]
        m &= m - ONE
        n += 1
    if mode == 1:
        return n
    kb = W_KEYS + 64 * ply
    fb = W_FLIPS + 64 * ply
    rb = W_REPLIES + 64 * ply
    for i in range(n):
        sq = ws[mb + i]
        f = _flips(P, O, U64(sq))
        replies = legal_moves_v(O ^ f, P | f | (ONE << U64(sq)))
        ws[fb + sq] = np.int64(f)
        ws[rb + sq] = np.int64(replies)
        key = -popcount(replies) * 1000000 + ws[W_W + sq] * 64 - sq
        j = i
        while j > 0 and ws[kb + j - 1] < key:
            ws[kb + j] = ws[kb + j - 1]
            j -= 1
        ws[kb + j] = key
    # Only the keys were sorted: 1000000 and 64 are multiples of 64, so key = -sq (mod 64).
    for i in range(n):
        ws[mb + i] = -ws[kb + i] & 63
    return n


@njit(cache=True)
def _negamax(P, O, moves, depth, alpha, beta, ply, ws):
    """Fail-soft alpha-beta over the workspace ``ws`` (node counters, parameters, tables,
    buffers at the ``W_*`` offsets); ``moves`` are the legal moves of the side owning ``P``,
    which the caller has computed anyway."""
    ws[W_NODES] += 1
    if ws[W_NODES] > ws[W_BUDGET]:
        ws[W_ABORT] = 1
        return np.int64(0)
    if moves == ZERO:
        omoves = legal_moves_v(O, P)
        if omoves == ZERO:
            return _terminal(P, O)
        return -_negamax(O, P, omoves, depth, -beta, -alpha, ply + 1, ws)
    if depth <= 0:
        return _score(P, O, moves, ws, W_TAB, ws, W_PRM)
    mode = ws[W_PRM + P_ORDER]
    if depth == 1:
        # Every child is a leaf: do here what its own call would (count it, check the budget,
        # evaluate it), which saves a recursive call on most nodes; a child that must pass
        # takes the recursive path, uncounted here so that it counts itself once. The moves are
        # read straight off their bits (square order, or ``table`` order in rank space; a
        # ``mobility`` node this close to the leaves orders by ``table``), with no move buffer.
        # The positional term is updated, not recomputed: a child's is exactly
        # -(this node's) - 2 * weight(flips) - weight(move square) (the row tables are sums
        # over squares), which costs 9 look-ups instead of 16.
        m = moves if mode == 0 else _ranks(moves, ws)
        pos = _positional(P, O, ws, W_TAB)
        mob = ws[W_PRM + P_MOBILITY]
        nodes = ws[W_NODES]  # kept in a register here; written back before any exit or call
        budget = ws[W_BUDGET]
        best = -INF
        while m:
            k = lowest_bit_index(m)
            m &= m - ONE
            sq = k if mode == 0 else ws[W_ORDER + k]
            f = _flips(P, O, U64(sq))
            cP = O ^ f
            cO = P | f | (ONE << U64(sq))
            nodes += 1
            if nodes > budget:
                ws[W_NODES] = nodes
                ws[W_ABORT] = 1
                return np.int64(0)
            if mob != 0:
                cmoves = legal_moves_v(cP, cO)
            elif _has_moves(cP, cO):
                cmoves = ONE  # not read: without mobility the evaluation ignores the moves
            else:
                cmoves = ZERO
            if cmoves != ZERO:
                cpos = (-pos - 2 * _table_sum(f, ws, W_TAB)
                        - ws[W_TAB + 256 * (sq >> 3) + (np.int64(1) << (sq & 7))])
                v = -(cpos + _terms(cP, cO, cmoves, ws, W_PRM))
            else:
                ws[W_NODES] = nodes - 1
                v = -_negamax(cP, cO, cmoves, depth - 1, -beta, -alpha, ply + 1, ws)
                if ws[W_ABORT]:
                    return np.int64(0)
                nodes = ws[W_NODES]
            if v > best:
                best = v
                if v > alpha:
                    alpha = v
                    if alpha >= beta:
                        break
        ws[W_NODES] = nodes
        return best
    n = _order(P, O, moves, ply, mode, ws)
    mb = W_MOVES + 64 * ply
    fb = W_FLIPS + 64 * ply
    rb = W_REPLIES + 64 * ply
    best = -INF
    for i in range(n):
        sq = ws[mb + i]
        if mode == 2:
            f = U64(ws[fb + sq])
            cmoves = U64(ws[rb + sq])
        else:
            f = _flips(P, O, U64(sq))
        cP = O ^ f
        cO = P | f | (ONE << U64(sq))
        if mode != 2:
            cmoves = legal_moves_v(cP, cO)
        v = -_negamax(cP, cO, cmoves, depth - 1, -beta, -alpha, ply + 1, ws)
        if ws[W_ABORT]:
            return np.int64(0)
        if v > best:
            best = v
            if v > alpha:
                alpha = v
                if alpha >= beta:
                    break
    return best


@njit(cache=True)
def _solve(P, O, alpha, beta, ply, wld, ws):
    """Exact endgame negamax: final disc difference (or its sign when ``wld``)."""
    ws[W_NODES] += 1
    if ws[W_NODES] > ws[W_BUDGET]:
        ws[W_ABORT] = 1
        return np.int64(0)
    moves = legal_moves_v(P, O)
    if moves == ZERO:
        if legal_moves_v(O, P) == ZERO:
            d = popcount(P) - popcount(O)
            if wld:
                return np.int64(1) if d > 0 else np.int64(-1) if d < 0 else np.int64(0)
            return d
        return -_solve(O, P, -beta, -alpha, ply + 1, wld, ws)
    empties = 64 - popcount(P | O)
    mode = I2 if empties > 6 else I1
    n = _order(P, O, moves, ply, mode, ws)
    mb = W_MOVES + 64 * ply
    fb = W_FLIPS + 64 * ply
    best = -INF
    for i in range(n):
        sq = ws[mb + i]
        if mode == 2:
            f = U64(ws[fb + sq])
        else:
            f = _flips(P, O, U64(sq))
        v = -_solve(O ^ f, P | f | (ONE << U64(sq)), -beta, -alpha, ply + 1, wld, ws)
        if ws[W_ABORT]:
            return np.int64(0)
        if v > best:
            best = v
            if v > alpha:
                alpha = v
                if alpha >= beta:
                    break
    return best


@njit(cache=True)
def _root(P, O, depth, solve, pv, ws):
    """One root iteration with exact tie-breaking; writes move and score at ``ws[W_RES:]``."""
    moves = legal_moves_v(P, O)
    mode = I2 if solve != 0 else ws[W_PRM + P_ORDER]
    n = _order(P, O, moves, I0, mode, ws)
    if pv >= 0 and ws[W_PRM + P_PV_FIRST] != 0:
        for i in range(n):
            if ws[W_MOVES + i] == pv:
                for j in range(i, 0, -1):
                    ws[W_MOVES + j] = ws[W_MOVES + j - 1]
                ws[W_MOVES] = pv
                break
    tie = ws[W_PRM + P_TIE]
    wld = ws[W_PRM + P_END_MODE] == 1
    best = -INF
    bestmove = ws[W_MOVES]
    nties = 0
    for i in range(n):
        sq = ws[W_MOVES + i]
        f = _flips(P, O, U64(sq))
        a = best
        if tie != 0 and best > -INF:
            a = best - 1
        nP = O ^ f
        nO = P | f | (ONE << U64(sq))
        if solve != 0:
            v = -_solve(nP, nO, -INF, -a, I1, wld, ws)
        else:
            v = -_negamax(nP, nO, legal_moves_v(nP, nO), depth - 1, -INF, -a, I1, ws)
        if ws[W_ABORT]:
            return
        if v > best:
            best = v
            bestmove = sq
            nties = 1
        elif v == best and tie != 0:
            if tie == 1:
                bestmove = sq
            else:
                nties += 1
                if np.random.randint(0, nties) == 0:
                    bestmove = sq
    ws[W_RES] = bestmove
    ws[W_RES + 1] = best


@njit(cache=True)
def workspace(tab, w, prm):
    """A fresh workspace for :func:`search_in` holding these tables and parameters.

    A bot builds one and reuses it for every decision: the buffers need no clearing (every entry
    is written before it is read), which saves two 66 kB allocations a decision.
    """
    ws = np.zeros(W_SIZE, dtype=np.int64)
    for i in range(N_PARAMS):
        ws[W_PRM + i] = prm[i]
    for i in range(64):
        ws[W_W + i] = w[i]
    for r in range(8):
        for b in range(256):
            ws[W_TAB + 256 * r + b] = tab[r, b]
    # ``table`` order (weight descending, then square ascending: the key w * 64 - sq descending)
    # and its rank masks, so that ``table`` ordering is a lookup, not a sort.
    keys = np.empty(64, dtype=np.int64)
    for sq in range(64):
        keys[sq] = w[sq] * 64 - sq
    order = np.argsort(-keys, kind="mergesort")
    rank = np.empty(64, dtype=np.int64)
    for k in range(64):
        ws[W_ORDER + k] = order[k]
        rank[order[k]] = k
    for r in range(8):
        for b in range(256):
            m = ZERO
            for x in range(8):
                if (b >> x) & 1:
                    m |= ONE << U64(rank[8 * r + x])
            ws[W_RANK + 256 * r + b] = np.int64(m)
    return ws


@njit(cache=True)
def search_in(P, O, ws, seed):
    """:func:`search` on a workspace from :func:`workspace` (the bots' path)."""
    np.random.seed(seed)
    out = np.zeros(N_RESULT, dtype=np.int64)
    moves = legal_moves_v(P, O)
    if moves == ZERO:
        out[R_MOVE] = PASS
        return out
    if popcount(moves) == 1:
        out[R_MOVE] = lowest_bit_index(moves)
        return out
    ws[W_NODES] = 0
    ws[W_ABORT] = 0
    empties = 64 - popcount(P | O)
    spent = np.int64(0)
    if empties <= ws[W_PRM + P_END_EMPTIES] and ws[W_PRM + P_END_NODES] > 0:
        ws[W_BUDGET] = ws[W_PRM + P_END_NODES]
        _root(P, O, empties, I1, -I1, ws)
        if ws[W_ABORT] == 0:
            out[R_MOVE] = ws[W_RES]
            out[R_SCORE] = ws[W_RES + 1]
            out[R_DEPTH] = empties
            out[R_NODES] = ws[W_NODES]
            out[R_SOLVED] = 1
            return out
        spent = ws[W_NODES]
    ws[W_NODES] = 0
    ws[W_BUDGET] = ws[W_PRM + P_NODES]
    ws[W_ABORT] = 0
    best = np.int64(-1)
    score = np.int64(0)
    done = 0
    maxd = min(ws[W_PRM + P_MAX_DEPTH], empties)
    for d in range(1, maxd + 1):
        _root(P, O, np.int64(d), I0, best, ws)
        if ws[W_ABORT]:
            break
        best = ws[W_RES]
        score = ws[W_RES + 1]
        done = d
    if best < 0:
        _order(P, O, moves, I0, ws[W_PRM + P_ORDER], ws)
        best = ws[W_MOVES]
    out[R_MOVE] = best
    out[R_SCORE] = score
    out[R_DEPTH] = done
    out[R_NODES] = spent + min(ws[W_NODES], ws[W_BUDGET])
    return out


@njit(cache=True)
def search(P, O, tab, w, prm, seed):
    """Best move for the side owning ``P``; returns int64[5] = move, score, depth, nodes, solved.

    ``tab`` is the 8x256 row table of ``w`` (``evaluation.row_tables``), ``prm`` the packed
    ``SearchParams``, ``seed`` (0 <= seed < 2**32) feeds ``random`` tie-breaking only.
    """
    return search_in(P, O, workspace(tab, w, prm), seed)


@njit(cache=True)
def solve_exact(P, O):
    """Exact final disc difference for the side owning ``P`` with perfect play (no budget)."""
    ws = workspace(np.zeros((8, 256), dtype=np.int64), np.zeros(64, dtype=np.int64),
                   np.zeros(N_PARAMS, dtype=np.int64))
    ws[W_BUDGET] = np.int64(1) << np.int64(62)
    return _solve(P, O, -INF, INF, I0, ws[W_ABORT] != 0, ws)


# --- the bot ------------------------------------------------------------------------------------


class SearchEvaluation:
    """This search's evaluation for a generic search over the game API (the opponent-model
    search, :mod:`ime.bots.om_search`): the same integer scores, terminal values, move orders and
    free passes, so a generic search with it values every position as :func:`search` does.

    ``value`` is the score of the side to move (negated for the other player), a side that must
    pass valued after its pass as ``_negamax`` does; ``terminal`` is ``sign(d) * WIN + d`` for the
    disc difference ``d``; ``order`` is ``none`` (square order), ``table`` (weight, then square)
    or ``mobility`` (fewest replies first, then table order; table order below two plies left,
    as the search's leaf-parent shortcut orders).
    """

    def __init__(self, params: SearchParams):
        self.params = params
        self._w = params.table()
        self._tab = row_tables(self._w)
        self._prm = params.pack()
        self._mode = int(self._prm[P_ORDER])
        self._key = [int(self._w[sq]) * 64 - sq for sq in range(64)]

    def value(self, state: ReversiState, player: int) -> int:
        P, O = state.own_opp(state.to_move)
        moves = U64(legal_moves(P, O))
        if moves == ZERO:
            s = -int(evaluate(O, P, U64(legal_moves(O, P)), self._tab, self._prm))
        else:
            s = int(evaluate(P, O, moves, self._tab, self._prm))
        return s if state.to_move == player else -s

    def terminal(self, state: ReversiState, player: int, plies: int) -> int:
        P, O = state.own_opp(player)
        d = int(P).bit_count() - int(O).bit_count()
        return int(WIN) + d if d > 0 else -int(WIN) + d if d < 0 else 0

    def order(self, state: ReversiState, player: int, actions: list[int],
              depth: int) -> list[int]:
        if self._mode == 0 or actions == [PASS]:
            return list(actions)
        if self._mode == 1 or depth < 2:
            return sorted(actions, key=lambda sq: -self._key[sq])
        P, O = state.own_opp(player)
        keys = {}
        for sq in actions:
            _, nP, nO, _ = play(P, O, sq)
            keys[sq] = -int(legal_moves(U64(nO), U64(nP))).bit_count() * 1000000 + self._key[sq]
        return sorted(actions, key=lambda sq: -keys[sq])

    def free(self, state: ReversiState, action: int) -> bool:
        return action == PASS


def decision_seed(ctx: DecisionContext, salt: str) -> int:
    """A 32-bit seed for the numba generator, keyed by (seed, match, ply, player, salt)."""
    return int(decision_rng(ctx, salt).integers(0, 2**32))


def random_legal(state: ReversiState, rng: np.random.Generator) -> int:
    """A uniformly random legal action (PASS when it is the only one)."""
    actions = state.legal_actions()
    return int(actions[int(rng.integers(len(actions)))])


class AlphaBetaBot(Bot):
    """NegaMax/MiniMax alpha-beta bot (thesis bots 1, 2, 4, 5 and the noisy opponents).

    With ``tie != "random"`` and ``epsilon == 0`` it is deterministic. ``epsilon`` is the chance
    per decision of playing a uniformly random legal move instead (opponent noise); the coin and
    the random tie-break are drawn from ``decision_rng(ctx)`` so the decision stays reproducible.
    """

    def __init__(
        self,
        bot_id: str = "alphabeta",
        params: SearchParams | Mapping[str, Any] | None = None,
        epsilon: float = 0.0,
    ):
        self.bot_id = bot_id
        if params is None:
            params = SearchParams()
        elif not isinstance(params, SearchParams):
            params = SearchParams.from_mapping(params)
        self.params = params
        self.epsilon = float(epsilon)
        self._w = params.table()
        self._tab = row_tables(self._w)
        self._prm = params.pack()
        self._ws = workspace(self._tab, self._w, self._prm)
        self.deterministic = params.tie != "random" and self.epsilon == 0.0
        # Deterministic means a function of the position alone (act reads the boards and the
        # side to move, never the history or the context): ime.core.memo may reuse it.
        self.position_pure = self.deterministic

    def search_evaluation(self) -> SearchEvaluation:
        """This bot's evaluation for a generic search (:mod:`ime.bots.om_search`)."""
        return SearchEvaluation(self.params)

    def analyse(self, state: ReversiState, seed: int = 0) -> dict[str, int]:
        """The raw search result (move, score, depth, nodes, solved) for the side to move."""
        P, O = state.own_opp(state.to_move)
        r = search_in(P, O, self._ws, np.int64(seed % 2**32))
        return {
            "move": int(r[R_MOVE]),
            "score": int(r[R_SCORE]),
            "depth": int(r[R_DEPTH]),
            "nodes": int(r[R_NODES]),
            "solved": int(r[R_SOLVED]),
        }

    def act(self, state: ReversiState, ctx: DecisionContext) -> int:
        if self.epsilon > 0.0:
            rng = decision_rng(ctx, "epsilon")
            if rng.random() < self.epsilon:
                return random_legal(state, rng)
        seed = decision_seed(ctx, "alphabeta") if self.params.tie == "random" else 0
        return self.analyse(state, seed)["move"]
