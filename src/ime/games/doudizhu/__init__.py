"""Doudizhu (Botzone FightTheLandlord v1): engine, judge, Botzone codec and baseline bots;
registers ``doudizhu``."""

from ime.games.doudizhu.game import GAME, DoudizhuGame, DoudizhuState
from ime.games.doudizhu.plugin import PLUGIN

__all__ = ["GAME", "PLUGIN", "DoudizhuGame", "DoudizhuState"]
