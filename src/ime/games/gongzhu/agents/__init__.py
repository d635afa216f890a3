"""Learned Gongzhu agents (issue 17): a supervised CNN baseline and a DMC self-play agent.

Modules: ``features`` (what a seat sees, CNN planes, DMC vectors), ``models`` (torch nets),
``cnn`` (rule-bot data + supervised training, ``python -m ime.games.gongzhu.agents.cnn train``),
``agent`` + ``dmc`` (DMC acting and actor/learner training,
``python -m ime.games.gongzhu.agents.dmc train``), ``evaluate`` (seat-rotated matches with 95%
CIs), ``bots`` (the IME bots on the shipped ``checkpoints/``).

``AGENT_KINDS`` maps a bot ``kind`` of ``config/bots/gongzhu.yaml`` to a factory
``(game_name, bot_id, params) -> Bot`` in the shape of the plug-in's ``BOT_KINDS`` (merge with
``BOT_KINDS.update(AGENT_KINDS)``); each factory imports torch lazily.

* ``gz_dmc``: :class:`~.bots.GongzhuDMCBot`, greedy argmax Q, deterministic
  (params: ``checkpoint``, default the shipped ``gz_dmc.pt``).
* ``gz_cnn``: :class:`~.bots.GongzhuCNNBot`, greedy argmax of the masked policy, deterministic
  (params: ``checkpoint`` default ``gz_cnn.pt``; ``temperature`` > 0 samples from a keyed rng).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ime.core.bot import Bot
from ime.core.registry import BotFactory


def _gz_dmc(game: str, bot_id: str, params: Mapping[str, Any]) -> Bot:
    from ime.games.gongzhu.agents.bots import GongzhuDMCBot

    return GongzhuDMCBot(bot_id, **params)


def _gz_cnn(game: str, bot_id: str, params: Mapping[str, Any]) -> Bot:
    from ime.games.gongzhu.agents.bots import GongzhuCNNBot

    return GongzhuCNNBot(bot_id, **params)


AGENT_KINDS: dict[str, BotFactory] = {"gz_dmc": _gz_dmc, "gz_cnn": _gz_cnn}
"""Bot kind -> factory for the learned agents (see the module doc)."""

__all__ = ["AGENT_KINDS"]
