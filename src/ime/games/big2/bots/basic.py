"""Two baseline bots that need nothing but the legal moves (:mod:`ime.games.shedding.bots`).

* :class:`RandomBot`: a uniformly random legal action (the pass included when following), drawn
  from ``decision_rng(ctx)``, so a decision is reproducible from (seed, match, ply, seat).
* :class:`SmallestBot`: deterministic "smallest first": the smallest legal non-pass play by
  :func:`smallest_key`; passes only when nothing beats the last play.
"""

from __future__ import annotations

from ime.games.big2.hands import HandType
from ime.games.shedding import bots
from ime.games.shedding.bots import RandomBot


def smallest_key(t: HandType) -> tuple:
    """The order of "smallest": bombs last; then the lower main rank; then fewer cards; then
    lower multiplicity, shorter, fewer kicker cards; then the lower kickers. Leading it plays
    its lowest single (or the lowest card's smallest type); following, the lowest play that
    beats, with the smallest kickers."""
    return (t.is_bomb, t.main, t.n_cards, t.mult, t.length, t.kmult, t.kickers)


class SmallestBot(bots.SmallestBot):
    """The smallest legal play (:func:`smallest_key`); a pass only when nothing beats."""

    key = staticmethod(smallest_key)

    @staticmethod
    def legal_plays(state, player: int) -> list[HandType]:
        return state.legal_types(player)


__all__ = ["RandomBot", "SmallestBot", "smallest_key"]
