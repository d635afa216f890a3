"""Combinations of FightTheLandlord v1, classified and compared exactly as Botzone's judge.

A play is a rank multiset (suits never matter). :func:`classify` reads it the way the judge's
``checkPokerType`` does, in the judge's order of tests (so a trio plus a card of its own rank is
a bomb, and two jokers beside a trio are two singles, not a pair):

1. 0 cards: pass; 1 card: single; 2 cards: rocket (both jokers), pair, else invalid.
2. 4 cards of one rank: bomb.
3. >= 5 consecutive ranks, one card each, none above A: straight.
4. >= 3 consecutive ranks, two cards each, none above A: pair straight.
5. <= 5 cards with exactly one rank of three: trio (3 cards), trio + single (4), trio + pair (5;
   a trio + two different singles is invalid).
6. 6 cards = a four + two ranks of one card: four + 2 singles (the two jokers are two ranks).
7. 8 cards = a four + two ranks of two cards: four + 2 pairs.
8. The ranks of exactly three cards are >= 2 consecutive ranks below 2 (``n`` of them), and the
   play is those trios alone (airplane), or them + ``n`` ranks of one card (airplane + singles)
   or + ``n`` ranks of two cards (airplane + pairs), nothing else.
9. The ranks of four cards are >= 2 consecutive ranks below 2 (``n``), no rank has three cards,
   and the play is those quads alone (space shuttle), + ``n`` singles or + ``n`` pairs (v1 quirk:
   ``n`` kickers, not ``2n``).
10. Anything else is ``INVALID_CARDTYPE``.

Comparison (:func:`compare_error`, the judge's order): a rocket beats everything; a bomb beats
every non-bomb; a lower class (non-bomb < bomb < rocket) is ``LESS_COMPARE``; otherwise the
types must be equal (``MISMATCH_CARDTYPE``), then the main part and kicker lengths
(``MISMATCH_CARDLENGTH``), and the main part must be strictly higher (``LESS_COMPARE``; the
judge compares the sorted main cards pairwise, which for equal shapes is the lowest main rank).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from enum import IntEnum

import numpy as np

from ime.games.doudizhu.cards import NUM_RANKS, RANK_CHARS, RANK_TWO, counts_of
from ime.games.shedding.judge import LESS_COMPARE, MISMATCH_CARDLENGTH, MISMATCH_CARDTYPE


class ComboType(IntEnum):
    """Combination types; the values are the engine's (and the move generator's) order."""

    PASS = 0
    SINGLE = 1
    PAIR = 2
    TRIO = 3
    TRIO_SINGLE = 4
    TRIO_PAIR = 5
    STRAIGHT = 6
    PAIR_STRAIGHT = 7
    AIRPLANE = 8
    AIRPLANE_SINGLES = 9
    AIRPLANE_PAIRS = 10
    FOUR_SINGLES = 11
    FOUR_PAIRS = 12
    SHUTTLE = 13
    SHUTTLE_SINGLES = 14
    SHUTTLE_PAIRS = 15
    BOMB = 16
    ROCKET = 17


T = ComboType

JUDGE_NAMES: dict[ComboType, str] = {
    T.PASS: "空", T.SINGLE: "单张", T.PAIR: "一对", T.TRIO: "三带零", T.TRIO_SINGLE: "三带一",
    T.TRIO_PAIR: "三带二", T.STRAIGHT: "单顺", T.PAIR_STRAIGHT: "双顺", T.AIRPLANE: "飞机不带翼",
    T.AIRPLANE_SINGLES: "飞机带小翼", T.AIRPLANE_PAIRS: "飞机带大翼", T.FOUR_SINGLES: "四带两只",
    T.FOUR_PAIRS: "四带两对", T.SHUTTLE: "航天飞机不带翼", T.SHUTTLE_SINGLES: "航天飞机带小翼",
    T.SHUTTLE_PAIRS: "航天飞机带大翼", T.BOMB: "炸弹", T.ROCKET: "火箭",
}
"""The judge's names of the types (``FightTheLandlord.py3``)."""

POINTS: dict[ComboType, int] = {
    T.PASS: 0, T.SINGLE: 1, T.PAIR: 2, T.TRIO: 4, T.TRIO_SINGLE: 4, T.TRIO_PAIR: 4,
    T.STRAIGHT: 6, T.PAIR_STRAIGHT: 6, T.AIRPLANE: 8, T.AIRPLANE_SINGLES: 8, T.AIRPLANE_PAIRS: 8,
    T.FOUR_SINGLES: 8, T.FOUR_PAIRS: 8, T.SHUTTLE: 10, T.SHUTTLE_SINGLES: 10,
    T.SHUTTLE_PAIRS: 10, T.BOMB: 10, T.ROCKET: 16,
}
"""Score points of a play (the judge adds 10 more for a shuttle of >= 3 quads); /100 in the
final score."""

MAIN_COUNT = {T.PASS: 0, T.SINGLE: 1, T.PAIR: 2, T.TRIO: 3, T.TRIO_SINGLE: 3, T.TRIO_PAIR: 3,
              T.STRAIGHT: 1, T.PAIR_STRAIGHT: 2, T.AIRPLANE: 3, T.AIRPLANE_SINGLES: 3,
              T.AIRPLANE_PAIRS: 3, T.FOUR_SINGLES: 4, T.FOUR_PAIRS: 4, T.SHUTTLE: 4,
              T.SHUTTLE_SINGLES: 4, T.SHUTTLE_PAIRS: 4, T.BOMB: 4, T.ROCKET: 1}
"""Cards per main rank."""

KICKER_SIZE = {k: 0 for k in T} | {T.TRIO_SINGLE: 1, T.AIRPLANE_SINGLES: 1, T.FOUR_SINGLES: 1,
                                   T.SHUTTLE_SINGLES: 1, T.TRIO_PAIR: 2, T.AIRPLANE_PAIRS: 2,
                                   T.FOUR_PAIRS: 2, T.SHUTTLE_PAIRS: 2}
"""Cards per kicker rank (1: singles, 2: pairs, 0: no kickers)."""

CHAIN_KINDS = frozenset({T.STRAIGHT, T.PAIR_STRAIGHT, T.AIRPLANE, T.AIRPLANE_SINGLES,
                         T.AIRPLANE_PAIRS, T.SHUTTLE, T.SHUTTLE_SINGLES, T.SHUTTLE_PAIRS})
SHUTTLE_KINDS = frozenset({T.SHUTTLE, T.SHUTTLE_SINGLES, T.SHUTTLE_PAIRS})


def num_kickers(kind: ComboType, chain: int) -> int:
    """How many kicker ranks a combination of ``kind`` and ``chain`` carries."""
    if KICKER_SIZE[kind] == 0:
        return 0
    return 2 if kind in (T.FOUR_SINGLES, T.FOUR_PAIRS) else chain


@dataclass(frozen=True, slots=True)
class Combo:
    """A combination as a rank multiset: what the rules (and the nets) see of a play.

    ``rank``: the lowest main rank (13 for the rocket, -1 for a pass); ``chain``: the number of
    consecutive main ranks (1 for non-sequences, 0 for a pass); ``kickers``: the kicker ranks,
    ascending, one entry per kicker (a pair kicker is one entry; its size is
    :attr:`kicker_size`).
    """

    kind: ComboType
    rank: int = -1
    chain: int = 0
    kickers: tuple[int, ...] = ()

    @property
    def main_ranks(self) -> range:
        """The main ranks (the rocket's are 13 and 14)."""
        if self.kind == T.ROCKET:
            return range(13, 15)
        return range(self.rank, self.rank + self.chain)

    @property
    def kicker_size(self) -> int:
        return KICKER_SIZE[self.kind]

    @property
    def main_cards(self) -> int:
        """Number of cards in the main part (the judge's ``len(mainPoker)``)."""
        return 2 if self.kind == T.ROCKET else MAIN_COUNT[self.kind] * self.chain

    @property
    def n_cards(self) -> int:
        return self.main_cards + self.kicker_size * len(self.kickers)

    @property
    def counts(self) -> np.ndarray:
        """``int64[15]`` cards per rank."""
        out = np.zeros(NUM_RANKS, dtype=np.int64)
        per = 1 if self.kind == T.ROCKET else MAIN_COUNT[self.kind]
        for r in self.main_ranks:
            out[r] += per
        for r in self.kickers:
            out[r] += self.kicker_size
        return out

    @property
    def points(self) -> int:
        """The judge's score points of this play."""
        extra = 10 if self.kind in SHUTTLE_KINDS and self.chain >= 3 else 0
        return POINTS[self.kind] + extra

    @property
    def is_pass(self) -> bool:
        return self.kind == T.PASS

    @property
    def is_bomb(self) -> bool:
        """A bomb or the rocket (what may beat a different type)."""
        return self.kind in (T.BOMB, T.ROCKET)

    def beats(self, other: Combo | None) -> bool:
        """Whether this play is legal after ``other`` (``None``: leading; a pass never beats)."""
        if other is None or other.is_pass:
            return not self.is_pass
        return not self.is_pass and compare_error(self, other) is None

    def text(self) -> str:
        """``"3334"``-style ranks of the play (``"pass"`` for a pass)."""
        if self.is_pass:
            return "pass"
        c = self.counts
        return "".join(RANK_CHARS[r] * int(c[r]) for r in range(NUM_RANKS))

    def __str__(self) -> str:
        return f"{self.kind.name.lower()}:{self.text()}"


PASS = Combo(T.PASS)


def _consecutive(ranks: Sequence[int]) -> bool:
    return all(ranks[i + 1] == ranks[i] + 1 for i in range(len(ranks) - 1))


def classify(counts: Sequence[int] | np.ndarray) -> Combo | None:
    """The combination of a rank-count vector, or ``None`` (``INVALID_CARDTYPE``)."""
    c = [int(x) for x in counts]
    n = sum(c)
    if n == 0:
        return PASS
    present = [r for r in range(NUM_RANKS) if c[r]]
    if n == 1:
        return Combo(T.SINGLE, present[0], 1)
    if n == 2:
        if present == [13, 14]:
            return Combo(T.ROCKET, 13, 1)
        return Combo(T.PAIR, present[0], 1) if len(present) == 1 else None
    by = [[r for r in present if c[r] == k] for k in range(5)]
    top = present[-1]
    if n == 4 and by[4]:
        return Combo(T.BOMB, by[4][0], 1)
    if n >= 5 and len(by[1]) == n and top <= 11 and _consecutive(present):
        return Combo(T.STRAIGHT, present[0], n)
    if n >= 6 and 2 * len(by[2]) == n and top <= 11 and _consecutive(present):
        return Combo(T.PAIR_STRAIGHT, present[0], n // 2)
    if n <= 5 and len(by[3]) == 1:
        if len(by[1]) == 2:
            return None
        r = by[3][0]
        if n == 3:
            return Combo(T.TRIO, r, 1)
        return Combo(T.TRIO_SINGLE if n == 4 else T.TRIO_PAIR, r, 1, tuple(by[n - 3]))
    if n == 6 and len(by[4]) == 1 and len(by[1]) == 2:
        return Combo(T.FOUR_SINGLES, by[4][0], 1, tuple(by[1]))
    if n == 8 and len(by[4]) == 1 and len(by[2]) == 2:
        return Combo(T.FOUR_PAIRS, by[4][0], 1, tuple(by[2]))
    for size, kinds, blocked in ((3, (T.AIRPLANE, T.AIRPLANE_SINGLES, T.AIRPLANE_PAIRS), False),
                                 (4, (T.SHUTTLE, T.SHUTTLE_SINGLES, T.SHUTTLE_PAIRS),
                                  bool(by[3]))):
        main = by[size]
        k = len(main)
        if k < 2 or blocked or main[-1] >= RANK_TWO or not _consecutive(main):
            continue
        if size * k == n:
            return Combo(kinds[0], main[0], k)
        if len(by[1]) == k and (size + 1) * k == n:
            return Combo(kinds[1], main[0], k, tuple(by[1]))
        if len(by[2]) == k and (size + 2) * k == n:
            return Combo(kinds[2], main[0], k, tuple(by[2]))
    return None


def classify_cards(cards: Iterable[int]) -> Combo | None:
    """:func:`classify` of card ids (assumed distinct)."""
    return classify(counts_of(cards))


def compare_error(play: Combo, last: Combo) -> str | None:
    """The judge's verdict on non-pass ``play`` after non-pass ``last``: ``None`` if it beats,
    else ``LESS_COMPARE`` / ``MISMATCH_CARDTYPE`` / ``MISMATCH_CARDLENGTH`` in the judge's
    order of tests."""
    cls_play = 3 if play.kind == T.ROCKET else 2 if play.kind == T.BOMB else 1
    cls_last = 3 if last.kind == T.ROCKET else 2 if last.kind == T.BOMB else 1
    if cls_play > cls_last:
        return None
    if cls_play < cls_last:
        return LESS_COMPARE
    if play.kind != last.kind:
        return MISMATCH_CARDTYPE
    if play.main_cards != last.main_cards or len(play.kickers) != len(last.kickers):
        return MISMATCH_CARDLENGTH
    return None if play.rank > last.rank else LESS_COMPARE


def combo_from_counts(kind: int, rank: int, chain: int, counts: Sequence[int]) -> Combo:
    """The :class:`Combo` of a move-generator row (its kind, rank, chain and counts)."""
    k = T(kind)
    if KICKER_SIZE[k] == 0:
        return Combo(k, rank, chain)
    main = range(rank, rank + chain)
    kick = tuple(r for r in range(NUM_RANKS) if counts[r] and r not in main)
    return Combo(k, rank, chain, kick)
