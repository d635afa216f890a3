"""Exact Reversi endgame solver (numba): negamax alpha-beta with PVS, a transposition table and
fastest-first move ordering.

Score convention: the value of a position is the *final disc difference* ``discs(side to move) -
discs(opponent)`` under perfect play, counting discs only. Botzone's judge (``Reversi.cpp``) decides
the winner by comparing disc counts and never awards empty squares to the winner (unlike the WOF /
FFO convention), so a game that ends with empties left, e.g. 30-20 with 14 empties, scores +10 here,
not +24. Positive = the side to move wins, 0 = draw.

Rules follow Botzone: a player without a legal move passes (an explicit turn); the game ends when
neither side can move.

Search layout (all nopython, one function per depth band so that numba recursion stays
self-recursive, never mutual):

* ``_root``: PVS over the root moves that also proves every tie with the best move (all best moves
  in one pass).
* ``_deep``   (>= ``DEEP_MIN`` empties): transposition-table probe/store (lower/upper bound + best
  move), TT move first then fastest-first (fewest weighted opponent replies, parity as tie-break;
  at >= ``SORT_MIN`` empties plus a ``SORT_DEPTH``-ply alpha-beta on a mobility + corner
  evaluation), enhanced transposition cutoff, principal variation search.
* ``_mid``    (``SHALLOW_MAX`` < empties < ``DEEP_MIN``): fastest-first alpha-beta, no TT (the
  table costs more than it saves this close to the end).
* ``_shallow`` (2..``SHALLOW_MAX`` empties): no sorting, odd-parity quadrants first.
* ``_last1``  (1 empty): direct count of flips, no move generation.

Per-ply move lists live in preallocated ``(65, 32)`` buffers indexed by the number of empties (each
move removes one empty, and a pass node never uses its own row before handing it to its child), so
the search allocates nothing. Every bitboard constant and shift is ``np.uint64``: mixing Python ints
into uint64 arithmetic makes numba silently fall back to float64.

Move generation, flips and bit counts are the engine's (``ime.games.reversi.bitboard``: LLVM
intrinsics, ray-mask flips, doubling-fill moves), shared with perft and the bots. The last empty
square is scored by a table count of flips per line (``_count_last_flips``, as Edax's
``count_last_flip``). Recursive kernels each keep a single numba signature (int64 / uint64 / bool
arguments only): a recursive function compiled for two signatures crashes when reloaded from
numba's cache.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Any

import numpy as np
from numba import njit

from ime.core.bits import ctpop as popcount
from ime.core.bits import cttz as lowest_bit_index
from ime.games.reversi.bitboard import BLACK_START, PASS, WHITE_START, flips, legal_moves

U64 = np.uint64
ZERO = U64(0)
ONE = U64(1)
CORNERS = U64(0x8100000000000081)
Q0 = U64(0x000000000F0F0F0F)  # quadrants, for parity ordering
Q1 = U64(0x00000000F0F0F0F0)
Q2 = U64(0x0F0F0F0F00000000)
Q3 = U64(0xF0F0F0F000000000)
H1 = U64(0x9E3779B97F4A7C15)  # multiplicative hash constants (odd, well mixed)
H2 = U64(0xC2B2AE3D27D4EB4F)
S29 = U64(29)
COL_A = U64(0x0101010101010101)
COL_H = U64(0x8080808080808080)
ROW_1 = U64(0x00000000000000FF)
ROW_8 = U64(0xFF00000000000000)
EDGE = COL_A | COL_H | ROW_1 | ROW_8


def _diag_masks(dx: int) -> np.ndarray:
    """Masks of the 15 diagonals (dx = 1: A1-H8 direction, dx = -1: H1-A8 direction)."""
    out = []
    for d in range(-7, 8):
        m = 0
        for y in range(8):
            x = y + d if dx == 1 else 7 - y + d
            if 0 <= x < 8:
                m |= 1 << (y * 8 + x)
        out.append(m)
    return np.array(out, dtype=np.uint64)


def _neigh_table() -> np.ndarray:
    """NEIGH[sq]: the (up to 8) squares adjacent to ``sq``."""
    out = np.zeros(64, dtype=np.uint64)
    for sq in range(64):
        x, y = sq % 8, sq // 8
        m = 0
        for dx in (-1, 0, 1):
            for dy in (-1, 0, 1):
                if (dx or dy) and 0 <= x + dx < 8 and 0 <= y + dy < 8:
                    m |= 1 << ((y + dy) * 8 + x + dx)
        out[sq] = m
    return out


def _last_flip_table() -> np.ndarray:
    """LAST_FLIPS[pos, line]: discs flipped along one line by a move at ``pos`` (0..7) when every
    other square of the line is filled, ``line`` holding the mover's discs (bit i = position i;
    a position off a short diagonal reads 0 and, being at the line's end, stops nothing)."""
    out = np.zeros((8, 256), dtype=np.int64)
    for pos in range(8):
        for line in range(256):
            n = 0
            for step in (1, -1):
                i, run = pos + step, 0
                while 0 <= i < 8 and not (line >> i) & 1:
                    i, run = i + step, run + 1
                if 0 <= i < 8:
                    n += run
            out[pos, line] = n
    return out


def _square_diagonals(d9: np.ndarray, d7: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Per square: the mask of its A1-H8 diagonal and of its H1-A8 diagonal, out of the 15
    diagonals of each direction (``_diag_masks``)."""
    a = np.array([d9[(sq % 8) - (sq // 8) + 7] for sq in range(64)], dtype=np.uint64)
    b = np.array([d7[(sq % 8) + (sq // 8)] for sq in range(64)], dtype=np.uint64)
    return a, b


NEIGH = _neigh_table()
DIAG9 = _diag_masks(1)
DIAG7 = _diag_masks(-1)
LAST_FLIPS = _last_flip_table()
SQ_DIAG9, SQ_DIAG7 = _square_diagonals(DIAG9, DIAG7)
COL_MAGIC = U64(0x0102040810204080)  # gathers column bits (rows 0..7) into the top byte
S56 = U64(56)
BYTE = U64(0xFF)

DEEP_MIN = 7  # empties at which the TT + PVS search takes over
ETC_MIN = 8  # empties at and above which enhanced transposition cutoffs are tried
SHALLOW_MAX = 5  # empties at and below which moves are not sorted (tuned: 4..6 within 15%)
TT_BITS = 20  # 2**20 entries: 16 MiB of keys + 4 MiB of bounds
MAX_SCORE = 64
W_MOB = 16  # fastest-first weights (tuned on random 18-empty positions)
W_POT = 2
W_PAR = 4
W_COR = 6
SORT_MIN = 14  # empties at and above which a shallow mobility search joins the ordering key
SORT_DEPTH = 2  # plies of that search
W_EVAL = 8  # weight of its score in the ordering key
E_MOB = 4  # shallow-search evaluation weights
E_COR = 8

__all__ = [
    "SolveResult",
    "solve",
    "solve_state",
    "solve_wld",
    "random_position",
    "random_positions",
    "bench_solver",
]


# --- nopython kernels --------------------------------------------------------------------------
@njit(cache=True, inline="always")
def _diff(P, O):
    """Final score of an ended game: disc difference only (Botzone gives empties to nobody)."""
    return popcount(P) - popcount(O)


@njit(cache=True, inline="always")
def _odd_quadrants(empty):
    """Union of the quadrants holding an odd number of empties (parity: play there first)."""
    odd = ZERO
    if popcount(empty & Q0) & 1:
        odd |= Q0
    if popcount(empty & Q1) & 1:
        odd |= Q1
    if popcount(empty & Q2) & 1:
        odd |= Q2
    if popcount(empty & Q3) & 1:
        odd |= Q3
    return odd


@njit(cache=True, inline="always")
def _count_last_flips(P, sq):
    """Discs flipped by ``P`` playing ``sq``, the board's only empty square: every other square
    is filled, so each of the four lines through ``sq`` depends on ``P``'s discs alone and one
    table look-up per line gives its count (Edax's ``count_last_flip``). Lines are gathered into a
    byte by shifts and multiplications (bit i = the line's i-th square, no carries)."""
    x = sq & 7
    y = sq >> 3
    row = (P >> U64(8 * y)) & BYTE
    col = ((((P >> U64(x)) & COL_A) * COL_MAGIC) >> S56) & BYTE
    d9 = (((P & SQ_DIAG9[sq]) * COL_A) >> S56) & BYTE
    d7 = (((P & SQ_DIAG7[sq]) * COL_A) >> S56) & BYTE
    return (LAST_FLIPS[x, np.int64(row)] + LAST_FLIPS[y, np.int64(col)]
            + LAST_FLIPS[x, np.int64(d9)] + LAST_FLIPS[x, np.int64(d7)])


@njit(cache=True, inline="always")
def _last1(P, O, sq):
    """One empty square ``sq`` left: count flips directly (most nodes are these leaves)."""
    d = 2 * popcount(P) - 63
    n = _count_last_flips(P, sq)
    if n:
        return d + 2 * n + 1
    n = _count_last_flips(O, sq)
    if n:
        return d - 2 * n - 1
    return d


@njit(cache=True)
def _shallow(P, O, alpha, beta):
    """Fail-soft alpha-beta for <= SHALLOW_MAX empties; returns (score, nodes).

    No move generation and no sorting: the empties in parity order (odd quadrants first), each
    tried only if it touches an opponent disc (``NEIGH``) and flips something. Node counts travel
    in the return value, not in a shared array: passing an array into each of the millions of
    calls here costs reference counting."""
    empty = ~(P | O)
    n = popcount(empty)
    if n == 1:
        return _last1(P, O, lowest_bit_index(empty)), np.int64(1)
    if n == 0:
        return _diff(P, O), np.int64(1)
    nodes = np.int64(1)
    odd = _odd_quadrants(empty)
    best = -MAX_SCORE - 1
    for k in range(2):
        mm = empty & odd if k == 0 else empty & ~odd
        while mm:
            sq = lowest_bit_index(mm)
            mm &= mm - ONE
            if NEIGH[sq] & O == ZERO:
                continue
            f = flips(P, O, sq)
            if f == ZERO:
                continue
            bit = ONE << U64(sq)
            if n == 2:  # straight to the last empty: saves a call per leaf
                v = -_last1(O ^ f, P | f | bit, lowest_bit_index(empty ^ bit))
                nodes += 1
            else:
                v, c = _shallow(O ^ f, P | f | bit, -beta, -alpha)
                v = -v
                nodes += c
            if v > best:
                best = v
                if v > alpha:
                    alpha = v
                    if alpha >= beta:
                        return best, nodes
    if best == -MAX_SCORE - 1:  # no move: pass, or the game is over
        mm = empty
        while mm:
            sq = lowest_bit_index(mm)
            mm &= mm - ONE
            if NEIGH[sq] & P and flips(O, P, sq):
                v, c = _shallow(O, P, -beta, -alpha)
                return -v, nodes + c
        return _diff(P, O), nodes
    return best, nodes


@njit(cache=True, inline="always")
def _shallow_counted(P, O, alpha, beta, stats):
    v, c = _shallow(P, O, alpha, beta)
    stats[0] += c
    return v


@njit(cache=True)
def _stable_count(O, P):
    """Number of discs of ``O`` that can never be flipped: a disc is stable when, on each of the
    four axes, its line is full or one neighbour is the board edge or a stable disc of its own
    colour (fixed point from the edges inwards). Only a lower bound, which is all the stability
    cutoff needs: the side owning ``P`` can then score at most ``64 - 2 * stable(O)``."""
    filled = P | O
    f = filled & (filled >> U64(1))
    f &= f >> U64(2)
    f &= f >> U64(4)
    full_h = (f & COL_A) * U64(0xFF)
    f = filled & (filled >> U64(8))
    f &= f >> U64(16)
    f &= f >> U64(32)
    full_v = (f & ROW_1) * COL_A
    full_9 = ZERO
    full_7 = ZERO
    for i in range(15):
        m = DIAG9[i]
        if filled & m == m:
            full_9 |= m
        m = DIAG7[i]
        if filled & m == m:
            full_7 |= m
    ok_h = full_h | COL_A | COL_H
    ok_v = full_v | ROW_1 | ROW_8
    ok_9 = full_9 | EDGE
    ok_7 = full_7 | EDGE
    S = O & ok_h & ok_v & ok_9 & ok_7
    if S == ZERO:
        return np.int64(0)
    while True:
        nS = S | (
            O
            & (ok_h | ((S << U64(1)) & ~COL_A) | ((S >> U64(1)) & ~COL_H))
            & (ok_v | (S << U64(8)) | (S >> U64(8)))
            & (ok_9 | ((S << U64(9)) & ~COL_A) | ((S >> U64(9)) & ~COL_H))
            & (ok_7 | ((S << U64(7)) & ~COL_H) | ((S >> U64(7)) & ~COL_A))
        )
        if nS == S:
            return popcount(S)
        S = nS


@njit(cache=True, inline="always")
def _neighbours(b):
    """Squares adjacent (8 directions) to a disc of ``b``: the opponent's potential mobility."""
    w = b & ~COL_A  # discs that may shift west
    e = b & ~COL_H
    return (
        (b << U64(8))
        | (b >> U64(8))
        | (e << U64(1))
        | (e << U64(9))
        | (e >> U64(7))
        | (w >> U64(1))
        | (w >> U64(9))
        | (w << U64(7))
    )


@njit(cache=True, inline="always")
def _order_key(nP, nO, sq, odd):
    """Fastest-first key (lower = searched earlier): weighted opponent mobility after the move
    (corners count double), with odd-parity squares and corners as tie-breaks."""
    rep = legal_moves(nP, nO)
    k = (popcount(rep) + popcount(rep & CORNERS)) * W_MOB
    k += popcount(_neighbours(nO) & ~(nP | nO)) * W_POT
    bit = ONE << U64(sq)
    if (bit & odd) == ZERO:
        k += W_PAR
    if bit & CORNERS:
        k -= W_COR
    return k


@njit(cache=True)
def _eval(P, O):
    """Static evaluation for move ordering (side to move's view): weighted mobility + corners."""
    mP = legal_moves(P, O)
    mO = legal_moves(O, P)
    e = (popcount(mP) + popcount(mP & CORNERS) - popcount(mO) - popcount(mO & CORNERS)) * E_MOB
    e += (popcount(P & CORNERS) - popcount(O & CORNERS)) * E_COR
    return e


@njit(cache=True)
def _eval_search(P, O, depth, alpha, beta, stats):
    """Fail-soft depth-limited alpha-beta on ``_eval``: the move-ordering oracle at high empties
    (its nodes are counted with the search's)."""
    stats[0] += 1
    if depth <= 0:
        return _eval(P, O)
    moves = legal_moves(P, O)
    if moves == ZERO:
        if legal_moves(O, P) == ZERO:
            return _diff(P, O) * 64
        return -_eval_search(O, P, depth, -beta, -alpha, stats)
    best = np.int64(-(1 << 30))
    while moves:
        sq = lowest_bit_index(moves)
        moves &= moves - ONE
        f = flips(P, O, sq)
        v = -_eval_search(O ^ f, P | f | (ONE << U64(sq)), depth - 1, -beta, -alpha, stats)
        if v > best:
            best = v
            if v > alpha:
                alpha = v
                if alpha >= beta:
                    break
    return best


@njit(cache=True, inline="always")
def _gen_sorted(P, O, moves, n, mvb, flb, keyb, tt_move, stats):
    """Fill row ``n`` of the move buffers with the legal moves sorted by ``_order_key`` (TT move
    first); returns the count. Insertion sort: lists are short (<= ~15)."""
    odd = _odd_quadrants(~(P | O))
    cnt = 0
    mm = moves
    while mm:
        sq = lowest_bit_index(mm)
        mm &= mm - ONE
        f = flips(P, O, sq)
        if sq == tt_move:
            k = -(1 << 20)
        else:
            cP = O ^ f
            cO = P | f | (ONE << U64(sq))
            k = _order_key(cP, cO, sq, odd)
            if n >= SORT_MIN:
                k += W_EVAL * _eval_search(
                    cP, cO, np.int64(SORT_DEPTH), np.int64(-(1 << 30)), np.int64(1 << 30), stats
                )
        i = cnt
        while i > 0 and keyb[n, i - 1] > k:
            keyb[n, i] = keyb[n, i - 1]
            mvb[n, i] = mvb[n, i - 1]
            flb[n, i] = flb[n, i - 1]
            i -= 1
        keyb[n, i] = k
        mvb[n, i] = sq
        flb[n, i] = f
        cnt += 1
    return cnt


@njit(cache=True)
def _mid(P, O, alpha, beta, mvb, flb, keyb, stats):
    """Fail-soft alpha-beta, fastest-first, no TT (SHALLOW_MAX < empties < DEEP_MIN)."""
    stats[0] += 1
    moves = legal_moves(P, O)
    if moves == ZERO:
        if legal_moves(O, P) == ZERO:
            return _diff(P, O)
        return -_mid(O, P, -beta, -alpha, mvb, flb, keyb, stats)
    if alpha >= MAX_SCORE - 2 * popcount(O):
        ub = MAX_SCORE - 2 * _stable_count(O, P)
        if ub <= alpha:
            return ub
    n = popcount(~(P | O))
    cnt = _gen_sorted(P, O, moves, n, mvb, flb, keyb, -1, stats)
    best = -MAX_SCORE - 1
    for i in range(cnt):
        sq = mvb[n, i]
        f = flb[n, i]
        nP = O ^ f
        nO = P | f | (ONE << U64(sq))
        if n - 1 > SHALLOW_MAX:
            v = -_mid(nP, nO, -beta, -alpha, mvb, flb, keyb, stats)
        else:
            v = -_shallow_counted(nP, nO, -beta, -alpha, stats)
        if v > best:
            best = v
            if v > alpha:
                alpha = v
                if alpha >= beta:
                    break
    return best


@njit(cache=True, inline="always")
def _hash(P, O):
    h = P * H1 ^ O * H2
    return h ^ (h >> S29)


@njit(cache=True)
def _deep(P, O, alpha, beta, ttk, tti, mvb, flb, keyb, stats, use_tt):
    """Fail-soft PVS with TT (bounds + best move) and fastest-first ordering (>= DEEP_MIN empties).

    ``ttk[i] = (P, O)`` verifies the full position, so a hash collision can never return a wrong
    bound; ``tti[i] = (lower, upper, best move, empties)``. The bounds are true bounds of the exact
    score whatever window produced them, so entries stay valid across searches.
    """
    stats[0] += 1
    moves = legal_moves(P, O)
    if moves == ZERO:
        if legal_moves(O, P) == ZERO:
            return _diff(P, O)
        return -_deep(O, P, -beta, -alpha, ttk, tti, mvb, flb, keyb, stats, use_tt)
    n = popcount(~(P | O))
    tt_move = -1
    idx = 0
    if use_tt:
        idx = np.int64(_hash(P, O) & U64(ttk.shape[0] - 1))
        if ttk[idx, 0] == P and ttk[idx, 1] == O:
            lo = np.int64(tti[idx, 0])
            hi = np.int64(tti[idx, 1])
            if lo >= beta:
                return lo
            if hi <= alpha:
                return hi
            if lo == hi:
                return lo
            if lo > alpha:
                alpha = lo
            if hi < beta:
                beta = hi
            tt_move = np.int64(tti[idx, 2])
    if alpha >= MAX_SCORE - 2 * popcount(O):
        ub = MAX_SCORE - 2 * _stable_count(O, P)
        if ub <= alpha:
            return ub
    a0 = alpha
    b0 = beta
    cnt = _gen_sorted(P, O, moves, n, mvb, flb, keyb, tt_move, stats)
    if use_tt and n >= ETC_MIN:
        # enhanced transposition cutoff: a child whose stored upper bound already refutes it
        # proves this node >= beta without searching anything
        mask = U64(ttk.shape[0] - 1)
        for i in range(cnt):
            f = flb[n, i]
            cP = O ^ f
            cO = P | f | (ONE << U64(mvb[n, i]))
            j = np.int64(_hash(cP, cO) & mask)
            if ttk[j, 0] == cP and ttk[j, 1] == cO and -np.int64(tti[j, 1]) >= beta:
                return -np.int64(tti[j, 1])
    best = -MAX_SCORE - 1
    best_sq = -1
    for i in range(cnt):
        sq = mvb[n, i]
        f = flb[n, i]
        nP = O ^ f
        nO = P | f | (ONE << U64(sq))
        if n - 1 >= DEEP_MIN:
            if i == 0:
                v = -_deep(nP, nO, -beta, -alpha, ttk, tti, mvb, flb, keyb, stats, use_tt)
            else:
                v = -_deep(nP, nO, -alpha - 1, -alpha, ttk, tti, mvb, flb, keyb, stats, use_tt)
                if alpha < v < beta:
                    v = -_deep(nP, nO, -beta, -alpha, ttk, tti, mvb, flb, keyb, stats, use_tt)
        else:
            if i == 0:
                v = -_mid(nP, nO, -beta, -alpha, mvb, flb, keyb, stats)
            else:
                v = -_mid(nP, nO, -alpha - 1, -alpha, mvb, flb, keyb, stats)
                if alpha < v < beta:
                    v = -_mid(nP, nO, -beta, -alpha, mvb, flb, keyb, stats)
        if v > best:
            best = v
            best_sq = sq
            if v > alpha:
                alpha = v
                if alpha >= beta:
                    break
    if use_tt:
        # always-replace, except that a shallower entry never evicts a much deeper one
        if (ttk[idx, 0] == P and ttk[idx, 1] == O) or tti[idx, 3] <= n + 2:
            lo = -MAX_SCORE
            hi = MAX_SCORE
            if best <= a0:
                hi = best
            elif best >= b0:
                lo = best
            else:
                lo = best
                hi = best
            ttk[idx, 0] = P
            ttk[idx, 1] = O
            tti[idx, 0] = lo
            tti[idx, 1] = hi
            tti[idx, 2] = best_sq
            tti[idx, 3] = n
    return best


@njit(cache=True)
def _search(P, O, alpha, beta, ttk, tti, mvb, flb, keyb, stats, use_tt):
    """Dispatch on the number of empties to the right depth band."""
    n = popcount(~(P | O))
    if n >= DEEP_MIN:
        return _deep(P, O, alpha, beta, ttk, tti, mvb, flb, keyb, stats, use_tt)
    if n > SHALLOW_MAX:
        return _mid(P, O, alpha, beta, mvb, flb, keyb, stats)
    return _shallow_counted(P, O, alpha, beta, stats)


@njit(cache=True)
def _root(P, O, alpha, beta, all_best, ttk, tti, mvb, flb, keyb, stats, use_tt, res):
    """Root of an exact solve (P has a legal move): PVS over the sorted root moves, recording
    bounds per move in ``res[i] = (square, lower, upper)`` so that, with ``all_best``, every move
    reaching the final value is known without a second pass: a later move is tested with a null
    window just *below* the best value so far (ties prove >= best), and re-searched when it may be
    better. Returns (fail-soft value, number of moves)."""
    stats[0] += 1
    n = popcount(~(P | O))
    moves = legal_moves(P, O)
    cnt = _gen_sorted(P, O, moves, n, mvb, flb, keyb, -1, stats)
    a = alpha
    b = beta
    best = -MAX_SCORE - 1
    for i in range(cnt):
        sq = mvb[n, i]
        f = flb[n, i]
        nP = O ^ f
        nO = P | f | (ONE << U64(sq))
        lo = np.int64(-MAX_SCORE - 1)
        hi = np.int64(MAX_SCORE + 1)
        if i == 0:
            v = -_search(nP, nO, -b, -a, ttk, tti, mvb, flb, keyb, stats, use_tt)
            lo0 = a
        elif best >= b:
            if not all_best:
                res[i, 0] = sq
                res[i, 1] = lo
                res[i, 2] = hi
                for j in range(i + 1, cnt):
                    res[j, 0] = mvb[n, j]
                    res[j, 1] = lo
                    res[j, 2] = hi
                break
            v = -_search(nP, nO, -b, -b + 1, ttk, tti, mvb, flb, keyb, stats, use_tt)
            lo0 = b - 1
        else:
            # null window just below the value to beat: (t - 1, t)
            t = best if (all_best and best > a) else max(best, a) + 1
            v = -_search(nP, nO, -t, -t + 1, ttk, tti, mvb, flb, keyb, stats, use_tt)
            lo0 = t - 1
            if t <= v < b:
                # may beat (or tie, when listing all best moves) the best so far: exact re-search
                v = -_search(nP, nO, -b, -(t - 1), ttk, tti, mvb, flb, keyb, stats, use_tt)
        # v is fail-soft w.r.t. the window (lo0, b) it was last searched with
        if v <= lo0:
            hi = v
        elif v >= b:
            lo = v
        else:
            lo = v
            hi = v
        res[i, 0] = sq
        res[i, 1] = lo
        res[i, 2] = hi
        if v > best:
            best = v
    return best, cnt


# --- Python API ---------------------------------------------------------------------------------
@dataclass
class SolveResult:
    """Outcome of an exact solve, from the side to move's point of view.

    ``score``: final disc difference under perfect play (empties count for nobody). With a
    ``window=(alpha, beta)`` the score is exact only when ``alpha < score < beta`` (``exact``);
    otherwise it is a fail-soft bound (``<= alpha`` or ``>= beta``).
    ``best_moves``: all squares reaching ``score`` (sorted); ``[PASS]`` for a forced pass, ``[]``
    when the game is over. When the score failed high, the moves proven ``>= beta``; failed low: [].
    """

    score: int
    best_moves: list[int]
    nodes: int
    seconds: float
    exact: bool = True
    move_scores: dict[int, int] = field(default_factory=dict)


class _Workspace:
    """Preallocated TT and move buffers, reused across solves (allocating 20 MiB per call would
    cost more than small solves themselves)."""

    def __init__(self, tt_bits: int = TT_BITS) -> None:
        size = 1 << tt_bits
        self.ttk = np.zeros((size, 2), dtype=np.uint64)
        self.tti = np.zeros((size, 4), dtype=np.int8)
        self.mvb = np.zeros((65, 32), dtype=np.int64)
        self.flb = np.zeros((65, 32), dtype=np.uint64)
        self.keyb = np.zeros((65, 32), dtype=np.int64)
        self.stats = np.zeros(1, dtype=np.int64)
        self.res = np.zeros((32, 3), dtype=np.int64)

    def clear(self) -> None:
        self.ttk[:] = 0
        self.tti[:] = 0
        self.stats[:] = 0

    def search(self, P: np.uint64, O: np.uint64, alpha: int, beta: int, use_tt: bool) -> int:
        return int(
            _search(
                P,
                O,
                np.int64(alpha),
                np.int64(beta),
                self.ttk,
                self.tti,
                self.mvb,
                self.flb,
                self.keyb,
                self.stats,
                use_tt,
            )
        )

    def root(
        self, P: np.uint64, O: np.uint64, alpha: int, beta: int, all_best: bool, use_tt: bool
    ) -> tuple[int, list[tuple[int, int, int]]]:
        v, cnt = _root(
            P,
            O,
            np.int64(alpha),
            np.int64(beta),
            bool(all_best),
            self.ttk,
            self.tti,
            self.mvb,
            self.flb,
            self.keyb,
            self.stats,
            bool(use_tt),
            self.res,
        )
        return int(v), [(int(a), int(b), int(c)) for a, b, c in self.res[: int(cnt)]]


_WS: _Workspace | None = None


def _workspace() -> _Workspace:
    global _WS
    if _WS is None:
        _WS = _Workspace()
    return _WS


def solve(
    P: int,
    O: int,
    *,
    window: tuple[int, int] | None = None,
    use_tt: bool = True,
    all_best: bool = True,
) -> SolveResult:
    """Solve the position (``P`` = discs of the side to move, ``O`` = opponent) exactly.

    One PVS pass over the sorted root moves (``_root``): each later move is tested with a null
    window just below the best value so far, so ties are proven too and ``best_moves`` lists every
    optimal move without a second pass. ``all_best=False`` tests strictly above instead (one best
    move only). ``use_tt=False`` disables the transposition table (for cross-checks).
    """
    ws = _workspace()
    ws.clear()
    P64, O64 = U64(P), U64(O)
    if int(P64) & int(O64):
        raise ValueError("P and O overlap")
    alpha, beta = (-MAX_SCORE - 1, MAX_SCORE + 1) if window is None else window
    if alpha >= beta:
        raise ValueError(f"empty window {window}")
    t0 = time.perf_counter()
    moves = legal_moves(P64, O64)
    if not moves:
        if not legal_moves(O64, P64):
            score = int(_diff(P64, O64))
            return SolveResult(score, [], 1, time.perf_counter() - t0, exact=True)
        v = -ws.search(O64, P64, -beta, -alpha, use_tt)
        return SolveResult(
            v, [PASS], int(ws.stats[0]) + 1, time.perf_counter() - t0, exact=alpha < v < beta
        )
    v, rows = ws.root(P64, O64, alpha, beta, all_best, use_tt)
    exact = alpha < v < beta
    best: list[int] = []
    scores: dict[int, int] = {}
    if v > alpha:
        target = v if exact else beta
        for sq, lo, _hi in rows:
            if lo >= target:
                best.append(sq)
                scores[sq] = target
    return SolveResult(
        v,
        sorted(best),
        int(ws.stats[0]),
        time.perf_counter() - t0,
        exact=exact,
        move_scores=scores,
    )


def solve_state(state: Any, **kwargs: Any) -> SolveResult:
    """Solve a ``ReversiState`` for its side to move (``state.boards``, ``state.to_move``)."""
    P, O = state.boards[state.to_move], state.boards[1 - state.to_move]
    return solve(int(P), int(O), **kwargs)


def solve_wld(P: int, O: int) -> int:
    """Win (1) / draw (0) / loss (-1) for the side to move, via a (-1, 1) window: far cheaper than
    the exact score since every node is a null-window-like search around 0."""
    ws = _workspace()
    ws.clear()
    v = ws.search(U64(P), U64(O), -1, 1, True)
    return (v > 0) - (v < 0)


# --- position generation and benchmark ---------------------------------------------------------
def random_position(empties: int, rng: np.random.Generator) -> tuple[int, int] | None:
    """(P, O) for the side to move after seeded random play from the start until ``empties``
    empties remain; ``None`` if the game ended first or the side to move must pass there."""
    P, O = BLACK_START, WHITE_START
    while 64 - bin(int(P | O)).count("1") > empties:
        moves = int(legal_moves(P, O))
        if not moves:
            if not legal_moves(O, P):
                return None
            P, O = O, P
            continue
        sqs = [i for i in range(64) if (moves >> i) & 1]
        sq = sqs[int(rng.integers(len(sqs)))]
        f = flips(P, O, sq)
        P, O = O ^ f, P | f | U64(1 << sq)
    if not legal_moves(P, O):
        return None
    return int(P), int(O)


def random_positions(n: int, empties: int, seed: int = 0) -> list[tuple[int, int]]:
    """``n`` positions from ``random_position`` with one seeded generator (skips dead ends)."""
    rng = np.random.default_rng(seed)
    out: list[tuple[int, int]] = []
    while len(out) < n:
        pos = random_position(empties, rng)
        if pos is not None:
            out.append(pos)
    return out


def bench_solver(n_positions: int = 5, empties: int = 20, seed: int = 0) -> dict:
    """Solve ``n_positions`` random ``empties``-empty positions (exact score + all best moves);
    JIT compilation is done first and not timed. Returns totals and per-position figures."""
    solve(*random_positions(1, 10, seed=seed + 12345)[0])  # warm-up / compile
    per = []
    for P, O in random_positions(n_positions, empties, seed=seed):
        r = solve(P, O)
        per.append({"score": r.score, "best": r.best_moves, "nodes": r.nodes, "seconds": r.seconds})
    nodes = sum(p["nodes"] for p in per)
    secs = sum(p["seconds"] for p in per)
    return {
        "positions": n_positions,
        "empties": empties,
        "seed": seed,
        "nodes": nodes,
        "seconds": secs,
        "nodes_per_s": nodes / secs if secs > 0 else 0.0,
        "per_position": per,
    }
