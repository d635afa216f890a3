"""The Doudizhu bot zoo's kinds: ``ZOO_KINDS`` maps the ``kind`` of ``config/bots/doudizhu.yaml``
to a factory ``(game_name, bot_id, params) -> Bot``, in the shape of ``BOT_KINDS`` (merge with
``BOT_KINDS.update(ZOO_KINDS)``). Each factory imports its module lazily.

* ``rule1`` .. ``rule5``: the Table 5.1 bots ``ddz1`` .. ``ddz5`` (``bots/rule1.py`` ..
  ``bots/rule5.py``; splits and valuations in ``bots/splits.py``).
* ``pimc``: determinized Monte-Carlo search, ``ddz_mc`` (``bots/pimc.py``, rollouts compiled in
  ``bots/playout.py``).
* ``pimc_om``: ``pimc`` whose rollouts let a model (an imitator of the bots at the table, or a
  zoo bot) play the other seats (``bots/om_pimc.py``, issue 49; docs/opponent_model.md). No
  zoo entry uses it: the opponent-model experiment builds its entries.

``docs/zoo.md`` (Doudizhu section) describes each bot with its speed and strength.
"""

from __future__ import annotations

import importlib
from collections.abc import Mapping
from typing import Any

from ime.core.bot import Bot
from ime.core.registry import BotFactory

_CLASSES = {
    "rule1": ("rule1", "Rule1Bot"),
    "rule2": ("rule2", "Rule2Bot"),
    "rule3": ("rule3", "Rule3Bot"),
    "rule4": ("rule4", "Rule4Bot"),
    "rule5": ("rule5", "Rule5Bot"),
    "pimc": ("pimc", "PIMCBot"),
}


def _factory(module: str, cls: str) -> BotFactory:
    def make(game: str, bot_id: str, params: Mapping[str, Any]) -> Bot:
        mod = importlib.import_module(f"ime.games.doudizhu.bots.{module}")
        return getattr(mod, cls)(bot_id, **params)

    make.__name__ = f"_{module}"
    make.__doc__ = f"Build a :class:`ime.games.doudizhu.bots.{module}.{cls}`."
    return make


def _pimc_om(game: str, bot_id: str, params: Mapping[str, Any]) -> Bot:
    """Build a :class:`ime.games.doudizhu.bots.om_pimc.ModelPIMCBot` (its params are parsed
    there: an ``opponent`` model spec and typed rollout-model knobs)."""
    from ime.games.doudizhu.bots.om_pimc import make

    return make(game, bot_id, params)


ZOO_KINDS: dict[str, BotFactory] = {
    **{kind: _factory(module, cls) for kind, (module, cls) in _CLASSES.items()},
    "pimc_om": _pimc_om,
}
"""Kind name -> factory for the zoo's bots (see the module doc)."""

__all__ = ["ZOO_KINDS"]
