"""Generic Connect Four evaluation features (numba, over the engine's bitboards).

Why these: the search imitator's evaluation must be the game's *standard* terms, chosen without
looking at any bot of the zoo, so that what it learns is the target's weighting of common
knowledge, not a copy of its code. They are the textbook terms of Connect Four evaluations
(Allis' "A knowledge-based approach of Connect-Four", 1988, for threats and their row parity;
the open-window count used by most heuristic programs; centre control), each counted for the
side to move ("own") and for the opponent ("opp"):

* ``win1``/``win2``/``win3``: open **windows** (the lines of four playable cells: 69 on the
  7x6 board; a blocked cell breaks a line) holding 1, 2 and 3 of the player's discs and none of
  the other's;
* ``col0`` .. ``col3``: the player's discs by **column class**, the distance of the column from
  the centre (0: the centre column(s), 3: three or more away);
* ``now``: the player's **immediate threats**, the next cells of the columns where a disc makes
  four (for the side to move a win; for the opponent a cell the side to move must take);
* ``odd``/``even``: every empty cell that would complete a four of the player (a **threat**),
  on odd rows (1st, 3rd, 5th from the bottom) and even rows: Allis' zugzwang rule makes the
  first player's odd threats and the second's even threats the valuable ones.

With ``phases=2`` each feature appears twice, weighted by ``e`` and ``1 - e`` for ``e`` the
share of empty playable cells (a tapered opening/endgame evaluation). Every feature of a
position equals the same feature of its left-right mirror on a mirror-symmetric board (tested).
The evaluation is linear: ``w @ features``. Only boards of one 64-bit word are supported (7x6,
8x7, 9x6, ...; the wide boards are refused).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ime.core.bits import ctpop
from ime.games.connect4.board import (
    G_CELLS,
    G_STRIDE,
    Geometry,
    possible,
    winning_cells,
)

U64 = np.uint64
BASE_NAMES = ("own_win1", "own_win2", "own_win3", "opp_win1", "opp_win2", "opp_win3",
              "own_col0", "own_col1", "own_col2", "own_col3", "opp_col0", "opp_col1",
              "opp_col2", "opp_col3", "own_now", "opp_now", "own_odd", "own_even", "opp_odd",
              "opp_even")
NUM_BASE = len(BASE_NAMES)
PHASES = (1, 2)
COLUMN_CLASSES = 4
M_COL, M_ODD, M_EVEN, M_WIN = 0, 4, 5, 6
"""Indices into the masks vector ``m`` (:func:`masks`): the four column classes, the odd and
even rows, the start cells of the windows along shifts 1 (vertical), S (horizontal), S - 1 and
S + 1 (the diagonals)."""


def feature_names(phases: int) -> list[str]:
    """Names of the ``num_features(phases)`` features (``_p<k>`` per phase when tapered)."""
    if phases not in PHASES:
        raise ValueError(f"phases must be one of {PHASES}, got {phases}")
    if phases == 1:
        return list(BASE_NAMES)
    return [f"{n}_p{k}" for k in range(phases) for n in BASE_NAMES]


def num_features(phases: int) -> int:
    return NUM_BASE * phases


def masks(geo: Geometry) -> np.ndarray:
    """The geometry's feature masks (``uint64[10]``, indices ``M_*``)."""
    if geo.wide:
        raise ValueError(f"the Connect Four search imitator supports boards of at most 64 bits; "
                         f"{geo.width}x{geo.height} is a wide board")
    s, w, h = geo.stride, geo.width, geo.height
    playable = geo.playable
    out = [0] * 10
    for x in range(w):
        cls = min(abs(2 * x - (w - 1)) // 2, COLUMN_CLASSES - 1)
        out[M_COL + cls] |= geo.columns[x] & playable
    for x in range(w):
        for y in range(h):
            out[M_ODD if y % 2 == 0 else M_EVEN] |= geo.bit(x, y) & playable
    for k, shift in enumerate((1, s, s - 1, s + 1)):
        start = playable
        for i in range(1, 4):
            start &= playable >> (i * shift)
        out[M_WIN + k] = start
    return np.array(out, dtype=np.uint64)


@njit(cache=True, inline="always")
def _open_windows(p, o, start, s, out, at):
    """Add to ``out[at + k - 1]`` the windows along shift ``s`` holding ``k`` (1..3) discs of
    ``p`` and none of ``o``."""
    s2 = s + s
    s3 = s2 + s
    free = start & ~(o | (o >> s) | (o >> s2) | (o >> s3))
    x0, x1, x2, x3 = p, p >> s, p >> s2, p >> s3
    a, ca = x0 ^ x1, x0 & x1
    b, cb = x2 ^ x3, x2 & x3
    bit0 = a ^ b
    carry = a & b
    bit1 = ca ^ cb ^ carry
    bit2 = (ca & cb) | ((ca ^ cb) & carry)
    low = free & ~bit2
    out[at] += ctpop(low & bit0 & ~bit1)
    out[at + 1] += ctpop(low & ~bit0 & bit1)
    out[at + 2] += ctpop(low & bit0 & bit1)


@njit(cache=True)
def features_into(me, opp, g, m, phases, out):
    """Write the features of (``me`` to move, ``opp``) into ``out[:num_features(phases)]``."""
    base = out[:NUM_BASE]
    for i in range(NUM_BASE):
        base[i] = 0.0
    s = g[G_STRIDE]
    shifts = (U64(1), s, s - U64(1), s + U64(1))
    for k in range(4):
        _open_windows(me, opp, m[M_WIN + k], shifts[k], base, 0)
        _open_windows(opp, me, m[M_WIN + k], shifts[k], base, 3)
    for c in range(COLUMN_CLASSES):
        base[6 + c] = ctpop(me & m[M_COL + c])
        base[10 + c] = ctpop(opp & m[M_COL + c])
    nxt = possible(me, opp, g)
    mine = winning_cells(me, me, opp, g)
    theirs = winning_cells(opp, me, opp, g)
    base[14] = ctpop(mine & nxt)
    base[15] = ctpop(theirs & nxt)
    base[16] = ctpop(mine & m[M_ODD])
    base[17] = ctpop(mine & m[M_EVEN])
    base[18] = ctpop(theirs & m[M_ODD])
    base[19] = ctpop(theirs & m[M_EVEN])
    if phases == 2:
        cells = np.float64(g[G_CELLS])
        e = (cells - ctpop(me | opp)) / cells
        for i in range(NUM_BASE):
            out[NUM_BASE + i] = (1.0 - e) * base[i]
            base[i] = e * base[i]


@njit(cache=True)
def evaluate(me, opp, g, m, w, phases, buf):
    """``w @ features`` of the position, for the side to move (``buf``: scratch of the
    features, left holding them)."""
    features_into(me, opp, g, m, phases, buf)
    v = 0.0
    for i in range(len(w)):
        v += w[i] * buf[i]
    return v


def features(me: int, opp: int, geo: Geometry, phases: int = 1) -> np.ndarray:
    """The features of one position (for tests and inspection)."""
    out = np.zeros(num_features(phases), dtype=np.float64)
    features_into(U64(me), U64(opp), geo.g, masks(geo), np.int64(phases), out)
    return out
