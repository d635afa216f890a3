"""The bot contract: a decision is a pure function of (bot config, seed, game history).

Search budgets are node / simulation counts, never wall time, and a randomised bot draws from a
generator keyed by ``(seed, match_id, ply)`` (:func:`decision_rng`), never from a shared stream.
So replaying a match from any ply ("forking") reproduces exactly what the bot did there, which is
what key-endgame mining relies on.
"""

from __future__ import annotations

import hashlib
from abc import ABC, abstractmethod
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ime.games.base import Action, State


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


def derive_seed(*parts: Any) -> int:
    """A stable 63-bit seed from any printable parts (same on every platform and Python)."""
    h = hashlib.blake2b("\x1f".join(str(p) for p in parts).encode(), digest_size=8)
    return int.from_bytes(h.digest(), "little") >> 1


def decision_rng(ctx: DecisionContext, salt: str = "") -> np.random.Generator:
    """The generator for one decision, keyed by (seed, match, ply, player)."""
    return np.random.default_rng(derive_seed(ctx.seed, ctx.match_id, ctx.ply, ctx.player, salt))


class Bot(ABC):
    """An agent that can sit in any seat of a game.

    ``bot_id`` is the name written into match logs (the ``bot`` field of ``players``).
    """

    bot_id: str
    deterministic: bool = True

    @abstractmethod
    def act(self, state: State, ctx: DecisionContext) -> Action:
        """Choose an action for ``ctx.player`` in ``state`` (which must not be mutated)."""

    def close(self) -> None:  # noqa: B027 - optional hook, a no-op for in-process bots
        """Release resources (external processes); in-process bots have none."""
