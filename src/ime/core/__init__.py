"""The contracts every game and every stage shares.

* :mod:`ime.core.game`: ``GameType``, ``Game``, ``State`` (OpenSpiel-shaped engine API).
* :mod:`ime.core.encoding`: the net-side view of a game: per-player observation, action heads
  with their masks, symmetries.
* :mod:`ime.core.codec`: Botzone's line-based "simple interaction" codec of a game.
* :mod:`ime.core.bot`: the bot contract (``act`` is a pure function of config, seed and history).
* :mod:`ime.core.seeding`: stable seeds derived from names.
* :mod:`ime.core.registry`: game plug-ins by name (``register_game`` / ``get_plugin``).

Nothing here names a game; dependencies point one way: core <- games <- bots <- matches <- ...
"""
