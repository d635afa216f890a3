"""Game plug-ins by name: a new game registers here and nowhere in the stages."""

from __future__ import annotations

from ime.games.base import Game


def get_game(name: str) -> Game:
    if name == "reversi":
        from ime.games.reversi import GAME

        return GAME
    raise KeyError(f"unknown game {name!r}; known: reversi")
