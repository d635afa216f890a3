"""Remember a position-pure bot's decisions by position (issue 31: key mining at hardware speed).

Key mining plays every candidate's forks out with the reference bots, and the forks of one
target's matches meet the same positions again and again: different matches share openings and
transpose into each other, and a reference that agrees with the target at one candidate walks
into the next candidate's position. Measured on rev5's thesis-scale mining (100 keys), 9 % of
rev1's and 5 % of rev2's CPU went to positions they had already searched in the same process,
nearly all across matches (BENCHMARKS.md, "Key mining").

A bot may declare ``position_pure = True``: its decision is a pure function of its config and
``state.position_key()`` (the game's key of everything a decision can read: the board, the
side to move). Then :class:`MemoBot` answers a position it has seen with the action it chose
there, which is exactly what the bot would choose again, so results and files are the same
bytes with and without the memo; only CPU time falls. A stochastic bot (seeded per decision by
match and ply), an external program (it keeps state across a match) or a game whose states have
no position key is never memoised: :func:`memoize` hands such bots back unchanged.

Actions are returned as stored, so a memoised bot's actions must be immutable values (ints,
tuples), as every engine's actions are.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable

from ime.core.bot import Bot, DecisionContext
from ime.core.game import Action, State

__all__ = ["DEFAULT_CAPACITY", "MemoBot", "is_position_pure", "memoize", "memoize_provider"]

DEFAULT_CAPACITY = 200_000
"""Positions a memo holds before it starts again (a few tens of MB for a Reversi bot)."""

_MISS = object()


def is_position_pure(bot: Bot) -> bool:
    """Whether ``bot`` declares its decisions a function of the position alone."""
    return bool(getattr(bot, "position_pure", False)) and getattr(bot, "respond", None) is None


class MemoBot(Bot):
    """``bot`` with a memo of its decisions by ``(state.position_key(), player)``."""

    def __init__(self, bot: Bot, capacity: int = DEFAULT_CAPACITY):
        if capacity < 1:
            raise ValueError(f"memo capacity must be at least 1, got {capacity}")
        self.inner = bot
        self.bot_id = bot.bot_id
        self.deterministic = bot.deterministic
        self.position_pure = True
        self.capacity = capacity
        self.hits = 0
        self.misses = 0
        self._memo: dict[Hashable, Action] = {}

    def act(self, state: State, ctx: DecisionContext) -> Action:
        pos = state.position_key()
        if pos is None:
            return self.inner.act(state, ctx)
        key = (pos, ctx.player)
        action = self._memo.get(key, _MISS)
        if action is not _MISS:
            self.hits += 1
            return action
        action = self.inner.act(state, ctx)
        if len(self._memo) >= self.capacity:
            self._memo.clear()  # a fresh start costs only speed, never a different decision
        self._memo[key] = action
        self.misses += 1
        return action

    def end_match(self, match_id: str) -> None:
        self.inner.end_match(match_id)

    def close(self) -> None:
        self.inner.close()


def memoize(bot: Bot, capacity: int = DEFAULT_CAPACITY) -> Bot:
    """``bot`` behind a :class:`MemoBot` when it is position-pure, else ``bot`` itself."""
    if isinstance(bot, MemoBot) or not is_position_pure(bot):
        return bot
    return MemoBot(bot, capacity)


def memoize_provider(provider: Callable[[str], Bot],
                     capacity: int = DEFAULT_CAPACITY) -> Callable[[str], Bot]:
    """A provider that gives each position-pure bot one memo for the provider's life."""
    made: dict[str, Bot] = {}

    def provide(bot_id: str) -> Bot:
        bot = made.get(bot_id)
        if bot is None:
            bot = made[bot_id] = memoize(provider(bot_id), capacity)
        return bot

    return provide
