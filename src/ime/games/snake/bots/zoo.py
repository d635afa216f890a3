"""The kinds of Snake's 22-bot zoo (Fig 2.4 of the thesis; ``config/bots/snake.yaml`` names
snk01..snk22). ``ZOO_KINDS`` has the shape of ``BOT_KINDS``: a kind maps to a factory
``(game_name, bot_id, params) -> Bot`` that imports its module lazily (numba loads or compiles
its kernels on first use).

* ``mcts``: decoupled UCT for simultaneous moves (:mod:`.mcts`);
* ``nash``: Nash-equilibrium Monte Carlo, a 4 x 4 matrix game per node (:mod:`.nash`);
* ``montecarlo``: plain Monte Carlo rollouts per direction (:mod:`.montecarlo`);
* ``alphabeta``: alpha-beta on the sequentialised game (:mod:`.search`);
* ``dfs``: depth-first search, survival or minimax (:mod:`.search`);
* ``expert``: rule systems (:mod:`.expert`).

Every bot is a pure function of the position and ``(seed, match_id, ply, player)``; budgets
are simulation / rollout / node counts. ``docs/games/snake_zoo.md`` has the table.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ime.core.bot import Bot
from ime.core.registry import BotFactory


def _mcts(game: str, bot_id: str, params: Mapping[str, Any]) -> Bot:
    from ime.games.snake.bots.mcts import MCTSBot

    return MCTSBot(bot_id, **params)


def _nash(game: str, bot_id: str, params: Mapping[str, Any]) -> Bot:
    from ime.games.snake.bots.nash import NashBot

    return NashBot(bot_id, **params)


def _montecarlo(game: str, bot_id: str, params: Mapping[str, Any]) -> Bot:
    from ime.games.snake.bots.montecarlo import MonteCarloBot

    return MonteCarloBot(bot_id, **params)


def _alphabeta(game: str, bot_id: str, params: Mapping[str, Any]) -> Bot:
    from ime.games.snake.bots.search import AlphaBetaBot

    return AlphaBetaBot(bot_id, **params)


def _dfs(game: str, bot_id: str, params: Mapping[str, Any]) -> Bot:
    from ime.games.snake.bots.search import DFSBot

    return DFSBot(bot_id, **params)


def _expert(game: str, bot_id: str, params: Mapping[str, Any]) -> Bot:
    from ime.games.snake.bots.expert import ExpertBot

    return ExpertBot(bot_id, **params)


ZOO_KINDS: dict[str, BotFactory] = {
    "mcts": _mcts,
    "nash": _nash,
    "montecarlo": _montecarlo,
    "alphabeta": _alphabeta,
    "dfs": _dfs,
    "expert": _expert,
}
