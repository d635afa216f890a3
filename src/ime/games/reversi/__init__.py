"""Reversi (Othello) with Botzone's rules."""

from ime.games.reversi.game import GAME, ReversiGame, ReversiState

__all__ = ["GAME", "ReversiGame", "ReversiState"]
