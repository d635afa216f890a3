"""Doudizhu's bots: ``BOT_KINDS`` maps the ``kind`` of ``config/bots/doudizhu.yaml`` to a factory
``(game_name, bot_id, params) -> Bot``.

* ``random``: a uniformly random legal action (``bots/basic.py``).
* ``smallest``: the smallest legal combination, never passing when it can play
  (``bots/basic.py``; the order is documented there).

* ``rule1`` .. ``rule5``: the rule bots after the thesis's Table 5.1 (``bots/rule1.py`` ..).
* ``pimc``: determinized Monte-Carlo search over sampled hidden hands (``bots/pimc.py``).

``docs/zoo.md`` ("The Doudizhu bot zoo") describes each and its measured strength.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ime.core.bot import Bot
from ime.core.registry import BotFactory


def _random(game: str, bot_id: str, params: Mapping[str, Any]) -> Bot:
    from ime.games.doudizhu.bots.basic import RandomBot

    return RandomBot(bot_id, **params)


def _smallest(game: str, bot_id: str, params: Mapping[str, Any]) -> Bot:
    from ime.games.doudizhu.bots.basic import SmallestBot

    return SmallestBot(bot_id, **params)


BOT_KINDS: dict[str, BotFactory] = {
    "random": _random,
    "smallest": _smallest,
}

from ime.games.doudizhu.bots.zoo import ZOO_KINDS  # noqa: E402 - the zoo's factories build on these

BOT_KINDS.update(ZOO_KINDS)
