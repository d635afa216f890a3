"""Connect Four bitboards (numba): the geometry of a board and the kernels every search shares.

Layout (Pascal Pons' solver): cell ``(x, y)`` (column ``x`` from the left, row ``y`` from the
bottom) is bit ``x * S + y`` with stride ``S = height + 1``; the extra bit on top of every column
is a sentinel that is never set, so shifting a board by ``1`` (vertical), ``S`` (horizontal),
``S - 1`` and ``S + 1`` (the two diagonals) never wraps a line from one column into the next.
That needs ``width * (height + 1) <= 64``; a larger board (up to 192 bits, e.g. the course's
12x12 of seed 002) is a *wide* board and uses the three-word twins of these kernels in
``wide`` (``Geometry.wide``), so the one-word kernels here stay as fast as they were.

A position is two bitboards, ``me`` (the side to move) and ``opp``. Blocked cells (nobody can
play them) are in neither; they are a constant ``blocked`` board of the geometry. The *filled*
board ``me | opp | blocked`` is a stack from the bottom of every column, so

* the next cell of every column is ``(filled + bottom) & playable``: the carry of the addition
  skips a blocked cell exactly as the rules say (a disc dropped onto a blocked cell lands on the
  cell above it), and a full column carries into its sentinel, which is not playable;
* ``me + filled`` is a unique key of the position (Pons' key: per column, a stack of height
  ``h`` maps into ``[2^h - 1, 2^(h+1) - 2]``).

Blocked cells are in no player's board, so they break lines like an opponent's disc.

Geometry constants travel to the kernels as one ``uint64`` vector ``g`` (indices ``G_*``), so
every kernel has one numba signature whatever the board (``g`` stays a plain writable array:
a read-only copy would compile a second signature of the recursive kernels, and numba cannot
reload a recursive function cached with two). Every constant and shift is
``np.uint64``: mixing Python ints into uint64 arithmetic makes numba fall back to float64.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

import numpy as np
from numba import njit

from ime.core.bits import ctpop as popcount
from ime.core.bits import cttz as lowest_bit_index

U64 = np.uint64
ZERO = U64(0)
ONE = U64(1)

(G_BOTTOM, G_PLAYABLE, G_BLOCKED, G_STRIDE, G_WIDTH, G_HEIGHT, G_CELLS, G_COLUMN,
 G_MIRROR) = range(9)
"""Indices into the geometry vector ``g``: bottom cell of every column, every playable cell,
blocked cells, stride ``S``, width, height, number of playable cells, the cells of column 0,
1 if the blocked cells are mirror-symmetric (left-right) else 0."""


@dataclass(frozen=True)
class Geometry:
    """A board: ``width`` columns of ``height`` cells, ``blocked`` cells ``(x, y)`` from the
    bottom-left. Validates the options and precomputes the bitboard constants."""

    width: int = 7
    height: int = 6
    blocked: tuple[tuple[int, int], ...] = ()
    g: np.ndarray = field(init=False, repr=False, compare=False)
    order: np.ndarray = field(init=False, repr=False, compare=False)
    wide: bool = field(init=False, repr=False, compare=False)
    """More than 64 bits: the three-word kernels of ``wide`` (``gw``, Python-int masks)."""
    gw: np.ndarray = field(init=False, repr=False, compare=False)
    bottom: int = field(init=False, repr=False, compare=False)
    playable: int = field(init=False, repr=False, compare=False)
    blocked_mask: int = field(init=False, repr=False, compare=False)
    columns: tuple[int, ...] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        w, h = self.width, self.height
        if not (isinstance(w, int) and isinstance(h, int)) or w < 1 or h < 1:
            raise ValueError(f"connect4 board needs integer width, height >= 1, got {w}x{h}")
        from ime.games.connect4.wide import MAX_BITS, geometry_words

        if w * (h + 1) > MAX_BITS:
            raise ValueError(f"connect4 board {w}x{h} needs width * (height + 1) = {w * (h + 1)}"
                             f" bits; the bitboards hold 64 (one word: 7x6, 8x7, 9x6) or "
                             f"{MAX_BITS} (three words: up to 12x12, 14x12, 12x14)")
        cells = normalise_blocked(self.blocked, w, h)
        object.__setattr__(self, "blocked", cells)
        s = h + 1
        bottom = sum(1 << (x * s) for x in range(w))
        column = (1 << h) - 1
        board = bottom * column
        blocked = sum(1 << (x * s + y) for x, y in cells)
        wide = w * s > 64
        object.__setattr__(self, "wide", wide)
        object.__setattr__(self, "bottom", bottom)
        object.__setattr__(self, "playable", board & ~blocked)
        object.__setattr__(self, "blocked_mask", blocked)
        object.__setattr__(self, "columns", tuple(column << (x * s) for x in range(w)))
        object.__setattr__(self, "gw", geometry_words(bottom, board & ~blocked, blocked,
                                                      list(self.columns)))
        g = np.zeros(9, dtype=np.uint64)
        if not wide:  # the one-word masks; a wide board's live in gw
            g[G_BOTTOM], g[G_PLAYABLE], g[G_BLOCKED] = bottom, board & ~blocked, blocked
        g[G_STRIDE], g[G_WIDTH], g[G_HEIGHT] = s, w, h
        g[G_CELLS], g[G_COLUMN] = w * h - len(cells), 0 if wide else column
        g[G_MIRROR] = set(cells) == {(w - 1 - x, y) for x, y in cells}
        object.__setattr__(self, "g", g)
        object.__setattr__(self, "order", centre_order(w))

    @property
    def stride(self) -> int:
        return self.height + 1

    @property
    def cells(self) -> int:
        """Playable cells (a full board is a draw)."""
        return int(self.g[G_CELLS])

    def bit(self, x: int, y: int) -> int:
        return 1 << (x * self.stride + y)

    def options(self) -> dict:
        """The board options as ``initdata`` and ``game.params`` spell them."""
        return {"width": self.width, "height": self.height,
                "blocked": [[x, y] for x, y in self.blocked]}

    def mirror_symmetric(self) -> bool:
        """Whether mirroring the columns left-right maps the blocked cells onto themselves."""
        return bool(self.g[G_MIRROR])


def normalise_blocked(blocked: Iterable, width: int, height: int) -> tuple[tuple[int, int], ...]:
    """Blocked cells as sorted ``(x, y)`` pairs; rejects cells off the board and repeats."""
    out = []
    for cell in blocked or ():
        if isinstance(cell, str) or not isinstance(cell, Sequence) or len(cell) != 2:
            raise ValueError(f"a blocked cell is [x, y] (column, row from the bottom), "
                             f"got {cell!r}")
        x, y = (int(v) for v in cell)
        if not (0 <= x < width and 0 <= y < height):
            raise ValueError(f"blocked cell {[x, y]} is off the {width}x{height} board")
        out.append((x, y))
    if len(set(out)) != len(out):
        raise ValueError(f"blocked cells repeat: {sorted(out)}")
    return tuple(sorted(out))


def centre_order(width: int) -> np.ndarray:
    """Columns from the centre outwards, left first on ties (7: 3 2 4 1 5 0 6)."""
    return np.array(sorted(range(width), key=lambda x: (abs(2 * x - (width - 1)), x)),
                    dtype=np.int64)


# --- kernels -------------------------------------------------------------------------------------
@njit(cache=True, inline="always")
def possible(me, opp, g):
    """The next cell of every column that is not full."""
    return ((me | opp | g[G_BLOCKED]) + g[G_BOTTOM]) & g[G_PLAYABLE]


@njit(cache=True, inline="always")
def column_cells(col, g):
    """Every cell of column ``col`` (blocked ones included; mask with ``possible``)."""
    return g[G_COLUMN] << (U64(col) * g[G_STRIDE])


@njit(cache=True, inline="always")
def bit_column(b, g):
    """Column of the (lowest) cell of ``b``."""
    return lowest_bit_index(b) // np.int64(g[G_STRIDE])


@njit(cache=True, inline="always")
def _line4(p, s):
    """Cells starting four of ``p`` in a row along shift ``s``."""
    m = p & (p >> s)
    return m & (m >> (s + s))


@njit(cache=True)
def has_four(p, g):
    """Whether ``p`` holds four in a row (vertical, horizontal or diagonal)."""
    s = g[G_STRIDE]
    return (_line4(p, ONE) | _line4(p, s) | _line4(p, s - ONE) | _line4(p, s + ONE)) != ZERO


@njit(cache=True, inline="always")
def _completing(p, s):
    """Cells that complete a line of four of ``p`` along shift ``s`` (both ways)."""
    a = (p << s) & (p << (s + s))
    r = a & (p << (s + s + s))
    r |= a & (p >> s)
    b = (p >> s) & (p >> (s + s))
    r |= b & (p << s)
    r |= b & (p >> (s + s + s))
    return r


@njit(cache=True)
def winning_cells(p, me, opp, g):
    """Empty playable cells (not only the next of a column) where ``p`` would make four."""
    s = g[G_STRIDE]
    r = (p << ONE) & (p << U64(2)) & (p << U64(3))  # vertical: three below
    r |= _completing(p, s) | _completing(p, s - ONE) | _completing(p, s + ONE)
    return r & g[G_PLAYABLE] & ~(me | opp)


@njit(cache=True)
def under(cells, g):
    """Cells whose next playable cell above is in ``cells`` (a blocked cell is skipped), i.e.
    the cells that, once played, make a cell of ``cells`` playable."""
    blocked = g[G_BLOCKED]
    out = ZERO
    y = cells >> ONE
    while y != ZERO:
        out |= y & ~blocked
        y = (y & blocked) >> ONE
    return out & g[G_PLAYABLE]


@njit(cache=True)
def mirror(b, g):
    """``b`` with its columns in reverse order (left-right mirror, sentinel bits included)."""
    s = g[G_STRIDE]
    w = np.int64(g[G_WIDTH])
    col = (ONE << s) - ONE
    out = ZERO
    for c in range(w):
        out |= ((b >> (U64(c) * s)) & col) << (U64(w - 1 - c) * s)
    return out


@njit(cache=True, inline="always")
def random_bit(b):
    """A uniformly chosen set bit of non-empty ``b`` (numba's seeded generator)."""
    k = np.random.randint(0, popcount(b))
    for _ in range(k):
        b &= b - ONE
    return b & (~b + ONE)


@njit(cache=True)
def perft(me, opp, g, depth):
    """Leaves of the game tree ``depth`` plies deep; a won or full position is a leaf."""
    if depth == 0:
        return np.int64(1)
    moves = possible(me, opp, g)
    if moves == ZERO:  # a full board ends the game: a leaf
        return np.int64(1)
    total = np.int64(0)
    while moves != ZERO:
        m = moves & (~moves + ONE)
        moves ^= m
        mine = me | m
        if has_four(mine, g) or depth == 1:
            total += 1
        else:
            total += perft(opp, mine, g, depth - 1)
    return total
