"""Exact Connect Four solver (numba), after Pascal Pons' solver (connect4.gamesolver.org).

Score of a position for the side to move, in Pons' units: a win by the disc played after ``n``
discs are on the board scores ``(cells + 1 - n) // 2`` (``cells``: playable cells, 42 on 7x6),
so faster wins score higher; a loss is the negated winner's score; a draw is 0. The empty 7x6
board scores +1: the first player wins with their last disc, by playing the centre column.

Search (one numba function per role, each with a single signature):

* ``_negamax``: alpha-beta negamax that never plays a losing move: if the opponent threatens
  two playable wins the node is lost; one threat must be blocked; a move just under an
  opponent's winning cell is never played (``board.under`` handles blocked cells). The score
  window is clamped to what is still reachable. A transposition table keyed by Pons' unique key
  ``me + filled`` keeps a lower and an upper bound per position. Moves are tried by the number
  of winning cells they create (threat ordering), ties centre first.
* ``_solve``: null-window iterative narrowing of the score range (Pons' ``solve``), or only the
  sign with ``weak``.
* ``_analyze``: the score of every column.

Budgets are node counts: a search that would visit more nodes than its budget stops and
reports that it gave up (``None``), so a bot can fall back to something cheaper. The table is
stamped with a generation per call and never consulted across calls, so a result (and whether
the budget ran out) depends on the position and the budget only.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

import numpy as np
from numba import njit

from ime.games.connect4.board import (
    G_BLOCKED,
    G_CELLS,
    G_MIRROR,
    G_WIDTH,
    ONE,
    U64,
    ZERO,
    Geometry,
    column_cells,
    has_four,
    mirror,
    popcount,
    possible,
    under,
    winning_cells,
)

S_NODES, S_BUDGET, S_ABORT, S_GEN, S_BITS = range(5)
"""Indices of the ``stats`` vector shared by the kernels."""
HASH = U64(0x9E3779B97F4A7C15)
NO_BOUND_LO, NO_BOUND_HI = -127, 127
INVALID = -1000
"""Score of a full column in :func:`_analyze`."""


@njit(cache=True, inline="always")
def _trunc_half(x):
    """``x / 2`` rounded toward zero (C integer division, as Pons' search windows use)."""
    return -((-x) // 2) if x < 0 else x // 2


@njit(cache=True)
def _negamax(me, opp, alpha, beta, g, order, tt_key, tt_lo, tt_hi, tt_gen, buf_m, buf_s,
             stats):
    """Score of a position whose side to move cannot win at once: exact inside
    ``(alpha, beta)``, a bound outside it."""
    stats[S_NODES] += 1
    if stats[S_NODES] > stats[S_BUDGET]:
        stats[S_ABORT] = 1
        return np.int64(0)
    cells = np.int64(g[G_CELLS])
    n = popcount(me | opp)
    moves = possible(me, opp, g)
    opp_win = winning_cells(opp, me, opp, g)
    forced = moves & opp_win
    if forced != ZERO:
        if forced & (forced - ONE) != ZERO:  # two threats: lost
            return -((cells - n) // 2)
        moves = forced
    moves &= ~under(opp_win, g)  # never open a winning cell of the opponent
    if moves == ZERO:
        return -((cells - n) // 2)
    if n >= cells - 2:
        return np.int64(0)
    lo = -((cells - 2 - n) // 2)
    if alpha < lo:
        alpha = lo
        if alpha >= beta:
            return alpha
    hi = (cells - 1 - n) // 2
    if beta > hi:
        beta = hi
        if alpha >= beta:
            return beta

    key = me + (me | opp | g[G_BLOCKED])
    if g[G_MIRROR] != ZERO:  # a position and its mirror image share one entry
        mk = mirror(key, g)
        if mk < key:
            key = mk
    idx = np.int64((key * HASH) >> U64(64 - stats[S_BITS]))
    gen = np.int32(stats[S_GEN])
    hit = tt_key[idx] == key and tt_gen[idx] == gen
    if hit:
        if alpha < tt_lo[idx]:
            alpha = np.int64(tt_lo[idx])
            if alpha >= beta:
                return alpha
        if beta > tt_hi[idx]:
            beta = np.int64(tt_hi[idx])
            if alpha >= beta:
                return beta

    count = 0
    for i in range(order.shape[0]):
        m = moves & column_cells(order[i], g)
        if m == ZERO:
            continue
        mine = me | m
        s = popcount(winning_cells(mine, mine, opp, g))
        j = count
        while j > 0 and buf_s[n, j - 1] < s:  # stable: ties keep the centre-first order
            buf_s[n, j] = buf_s[n, j - 1]
            buf_m[n, j] = buf_m[n, j - 1]
            j -= 1
        buf_s[n, j] = s
        buf_m[n, j] = m
        count += 1

    for k in range(count):
        v = -_negamax(opp, me | buf_m[n, k], -beta, -alpha, g, order, tt_key, tt_lo, tt_hi,
                      tt_gen, buf_m, buf_s, stats)
        if stats[S_ABORT] != 0:
            return np.int64(0)
        if v >= beta:
            _store(tt_key, tt_lo, tt_hi, tt_gen, idx, key, gen, v, NO_BOUND_HI)
            return v
        if v > alpha:
            alpha = v
    _store(tt_key, tt_lo, tt_hi, tt_gen, idx, key, gen, NO_BOUND_LO, alpha)
    return alpha


@njit(cache=True, inline="always")
def _store(tt_key, tt_lo, tt_hi, tt_gen, idx, key, gen, lo, hi):
    """Record bounds of ``key``, tightening those already there for the same position."""
    if tt_key[idx] == key and tt_gen[idx] == gen:
        if lo > tt_lo[idx]:
            tt_lo[idx] = lo
        if hi < tt_hi[idx]:
            tt_hi[idx] = hi
    else:
        tt_key[idx] = key
        tt_gen[idx] = gen
        tt_lo[idx] = lo
        tt_hi[idx] = hi


@njit(cache=True)
def _solve(me, opp, weak, g, order, tt_key, tt_lo, tt_hi, tt_gen, buf_m, buf_s, stats):
    """Exact score (or only its sign with ``weak``) for the side to move."""
    cells = np.int64(g[G_CELLS])
    n = popcount(me | opp)
    moves = possible(me, opp, g)
    if moves == ZERO:
        return np.int64(0)
    if winning_cells(me, me, opp, g) & moves:
        return np.int64(1) if weak else (cells + 1 - n) // 2
    lo = -((cells - n) // 2)
    hi = (cells + 1 - n) // 2
    if weak:
        lo = np.int64(-1)
        hi = np.int64(1)
    while lo < hi:
        med = lo + (hi - lo) // 2
        if med <= 0 and _trunc_half(lo) < med:
            med = _trunc_half(lo)
        elif med >= 0 and _trunc_half(hi) > med:
            med = _trunc_half(hi)
        r = _negamax(me, opp, med, med + 1, g, order, tt_key, tt_lo, tt_hi, tt_gen, buf_m,
                     buf_s, stats)
        if stats[S_ABORT] != 0:
            return np.int64(0)
        if r <= med:
            hi = r
        else:
            lo = r
    if weak:
        if lo > 0:
            return np.int64(1)
        if lo < 0:
            return np.int64(-1)
        return np.int64(0)
    return lo


@njit(cache=True)
def _at_least(me, opp, target, g, order, tt_key, tt_lo, tt_hi, tt_gen, buf_m, buf_s, stats):
    """Whether the side to move scores at least ``target``: one null-window search."""
    cells = np.int64(g[G_CELLS])
    n = popcount(me | opp)
    moves = possible(me, opp, g)
    if moves == ZERO:
        return target <= 0
    if winning_cells(me, me, opp, g) & moves:
        return (cells + 1 - n) // 2 >= target
    r = _negamax(me, opp, target - 1, target, g, order, tt_key, tt_lo, tt_hi, tt_gen, buf_m,
                 buf_s, stats)
    return r >= target


@njit(cache=True)
def _analyze(me, opp, weak, g, order, tt_key, tt_lo, tt_hi, tt_gen, buf_m, buf_s, stats):
    """Score of playing each column (``INVALID`` for a full one)."""
    width = np.int64(g[G_WIDTH])
    cells = np.int64(g[G_CELLS])
    n = popcount(me | opp)
    moves = possible(me, opp, g)
    out = np.full(width, INVALID, dtype=np.int64)
    for c in range(width):
        m = moves & column_cells(c, g)
        if m == ZERO:
            continue
        mine = me | m
        if has_four(mine, g):
            out[c] = (cells + 1 - n) // 2
            if weak:
                out[c] = 1
        else:
            out[c] = -_solve(opp, mine, weak, g, order, tt_key, tt_lo, tt_hi, tt_gen, buf_m,
                             buf_s, stats)
        if stats[S_ABORT] != 0:
            break
    return out


@dataclass
class SolveStats:
    nodes: int
    seconds: float


class Solver:
    """A transposition table and work buffers for one board; reuse it across positions.

    ``tt_bits``: log2 of the table's entries (14 bytes each: 2^22 is 58 MB).
    """

    def __init__(self, geometry: Geometry, tt_bits: int = 22):
        if not 8 <= tt_bits <= 30:
            raise ValueError(f"tt_bits must be in 8..30, got {tt_bits}")
        if geometry.wide:  # its keys and kernels are one word; the course boards are not
            raise ValueError(f"the connect4 solver needs width * (height + 1) <= 64; "
                             f"{geometry.width}x{geometry.height} is a wide board (use "
                             f"alphabeta or uct there)")
        self.geometry = geometry
        size = 1 << tt_bits
        self.tt_key = np.zeros(size, dtype=np.uint64)
        self.tt_lo = np.zeros(size, dtype=np.int8)
        self.tt_hi = np.zeros(size, dtype=np.int8)
        self.tt_gen = np.zeros(size, dtype=np.int32)
        self.buf_m = np.zeros((geometry.cells + 1, geometry.width), dtype=np.uint64)
        self.buf_s = np.zeros((geometry.cells + 1, geometry.width), dtype=np.int64)
        self.stats = np.zeros(5, dtype=np.int64)
        self.stats[S_BITS] = tt_bits
        self.last = SolveStats(0, 0.0)

    def _begin(self, budget: int | None, reuse: bool = False) -> None:
        self.stats[S_NODES] = 0
        self.stats[S_ABORT] = 0
        self.stats[S_BUDGET] = np.iinfo(np.int64).max if budget is None else int(budget)
        if not reuse:
            self.stats[S_GEN] = (self.stats[S_GEN] + 1) % (1 << 31)

    def _args(self) -> tuple:
        return (self.geometry.g, self.geometry.order, self.tt_key, self.tt_lo, self.tt_hi,
                self.tt_gen, self.buf_m, self.buf_s, self.stats)

    def solve(self, me: int, opp: int, *, weak: bool = False, budget: int | None = None
              ) -> int | None:
        """Score for the side to move (discs ``me``); ``None`` when over ``budget`` nodes."""
        self._begin(budget)
        t = time.perf_counter()
        r = _solve(U64(me), U64(opp), bool(weak), *self._args())
        self.last = SolveStats(int(self.stats[S_NODES]), time.perf_counter() - t)
        return None if self.stats[S_ABORT] else int(r)

    def at_least(self, me: int, opp: int, target: int, *, budget: int | None = None,
                 reuse: bool = False) -> bool | None:
        """Whether the side to move scores ``>= target`` (one null-window search); ``None``
        when over ``budget``. ``reuse``: keep the table of the previous call (only node counts
        then depend on earlier calls; results are exact either way)."""
        self._begin(budget, reuse)
        t = time.perf_counter()
        r = _at_least(U64(me), U64(opp), int(target), *self._args())
        self.last = SolveStats(int(self.stats[S_NODES]), time.perf_counter() - t)
        return None if self.stats[S_ABORT] else bool(r)

    def analyze(self, me: int, opp: int, *, weak: bool = False, budget: int | None = None
                ) -> np.ndarray | None:
        """Score of each column (``INVALID``: full); ``None`` when over ``budget`` nodes."""
        self._begin(budget)
        t = time.perf_counter()
        r = _analyze(U64(me), U64(opp), bool(weak), *self._args())
        self.last = SolveStats(int(self.stats[S_NODES]), time.perf_counter() - t)
        return None if self.stats[S_ABORT] else r


def solve_state(state, *, weak: bool = False, tt_bits: int = 22) -> int:
    """Exact score of a (non-terminal) state for its side to move."""
    me, opp = state.own_opp()
    r = Solver(state.game.geometry, tt_bits).solve(me, opp, weak=weak)
    assert r is not None
    return r
