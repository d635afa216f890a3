"""Botzone's two-player simultaneous Snake (the judge ``Snake.cpp``, move for move); registers
``snake``."""

from ime.games.snake.game import GAME, SnakeGame, SnakeState
from ime.games.snake.plugin import PLUGIN

__all__ = ["GAME", "PLUGIN", "SnakeGame", "SnakeState"]
