"""The seed's dynamic-programming move generator (seed 004, "基于动态规划的生枝函数"), compiled.

"All types with main rank <= i, plus all types with main rank i + 1, are all types with main rank
<= i + 1": one pass over the ranks keeps the **connection counts** (连击数) ``run[m]``, how many
consecutive ranks ending at the current one hold at least ``m`` cards (``m = 1..4``), and emits
every type whose main rank is the current one, of every length the runs allow. Kickers
(trio types) are enumerated afterwards, as the seed says ("不考虑带牌导致的再次遍历"): every set of
``L`` distinct other ranks holding at least ``k`` cards, in lexicographic order.

* **Leading** (:data:`LEAD`): every type. Order: main rank ascending; within a rank,
  multiplicity 1, 2, 3, 4; within that, length ascending; trio types kicker multiplicity 0, 1,
  2; kickers lexicographic.
* **Following** ``(main, length, mult, kmult)``: only that length, multiplicity and kicker
  multiplicity, the DP starting so that the first main rank emitted is the opponent's + 1;
  then every bomb (main ascending) when the last play is no bomb (a bomb to beat is the
  same-type case). The pass is not emitted: callers add it (the engine lists it first, the
  search tries it last).

Hands and plays are *packed*: 3 bits per rank (count 0..4), rank ``r`` at bits ``3r``; a play is
subtracted from a hand without borrows. ``meta[i] = (main, length, mult, kmult)``.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ime.games.big2.cards import NUM_RANKS
from ime.games.shedding.combinations import first_combination, next_combination

MAX_MOVES = 4096
"""Buffer size per generation; the most moves any hand of <= 26 cards has is far below it
(``tests/games/big2/test_big2_movegen.py`` bounds it on adversarial hands)."""
LEAD = -1
"""``last_main`` when leading."""
MAX_LEN = np.array([[0, 0, 0], [12, 0, 0], [12, 0, 0], [8, 6, 5], [1, 0, 0]], dtype=np.int64)
"""Longest length per (multiplicity, kicker multiplicity) (see :func:`hands.max_length`)."""
MIN_CHAIN = np.array([0, 5, 3, 2, 99], dtype=np.int64)
"""Shortest chain (length > 1) per multiplicity; 99: no chains (bombs)."""
TWO = 12


@njit(cache=True)
def pack(counts: np.ndarray) -> np.int64:
    """13 counts -> a packed hand."""
    p = np.int64(0)
    for r in range(13):
        p |= np.int64(counts[r]) << np.int64(3 * r)
    return p


@njit(cache=True)
def unpack(p: np.int64, out: np.ndarray) -> int:
    """A packed hand -> 13 counts in ``out``; returns the number of cards."""
    n = 0
    for r in range(13):
        c = (p >> np.int64(3 * r)) & np.int64(7)
        out[r] = c
        n += c
    return n


@njit(cache=True)
def _block(lo: int, hi: int, mult: int) -> np.int64:
    p = np.int64(0)
    for r in range(lo, hi + 1):
        p += np.int64(mult) << np.int64(3 * r)
    return p


@njit(cache=True)
def _emit(out_packed, out_meta, n, p, main, length, mult, kmult):
    if n >= out_packed.shape[0]:
        raise ValueError("big2 movegen: more moves than the buffer holds")
    out_packed[n] = p
    out_meta[n, 0] = main
    out_meta[n, 1] = length
    out_meta[n, 2] = mult
    out_meta[n, 3] = kmult
    return n + 1


@njit(cache=True)
def _emit_kickers(counts, main, length, kmult, base, out_packed, out_meta, n):
    """``base`` (the main cards) with every set of ``length`` distinct kicker ranks (outside the
    main ranks, holding >= ``kmult`` cards), lexicographic."""
    lo = main - length + 1
    cand = np.empty(13, np.int64)
    nc = 0
    for r in range(13):
        if (r < lo or r > main) and counts[r] >= kmult:
            cand[nc] = r
            nc += 1
    if nc < length:
        return n
    idx = first_combination(length)
    while True:
        p = base
        for j in range(length):
            p += np.int64(kmult) << np.int64(3 * cand[idx[j]])
        n = _emit(out_packed, out_meta, n, p, main, length, 3, kmult)
        if not next_combination(idx, nc):
            break
    return n


@njit(cache=True)
def _emit_type(counts, i, length, mult, kmult, out_packed, out_meta, n):
    """Every play of one quadruple with main rank ``i`` (the caller checked the main cards)."""
    base = _block(i - length + 1, i, mult)
    if kmult == 0:
        return _emit(out_packed, out_meta, n, base, i, length, mult, 0)
    return _emit_kickers(counts, i, length, kmult, base, out_packed, out_meta, n)


@njit(cache=True)
def _lengths_ok(i, run, mult, length):
    """A chain of ``length`` of ``mult`` ending at rank ``i`` is held and allowed."""
    if run[mult - 1] < length:
        return False
    if length == 1:
        return True
    return i < TWO and length >= MIN_CHAIN[mult]


@njit(cache=True)
def generate(counts, last_main, last_len, last_mult, last_kmult, out_packed, out_meta):
    """Plays of the hand ``counts`` (13 ints) leading (``last_main == LEAD``) or following the
    quadruple ``(last_main, last_len, last_mult, last_kmult)``; returns how many were written
    (see the module doc for the order)."""
    n = 0
    run = np.zeros(4, np.int64)
    if last_main < 0:
        for i in range(13):
            for m in range(4):
                run[m] = run[m] + 1 if counts[i] > m else 0
            for mult in range(1, 5):
                if counts[i] < mult:
                    break
                kmax = 2 if mult == 3 else 0
                top = MAX_LEN[mult, 0]
                for length in range(1, top + 1):
                    if not _lengths_ok(i, run, mult, length):
                        continue
                    for kmult in range(kmax + 1):
                        if length <= MAX_LEN[mult, kmult]:
                            n = _emit_type(counts, i, length, mult, kmult, out_packed,
                                           out_meta, n)
        return n
    start = last_main + 2 - last_len
    if start < 0:
        start = 0
    for i in range(start, 13):
        for m in range(4):
            run[m] = run[m] + 1 if counts[i] > m else 0
        if i > last_main and counts[i] >= last_mult \
                and _lengths_ok(i, run, last_mult, last_len):
            n = _emit_type(counts, i, last_len, last_mult, last_kmult, out_packed, out_meta, n)
    if last_mult != 4:
        for i in range(13):
            if counts[i] == 4:
                n = _emit(out_packed, out_meta, n, _block(i, i, 4), i, 1, 4, 0)
    return n


@njit(cache=True)
def connection_counts(counts):
    """``int64[13, 4]``: the runs of the DP at every rank (see :func:`hands.connection_counts`,
    the same numbers from the compiled pass)."""
    out = np.zeros((13, 4), np.int64)
    run = np.zeros(4, np.int64)
    for i in range(13):
        for m in range(4):
            run[m] = run[m] + 1 if counts[i] > m else 0
            out[i, m] = run[m]
    return out


class Moves:
    """The plays of one generation: ``packed[n]``, ``meta[n, 4]`` and ``counts[n, 13]``."""

    __slots__ = ("n", "packed", "meta", "counts")

    def __init__(self, n: int, packed: np.ndarray, meta: np.ndarray):
        self.n = n
        self.packed = packed[:n].copy()
        self.meta = meta[:n].copy()
        shifts = np.arange(NUM_RANKS, dtype=np.int64) * 3
        self.counts = (self.packed[:, None] >> shifts[None, :]) & 7


def generate_moves(counts: np.ndarray, last: tuple[int, int, int, int] | None) -> Moves:
    """The plays of ``counts`` leading (``last`` None) or following quadruple ``last``."""
    packed = np.empty(MAX_MOVES, np.int64)
    meta = np.empty((MAX_MOVES, 4), np.int64)
    c = np.ascontiguousarray(counts, dtype=np.int64)
    if last is None:
        n = generate(c, LEAD, 0, 0, 0, packed, meta)
    else:
        n = generate(c, int(last[0]), int(last[1]), int(last[2]), int(last[3]), packed, meta)
    return Moves(n, packed, meta)


__all__ = ["LEAD", "MAX_MOVES", "Moves", "connection_counts", "generate", "generate_moves",
           "pack", "unpack"]
