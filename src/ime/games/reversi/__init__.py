"""Reversi (Othello) with Botzone's rules: engine, codec, encoder, zoo; registers ``reversi``."""

from ime.games.reversi.game import GAME, ReversiGame, ReversiState
from ime.games.reversi.plugin import PLUGIN

__all__ = ["GAME", "PLUGIN", "ReversiGame", "ReversiState"]
