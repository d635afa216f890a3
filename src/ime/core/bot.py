"""The bot contract: a decision is a pure function of (bot config, seed, game history).

Search budgets are node / simulation counts, never wall time, and a randomised bot draws from a
generator keyed by ``(seed, match_id, ply)`` (:func:`decision_rng`), never from a shared stream.
So replaying a match from any ply ("forking") reproduces exactly what the bot did there, which is
what key-endgame mining relies on.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ime.core.game import Action, State
from ime.core.seeding import derive_seed

__all__ = ["Bot", "BotFault", "DecisionContext", "decision_rng", "derive_seed"]


@dataclass(frozen=True)
class DecisionContext:
    """Who decides, where, and the Botzone transcript the platform would feed that player.

    ``requests``/``responses`` are this player's Botzone history (the last request is the one to
    answer now); in-process bots ignore them, external programs receive them verbatim.
    """

    seed: int
    match_id: str
    ply: int
    player: int
    requests: list[Any] = field(default_factory=list)
    responses: list[Any] = field(default_factory=list)


def decision_rng(ctx: DecisionContext, salt: str = "") -> np.random.Generator:
    """The generator for one decision, keyed by (seed, match, ply, player)."""
    return np.random.default_rng(derive_seed(ctx.seed, ctx.match_id, ctx.ply, ctx.player, salt))


class Bot(ABC):
    """An agent that can sit in any seat of a game.

    ``bot_id`` is the name written into match logs (the ``bot`` field of ``players``).
    """

    bot_id: str
    deterministic: bool = True
    position_pure: bool = False
    """True when a decision is a function of the config and ``state.position_key()`` alone (no
    history, no context): :mod:`ime.core.memo` may then answer a repeated position from memory."""

    @abstractmethod
    def act(self, state: State, ctx: DecisionContext) -> Action:
        """Choose an action for ``ctx.player`` in ``state`` (which must not be mutated)."""

    def end_match(self, match_id: str) -> None:  # noqa: B027 - optional hook
        """``match_id`` is over (the judge calls it however the match ended). An external bot
        kills the programs it kept running for that match, as Botzone does at a match's end;
        in-process bots keep nothing per match."""

    def close(self) -> None:  # noqa: B027 - optional hook, a no-op for in-process bots
        """Release resources (external processes); in-process bots have none."""


class BotFault(Exception):
    """A bot failed to produce a response: verdict is Botzone's (``TLE``, ``RE``, ``MLE``, ...).

    Raised by a bot's ``act`` (external programs); the judge records the verdict and ends the
    match as the game's judge rules.
    """

    def __init__(self, verdict: str, detail: str = "", raw: str | None = None):
        super().__init__(f"{verdict}: {detail}" if detail else verdict)
        self.verdict = verdict
        self.detail = detail
        self.raw = raw
