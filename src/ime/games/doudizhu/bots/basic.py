"""Two baseline bots that need nothing but the legal moves (:mod:`ime.games.shedding.bots`).

* :class:`RandomBot`: a uniformly random legal action (the pass included when following), drawn
  from ``decision_rng(ctx)`` so a decision is reproducible from (seed, match, ply, player).
* :class:`SmallestBot`: deterministic; plays the smallest legal non-pass combination by
  :func:`smallest_key`, and passes only when it has nothing that beats the last play.
"""

from __future__ import annotations

from ime.games.doudizhu.combos import Combo
from ime.games.shedding import bots
from ime.games.shedding.bots import RandomBot


def smallest_key(combo: Combo) -> tuple:
    """The order of "smallest": bombs and the rocket last; then the lower main rank; then fewer
    cards; then the type order (:class:`~ime.games.doudizhu.combos.ComboType`); then the
    lower kickers. Leading with a lone 3 therefore plays the 3, and following a trio + single it
    attaches the smallest single."""
    return (combo.is_bomb, combo.rank, combo.n_cards, int(combo.kind), combo.kickers)


class SmallestBot(bots.SmallestBot):
    """The smallest legal combination (:func:`smallest_key`); a pass only when nothing beats."""

    key = staticmethod(smallest_key)

    @staticmethod
    def legal_plays(state, player: int) -> list[Combo]:
        return state.legal_combos(player)


__all__ = ["RandomBot", "SmallestBot", "smallest_key"]
