"""What every zoo bot shares: the forced-move shortcut, the per-decision random stream and the
parameter checks.

A zoo bot is stateless: :meth:`ZooBot.act` copies ``state.S`` and hands it to the family's
numba kernel with a seed drawn from ``decision_rng(ctx, family)``, so a decision is a pure
function of the position and ``(seed, match_id, ply, player)``; replaying a match from any
ply ("forking") gives the same decisions.
"""

from __future__ import annotations

from abc import abstractmethod
from collections.abc import Iterable
from typing import Any

import numpy as np

from ime.core.bot import Bot, DecisionContext, decision_rng
from ime.games.snake import board as B
from ime.games.snake.game import SnakeState


def check_choice(name: str, value: Any, allowed: Iterable[str]) -> str:
    """``value`` as a string if it is one of ``allowed``, else a ValueError naming both."""
    allowed = tuple(allowed)
    if str(value) not in allowed:
        raise ValueError(f"snake zoo parameter {name}={value!r}: expected one of {allowed}")
    return str(value)


def check_int(name: str, value: Any, low: int, high: int | None = None) -> int:
    """``value`` as an int in ``[low, high]``, else a ValueError (budgets are counts)."""
    v = int(value)
    if v < low or (high is not None and v > high):
        rng = f">= {low}" if high is None else f"in {low}..{high}"
        raise ValueError(f"snake zoo parameter {name}={value!r}: expected an integer {rng}")
    return v


class ZooBot(Bot):
    """Base of the zoo's families: :meth:`decide` gets a private copy of the state vector.

    A snake with one valid direction plays it and a boxed-in one plays 0 (every answer loses),
    without searching: both are what any of the thesis's bots would do, and they save the
    budget. ``family`` salts the random stream so two families never share draws.
    """

    family = "zoo"
    deterministic = True

    def __init__(self, bot_id: str):
        self.bot_id = bot_id

    def act(self, state: SnakeState, ctx: DecisionContext) -> int:
        me = int(ctx.player)
        m = int(B.valid_mask(state.S, me))
        if m == 0:
            return 0
        if m & (m - 1) == 0:
            return m.bit_length() - 1
        return int(self.decide(state.S.copy(), me, m, ctx))

    def seed(self, ctx: DecisionContext) -> np.ndarray:
        """The SplitMix64 state (``uint64[1]``) of this decision's random stream."""
        st = np.zeros(1, np.uint64)
        st[0] = np.uint64(int(decision_rng(ctx, self.family).integers(1, 1 << 63)))
        return st

    @abstractmethod
    def decide(self, S: np.ndarray, me: int, valid: int, ctx: DecisionContext) -> int:
        """The direction for snake ``me``; ``valid`` (two or more bits) is its valid mask and
        ``S`` a copy it may change."""

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.bot_id!r})"
