"""Rank text and canonical card ids of a deck whose rules see only ranks.

Suits never matter to Big-2's or Doudizhu's rules, so a hand is also a vector of counts per rank
and a play is a rank multiset; which card ids carry it is chosen by
:meth:`RankLayout.pick_cards` (the lowest ids of each rank, the engines' canonical choice). The
text form (tests, docs, positions) is one character per card, lowest rank first
(``"33344456"``). A game gives its deck as a :class:`RankLayout` and exports the bound methods
under its own names (``ranks_text = RANKS.ranks_text``).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass

import numpy as np


@dataclass(frozen=True)
class RankLayout:
    """A deck's ranks: what differs between the games' decks (jokers, the id layout)."""

    chars: str
    """One character per rank, lowest first."""
    copies: tuple[int, ...]
    """Cards of each rank in the deck (4 per suit rank, 1 per joker)."""
    num_cards: int
    rank_of: Callable[[int], int]
    """The rank of a card id (a function, not a table: an id outside the deck fails as the
    game's own arithmetic makes it fail)."""
    counts_of: Callable[[Iterable[int]], np.ndarray]
    """Counts per rank of card ids (the game's own, which the hot paths also call)."""

    @property
    def num_ranks(self) -> int:
        return len(self.chars)

    def ranks_text(self, cards_or_counts: Iterable[int] | np.ndarray, *,
                   counts: bool = False) -> str:
        """``"333445"``-style text of card ids (or of a counts vector with ``counts=True``)."""
        c = np.asarray(cards_or_counts) if counts else self.counts_of(cards_or_counts)
        return "".join(self.chars[r] * int(c[r]) for r in range(self.num_ranks))

    def parse_ranks(self, text: str) -> np.ndarray:
        """Counts vector of a rank text (``"33344456"``); spaces are ignored."""
        out = np.zeros(self.num_ranks, dtype=np.int64)
        for ch in text.replace(" ", ""):
            r = self.chars.find(ch.upper())
            if r < 0:
                raise ValueError(f"unknown rank character {ch!r} in {text!r} (use {self.chars})")
            out[r] += 1
        if (out > np.asarray(self.copies)).any():
            raise ValueError(f"{text!r} has more cards of a rank than a deck")
        return out

    def pick_cards(self, hand: Iterable[int], counts: Sequence[int] | np.ndarray
                   ) -> tuple[int, ...]:
        """The canonical card ids of rank multiset ``counts`` from ``hand``: the lowest ids of
        each rank, ascending. Raises ValueError when ``hand`` lacks them."""
        by_rank: list[list[int]] = [[] for _ in range(self.num_ranks)]
        for c in sorted(int(x) for x in hand):
            by_rank[self.rank_of(c)].append(c)
        out: list[int] = []
        for r in range(self.num_ranks):
            k = int(counts[r])
            if k > len(by_rank[r]):
                raise ValueError(f"hand {self.ranks_text(hand)} has no {k} x {self.chars[r]}")
            out += by_rank[r][:k]
        return tuple(out)

    def cards_from_text(self, text: str) -> tuple[int, ...]:
        """The lowest card ids that spell ``text`` in a full deck (tests: ``"3334"`` -> 0, 1, 2,
        4)."""
        return self.pick_cards(range(self.num_cards), self.parse_ranks(text))


__all__ = ["RankLayout"]
