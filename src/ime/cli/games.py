"""Shared bits of the game-taking commands: the game argument, plug-in tool lookup, and the
argparse type of a count (workers, threads, games) that must be at least 1."""

from __future__ import annotations

import argparse
from typing import Any


def add_game_argument(p: argparse.ArgumentParser, help: str = "game") -> None:
    """A positional ``game`` whose choices are the registered plug-ins."""
    from ime.core.registry import known_games

    p.add_argument("game", choices=known_games(), help=help)


def game_tool(game: str, tool: str) -> Any:
    """The plug-in tool ``tool`` of ``game``, or a ValueError naming the games that have it."""
    from ime.core.registry import get_plugin, known_games

    found = getattr(get_plugin(game).tools, tool)
    if not found:
        have = [g for g in known_games() if getattr(get_plugin(g).tools, tool)]
        raise ValueError(f"game {game!r} offers no {tool!r} tool; games that do: {have}")
    return found


def positive_int(text: str) -> int:
    """argparse ``type=`` of a count that must be >= 1 (``--workers``, ``--threads``,
    ``--games``): ``--workers -2`` or ``--workers 0`` stops at parse time with a message naming
    the value, instead of a pool of size zero failing, or a negative count meaning all cores."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number >= 1, got {text!r}") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be >= 1, got {value}")
    return value
