"""Tiny, instant bots for tests, examples and smoke runs of the evaluation stage.

They differ in a controlled way (lowest square, highest square, seeded random), so key mining
finds keys quickly and every property (self-fork reproduction, S1 of a bot with itself = 1, ...)
can be checked in milliseconds without the numba search bots.
"""

from __future__ import annotations

from collections.abc import Mapping

from ime.core.bot import Bot, DecisionContext, decision_rng
from ime.core.game import Action, State


class FirstBot(Bot):
    """Plays its lowest-numbered legal action."""

    def __init__(self, bot_id: str = "toy_first"):
        self.bot_id = bot_id

    def act(self, state: State, ctx: DecisionContext) -> Action:
        return state.legal_actions(ctx.player)[0]


class LastBot(Bot):
    """Plays its highest-numbered legal action."""

    def __init__(self, bot_id: str = "toy_last"):
        self.bot_id = bot_id

    def act(self, state: State, ctx: DecisionContext) -> Action:
        return state.legal_actions(ctx.player)[-1]


class SeededRandomBot(Bot):
    """Uniform legal action drawn from the per-decision generator (replayable by forks)."""

    deterministic = False

    def __init__(self, bot_id: str = "toy_random"):
        self.bot_id = bot_id

    def act(self, state: State, ctx: DecisionContext) -> Action:
        legal = state.legal_actions(ctx.player)
        return legal[int(decision_rng(ctx).integers(len(legal)))]


class UnseededRandomBot(Bot):
    """Breaks the bot contract on purpose (a shared stream): forks cannot reproduce it."""

    deterministic = False

    def __init__(self, bot_id: str = "toy_unseeded", seed: int = 0):
        import numpy as np

        self.bot_id = bot_id
        self.rng = np.random.default_rng(seed)

    def act(self, state: State, ctx: DecisionContext) -> Action:
        legal = state.legal_actions(ctx.player)
        return legal[int(self.rng.integers(len(legal)))]


TOY_BOTS: Mapping[str, type[Bot]] = {
    "toy_first": FirstBot,
    "toy_last": LastBot,
    "toy_random": SeededRandomBot,
    "toy_unseeded": UnseededRandomBot,
}


class ToyProvider:
    """``provider(bot_id)`` over :data:`TOY_BOTS` plus any extra bots given by instance."""

    def __init__(self, extra: Mapping[str, Bot] | None = None):
        self.extra = dict(extra or {})
        self._cache: dict[str, Bot] = {}

    def __call__(self, bot_id: str) -> Bot:
        if bot_id in self.extra:
            return self.extra[bot_id]
        if bot_id not in TOY_BOTS:
            raise KeyError(f"unknown toy bot {bot_id!r}")
        if bot_id not in self._cache:
            self._cache[bot_id] = TOY_BOTS[bot_id](bot_id)
        return self._cache[bot_id]


class ToyProviderFactory:
    """Picklable factory of :class:`ToyProvider` (one per worker process)."""

    def __init__(self, extra: Mapping[str, Bot] | None = None):
        self.extra = dict(extra or {})

    def __call__(self) -> ToyProvider:
        return ToyProvider(self.extra)
