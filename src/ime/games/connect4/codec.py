"""Connect Four's Botzone-style JSON codec (the game is not on Botzone; this is the protocol our
judge speaks, written in the style of Botzone's Reversi judge so external bots need no new code).

* Request: ``{"x": c}``, the column the opponent just played; the first request of the game is
  ``{"x": -1}``.
* Response: ``{"x": c}``, the column to play (0 = leftmost).
* ``x`` is read as jsoncpp's ``isInt()`` reads it: an integer in the signed 32-bit range, or a
  whole-number float within it (``3.0`` is 3). A response that is not JSON, not an object, or
  whose ``x`` is missing, a string, a bool, ``2.5`` or beyond 32 bits is
  ``INVALID_INPUT_VERDICT_OK``.
* A column off the board (``-1`` included: there is no pass) or a full column is
  ``INVALID_MOVE``.

Either fault loses the game 0-2. There is no simple-interaction (line) mode.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from ime.core.codec import jsoncpp_int
from ime.core.game import IllegalMoveError

INVALID_INPUT = "INVALID_INPUT_VERDICT_OK"
INVALID_MOVE = "INVALID_MOVE"


def request(last_column: int | None) -> dict:
    """The request after the opponent played ``last_column`` (``None``: the first request)."""
    return {"x": -1 if last_column is None else int(last_column)}


def encode_response(column: int) -> dict:
    return {"x": int(column)}


def parse_column(player: int, response: Any, width: int) -> int:
    """The column of a response, on the board but not checked for fullness; raises
    :class:`IllegalMoveError` with the judge's reason."""
    content = response
    if isinstance(content, str):
        try:
            content = json.loads(content)
        except json.JSONDecodeError as e:
            raise IllegalMoveError(player, INVALID_INPUT, response) from e
    if not isinstance(content, Mapping):
        raise IllegalMoveError(player, INVALID_INPUT, response)
    x = jsoncpp_int(content.get("x"))
    if x is None:
        raise IllegalMoveError(player, INVALID_INPUT, response)
    if not 0 <= x < width:
        raise IllegalMoveError(player, INVALID_MOVE, response)
    return x
