"""``ddz4`` (Table 5.1 bot 4, ladder rank 167): a split found in a fixed search order, smallest
kickers, feeds its teammate, never bombs its teammate.

The split (:func:`ordered_split`, no valuation search): the rocket; bombs; then straights
(repeatedly the longest run of 5+ ranks 3..A, the lowest such run first), pair straights (runs
of 3+ pairs), airplanes (runs of 2+ trios); then trios, pairs and singles. Airplanes, then trios
in rank order, take the smallest kickers: singles of rank A or lower (never a body rank), else
pairs.

1. A play that empties the hand is made at once (never a bomb over the teammate).
2. Leading as a farmer whose teammate plays next (seat 1) and holds 2 cards or fewer: feed it, the
   smallest single (teammate on 1 card, or no pair held), else the smallest pair.
3. Leading otherwise: from the split, the first non-empty group in the order straights, pair
   straights, airplanes, trios (with kickers), pairs, singles, bombs, rocket; the lowest rank.
4. Following the teammate: pass.
5. Following an opponent: a combination of the split that beats it (the lowest); else, when that
   player holds 8 cards or fewer or this seat is the landlord, the smallest legal non-bomb beat;
   else, when that player holds 4 cards or fewer, the smallest bomb (then the rocket); else pass.
"""

from __future__ import annotations

import numpy as np

from ime.games.doudizhu.bots.rulebase import RuleBot, index_of
from ime.games.doudizhu.bots.view import SeatView
from ime.games.doudizhu.combos import Combo, ComboType, classify

T = ComboType
_GROUP = {T.STRAIGHT: 0, T.PAIR_STRAIGHT: 1, T.AIRPLANE: 2, T.AIRPLANE_SINGLES: 2,
          T.AIRPLANE_PAIRS: 2, T.TRIO: 3, T.TRIO_SINGLE: 3, T.TRIO_PAIR: 3, T.PAIR: 4,
          T.SINGLE: 5, T.BOMB: 6, T.ROCKET: 7}
"""Leading groups in order (an airplane or trio counts with whatever kickers it took)."""


def _runs(h: np.ndarray, need: int, min_len: int) -> list[tuple[int, int]]:
    """Take runs of ``need`` cards per rank (3..A) from ``h`` (in place), longest first, the
    lowest start among equals; ``(start, length)`` in the order taken."""
    out = []
    while True:
        best = (0, -1)
        start = 0
        while start < 12:
            if h[start] < need:
                start += 1
                continue
            end = start
            while end < 12 and h[end] >= need:
                end += 1
            if end - start > best[0]:
                best = (end - start, start)
            start = end
        length, s = best
        if length < min_len:
            return out
        h[s:s + length] -= need
        out.append((s, length))


def ordered_split(counts: np.ndarray, kicker_max: int = 11) -> list[Combo]:
    """The fixed-order split of the module doc, as combinations."""
    h = np.array(counts, dtype=np.int64)
    combos: list[np.ndarray] = []

    def take(c: np.ndarray) -> None:
        combos.append(c)

    if h[13] and h[14]:
        c = np.zeros(15, np.int64)
        c[13:15] = 1
        h[13:15] = 0
        take(c)
    for r in range(13):
        if h[r] == 4:
            c = np.zeros(15, np.int64)
            c[r] = 4
            h[r] = 0
            take(c)
    bodies: list[np.ndarray] = []
    for need, min_len in ((1, 5), (2, 3), (3, 2)):
        for s, n in _runs(h, need, min_len):
            c = np.zeros(15, np.int64)
            c[s:s + n] = need
            (bodies if need == 3 else combos).append(c)
    for r in range(13):
        if h[r] == 3:
            c = np.zeros(15, np.int64)
            c[r] = 3
            h[r] = 0
            bodies.append(c)
    for body in bodies:
        k = int((body == 3).sum())
        for size in (1, 2):
            free = [r for r in range(min(kicker_max, 14) + 1)
                    if h[r] == size and body[r] == 0 and (size == 1 or r < 13)]
            if len(free) >= k:
                for r in free[:k]:
                    body[r] = size
                    h[r] = 0
                break
        take(body)
    for r in range(15):
        if h[r]:
            c = np.zeros(15, np.int64)
            c[r] = h[r]
            take(c)
    out = [classify(c) for c in combos]
    return [c for c in out if c is not None]


class Rule4Bot(RuleBot):
    """Table 5.1 bot 4 (see the module doc)."""

    def __init__(self, bot_id: str = "ddz4", feed_at: int = 2, break_at: int = 8,
                 bomb_at: int = 4):
        super().__init__(bot_id)
        self.feed_at, self.break_at, self.bomb_at = feed_at, break_at, bomb_at

    def choose(self, view: SeatView) -> int:
        fin = view.finishing()
        if fin is not None and not (view.by_teammate and view.combos[fin].is_bomb):
            return fin
        if view.leading:
            return self._lead(view)
        if view.by_teammate:
            return 0
        return self._follow(view)

    def _lead(self, view: SeatView) -> int:
        if view.me == 1 and view.left[2] <= self.feed_at:
            singles = [i for i in view.plays() if view.combos[i].kind == T.SINGLE]
            pairs = [i for i in view.plays() if view.combos[i].kind == T.PAIR]
            pool = pairs if view.left[2] == 2 and pairs else singles
            return min(pool, key=lambda i: view.combos[i].rank)
        split = ordered_split(view.counts)
        pick = min(split, key=lambda c: (_GROUP[c.kind], c.rank))
        i = index_of(view, pick)
        return 0 if i is None else i

    def _follow(self, view: SeatView) -> int:
        who, last = view.last
        mine = [c for c in ordered_split(view.counts) if not c.is_bomb and c.beats(last)]
        for c in sorted(mine, key=lambda c: c.rank):
            i = index_of(view, c)
            if i is not None:
                return i
        plays = view.plays()
        if view.left[who] <= self.break_at or view.landlord:
            plain = [i for i in plays if not view.combos[i].is_bomb]
            if plain:
                return min(plain, key=lambda i: (view.combos[i].rank, view.combos[i].kickers))
        if view.left[who] <= self.bomb_at:
            bombs = [i for i in plays if view.combos[i].is_bomb]
            if bombs:
                return min(bombs, key=lambda i: (int(view.combos[i].kind), view.combos[i].rank))
        return 0
