"""Big-2's bots: ``BOT_KINDS`` maps the ``kind`` of ``config/bots/big2.yaml`` to a factory
``(game_name, bot_id, params) -> Bot``.

* ``random``: a uniformly random legal action (``bots/basic.py``).
* ``smallest``: the smallest legal play, passing only when nothing beats (``bots/basic.py``).
* ``heuristic``: seed 004's heuristic agent, the first play of its move ordering
  (``bots/heuristic.py``).
* ``negamax``: seed 004's agent "Shen Suan Zi" (``bots/negamax.py``, search in
  :mod:`ime.games.big2.search`).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ime.core.bot import Bot
from ime.core.registry import BotFactory


def _random(game: str, bot_id: str, params: Mapping[str, Any]) -> Bot:
    from ime.games.big2.bots.basic import RandomBot

    return RandomBot(bot_id, **params)


def _smallest(game: str, bot_id: str, params: Mapping[str, Any]) -> Bot:
    from ime.games.big2.bots.basic import SmallestBot

    return SmallestBot(bot_id, **params)


def _heuristic(game: str, bot_id: str, params: Mapping[str, Any]) -> Bot:
    from ime.games.big2.bots.heuristic import HeuristicBot

    return HeuristicBot(bot_id, **params)


def _negamax(game: str, bot_id: str, params: Mapping[str, Any]) -> Bot:
    from ime.games.big2.bots.negamax import NegamaxBot

    return NegamaxBot(bot_id, **params)


BOT_KINDS: dict[str, BotFactory] = {
    "random": _random,
    "smallest": _smallest,
    "heuristic": _heuristic,
    "negamax": _negamax,
}
