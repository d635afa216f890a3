"""A bot's JSON response in Botzone's FightTheLandlord shape, which our Big-2 protocol copies: a
list of card ids, ``[]`` a pass. The requests differ per game (seats, history) and stay in each
game's ``codec`` module.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ime.core.game import IllegalMoveError, json_response
from ime.games.shedding.judge import BAD_FORMAT


def parse_response(player: int, response: Any) -> list[Any]:
    """The response as a list of raw elements (the game's ``rules.check_play`` checks them);
    a JSON string holding a list is parsed first (logs may store responses as text).
    ``IllegalMoveError(BAD_FORMAT)`` when it is not a list."""
    content = json_response(player, response)
    if not isinstance(content, list):
        raise IllegalMoveError(player, f"{BAD_FORMAT}: a response must be a list of card ids",
                               response)
    return content


def encode_response(cards: Sequence[int]) -> list[int]:
    """The response of a play: its card ids as plain ints."""
    return [int(c) for c in cards]


__all__ = ["encode_response", "parse_response"]
