"""Legal-move generation over rank counts, compiled with numba (the engine's hot loop).

A move is a rank multiset: the generator lists every sub-multiset of the hand that the judge
reads as a combination (:mod:`ime.games.doudizhu.combos`) and that beats the play to beat,
each exactly once, and gives it the canonical card ids (the lowest ids of each rank in the hand).

Order (what ``legal_actions`` lists after the pass, which comes first when following): by type
in :class:`~ime.games.doudizhu.combos.ComboType` order (single, pair, trio, trio + single,
trio + pair, straight, pair straight, airplane, airplane + singles, airplane + pairs,
four + 2 singles, four + 2 pairs, shuttle, shuttle + singles, shuttle + pairs, bomb, rocket),
then by chain length, then by main rank, then by kicker ranks (lexicographic).

Following a play of kind ``k``, the generator lists only ``k`` with the same chain length and a
higher rank, then the bombs that beat it, then the rocket.

Each row of the output: ``meta = (kind, rank, chain, n_cards)``, ``counts[15]`` and the card ids
``cards[:n_cards]`` (ascending).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ime.games.doudizhu.cards import NUM_RANKS, RANK_OF
from ime.games.shedding.combinations import first_combination, next_combination

# ComboType values as compile-time constants (see combos.ComboType).
SINGLE, PAIR, TRIO, TRIO_SINGLE, TRIO_PAIR = 1, 2, 3, 4, 5
STRAIGHT, PAIR_STRAIGHT, AIRPLANE, AIRPLANE_SINGLES, AIRPLANE_PAIRS = 6, 7, 8, 9, 10
FOUR_SINGLES, FOUR_PAIRS, SHUTTLE, SHUTTLE_SINGLES, SHUTTLE_PAIRS = 11, 12, 13, 14, 15
BOMB, ROCKET = 16, 17
LEAD = 0
"""``kind`` argument of :func:`generate` when leading (every type)."""

MAX_CARDS = 20


@njit(cache=True)
def _emit(cnt, ids, kind, rank, chain, out_meta, out_counts, out_cards, n):
    """Write move ``n`` (when it fits) and return ``n + 1``."""
    if n < out_meta.shape[0]:
        k = 0
        for r in range(15):
            c = cnt[r]
            out_counts[n, r] = c
            for j in range(c):
                out_cards[n, k] = ids[r, j]
                k += 1
        out_meta[n, 0] = kind
        out_meta[n, 1] = rank
        out_meta[n, 2] = chain
        out_meta[n, 3] = k
    return n + 1


@njit(cache=True)
def _with_kickers(h, cnt, ids, kind, rank, chain, k, size, out_meta, out_counts, out_cards, n):
    """Emit the main part ``cnt`` with every choice of ``k`` distinct kicker ranks of ``size``
    cards (not a main rank; pairs never of jokers), in lexicographic order."""
    cand = np.empty(15, np.int64)
    m = 0
    top = 15 if size == 1 else 13
    for s in range(top):
        if cnt[s] == 0 and h[s] >= size:
            cand[m] = s
            m += 1
    if k > m:
        return n
    idx = first_combination(k)
    while True:
        for i in range(k):
            cnt[cand[idx[i]]] += size
        n = _emit(cnt, ids, kind, rank, chain, out_meta, out_counts, out_cards, n)
        for i in range(k):
            cnt[cand[idx[i]]] -= size
        if not next_combination(idx, m):
            break
    return n


@njit(cache=True)
def _chains(h, cnt, ids, kind, need, min_len, max_len, lo, want_chain, out_meta, out_counts,
            out_cards, n):
    """Sequences of ``need`` cards per rank (ranks 3..A), length ``min_len..max_len`` (or
    exactly ``want_chain`` when > 0), lowest rank >= ``lo``; kickers per ``kind``."""
    first_len = min_len if want_chain <= 0 else want_chain
    last_len = max_len if want_chain <= 0 else want_chain
    for length in range(first_len, last_len + 1):
        for start in range(lo, 12 - length + 1):
            ok = True
            for r in range(start, start + length):
                if h[r] < need:
                    ok = False
                    break
            if not ok:
                continue
            for r in range(start, start + length):
                cnt[r] = need
            if kind == AIRPLANE_SINGLES or kind == SHUTTLE_SINGLES:
                n = _with_kickers(h, cnt, ids, kind, start, length, length, 1, out_meta,
                                  out_counts, out_cards, n)
            elif kind == AIRPLANE_PAIRS or kind == SHUTTLE_PAIRS:
                n = _with_kickers(h, cnt, ids, kind, start, length, length, 2, out_meta,
                                  out_counts, out_cards, n)
            else:
                n = _emit(cnt, ids, kind, start, length, out_meta, out_counts, out_cards, n)
            for r in range(start, start + length):
                cnt[r] = 0
    return n


@njit(cache=True)
def generate(h, ids, kind, rank, chain, out_meta, out_counts, out_cards):
    """Every legal non-pass move of hand ``h`` (``int64[15]`` counts; ``ids[r, j]``: the
    ``j``-th lowest card id of rank ``r`` in the hand) after a play ``(kind, rank, chain)``
    (``kind = LEAD``: leading). Returns the number of moves; rows beyond the buffers' length
    are counted but not written (call again with larger buffers)."""
    n = 0
    cnt = np.zeros(15, np.int64)
    lead = kind == LEAD
    lo = 0 if lead else rank + 1
    want = 0 if lead else chain
    if lead or kind == SINGLE:
        for r in range(lo, 15):
            if h[r] >= 1:
                cnt[r] = 1
                n = _emit(cnt, ids, SINGLE, r, 1, out_meta, out_counts, out_cards, n)
                cnt[r] = 0
    for k, need, top in ((PAIR, 2, 13), (TRIO, 3, 13)):
        if lead or kind == k:
            for r in range(lo, top):
                if h[r] >= need:
                    cnt[r] = need
                    n = _emit(cnt, ids, k, r, 1, out_meta, out_counts, out_cards, n)
                    cnt[r] = 0
    for k, size in ((TRIO_SINGLE, 1), (TRIO_PAIR, 2)):
        if lead or kind == k:
            for r in range(lo, 13):
                if h[r] >= 3:
                    cnt[r] = 3
                    n = _with_kickers(h, cnt, ids, k, r, 1, 1, size, out_meta, out_counts,
                                      out_cards, n)
                    cnt[r] = 0
    for k, need, min_len, max_len in ((STRAIGHT, 1, 5, 12), (PAIR_STRAIGHT, 2, 3, 10),
                                      (AIRPLANE, 3, 2, 6), (AIRPLANE_SINGLES, 3, 2, 5),
                                      (AIRPLANE_PAIRS, 3, 2, 4)):
        if lead or kind == k:
            n = _chains(h, cnt, ids, k, need, min_len, max_len, lo, want, out_meta, out_counts,
                        out_cards, n)
    for k, size in ((FOUR_SINGLES, 1), (FOUR_PAIRS, 2)):
        if lead or kind == k:
            for r in range(lo, 13):
                if h[r] == 4:
                    cnt[r] = 4
                    n = _with_kickers(h, cnt, ids, k, r, 1, 2, size, out_meta, out_counts,
                                      out_cards, n)
                    cnt[r] = 0
    for k, max_len in ((SHUTTLE, 5), (SHUTTLE_SINGLES, 4), (SHUTTLE_PAIRS, 3)):
        if lead or kind == k:
            n = _chains(h, cnt, ids, k, 4, 2, max_len, lo, want, out_meta, out_counts,
                        out_cards, n)
    if kind != ROCKET:
        blo = rank + 1 if kind == BOMB else 0
        for r in range(blo, 13):
            if h[r] == 4:
                cnt[r] = 4
                n = _emit(cnt, ids, BOMB, r, 1, out_meta, out_counts, out_cards, n)
                cnt[r] = 0
        if h[13] == 1 and h[14] == 1:
            cnt[13] = 1
            cnt[14] = 1
            n = _emit(cnt, ids, ROCKET, 13, 1, out_meta, out_counts, out_cards, n)
            cnt[13] = 0
            cnt[14] = 0
    return n


@njit(cache=True)
def hand_tables(hand_cards, rank_of):
    """``(counts int64[15], ids int64[15, 4])`` of a hand given as card ids (any order)."""
    h = np.zeros(15, np.int64)
    ids = np.full((15, 4), -1, np.int64)
    srt = np.sort(hand_cards)
    for c in srt:
        r = rank_of[c]
        ids[r, h[r]] = c
        h[r] += 1
    return h, ids


CANONICAL_IDS = np.array([[4 * r + j for j in range(4)] for r in range(13)]
                         + [[52, -1, -1, -1], [53, -1, -1, -1]], dtype=np.int64)
"""``ids`` table of a full deck: the lowest ids of each rank (for rank-level walks)."""


@njit(cache=True)
def random_playouts(n_games, seed, capacity):
    """Play ``n_games`` games of uniformly random rank-level moves (the pass included when
    following) on fresh random deals, entirely compiled; returns ``(plies, landlord wins)``.
    The engine's raw speed: no card ids, no Python per ply."""
    np.random.seed(seed)
    meta = np.empty((capacity, 4), np.int64)
    counts = np.empty((capacity, 15), np.int8)
    cards = np.empty((capacity, 20), np.int64)
    ids = np.full((15, 4), -1, np.int64)
    for r in range(13):
        for j in range(4):
            ids[r, j] = 4 * r + j
    ids[13, 0] = 52
    ids[14, 0] = 53
    plies = 0
    landlord_wins = 0
    h = np.zeros((3, 15), np.int64)
    for _ in range(n_games):
        perm = np.random.permutation(54)
        h[:, :] = 0
        for i in range(54):
            c = perm[i]
            r = c // 4 if c < 52 else c - 39
            h[0 if i < 20 else (1 if i < 37 else 2), r] += 1
        p = 0
        last_player = -1
        kind, rank, chain = LEAD, -1, 0
        while True:
            lead = last_player == -1 or last_player == p
            if lead:
                n = generate(h[p], ids, LEAD, -1, 0, meta, counts, cards)
            else:
                n = generate(h[p], ids, kind, rank, chain, meta, counts, cards)
            if n > capacity:
                raise ValueError("random_playouts: capacity too small")
            j = np.random.randint(0, n + (0 if lead else 1))
            plies += 1
            if j < n:
                left = 0
                for r in range(15):
                    h[p, r] -= counts[j, r]
                    left += h[p, r]
                kind, rank, chain = meta[j, 0], meta[j, 1], meta[j, 2]
                last_player = p
                if left == 0:
                    if p == 0:
                        landlord_wins += 1
                    break
            p = (p + 1) % 3
    return plies, landlord_wins


class Moves:
    """The generator's output for one position: ``n`` rows of ``meta``, ``counts``, ``cards``."""

    __slots__ = ("n", "meta", "counts", "cards")

    def __init__(self, n: int, meta: np.ndarray, counts: np.ndarray, cards: np.ndarray):
        self.n, self.meta, self.counts, self.cards = n, meta, counts, cards

    def actions(self) -> list[tuple[int, ...]]:
        """Card-id tuples of every move, in generator order."""
        rows = self.cards[: self.n].tolist()
        lens = self.meta[: self.n, 3].tolist()
        return [tuple(row[:k]) for row, k in zip(rows, lens, strict=True)]


def generate_moves(hand_cards: np.ndarray | list[int], kind: int = LEAD, rank: int = -1,
                   chain: int = 0, capacity: int = 1024) -> Moves:
    """Every legal non-pass move of the hand ``hand_cards`` (card ids) after a play
    ``(kind, rank, chain)`` (``kind = LEAD``: leading); see the module doc for the order."""
    h, ids = hand_tables(np.asarray(hand_cards, dtype=np.int64), RANK_OF)
    return generate_from_tables(h, ids, kind, rank, chain, capacity)


_BUFFERS: list[np.ndarray] = []


def _buffers(capacity: int) -> list[np.ndarray]:
    """Scratch buffers of at least ``capacity`` rows, reused between calls (results are
    copied out)."""
    if not _BUFFERS or _BUFFERS[0].shape[0] < capacity:
        _BUFFERS[:] = [np.empty((capacity, 4), np.int64), np.empty((capacity, NUM_RANKS), np.int8),
                       np.empty((capacity, MAX_CARDS), np.int64)]
    return _BUFFERS


def generate_from_tables(h: np.ndarray, ids: np.ndarray, kind: int, rank: int, chain: int,
                         capacity: int = 1024) -> Moves:
    """:func:`generate_moves` from :func:`hand_tables`."""
    while True:
        meta, counts, cards = _buffers(capacity)
        n = generate(h, ids, kind, rank, chain, meta, counts, cards)
        if n <= meta.shape[0]:
            return Moves(n, meta[:n].copy(), counts[:n].copy(), cards[:n].copy())
        capacity = n


__all__ = ["CANONICAL_IDS", "LEAD", "Moves", "generate", "generate_from_tables", "generate_moves",
           "hand_tables", "random_playouts"]
