"""Connect Four (configurable board, blocked cells) with seed 002's UCT agent; registers
``connect4``."""

from ime.games.connect4.game import GAME, Connect4Game, Connect4State
from ime.games.connect4.plugin import PLUGIN

__all__ = ["GAME", "PLUGIN", "Connect4Game", "Connect4State"]
