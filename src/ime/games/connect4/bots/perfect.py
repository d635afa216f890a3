"""Perfect play from the exact solver, with a node budget and an alpha-beta fallback.

Once at most ``solve_empties`` playable cells are empty, the bot scores every column with the
solver (``weak``: only win / draw / loss) and plays the best, centre first among ties. A
solve that would need more than ``nodes`` nodes gives up, and so does every position with more
empties: the bot then plays the alpha-beta bot's move (``fallback`` parameters). Everything is
a pure function of the position and the parameters (the solver's table is not reused across
decisions), so the bot is deterministic.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np

from ime.core.bot import Bot, DecisionContext
from ime.games.connect4.board import Geometry
from ime.games.connect4.bots.alphabeta import AlphaBetaBot, pick
from ime.games.connect4.solver import Solver


class SolverBot(Bot):
    """The solver's best column when it finishes within ``nodes``, else alpha-beta's."""

    def __init__(self, bot_id: str = "solver", nodes: int = 200_000, solve_empties: int = 64,
                 weak: bool = False, tt_bits: int = 20,
                 fallback: Mapping[str, Any] | None = None):
        self.bot_id = bot_id
        self.nodes = int(nodes)
        self.solve_empties = int(solve_empties)
        self.weak = bool(weak)
        self.tt_bits = int(tt_bits)
        fb = {"depth": 6, "tie": "centre", **dict(fallback or {})}
        self.fallback = AlphaBetaBot(f"{bot_id}.fallback", **fb)
        self.deterministic = self.fallback.deterministic
        self._solvers: dict[Geometry, Solver] = {}
        self.solved = 0
        self.fell_back = 0

    def solver(self, geo: Geometry) -> Solver:
        if geo not in self._solvers:
            self._solvers[geo] = Solver(geo, self.tt_bits)
        return self._solvers[geo]

    def scores(self, state) -> np.ndarray | None:
        """Solver score of every column, or ``None`` (too many empties or over budget)."""
        geo = state.game.geometry
        me, opp = state.own_opp()
        empties = geo.cells - int(me).bit_count() - int(opp).bit_count()
        if empties > self.solve_empties:
            return None
        return self.solver(geo).analyze(me, opp, weak=self.weak, budget=self.nodes)

    def act(self, state, ctx: DecisionContext) -> int:
        scores = self.scores(state)
        if scores is None:
            self.fell_back += 1
            return self.fallback.act(state, ctx)
        self.solved += 1
        return pick(scores, state.game.geometry.order, "centre", None)
