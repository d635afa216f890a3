"""Reversi bitboard kernels, compiled with numba (cached on disk).

Layout: bit ``i = y * 8 + x`` where ``x`` is the column (Botzone ``x``, letters A..H) and ``y`` the
row (Botzone ``y``, digits 1..8). A board is two ``uint64`` masks, ``P`` (side to move) and ``O``
(opponent). Every constant and every shift amount is ``np.uint64``: mixing Python ints into uint64
arithmetic makes numba silently fall back to float64.

Move generation is a doubling fill in four axes (runs of up to six in four steps, as Edax's
``get_some_moves``); flips take, along each of the eight rays from the move square, the first
square that is not the opponent's (one bit scan) and keep the run when that square is ours. Bit
counts and scans are LLVM intrinsics (``ime.core.bits``), one instruction each on x86-64.
The same kernels serve perft, the bots' searches, the exact solver and the Python game API.
Everything here is a pure function of its arguments so searches and perft can call it from
nopython code.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ime.core.bits import ctlz, ctpop, cttz

U64 = np.uint64
ZERO = U64(0)
ONE = U64(1)
FULL = U64(0xFFFFFFFFFFFFFFFF)
HIGH_BIT = U64(0x8000000000000000)
INNER_COLS = U64(0x7E7E7E7E7E7E7E7E)  # x in 1..6: blocks wrap-around in E/W/diagonal fills
S1 = U64(1)
S7 = U64(7)
S8 = U64(8)
S9 = U64(9)
S2 = U64(2)
S14 = U64(14)
S16 = U64(16)
S18 = U64(18)

PASS = 64  # action code of a pass; squares are 0..63
BLACK_START = U64((1 << (4 * 8 + 3)) | (1 << (3 * 8 + 4)))  # (3,4) and (4,3)
WHITE_START = U64((1 << (3 * 8 + 3)) | (1 << (4 * 8 + 4)))  # (3,3) and (4,4)


@njit(cache=True, inline="always")
def popcount(b):
    """Number of set bits of a board (callable from Python as well as from nopython code)."""
    return ctpop(b)


@njit(cache=True, inline="always")
def lowest_bit_index(b):
    """Index of the least significant set bit (64 for an empty board)."""
    return cttz(b)


def _ray_table() -> np.ndarray:
    """RAYS[sq, d]: the squares from ``sq`` (exclusive) to the board edge in direction ``d``; d 0..3
    run towards higher bit indices (E, N, NE, NW), d 4..7 towards lower ones (W, S, SW, SE)."""
    dirs = [(1, 0), (0, 1), (1, 1), (-1, 1), (-1, 0), (0, -1), (-1, -1), (1, -1)]
    out = np.zeros((64, 8), dtype=np.uint64)
    for sq in range(64):
        for d, (dx, dy) in enumerate(dirs):
            x, y, m = sq % 8 + dx, sq // 8 + dy, 0
            while 0 <= x < 8 and 0 <= y < 8:
                m |= 1 << (y * 8 + x)
                x, y = x + dx, y + dy
            out[sq, d] = m
    return out


RAYS = _ray_table()


@njit(cache=True, inline="always")
def _moves_dir(P, O, s, s2):
    """Squares (not yet masked by emptiness) where ``P`` outflanks runs of ``O`` along shift ``s``,
    both ways: a doubling fill, runs of up to six in four steps (Edax's ``get_some_moves``)."""
    fl = O & (P << s)
    fr = O & (P >> s)
    fl |= O & (fl << s)
    fr |= O & (fr >> s)
    pl = O & (O << s)
    pr = pl >> s
    fl |= pl & (fl << s2)
    fr |= pr & (fr >> s2)
    fl |= pl & (fl << s2)
    fr |= pr & (fr >> s2)
    return (fl << s) | (fr >> s)


@njit(cache=True, inline="always")
def legal_moves_inline(P, O):
    """:func:`legal_moves`, inlined into the caller (numba IR inlining: hot loops such as perft's
    and the solver's skip a call per node)."""
    h = O & INNER_COLS
    m = _moves_dir(P, h, S1, S2)
    m |= _moves_dir(P, O, S8, S16)
    m |= _moves_dir(P, h, S7, S14)
    m |= _moves_dir(P, h, S9, S18)
    return m & ~(P | O)


@njit(cache=True, inline="always")
def _ray_up(P, O, m):
    """Flips along a ray towards higher bits: the O-run from the square up to the first non-O,
    kept only when that square is ``P``'s."""
    x = m & ~O
    first = x & (~x + ONE)
    if first & P:
        return (first - ONE) & m
    return ZERO


@njit(cache=True, inline="always")
def _ray_down(P, O, m):
    """The same towards lower bits: the first non-O is the highest set bit (``ctlz``). Or-ing in
    bit 0 keeps the scan defined on an all-O ray; that bit is then rejected by ``& m`` (square 0
    is on the ray only if it is O's, hence not P's)."""
    hb = HIGH_BIT >> U64(ctlz((m & ~O) | ONE))
    if hb & P & m:
        return m & ~((hb << ONE) - ONE)
    return ZERO


@njit(cache=True, inline="always")
def flips_inline(P, O, sq):
    """Discs of ``O`` flipped when the side owning ``P`` plays square ``sq`` (0..63): per-square
    ray masks and one bit scan per ray, no fills. Inlined into the caller; see :func:`flips`."""
    return (
        _ray_up(P, O, RAYS[sq, 0])
        | _ray_up(P, O, RAYS[sq, 1])
        | _ray_up(P, O, RAYS[sq, 2])
        | _ray_up(P, O, RAYS[sq, 3])
        | _ray_down(P, O, RAYS[sq, 4])
        | _ray_down(P, O, RAYS[sq, 5])
        | _ray_down(P, O, RAYS[sq, 6])
        | _ray_down(P, O, RAYS[sq, 7])
    )


@njit(cache=True)
def legal_moves(P, O):
    """Bitboard of squares where the side owning ``P`` may play."""
    return legal_moves_inline(P, O)


@njit(cache=True)
def flips(P, O, sq):
    """Discs of ``O`` flipped when the side owning ``P`` plays square ``sq`` (0..63)."""
    return flips_inline(P, O, sq)


@njit(cache=True)
def play(P, O, sq):
    """One move of the game API in one compiled call: ``(moves, P', O', over)``, where ``moves``
    are the mover's legal moves before it (for the caller's legality check), ``P'``/``O'`` the
    mover's and the opponent's discs after playing ``sq`` (0..63) and ``over`` whether neither
    side can move then. :meth:`ReversiState.apply_action` used to make four calls (moves, flips
    and both sides' moves after), each paying numba's dispatch; a fork replays thousands."""
    moves = legal_moves_inline(P, O)
    f = flips_inline(P, O, sq)
    nP = P | f | (ONE << U64(sq))
    nO = O ^ f
    over = legal_moves_inline(nO, nP) == ZERO and legal_moves_inline(nP, nO) == ZERO
    return moves, nP, nO, over


@njit(cache=True)
def perft(P, O, depth):
    """Leaf count, classic convention: a forced pass uses one ply; an ended game is one leaf."""
    moves = legal_moves_inline(P, O)
    if moves == ZERO:
        if legal_moves_inline(O, P) == ZERO:
            return np.int64(1)
        if depth == 1:
            return np.int64(1)
        return perft(O, P, depth - 1)
    if depth == 1:
        return ctpop(moves)
    total = np.int64(0)
    if depth == 2:  # count the replies in place: saves a call per depth-1 node
        while moves:
            sq = cttz(moves)
            moves &= moves - ONE
            f = flips_inline(P, O, sq)
            nP = O ^ f
            nO = P | f | (ONE << U64(sq))
            replies = legal_moves_inline(nP, nO)
            total += ctpop(replies) if replies else np.int64(1)
        return total
    while moves:
        sq = lowest_bit_index(moves)
        moves &= moves - ONE
        f = flips_inline(P, O, sq)
        total += perft(O ^ f, P | f | (ONE << U64(sq)), depth - 1)
    return total


MASK64 = (1 << 64) - 1


def legal_moves_python(p: int, o: int) -> int:
    """:func:`legal_moves` in plain Python ints, by another method (six-step fills in eight
    directions): the reference the compiled kernels are checked against."""
    empty = ~(p | o) & MASK64
    h = o & 0x7E7E7E7E7E7E7E7E
    out = 0
    for s, m in ((1, h), (8, o), (7, h), (9, h)):
        t = m & (p << s)
        for _ in range(5):
            t |= m & (t << s)
        out |= t << s
        t = m & (p >> s)
        for _ in range(5):
            t |= m & (t >> s)
        out |= t >> s
    return out & empty


def flips_python(p: int, o: int, sq: int) -> int:
    """:func:`flips` in plain Python ints, by fills from the move square (the reference)."""
    mv = 1 << sq
    h = o & 0x7E7E7E7E7E7E7E7E
    f = 0
    for s, m in ((1, h), (8, o), (7, h), (9, h)):
        t = m & (mv << s)
        for _ in range(5):
            t |= m & (t << s)
        if (t << s) & p:
            f |= t
        t = m & (mv >> s)
        for _ in range(5):
            t |= m & (t >> s)
        if (t >> s) & p:
            f |= t
    return f & MASK64


def perft_python(P: int, O: int, depth: int) -> int:
    """The same perft in plain Python ints: the yardstick the numba kernel is measured against."""

    def rec(p: int, o: int, d: int) -> int:
        mv = legal_moves_python(p, o)
        if mv == 0:
            if legal_moves_python(o, p) == 0 or d == 1:
                return 1
            return rec(o, p, d - 1)
        if d == 1:
            return bin(mv).count("1")
        total = 0
        while mv:
            low = mv & -mv
            sq = low.bit_length() - 1
            mv ^= low
            f = flips_python(p, o, sq)
            total += rec(o ^ f, (p | f | low) & MASK64, d - 1)
        return total

    return rec(P, O, depth)
