"""The Connect Four bot zoo: seed 002's UCT agent and the graded opponents.

``BOT_KINDS`` maps the ``kind`` of ``config/bots/connect4.yaml`` to a factory
``(game_name, bot_id, params) -> Bot``; each imports its module lazily (numba compiles or loads
its cache on first use). Bots read the board from ``state.game``, so one spec serves every
board size.

* ``uct``: seed 002's agent (``bots/uct.py``); plain UCT with ``heuristic_rollouts: false,
  win_in_selection: false``.
* ``random``, ``greedy``: ``bots/simple.py``.
* ``alphabeta``: depth-limited search with an open-line evaluation (``bots/alphabeta.py``).
* ``solver``: perfect play within a node budget, alpha-beta beyond it (``bots/perfect.py``).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ime.core.bot import Bot
from ime.core.registry import BotFactory


def _uct(game: str, bot_id: str, params: Mapping[str, Any]) -> Bot:
    from ime.games.connect4.bots.uct import UCTBot

    return UCTBot(bot_id, **params)


def _random(game: str, bot_id: str, params: Mapping[str, Any]) -> Bot:
    from ime.games.connect4.bots.simple import RandomBot

    return RandomBot(bot_id, **params)


def _greedy(game: str, bot_id: str, params: Mapping[str, Any]) -> Bot:
    from ime.games.connect4.bots.simple import GreedyBot

    return GreedyBot(bot_id, **params)


def _alphabeta(game: str, bot_id: str, params: Mapping[str, Any]) -> Bot:
    from ime.games.connect4.bots.alphabeta import AlphaBetaBot

    return AlphaBetaBot(bot_id, **params)


def _solver(game: str, bot_id: str, params: Mapping[str, Any]) -> Bot:
    from ime.games.connect4.bots.perfect import SolverBot

    return SolverBot(bot_id, **params)


BOT_KINDS: dict[str, BotFactory] = {
    "uct": _uct,
    "random": _random,
    "greedy": _greedy,
    "alphabeta": _alphabeta,
    "solver": _solver,
}
