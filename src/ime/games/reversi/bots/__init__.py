"""The Reversi bot zoo (thesis Table 4.1 analogues and the opponent population).

``BOT_KINDS`` maps the ``kind`` of ``config/bots/reversi.yaml`` to a factory; each imports its
module lazily (numba compiles on first use).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ime.core.bot import Bot
from ime.core.registry import BotFactory


def _alphabeta(game: str, bot_id: str, params: Mapping[str, Any]) -> Bot:
    from ime.games.reversi.bots.search import AlphaBetaBot

    p = dict(params)
    epsilon = float(p.pop("epsilon", 0.0))
    return AlphaBetaBot(bot_id, p, epsilon=epsilon)


def _mcts(game: str, bot_id: str, params: Mapping[str, Any]) -> Bot:
    from ime.games.reversi.bots.mcts import MCTSBot

    return MCTSBot(bot_id, **params)


def _random(game: str, bot_id: str, params: Mapping[str, Any]) -> Bot:
    from ime.games.reversi.bots.simple import RandomBot

    return RandomBot(bot_id, **params)


def _greedy(game: str, bot_id: str, params: Mapping[str, Any]) -> Bot:
    from ime.games.reversi.bots.simple import GreedyBot

    return GreedyBot(bot_id, **params)


def _positional(game: str, bot_id: str, params: Mapping[str, Any]) -> Bot:
    from ime.games.reversi.bots.simple import PositionalBot

    return PositionalBot(bot_id, **params)


def _noisy(game: str, bot_id: str, params: Mapping[str, Any]) -> Bot:
    from ime.games.reversi.bots.simple import NoisySearchBot

    return NoisySearchBot(bot_id, **params)


BOT_KINDS: dict[str, BotFactory] = {
    "alphabeta": _alphabeta,
    "mcts": _mcts,
    "random": _random,
    "greedy": _greedy,
    "positional": _positional,
    "noisy": _noisy,
}
