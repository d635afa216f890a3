"""Hand decomposition ("拆牌") and valuation, shared by the split bots (``ddz1`` .. ``ddz3``).

A *split* partitions a hand (15 rank counts) into combinations that could each be led: the
chains (straights, pair straights, airplanes) chosen by a search, then per rank of what is left
a bomb (4), a trio (3), a pair (2) or a single (1), the two jokers together a rocket. Trios and
airplanes then take kickers: each body of ``k`` trios takes the ``k`` lowest free singles of
rank ``<= kicker_max`` (never a rank of its own body), else the ``k`` lowest such pairs.

The value of a split (a :class:`Valuation` gives the numbers)::

    value = sum(combo values) - turn_penalty * turns
    combo value = rank_value[top main rank] + kind_bonus[kind] + chain_bonus[kind] * extra
    turns = number of combinations that are not bombs or the rocket

where ``extra`` is the chain length beyond the shortest of its kind (5 for straights, 3 for pair
straights, 2 for airplanes). A hand's value is the best split's. ``turns`` approximates how many
times the hand must win the lead to empty itself, so the penalty makes fewer, longer
combinations worth more; small cards have negative values, so shedding them raises the value.

The chain search is an explicit-stack depth-first walk (numba, no recursion) over every
multiset of fitting chains in a canonical order; it stops after ``max_nodes`` chain sets
(deterministic, so a bot's decision never depends on time).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache

import numpy as np
from numba import njit

from ime.games.doudizhu.combos import Combo, combo_from_counts

SINGLE, PAIR, TRIO, TRIO_SINGLE, TRIO_PAIR = 1, 2, 3, 4, 5
STRAIGHT, PAIR_STRAIGHT, AIRPLANE, AIRPLANE_SINGLES, AIRPLANE_PAIRS = 6, 7, 8, 9, 10
BOMB, ROCKET = 16, 17

# layout of the parameter vector handed to the kernels
_RV, _KB, _CB, _TURN, _KMAX = 0, 15, 33, 51, 52
N_PARAMS = 53
MAX_COMBOS = 20


@dataclass(frozen=True)
class Valuation:
    """The numbers of a split value (see the module doc).

    ``rank_values``: 15 values, ranks 3 .. 2, small joker, big joker; ``kind_bonus`` /
    ``chain_bonus``: by :class:`~ime.games.doudizhu.combos.ComboType` name (missing: 0);
    ``max_nodes``: chain sets searched at most.
    """

    rank_values: tuple[float, ...]
    kind_bonus: tuple[tuple[str, float], ...] = ()
    chain_bonus: tuple[tuple[str, float], ...] = ()
    turn_penalty: float = 7.0
    kicker_max: int = 11
    max_nodes: int = 3000
    array: np.ndarray = field(init=False, repr=False, compare=False, hash=False)

    def __post_init__(self) -> None:
        from ime.games.doudizhu.combos import ComboType

        if len(self.rank_values) != 15:
            raise ValueError("rank_values needs 15 entries (3 .. 2, small joker, big joker)")
        a = np.zeros(N_PARAMS, dtype=np.float64)
        a[_RV:_RV + 15] = self.rank_values
        for base, pairs in ((_KB, self.kind_bonus), (_CB, self.chain_bonus)):
            for name, v in pairs:
                a[base + int(ComboType[name.upper()])] = v
        a[_TURN] = self.turn_penalty
        a[_KMAX] = self.kicker_max
        object.__setattr__(self, "array", a)

    @classmethod
    def make(cls, rank_values, kind_bonus=None, chain_bonus=None, **kw) -> Valuation:
        """A valuation from plain mappings (config-friendly)."""
        return cls(tuple(float(v) for v in rank_values),
                   tuple(sorted((k, float(v)) for k, v in (kind_bonus or {}).items())),
                   tuple(sorted((k, float(v)) for k, v in (chain_bonus or {}).items())), **kw)


@dataclass(frozen=True)
class Split:
    """A hand's best split: its value, its turns and its combinations (kickers attached)."""

    value: float
    turns: int
    combos: tuple[Combo, ...]


# --- kernels -------------------------------------------------------------------------------------
@njit(cache=True)
def _candidates(h, out):
    """Every chain fitting ``h`` as rows ``(kind, start, length, need)``, canonical order."""
    n = 0
    for kind, need, lo, hi in ((STRAIGHT, 1, 5, 12), (PAIR_STRAIGHT, 2, 3, 10),
                               (AIRPLANE, 3, 2, 6)):
        for start in range(12):
            run = 0
            for r in range(start, 12):
                if h[r] < need:
                    break
                run += 1
            for length in range(lo, min(hi, run) + 1):
                out[n, 0] = kind
                out[n, 1] = start
                out[n, 2] = length
                out[n, 3] = need
                n += 1
    return n


@njit(cache=True)
def _row(out_meta, out_counts, m, kind, rank, chain):
    out_meta[m, 0] = kind
    out_meta[m, 1] = rank
    out_meta[m, 2] = chain
    for r in range(15):
        out_counts[m, r] = 0


@njit(cache=True)
def _leaf(cur, chosen, depth, cand, p, write, out_meta, out_counts):
    """Value and turns of the chains ``cand[chosen[:depth]]`` plus the rest ``cur``; with
    ``write`` the combinations go to ``out_*`` and their number is returned too."""
    value = 0.0
    turns = 0
    m = 0
    body_start = np.empty(16, np.int64)
    body_len = np.empty(16, np.int64)
    nb = 0
    for d in range(depth):
        kind, start, length, need = cand[chosen[d], 0], cand[chosen[d], 1], \
            cand[chosen[d], 2], cand[chosen[d], 3]
        if kind == AIRPLANE:
            body_start[nb] = start
            body_len[nb] = length
            nb += 1
            continue
        lo = 5 if kind == STRAIGHT else 3
        value += p[_RV + start + length - 1] + p[_KB + kind] + p[_CB + kind] * (length - lo)
        turns += 1
        if write:
            _row(out_meta, out_counts, m, kind, start, length)
            for r in range(start, start + length):
                out_counts[m, r] = need
            m += 1
    single = np.zeros(15, np.bool_)
    pair = np.zeros(15, np.bool_)
    for r in range(13):
        c = cur[r]
        if c == 4:
            value += p[_KB + BOMB] + p[_RV + r]
            if write:
                _row(out_meta, out_counts, m, BOMB, r, 1)
                out_counts[m, r] = 4
                m += 1
        elif c == 3:
            body_start[nb] = r
            body_len[nb] = 1
            nb += 1
        elif c == 2:
            pair[r] = True
        elif c == 1:
            single[r] = True
    if cur[13] == 1 and cur[14] == 1:
        value += p[_KB + ROCKET]
        if write:
            _row(out_meta, out_counts, m, ROCKET, 13, 1)
            out_counts[m, 13] = 1
            out_counts[m, 14] = 1
            m += 1
    else:
        single[13] = cur[13] == 1
        single[14] = cur[14] == 1
    kmax = int(p[_KMAX])
    # bodies: airplanes (chosen order) first, then trios by rank; kickers lowest first
    for b in range(nb):
        s, length = body_start[b], body_len[b]
        top = s + length - 1
        k_single = 0
        k_pair = 0
        for r in range(min(kmax, 14) + 1):
            if r >= s and r <= top:
                continue
            if single[r]:
                k_single += 1
            if pair[r] and r < 13:
                k_pair += 1
        size = 1 if k_single >= length else (2 if k_pair >= length else 0)
        if length == 1:
            kind = TRIO if size == 0 else (TRIO_SINGLE if size == 1 else TRIO_PAIR)
        else:
            kind = AIRPLANE if size == 0 else (AIRPLANE_SINGLES if size == 1
                                               else AIRPLANE_PAIRS)
        value += p[_RV + top] + p[_KB + kind] + p[_CB + kind] * max(length - 2, 0)
        turns += 1
        if write:
            _row(out_meta, out_counts, m, kind, s, length)
            for r in range(s, top + 1):
                out_counts[m, r] = 3
        if size > 0:
            taken = 0
            for r in range(min(kmax, 14) + 1):
                if taken == length:
                    break
                if r >= s and r <= top:
                    continue
                if size == 1 and single[r]:
                    single[r] = False
                elif size == 2 and pair[r] and r < 13:
                    pair[r] = False
                else:
                    continue
                taken += 1
                if write:
                    out_counts[m, r] = size
        if write:
            m += 1
    for r in range(15):
        if single[r] or pair[r]:
            kind = SINGLE if single[r] else PAIR
            value += p[_RV + r] + p[_KB + kind]
            turns += 1
            if write:
                _row(out_meta, out_counts, m, kind, r, 1)
                out_counts[m, r] = 1 if single[r] else 2
                m += 1
    return value - p[_TURN] * turns, turns, m


@njit(cache=True)
def split_search(h, p, max_nodes, out_meta, out_counts):
    """``(value, turns, n_combos, nodes)`` of the best split of ``h`` (ties: the first found);
    its combinations are written to ``out_meta`` (kind, rank, chain) / ``out_counts``."""
    cand = np.empty((160, 4), np.int64)
    nc = _candidates(h, cand)
    cur = h.copy()
    chosen = np.zeros(12, np.int64)
    best_chosen = np.zeros(12, np.int64)
    nxt = np.zeros(13, np.int64)
    best, best_turns, _ = _leaf(cur, chosen, 0, cand, p, False, out_meta, out_counts)
    best_depth = 0
    depth = 0
    nodes = 1
    while True:
        i = nxt[depth]
        while i < nc:
            need = cand[i, 3]
            ok = True
            for r in range(cand[i, 1], cand[i, 1] + cand[i, 2]):
                if cur[r] < need:
                    ok = False
                    break
            if ok:
                break
            i += 1
        if i < nc and nodes < max_nodes and depth < 12:
            nxt[depth] = i + 1
            for r in range(cand[i, 1], cand[i, 1] + cand[i, 2]):
                cur[r] -= cand[i, 3]
            chosen[depth] = i
            depth += 1
            nxt[depth] = i
            nodes += 1
            v, t, _ = _leaf(cur, chosen, depth, cand, p, False, out_meta, out_counts)
            if v > best:
                best, best_turns, best_depth = v, t, depth
                best_chosen[:depth] = chosen[:depth]
        else:
            if depth == 0:
                break
            depth -= 1
            i = chosen[depth]
            for r in range(cand[i, 1], cand[i, 1] + cand[i, 2]):
                cur[r] += cand[i, 3]
    rest = h.copy()
    for d in range(best_depth):
        i = best_chosen[d]
        for r in range(cand[i, 1], cand[i, 1] + cand[i, 2]):
            rest[r] -= cand[i, 3]
    _, _, m = _leaf(rest, best_chosen, best_depth, cand, p, True, out_meta, out_counts)
    return best, best_turns, m, nodes


# --- Python API ----------------------------------------------------------------------------------
_META = np.zeros((MAX_COMBOS, 3), np.int64)
_COUNTS = np.zeros((MAX_COMBOS, 15), np.int64)


@lru_cache(maxsize=200_000)
def _value_cached(key: bytes, val: Valuation) -> tuple[float, int]:
    h = np.frombuffer(key, dtype=np.int64).copy()
    v, t, _, _ = split_search(h, val.array, val.max_nodes, _META, _COUNTS)
    return float(v), int(t)


def split_value(counts: np.ndarray, val: Valuation) -> tuple[float, int]:
    """``(value, turns)`` of the best split of ``counts`` (memoised; a pure function)."""
    if not counts.any():
        return 0.0, 0
    return _value_cached(np.ascontiguousarray(counts, dtype=np.int64).tobytes(), val)


def best_split(counts: np.ndarray, val: Valuation) -> Split:
    """The best split of ``counts`` with its combinations (kickers attached)."""
    h = np.ascontiguousarray(counts, dtype=np.int64)
    meta = np.zeros((MAX_COMBOS, 3), np.int64)
    cnt = np.zeros((MAX_COMBOS, 15), np.int64)
    v, t, m, _ = split_search(h, val.array, val.max_nodes, meta, cnt)
    combos = tuple(combo_from_counts(int(meta[i, 0]), int(meta[i, 1]), int(meta[i, 2]),
                                     cnt[i].tolist()) for i in range(m))
    return Split(float(v), int(t), combos)


__all__ = ["Split", "Valuation", "best_split", "split_search", "split_value"]
