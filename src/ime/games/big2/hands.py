"""Big-2 hand types, parameterised as the seed does (seed 004, "状态与行为").

Every play is described by five elements: the **main rank** (主牌指标: the highest rank of its
main cards), the **length** (长度: how many consecutive ranks the main cards span), the
**multiplicity** (容量: how many cards of each main rank), the **kicker multiplicity** (带牌容量:
cards per kicker rank, 0 without kickers) and the kickers themselves. The first four are the
*hand-type quadruple* :attr:`HandType.key`; what a play must beat depends on it alone (the seed's
cache ignores kicker contents too). The seed's example: ``33344456`` is main rank 1 (the 4),
length 2, multiplicity 3, kicker multiplicity 1, kickers 5 and 6.

The types (``docs/games/big2.md`` has the full rules; the seed names only the parameters, the
allowed lengths are Doudizhu's, our choice):

==============================  ====  =============  ====  ==========================
type                            m     L              k     cards
==============================  ====  =============  ====  ==========================
single                          1     1              0     1
straight                        1     5..12          0     L
pair                            2     1              0     2
pair chain                      2     3..12          0     2L
trio (+ single / + pair)        3     1              0-2   3 + k
trio chain (+ singles / pairs)  3     2..8 / 6 / 5   0-2   3L + kL
bomb                            4     1              0     4
==============================  ====  =============  ====  ==========================

Chains (L > 1) never hold a 2 (rank 12). Kickers: exactly ``L`` kicker ranks, distinct, none a
main rank, each contributing ``k`` cards. A bomb beats every non-bomb; otherwise a play beats the
last one when ``(length, multiplicity, kicker multiplicity)`` are equal and its main rank is
higher.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np

from ime.games.big2.cards import MAX_HAND, NUM_RANKS, RANK_CHARS, RANK_TWO
from ime.games.shedding.judge import LESS_COMPARE, MISMATCH_CARDLENGTH, MISMATCH_CARDTYPE

CHAIN_MIN = {1: 5, 2: 3, 3: 2}
"""Shortest chain per multiplicity (straight, pair chain, trio chain)."""


def max_length(mult: int, kmult: int) -> int:
    """The longest chain of a multiplicity and kicker multiplicity: it must fit a 26-card hand
    (and 12 ranks 3..A; a trio chain with kickers needs as many other ranks)."""
    if mult == 4:
        return 1
    return min(12, MAX_HAND // (mult + kmult))


def type_keys() -> list[tuple[int, int, int, int]]:
    """Every hand-type quadruple ``(main, length, mult, kmult)``, in the order of the encoder's
    major codes 1..308 (code 0 is the pass): singles, pairs, trios, trio + single, trio + pair,
    bombs (main rank ascending), then straights, pair chains, trio chains, trio chains + singles,
    trio chains + pairs (length ascending, then main rank)."""
    out = []
    for m, k in ((1, 0), (2, 0), (3, 0), (3, 1), (3, 2), (4, 0)):
        out += [(r, 1, m, k) for r in range(NUM_RANKS)]
    for m, k in ((1, 0), (2, 0), (3, 0), (3, 1), (3, 2)):
        for length in range(CHAIN_MIN[m], max_length(m, k) + 1):
            out += [(r, length, m, k) for r in range(length - 1, RANK_TWO)]
    return out


@dataclass(frozen=True)
class HandType:
    """A play: its quadruple and its kicker ranks (ascending); :data:`PASS` is the pass."""

    main: int
    length: int
    mult: int
    kmult: int
    kickers: tuple[int, ...] = ()
    counts: tuple[int, ...] = field(default=(), compare=False, repr=False)

    def __post_init__(self) -> None:
        if not self.counts:
            c = [0] * NUM_RANKS
            for r in self.main_ranks:
                c[r] += self.mult
            for r in self.kickers:
                c[r] += self.kmult
            object.__setattr__(self, "counts", tuple(c))

    @property
    def key(self) -> tuple[int, int, int, int]:
        """The seed's hand-type quadruple ``(main, length, mult, kmult)``."""
        return (self.main, self.length, self.mult, self.kmult)

    @property
    def shape(self) -> tuple[int, int, int]:
        """``(length, mult, kmult)``: what a follower must match."""
        return (self.length, self.mult, self.kmult)

    @property
    def is_pass(self) -> bool:
        return self.mult == 0

    @property
    def is_bomb(self) -> bool:
        return self.mult == 4

    @property
    def main_ranks(self) -> range:
        return range(self.main - self.length + 1, self.main + 1) if self.mult else range(0)

    @property
    def n_cards(self) -> int:
        return self.length * (self.mult + self.kmult)

    def __str__(self) -> str:
        if self.is_pass:
            return "pass"
        return "".join(RANK_CHARS[r] * n for r, n in enumerate(self.counts))


PASS = HandType(-1, 0, 0, 0)


def connection_counts(counts: Sequence[int]) -> np.ndarray:
    """The seed's "连击数": ``int64[13, 4]``, row ``i`` column ``m - 1`` = how many consecutive
    ranks ending at rank ``i`` hold at least ``m`` cards (one pass over the hand, each row from
    the previous one). The seed's example: ``4556667777`` at the 7 gives 4, 3, 2, 1."""
    out = np.zeros((NUM_RANKS, 4), dtype=np.int64)
    run = np.zeros(4, dtype=np.int64)
    for i in range(NUM_RANKS):
        for m in range(4):
            run[m] = run[m] + 1 if counts[i] > m else 0
        out[i] = run
    return out


def _chain_ok(ranks: list[int], length: int) -> bool:
    return (ranks == list(range(ranks[0], ranks[0] + length))
            and (length == 1 or ranks[-1] < RANK_TWO))


def classify(counts: Sequence[int]) -> HandType | None:
    """The hand type of a rank multiset (13 counts); ``PASS`` for no cards, ``None`` when the
    cards form no type. The classification is unique: a kicker rank never holds 3 or 4 cards,
    so the main ranks are exactly the ranks held 3 times (trio types) or the only count."""
    c = [int(x) for x in counts]
    if len(c) != NUM_RANKS or min(c) < 0 or max(c) > 4:
        return None
    held = [r for r in range(NUM_RANKS) if c[r]]
    if not held:
        return PASS
    values = {c[r] for r in held}
    if len(values) == 1:
        m = values.pop()
        length = len(held)
        if not _chain_ok(held, length):
            return None
        if length == 1 or (m < 4 and CHAIN_MIN[m] <= length <= max_length(m, 0)):
            return HandType(held[-1], length, m, 0, (), tuple(c))
        return None
    trios = [r for r in held if c[r] == 3]
    kick = [r for r in held if c[r] != 3]
    kvals = {c[r] for r in kick}
    length = len(trios)
    if not trios or len(kvals) != 1 or len(kick) != length or not _chain_ok(trios, length):
        return None
    k = kvals.pop()
    if k not in (1, 2) or length > max_length(3, k):
        return None
    return HandType(trios[-1], length, 3, k, tuple(kick), tuple(c))


def compare_error(play: HandType, last: HandType | None) -> str | None:
    """Why ``play`` (not a pass) does not beat ``last`` (``None``/``PASS``: leading), or
    ``None`` when it does: a bomb beats every non-bomb and a lower bomb; otherwise the
    ``(length, mult, kmult)`` must match (``MISMATCH_CARDTYPE`` for another multiplicity or
    kicker multiplicity, ``MISMATCH_CARDLENGTH`` for another length) and the main rank must be
    higher (``LESS_COMPARE``)."""
    if last is None or last.is_pass:
        return None
    if play.is_bomb and not last.is_bomb:
        return None
    if (play.mult, play.kmult) != (last.mult, last.kmult):
        return MISMATCH_CARDTYPE
    if play.length != last.length:
        return MISMATCH_CARDLENGTH
    return None if play.main > last.main else LESS_COMPARE


def beats(play: HandType, last: HandType | None) -> bool:
    """``play`` (not a pass) may follow ``last`` (``None``/``PASS``: may lead)."""
    return not play.is_pass and compare_error(play, last) is None


def from_meta(main: int, length: int, mult: int, kmult: int,
              counts: Sequence[int]) -> HandType:
    """A :class:`HandType` from a move generator's meta and counts (kickers read off the
    counts outside the main ranks)."""
    c = tuple(int(x) for x in counts)
    if mult == 0:
        return PASS
    kick = tuple(r for r in range(NUM_RANKS)
                 if c[r] and not main - length < r <= main) if kmult else ()
    return HandType(int(main), int(length), int(mult), int(kmult), kick, c)


__all__ = ["CHAIN_MIN", "LESS_COMPARE", "MISMATCH_CARDLENGTH", "MISMATCH_CARDTYPE", "PASS",
           "HandType", "beats", "classify", "compare_error", "connection_counts", "from_meta",
           "max_length", "type_keys"]
