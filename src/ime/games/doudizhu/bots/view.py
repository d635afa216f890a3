"""What one seat may know, gathered once per decision for the zoo bots.

Everything here comes from the seat's own hand, the public cards, the play history and the card
counts (:class:`~ime.games.doudizhu.game.DoudizhuState`'s public accessors); no other hand is
ever read, so permuting the two hidden hands (consistently with their counts and the public
cards) never changes a zoo bot's view, hence never its decision.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ime.games.doudizhu.cards import LANDLORD, counts_of
from ime.games.doudizhu.combos import Combo
from ime.games.doudizhu.movegen import CANONICAL_IDS, generate_from_tables


@dataclass
class SeatView:
    """One seat's knowledge at its turn (``last``: who made the play to beat and what it was,
    ``None`` when leading; ``legal`` / ``combos``: the legal actions, pass first when
    following)."""

    me: int
    counts: np.ndarray
    left: tuple[int, int, int]
    last: tuple[int, Combo] | None
    unseen: np.ndarray
    landlord_public: np.ndarray
    legal: list[tuple[int, ...]]
    combos: list[Combo]

    @property
    def leading(self) -> bool:
        return self.last is None

    @property
    def landlord(self) -> bool:
        return self.me == LANDLORD

    @property
    def teammate(self) -> int | None:
        """The other farmer (``None`` for the landlord)."""
        return None if self.me == LANDLORD else 3 - self.me

    @property
    def next(self) -> int:
        return (self.me + 1) % 3

    def is_teammate(self, p: int) -> bool:
        return self.me != LANDLORD and p != LANDLORD and p != self.me

    def opponents(self) -> tuple[int, ...]:
        return (1, 2) if self.me == LANDLORD else (LANDLORD,)

    def min_opponent_left(self) -> int:
        return min(self.left[p] for p in self.opponents())

    @property
    def by_teammate(self) -> bool:
        """The play to beat is the teammate's."""
        return self.last is not None and self.is_teammate(self.last[0])

    def plays(self) -> list[int]:
        """Indices of the non-pass legal actions."""
        return [i for i, c in enumerate(self.combos) if not c.is_pass]

    def finishing(self) -> int | None:
        """Index of a legal play that empties the hand (the first such), else ``None``."""
        n = int(self.counts.sum())
        for i, c in enumerate(self.combos):
            if not c.is_pass and c.n_cards == n:
                return i
        return None


def seat_view(state, player: int) -> SeatView:
    """The :class:`SeatView` of ``player`` (to move) in ``state``."""
    last = None
    if not state.leading:
        lp = state.last_play
        last = (lp[0], lp[2])
    public_left = np.zeros(15, np.int64)
    if player != LANDLORD:
        gone = set(state.played_by(LANDLORD))
        public_left = counts_of(c for c in state.public_cards if c not in gone)
    return SeatView(
        me=player,
        counts=state.hand_counts(player),
        left=(state.cards_left(0), state.cards_left(1), state.cards_left(2)),
        last=last,
        unseen=counts_of(state.unseen_by(player)),
        landlord_public=public_left,
        legal=state.legal_actions(player),
        combos=state.legal_combos(player),
    )


def beats_in(pool: np.ndarray, combo: Combo, bombs: bool = True) -> int:
    """How many distinct rank multisets of ``pool`` (rank counts) beat ``combo`` (bombs and the
    rocket counted only with ``bombs``): what the two hidden hands together could answer."""
    h = np.ascontiguousarray(np.minimum(pool, 4), dtype=np.int64)
    m = generate_from_tables(h, CANONICAL_IDS, int(combo.kind), combo.rank, combo.chain,
                             capacity=256)
    if bombs:
        return m.n
    return int((m.meta[: m.n, 0] == int(combo.kind)).sum()) if combo.kind < 16 else 0


def dedupe_kickers(combos: list[Combo]) -> list[int]:
    """Indices of ``combos`` keeping, per (kind, rank, chain), the one with the lowest kickers
    (the first in the move generator's order); the pass is kept."""
    seen: set[tuple[int, int, int]] = set()
    out = []
    for i, c in enumerate(combos):
        key = (int(c.kind), c.rank, c.chain)
        if key in seen:
            continue
        seen.add(key)
        out.append(i)
    return out


__all__ = ["SeatView", "beats_in", "dedupe_kickers", "seat_view"]
