"""Cheap seeded Reversi opponents: the population the thesis targets play their matches against.

A deterministic target replayed against a deterministic opponent would play the same game over
and over; these opponents are randomised (every draw from ``decision_rng(ctx)``), so a target's
5800 matches are all different while any single decision can still be reproduced exactly.

* ``RandomBot``: uniform over legal moves.
* ``GreedyBot``: most discs flipped, ties at random.
* ``PositionalBot``: highest weight-table square, ties at random.
* ``NoisySearchBot``: a shallow (1-2 ply) alpha-beta with random tie-breaking that plays a random
  move with probability ``epsilon``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np

from ime.core.bot import Bot, DecisionContext, decision_rng
from ime.games.reversi.bitboard import PASS, flips, popcount
from ime.games.reversi.bots.evaluation import weight_table
from ime.games.reversi.bots.search import AlphaBetaBot, random_legal
from ime.games.reversi.game import ReversiState


def _argmax_random(scores: list[int], rng: np.random.Generator) -> int:
    """Index of a maximum of ``scores``, uniformly among ties."""
    best = max(scores)
    ties = [i for i, s in enumerate(scores) if s == best]
    return ties[int(rng.integers(len(ties)))]


class RandomBot(Bot):
    """Uniformly random legal move."""

    deterministic = False

    def __init__(self, bot_id: str = "random"):
        self.bot_id = bot_id

    def act(self, state: ReversiState, ctx: DecisionContext) -> int:
        return random_legal(state, decision_rng(ctx, "random"))


class GreedyBot(Bot):
    """Maximise the number of discs flipped right now (a classic weak heuristic)."""

    deterministic = False

    def __init__(self, bot_id: str = "greedy"):
        self.bot_id = bot_id

    def act(self, state: ReversiState, ctx: DecisionContext) -> int:
        actions = state.legal_actions()
        if actions == [PASS]:
            return PASS
        P, O = state.own_opp(state.to_move)
        scores = [int(popcount(flips(P, O, a))) for a in actions]
        return int(actions[_argmax_random(scores, decision_rng(ctx, "greedy"))])


class PositionalBot(Bot):
    """Play the legal square with the highest weight in a table; ties at random."""

    deterministic = False

    def __init__(self, bot_id: str = "positional", weights: str | list[Any] = "standard"):
        self.bot_id = bot_id
        self.weights = weight_table(weights)

    def act(self, state: ReversiState, ctx: DecisionContext) -> int:
        actions = state.legal_actions()
        if actions == [PASS]:
            return PASS
        scores = [int(self.weights[a]) for a in actions]
        return int(actions[_argmax_random(scores, decision_rng(ctx, "positional"))])


class NoisySearchBot(AlphaBetaBot):
    """Shallow alpha-beta (depth ``depth``) with random ties and an ``epsilon`` random move."""

    def __init__(
        self,
        bot_id: str = "noisy",
        depth: int = 1,
        epsilon: float = 0.1,
        params: Mapping[str, Any] | None = None,
    ):
        p: dict[str, Any] = {
            "weights": "standard",
            "mobility": 5,
            "nodes": 5000,
            "ordering": "table",
            "tie": "random",
        }
        p.update(params or {})
        p["max_depth"] = int(depth)
        super().__init__(bot_id, p, epsilon=epsilon)
