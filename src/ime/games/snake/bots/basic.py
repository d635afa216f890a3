"""Two cheap Snake bots that make the game playable: ``random`` and ``greedy``.

Both choose among the engine's legal actions (the valid directions, or all four when the snake
is boxed in), so neither ever faults.

* ``random``: uniform over the legal directions, drawn from ``decision_rng(ctx)`` so a
  decision is reproducible from (seed, match, ply, player).
* ``greedy``: a deterministic depth-1 expert. It plays the legal direction whose new head has
  the most free cells reachable (:meth:`SnakeState.area_after`: this turn's tails removed, the
  opponent where it is); ties go to the lowest direction. A boxed-in snake plays direction 0.
"""

from __future__ import annotations

from ime.core.bot import Bot, DecisionContext, decision_rng
from ime.games.snake.game import SnakeState


class RandomBot(Bot):
    """A uniformly random legal direction."""

    deterministic = False

    def __init__(self, bot_id: str = "random"):
        self.bot_id = bot_id

    def act(self, state: SnakeState, ctx: DecisionContext) -> int:
        legal = state.legal_actions(ctx.player)
        return int(legal[int(decision_rng(ctx, "random").integers(len(legal)))])


class GreedyBot(Bot):
    """The legal direction with the largest reachable area (ties: lowest direction)."""

    deterministic = True

    def __init__(self, bot_id: str = "greedy"):
        self.bot_id = bot_id

    def act(self, state: SnakeState, ctx: DecisionContext) -> int:
        best, best_area = state.legal_actions(ctx.player)[0], -2
        for d in state.valid_actions(ctx.player):
            area = state.area_after(ctx.player, d)
            if area > best_area:
                best, best_area = d, area
        return int(best)
