"""Snake's bots by ``kind`` (``config/bots/snake.yaml``): ``BOT_KINDS`` maps a kind to a factory
``(game_name, bot_id, params) -> Bot``; modules load lazily.

* ``random``, ``greedy``: :mod:`ime.games.snake.bots.basic`.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ime.core.bot import Bot
from ime.core.registry import BotFactory
from ime.games.snake.bots.zoo import ZOO_KINDS


def _random(game: str, bot_id: str, params: Mapping[str, Any]) -> Bot:
    from ime.games.snake.bots.basic import RandomBot

    return RandomBot(bot_id, **params)


def _greedy(game: str, bot_id: str, params: Mapping[str, Any]) -> Bot:
    from ime.games.snake.bots.basic import GreedyBot

    return GreedyBot(bot_id, **params)


BOT_KINDS: dict[str, BotFactory] = {
    "random": _random,
    "greedy": _greedy,
    **ZOO_KINDS,  # the 22-bot zoo after the thesis's Fig 2.4 (docs/games/snake_zoo.md)
}
