"""Gongzhu (拱猪, Chase the Pig): rules core (``rules``, shared with the DMC agents), engine,
Botzone-style codec, encoder, rule bots; registers ``gongzhu``."""

from ime.games.gongzhu.game import GAME, GongzhuGame, GongzhuGameState
from ime.games.gongzhu.plugin import PLUGIN

__all__ = ["GAME", "PLUGIN", "GongzhuGame", "GongzhuGameState"]
