"""Reversi bitboard kernels, compiled with numba (cached on disk).

Layout: bit ``i = y * 8 + x`` where ``x`` is the column (Botzone ``x``, letters A..H) and ``y`` the
row (Botzone ``y``, digits 1..8). A board is two ``uint64`` masks, ``P`` (side to move) and ``O``
(opponent). Every constant and every shift amount is ``np.uint64``: mixing Python ints into uint64
arithmetic makes numba silently fall back to float64.

Move generation is the classic "dumb7fill" in eight directions; flips reuse the same fill from the
move square. Everything here is a pure function of its arguments so searches and perft can call
it from nopython code.
"""

from __future__ import annotations

import numpy as np
from numba import njit

U64 = np.uint64
ZERO = U64(0)
ONE = U64(1)
FULL = U64(0xFFFFFFFFFFFFFFFF)
INNER_COLS = U64(0x7E7E7E7E7E7E7E7E)  # x in 1..6: blocks wrap-around in E/W/diagonal fills
S1 = U64(1)
S7 = U64(7)
S8 = U64(8)
S9 = U64(9)

PASS = 64  # action code of a pass; squares are 0..63
BLACK_START = U64((1 << (4 * 8 + 3)) | (1 << (3 * 8 + 4)))  # (3,4) and (4,3)
WHITE_START = U64((1 << (3 * 8 + 3)) | (1 << (4 * 8 + 4)))  # (3,3) and (4,4)


@njit(cache=True, inline="always")
def popcount(b):
    b = b - ((b >> S1) & U64(0x5555555555555555))
    b = (b & U64(0x3333333333333333)) + ((b >> U64(2)) & U64(0x3333333333333333))
    b = (b + (b >> U64(4))) & U64(0x0F0F0F0F0F0F0F0F)
    return np.int64((b * U64(0x0101010101010101)) >> U64(56))


@njit(cache=True, inline="always")
def lowest_bit_index(b):
    """Index of the least significant set bit of a non-zero board."""
    return popcount((b & (~b + ONE)) - ONE)


@njit(cache=True, inline="always")
def _fill_left(P, m, s):
    t = m & (P << s)
    t |= m & (t << s)
    t |= m & (t << s)
    t |= m & (t << s)
    t |= m & (t << s)
    t |= m & (t << s)
    return t << s


@njit(cache=True, inline="always")
def _fill_right(P, m, s):
    t = m & (P >> s)
    t |= m & (t >> s)
    t |= m & (t >> s)
    t |= m & (t >> s)
    t |= m & (t >> s)
    t |= m & (t >> s)
    return t >> s


@njit(cache=True)
def legal_moves(P, O):
    """Bitboard of squares where the side owning ``P`` may play."""
    empty = ~(P | O)
    h = O & INNER_COLS
    moves = _fill_left(P, h, S1) | _fill_right(P, h, S1)
    moves |= _fill_left(P, O, S8) | _fill_right(P, O, S8)
    moves |= _fill_left(P, h, S7) | _fill_right(P, h, S7)
    moves |= _fill_left(P, h, S9) | _fill_right(P, h, S9)
    return moves & empty


@njit(cache=True, inline="always")
def _ray_left(mv, P, m, s):
    t = m & (mv << s)
    t |= m & (t << s)
    t |= m & (t << s)
    t |= m & (t << s)
    t |= m & (t << s)
    t |= m & (t << s)
    if (t << s) & P:
        return t
    return ZERO


@njit(cache=True, inline="always")
def _ray_right(mv, P, m, s):
    t = m & (mv >> s)
    t |= m & (t >> s)
    t |= m & (t >> s)
    t |= m & (t >> s)
    t |= m & (t >> s)
    t |= m & (t >> s)
    if (t >> s) & P:
        return t
    return ZERO


@njit(cache=True)
def flips(P, O, sq):
    """Discs of ``O`` flipped when the side owning ``P`` plays square ``sq`` (0..63)."""
    mv = ONE << U64(sq)
    h = O & INNER_COLS
    f = _ray_left(mv, P, h, S1) | _ray_right(mv, P, h, S1)
    f |= _ray_left(mv, P, O, S8) | _ray_right(mv, P, O, S8)
    f |= _ray_left(mv, P, h, S7) | _ray_right(mv, P, h, S7)
    f |= _ray_left(mv, P, h, S9) | _ray_right(mv, P, h, S9)
    return f


@njit(cache=True)
def perft(P, O, depth):
    """Leaf count, classic convention: a forced pass uses one ply; an ended game is one leaf."""
    moves = legal_moves(P, O)
    if moves == ZERO:
        if legal_moves(O, P) == ZERO:
            return np.int64(1)
        if depth == 1:
            return np.int64(1)
        return perft(O, P, depth - 1)
    if depth == 1:
        return popcount(moves)
    total = np.int64(0)
    while moves:
        sq = lowest_bit_index(moves)
        moves &= moves - ONE
        f = flips(P, O, sq)
        total += perft(O ^ f, P | f | (ONE << U64(sq)), depth - 1)
    return total


def perft_python(P: int, O: int, depth: int) -> int:
    """The same perft in plain Python ints: the yardstick the numba kernel is measured against."""
    mask64 = (1 << 64) - 1
    inner = 0x7E7E7E7E7E7E7E7E

    def moves_of(p: int, o: int) -> int:
        empty = ~(p | o) & mask64
        h = o & inner
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

    def flips_of(p: int, o: int, sq: int) -> int:
        mv = 1 << sq
        h = o & inner
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
        return f

    def rec(p: int, o: int, d: int) -> int:
        mv = moves_of(p, o)
        if mv == 0:
            if moves_of(o, p) == 0 or d == 1:
                return 1
            return rec(o, p, d - 1)
        if d == 1:
            return bin(mv).count("1")
        total = 0
        while mv:
            low = mv & -mv
            sq = low.bit_length() - 1
            mv ^= low
            f = flips_of(p, o, sq)
            total += rec(o ^ f, (p | f | low) & mask64, d - 1)
        return total

    return rec(P, O, depth)
