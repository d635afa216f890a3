"""Two baseline bots that need nothing but the legal moves.

* :class:`RandomBot`: a uniformly random legal action (the pass included when following), drawn
  from ``decision_rng(ctx)`` so a decision is reproducible from (seed, match, ply, player).
* :class:`SmallestBot`: deterministic; plays the smallest legal non-pass combination by
  :func:`smallest_key`, and passes only when it has nothing that beats the last play.
"""

from __future__ import annotations

from ime.core.bot import Bot, DecisionContext, decision_rng
from ime.games.doudizhu.combos import Combo


def smallest_key(combo: Combo) -> tuple:
    """The order of "smallest": bombs and the rocket last; then the lower main rank; then fewer
    cards; then the type order (:class:`~ime.games.doudizhu.combos.ComboType`); then the
    lower kickers. Leading with a lone 3 therefore plays the 3, and following a trio + single it
    attaches the smallest single."""
    return (combo.is_bomb, combo.rank, combo.n_cards, int(combo.kind), combo.kickers)


class RandomBot(Bot):
    """A uniformly random legal action."""

    deterministic = False

    def __init__(self, bot_id: str = "random"):
        self.bot_id = bot_id

    def act(self, state, ctx: DecisionContext) -> tuple[int, ...]:
        legal = state.legal_actions(ctx.player)
        return legal[int(decision_rng(ctx, "random").integers(len(legal)))]


class SmallestBot(Bot):
    """The smallest legal combination (:func:`smallest_key`); a pass only when nothing beats."""

    def __init__(self, bot_id: str = "smallest"):
        self.bot_id = bot_id

    def act(self, state, ctx: DecisionContext) -> tuple[int, ...]:
        legal = state.legal_actions(ctx.player)
        combos = state.legal_combos(ctx.player)
        best = min((i for i, c in enumerate(combos) if not c.is_pass),
                   key=lambda i: smallest_key(combos[i]), default=None)
        return legal[0] if best is None else legal[best]
