"""Two baseline bots that need nothing but the legal moves, for either shedding game.

* :class:`RandomBot`: a uniformly random legal action (the pass included when following), drawn
  from ``decision_rng(ctx)``, so a decision is reproducible from (seed, match, ply, seat).
* :class:`SmallestBot`: deterministic "smallest first": the smallest legal non-pass play by the
  game's key; passes only when nothing beats the last play. A game subclasses it with its order
  (:attr:`~SmallestBot.key`) and its state's legal plays (:meth:`~SmallestBot.legal_plays`).
"""

from __future__ import annotations

from abc import abstractmethod
from collections.abc import Callable, Sequence
from typing import Any, ClassVar

from ime.core.bot import Bot, DecisionContext, decision_rng


class RandomBot(Bot):
    """A uniformly random legal action."""

    deterministic = False

    def __init__(self, bot_id: str = "random"):
        self.bot_id = bot_id

    def act(self, state, ctx: DecisionContext) -> tuple[int, ...]:
        legal = state.legal_actions(ctx.player)
        return legal[int(decision_rng(ctx, "random").integers(len(legal)))]


class SmallestBot(Bot):
    """The smallest legal play by :attr:`key`; a pass only when nothing beats."""

    key: ClassVar[Callable[[Any], tuple]]
    """The game's order of "smallest" over its plays (a ``staticmethod``)."""

    def __init__(self, bot_id: str = "smallest"):
        self.bot_id = bot_id

    @staticmethod
    @abstractmethod
    def legal_plays(state: Any, player: int) -> Sequence[Any]:
        """The play of each of ``state.legal_actions(player)``, in the same order."""

    def act(self, state, ctx: DecisionContext) -> tuple[int, ...]:
        legal = state.legal_actions(ctx.player)
        plays = self.legal_plays(state, ctx.player)
        best = min((i for i, t in enumerate(plays) if not t.is_pass),
                   key=lambda i: self.key(plays[i]), default=None)
        return legal[0] if best is None else legal[best]


__all__ = ["RandomBot", "SmallestBot"]
