"""The frame every Table 5.1 rule bot (``ddz1`` .. ``ddz5``) shares.

A rule bot is deterministic: :meth:`RuleBot.choose` maps the seat's :class:`SeatView` (its hand,
the public cards, the history, the card counts; never another hand) to the index of a legal
action. With a single legal action (a forced pass) it is played without asking.
"""

from __future__ import annotations

from abc import abstractmethod

import numpy as np

from ime.core.bot import Bot, DecisionContext
from ime.games.doudizhu.bots.splits import Valuation, split_value
from ime.games.doudizhu.bots.view import SeatView, seat_view
from ime.games.doudizhu.combos import Combo


class RuleBot(Bot):
    """A deterministic bot over :class:`SeatView`; subclasses implement :meth:`choose`."""

    deterministic = True

    def __init__(self, bot_id: str):
        self.bot_id = bot_id

    def act(self, state, ctx: DecisionContext) -> tuple[int, ...]:
        view = seat_view(state, ctx.player)
        if len(view.legal) == 1:
            return view.legal[0]
        return view.legal[self.choose(view)]

    @abstractmethod
    def choose(self, view: SeatView) -> int:
        """Index into ``view.legal`` of the action to play."""


class PhasedRuleBot(RuleBot):
    """A rule bot that plays a finishing combination when it has one, else decides by phase:
    leading, answering its teammate, or answering an opponent (bots 1 and 2)."""

    def choose(self, view: SeatView) -> int:
        fin = view.finishing()
        if fin is not None:
            return fin
        if view.leading:
            return self._lead(view)
        if view.by_teammate:
            return self._teammate(view)
        return self._follow(view)

    @abstractmethod
    def _lead(self, view: SeatView) -> int: ...

    @abstractmethod
    def _teammate(self, view: SeatView) -> int: ...

    @abstractmethod
    def _follow(self, view: SeatView) -> int: ...


def index_of(view: SeatView, combo: Combo) -> int | None:
    """The legal index of ``combo`` (``None`` when it is not legal now)."""
    for i, c in enumerate(view.combos):
        if c == combo:
            return i
    return None


def after_values(view: SeatView, idxs: list[int], val: Valuation) -> dict[int, tuple[float, int]]:
    """``(value, turns)`` of the hand left after each play ``idxs`` (split valuation)."""
    out = {}
    for i in idxs:
        rest = view.counts - view.combos[i].counts
        out[i] = split_value(rest, val)
    return out


def top_rank(c: Combo) -> int:
    """The highest main rank of a play (the rocket: 14)."""
    return 14 if c.kind == 17 else c.rank + c.chain - 1


def high_cards(c: Combo) -> int:
    """Cards of rank 2 or jokers in a play (control cards spent)."""
    return int(c.counts[12:].sum())


def max_unseen_rank(view: SeatView) -> int:
    """The highest rank among the cards this seat has not seen (-1: none)."""
    nz = np.flatnonzero(view.unseen)
    return int(nz[-1]) if len(nz) else -1


__all__ = ["RuleBot", "after_values", "high_cards", "index_of", "max_unseen_rank", "top_rank"]
