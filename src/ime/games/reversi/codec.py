"""Reversi's Botzone codec: requests, responses and the simple-interaction lines.

The judge (``Reversi.cpp``, jsoncpp) reads a response ``{"x": X, "y": Y}``:

* ``X``/``Y`` must satisfy jsoncpp's ``isInt()``: an integer within the signed 32-bit range, or a
  whole-number double within it (``2.0`` reads as 2). Anything else (a string, ``2.5``, ``true``,
  ``2**31``, a missing key, unparsable text) is ``INVALID_INPUT_VERDICT_OK``.
* ``x == -1`` is a pass, whatever ``y`` is.
* Any other square off the board is ``INVALID_MOVE``.

Simple interaction turns a request or response into the line ``"x y"``; the bot's line goes back
through JavaScript ``parseInt`` on each space-separated field (:func:`ime.core.codec.js_parse_int`).
"""

from __future__ import annotations

import json
import math
from collections.abc import Mapping
from typing import Any

from ime.core.codec import SimpleCodec, js_parse_int
from ime.core.game import IllegalMoveError
from ime.games.reversi.bitboard import PASS

INT32_MIN, INT32_MAX = -(1 << 31), (1 << 31) - 1


def jsoncpp_int(v: Any) -> int | None:
    """``v`` as jsoncpp's ``asInt()`` when ``isInt()`` holds, else ``None``."""
    if isinstance(v, bool):
        return None
    if isinstance(v, int):
        return v if INT32_MIN <= v <= INT32_MAX else None
    if isinstance(v, float) and math.isfinite(v) and v == int(v) and INT32_MIN <= v <= INT32_MAX:
        return int(v)
    return None


def request(last_action: int | None) -> dict:
    """The request after ``last_action`` (``None``: the game's first request; a pass: -1 -1)."""
    if last_action is None or last_action == PASS:
        return {"x": -1, "y": -1}
    return {"x": last_action % 8, "y": last_action // 8}


def encode_response(action: int) -> dict:
    return request(action)


def decode_response(player: int, response: Any) -> int:
    """A square ``y * 8 + x`` or ``PASS``; raises :class:`IllegalMoveError` (the judge's code)."""
    content = response
    if isinstance(content, str):
        try:
            content = json.loads(content)
        except json.JSONDecodeError as e:
            raise IllegalMoveError(player, "INVALID_INPUT_VERDICT_OK", response) from e
    if not isinstance(content, Mapping):
        raise IllegalMoveError(player, "INVALID_INPUT_VERDICT_OK", response)
    x, y = jsoncpp_int(content.get("x")), jsoncpp_int(content.get("y"))
    if x is None or y is None:
        raise IllegalMoveError(player, "INVALID_INPUT_VERDICT_OK", response)
    if x == -1:  # the judge reads any x == -1 as a pass
        return PASS
    if not (0 <= x < 8 and 0 <= y < 8):
        raise IllegalMoveError(player, "INVALID_MOVE", response)
    return y * 8 + x


def _xy_line(obj: Any) -> str:
    if isinstance(obj, str):
        try:
            obj = json.loads(obj)
        except json.JSONDecodeError:
            return obj.strip()
    if isinstance(obj, Mapping):
        return f"{obj.get('x')} {obj.get('y')}"
    return "" if obj is None else str(obj)


def _line_to_xy(line: str) -> dict:
    parts = [js_parse_int(p) for p in line.split(" ")]
    out: dict[str, int | None] = {"x": parts[0]}
    if len(parts) > 1:  # JSON.stringify drops an undefined y
        out["y"] = parts[1]
    return out


SIMPLE_CODEC = SimpleCodec(_xy_line, _xy_line, _line_to_xy)
