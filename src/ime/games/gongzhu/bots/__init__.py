"""Gongzhu's bots: ``BOT_KINDS`` maps the ``kind`` of ``config/bots/gongzhu.yaml`` to a factory
``(game_name, bot_id, params) -> Bot``.

* ``duck``, ``shoot``, ``low``: the rule styles of :mod:`.rulebots` (params: ``epsilon``, the
  probability of a uniformly random legal action instead);
* ``random``: a uniformly random legal action.

The supervised CNN and the Deep Monte-Carlo agent (``ime.games.gongzhu.agents``) register their
own kinds with the integrator (``docs/games/gongzhu.md``).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ime.core.bot import Bot
from ime.core.registry import BotFactory
from ime.games.gongzhu.bots.rulebots import RULE_STYLES


def _style_factory(style: str) -> BotFactory:
    def make(game: str, bot_id: str, params: Mapping[str, Any]) -> Bot:
        from ime.games.gongzhu.bots.basic import RuleStyleBot

        return RuleStyleBot(bot_id, style, **dict(params or {}))

    make.__name__ = f"_{style}"
    make.__doc__ = f"Build the Gongzhu rule style {style!r} as a bot."
    return make


BOT_KINDS: dict[str, BotFactory] = {style: _style_factory(style) for style in RULE_STYLES}

__all__ = ["BOT_KINDS"]

# The learned agents (supervised CNN, Deep Monte-Carlo; ime.games.gongzhu.agents): their
# factories import torch only when a bot is built.
from ime.games.gongzhu.agents import AGENT_KINDS  # noqa: E402

BOT_KINDS.update(AGENT_KINDS)
