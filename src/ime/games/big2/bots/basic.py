"""Two baseline bots that need nothing but the legal moves.

* :class:`RandomBot`: a uniformly random legal action (the pass included when following), drawn
  from ``decision_rng(ctx)``, so a decision is reproducible from (seed, match, ply, seat).
* :class:`SmallestBot`: deterministic "smallest first": the smallest legal non-pass play by
  :func:`smallest_key`; passes only when nothing beats the last play.
"""

from __future__ import annotations

from ime.core.bot import Bot, DecisionContext, decision_rng
from ime.games.big2.hands import HandType


def smallest_key(t: HandType) -> tuple:
    """The order of "smallest": bombs last; then the lower main rank; then fewer cards; then
    lower multiplicity, shorter, fewer kicker cards; then the lower kickers. Leading it plays
    its lowest single (or the lowest card's smallest type); following, the lowest play that
    beats, with the smallest kickers."""
    return (t.is_bomb, t.main, t.n_cards, t.mult, t.length, t.kmult, t.kickers)


class RandomBot(Bot):
    """A uniformly random legal action."""

    deterministic = False

    def __init__(self, bot_id: str = "random"):
        self.bot_id = bot_id

    def act(self, state, ctx: DecisionContext) -> tuple[int, ...]:
        legal = state.legal_actions(ctx.player)
        return legal[int(decision_rng(ctx, "random").integers(len(legal)))]


class SmallestBot(Bot):
    """The smallest legal play (:func:`smallest_key`); a pass only when nothing beats."""

    def __init__(self, bot_id: str = "smallest"):
        self.bot_id = bot_id

    def act(self, state, ctx: DecisionContext) -> tuple[int, ...]:
        legal = state.legal_actions(ctx.player)
        types = state.legal_types(ctx.player)
        best = min((i for i, t in enumerate(types) if not t.is_pass),
                   key=lambda i: smallest_key(types[i]), default=None)
        return legal[0] if best is None else legal[best]
