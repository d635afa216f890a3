"""Connect Four bitboards for boards over 64 bits (the course boards of seed 002, up to 12x12).

Same layout as ``board`` (Pons': cell ``(x, y)`` at bit ``x * S + y``, ``S = height + 1``, one
empty sentinel bit on top of every column), but a board is **three** ``uint64`` words, a
192-bit number held as a numba ``UniTuple(uint64, 3)``, low word first. Two words would not do:
the seed's largest board, 12x12, needs ``12 * 13 = 156`` bits (11x11 already needs 132). Tuples
are values in numba (no heap allocation per operation), so a kernel here is the 64-bit kernel
with every ``|``, ``&``, ``+`` and shift spelt as a three-word function; the carry of ``+``
crosses words (a column may straddle a word boundary), and every shift is by ``0 < n < 64``
(the largest, ``3 * (S + 1)``, is 42 for ``S = 13``), so a shift moves bits across one word
boundary at most.

The 7x6 and every other board of at most 64 bits keep ``board``'s one-word kernels (their speed
is unchanged); ``Geometry.wide`` says which family a board uses. Outside numba (the game state,
the encoder) a wide board is a plain Python ``int``: Python's unbounded integers run the very
same formulas (:func:`py_possible`, :func:`py_has_four`); :func:`to_words` and
:func:`from_words` convert at the boundary.

The geometry of a wide board travels to the kernels as ``g`` (the scalar entries of ``board``'s
``G_*`` vector: stride, width, height, cells) and ``gw``, a ``uint64[3 + width, 3]`` array:
row ``GW_BOTTOM``, ``GW_PLAYABLE``, ``GW_BLOCKED``, then the cells of column ``x`` at row
``GW_COLUMN + x``.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ime.core.bits import ctpop, cttz
from ime.games.connect4.board import G_STRIDE, ONE, U64, ZERO

WORDS = 3
MAX_BITS = 64 * WORDS
"""A wide board needs ``width * (height + 1) <= MAX_BITS``."""
MASK64 = (1 << 64) - 1
GW_BOTTOM, GW_PLAYABLE, GW_BLOCKED, GW_COLUMN = 0, 1, 2, 3
SIXTY_FOUR = U64(64)


def to_words(b: int) -> tuple[np.uint64, np.uint64, np.uint64]:
    """A Python int of at most 192 bits as the kernels' word triple (low word first)."""
    b = int(b)
    return U64(b & MASK64), U64((b >> 64) & MASK64), U64((b >> 128) & MASK64)


def from_words(w) -> int:
    """A word triple back to a Python int."""
    return int(w[0]) | (int(w[1]) << 64) | (int(w[2]) << 128)


def geometry_words(bottom: int, playable: int, blocked: int, columns: list[int]) -> np.ndarray:
    """The ``gw`` array of a board from its Python-int masks."""
    rows = [bottom, playable, blocked, *columns]
    return np.array([to_words(r) for r in rows], dtype=np.uint64).reshape(len(rows), WORDS)


# --- Python-int rules (the game state of a wide board) -------------------------------------------
def py_possible(me: int, opp: int, bottom: int, playable: int, blocked: int) -> int:
    """The next cell of every column that is not full (``board.possible`` on Python ints)."""
    return ((me | opp | blocked) + bottom) & playable


def py_has_four(p: int, stride: int) -> bool:
    """Whether ``p`` holds four in a row (``board.has_four`` on Python ints)."""
    for d in (1, stride, stride - 1, stride + 1):
        m = p & (p >> d)
        if m & (m >> (2 * d)):
            return True
    return False


# --- three-word arithmetic (numba) ---------------------------------------------------------------
@njit(cache=True, inline="always")
def row(gw, i):
    """Row ``i`` of ``gw`` as a word triple."""
    return (gw[i, 0], gw[i, 1], gw[i, 2])


@njit(cache=True, inline="always")
def w_or(a, b):
    return (a[0] | b[0], a[1] | b[1], a[2] | b[2])


@njit(cache=True, inline="always")
def w_and(a, b):
    return (a[0] & b[0], a[1] & b[1], a[2] & b[2])


@njit(cache=True, inline="always")
def w_andnot(a, b):
    """``a & ~b``."""
    return (a[0] & ~b[0], a[1] & ~b[1], a[2] & ~b[2])


@njit(cache=True, inline="always")
def w_add(a, b):
    """``a + b`` modulo 2^192, the carry crossing words."""
    s0 = a[0] + b[0]
    c0 = U64(1) if s0 < a[0] else U64(0)
    t1 = a[1] + b[1]
    s1 = t1 + c0
    c1 = U64(1) if (t1 < a[1]) or (s1 < t1) else U64(0)
    s2 = a[2] + b[2] + c1
    return (s0, s1, s2)


@njit(cache=True, inline="always")
def w_shl(a, n):
    """``a << n`` for ``0 < n < 64`` (bits beyond 192 drop, as beyond 64 in one word)."""
    m = SIXTY_FOUR - n
    return (a[0] << n, (a[1] << n) | (a[0] >> m), (a[2] << n) | (a[1] >> m))


@njit(cache=True, inline="always")
def w_shr(a, n):
    """``a >> n`` for ``0 < n < 64``."""
    m = SIXTY_FOUR - n
    return ((a[0] >> n) | (a[1] << m), (a[1] >> n) | (a[2] << m), a[2] >> n)


@njit(cache=True, inline="always")
def w_any(a):
    return (a[0] | a[1] | a[2]) != ZERO


@njit(cache=True, inline="always")
def w_popcount(a):
    return ctpop(a[0]) + ctpop(a[1]) + ctpop(a[2])


@njit(cache=True, inline="always")
def w_lowest_index(a):
    """Index of the lowest set bit (192 for an empty board)."""
    if a[0] != ZERO:
        return cttz(a[0])
    if a[1] != ZERO:
        return 64 + cttz(a[1])
    return 128 + cttz(a[2])


@njit(cache=True, inline="always")
def w_lowest(a):
    """The lowest set bit alone."""
    if a[0] != ZERO:
        return (a[0] & (~a[0] + ONE), ZERO, ZERO)
    if a[1] != ZERO:
        return (ZERO, a[1] & (~a[1] + ONE), ZERO)
    return (ZERO, ZERO, a[2] & (~a[2] + ONE))


@njit(cache=True, inline="always")
def w_drop_lowest(a):
    """``a`` without its lowest set bit."""
    if a[0] != ZERO:
        return (a[0] & (a[0] - ONE), a[1], a[2])
    if a[1] != ZERO:
        return (a[0], a[1] & (a[1] - ONE), a[2])
    if a[2] != ZERO:
        return (a[0], a[1], a[2] & (a[2] - ONE))
    return a


# --- kernels (the wide twins of board's) ---------------------------------------------------------
@njit(cache=True, inline="always")
def possible(me, opp, gw):
    """The next cell of every column that is not full: ``(filled + bottom) & playable``."""
    filled = w_or(w_or(me, opp), row(gw, GW_BLOCKED))
    return w_and(w_add(filled, row(gw, GW_BOTTOM)), row(gw, GW_PLAYABLE))


@njit(cache=True, inline="always")
def column_cells(col, gw):
    """Every cell of column ``col`` (blocked ones included; mask with ``possible``)."""
    return row(gw, GW_COLUMN + col)


@njit(cache=True, inline="always")
def bit_column(b, g):
    """Column of the (lowest) cell of ``b``."""
    return w_lowest_index(b) // np.int64(g[G_STRIDE])


@njit(cache=True, inline="always")
def _line4(p, s):
    m = w_and(p, w_shr(p, s))
    return w_and(m, w_shr(m, s + s))


@njit(cache=True)
def has_four(p, g):
    """Whether ``p`` holds four in a row (vertical, horizontal or diagonal)."""
    s = g[G_STRIDE]
    return (w_any(_line4(p, ONE)) or w_any(_line4(p, s)) or w_any(_line4(p, s - ONE))
            or w_any(_line4(p, s + ONE)))


@njit(cache=True, inline="always")
def _completing(p, s):
    """Cells that complete a line of four of ``p`` along shift ``s`` (both ways)."""
    a = w_and(w_shl(p, s), w_shl(p, s + s))
    r = w_and(a, w_shl(p, s + s + s))
    r = w_or(r, w_and(a, w_shr(p, s)))
    b = w_and(w_shr(p, s), w_shr(p, s + s))
    r = w_or(r, w_and(b, w_shl(p, s)))
    return w_or(r, w_and(b, w_shr(p, s + s + s)))


@njit(cache=True)
def winning_cells(p, me, opp, g, gw):
    """Empty playable cells (not only the next of a column) where ``p`` would make four."""
    s = g[G_STRIDE]
    r = w_and(w_and(w_shl(p, ONE), w_shl(p, U64(2))), w_shl(p, U64(3)))  # three below
    r = w_or(r, w_or(_completing(p, s), w_or(_completing(p, s - ONE), _completing(p, s + ONE))))
    return w_andnot(w_and(r, row(gw, GW_PLAYABLE)), w_or(me, opp))


@njit(cache=True, inline="always")
def random_bit(b):
    """A uniformly chosen set bit of non-empty ``b`` (numba's seeded generator)."""
    k = np.random.randint(0, w_popcount(b))
    for _ in range(k):
        b = w_drop_lowest(b)
    return w_lowest(b)


@njit(cache=True)
def perft(me, opp, g, gw, depth):
    """Leaves of the game tree ``depth`` plies deep; a won or full position is a leaf."""
    if depth == 0:
        return np.int64(1)
    moves = possible(me, opp, gw)
    if not w_any(moves):
        return np.int64(1)
    total = np.int64(0)
    while w_any(moves):
        m = w_lowest(moves)
        moves = w_drop_lowest(moves)
        mine = w_or(me, m)
        if has_four(mine, g) or depth == 1:
            total += 1
        else:
            total += perft(opp, mine, g, gw, depth - 1)
    return total
