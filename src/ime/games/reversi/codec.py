"""Reversi's Botzone codec: requests, responses and the simple-interaction lines.

The judge (``Reversi.cpp``, built on jsoncpp 0.6 or later) reads a response ``{"x": X, "y": Y}``:

* A response that is a string is parsed as JSON by jsoncpp's ``Reader``, which skips leading
  whitespace, reads one value and ignores whatever follows it (:func:`jsoncpp_loads`).
* ``X``/``Y`` must satisfy jsoncpp's ``isInt()``: an integer within the signed 32-bit range, or a
  whole-number double within it (``2.0`` reads as 2). Anything else (a string, ``2.5``, ``true``,
  ``null``, ``2**31``, a missing key, a response that is not an object) is
  ``INVALID_INPUT_VERDICT_OK``.
* ``x == -1`` is a pass, whatever ``y`` is.
* Any other square off the board is ``INVALID_MOVE``.

Simple interaction is Botzone's Reversi ``transform_code``: a request or response becomes
``request.x + ' ' + request.y`` (JavaScript string conversion, :func:`ime.core.codec.js_string`),
and the bot's line goes back through JavaScript ``parseInt`` on each field of ``split(' ')``
(:func:`ime.core.codec.js_parse_int`), so ``"0x3 2"`` and ``"\\u00a03 2"`` are x = 3, y = 2.

Known differences from jsoncpp's ``Reader`` on string responses (none seen in real logs): it also
accepts ``//`` and ``/* */`` comments and lax numbers (``01``, ``1.``), which we reject as
``INVALID_INPUT_VERDICT_OK``.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from ime.core.codec import SimpleCodec, js_parse_int, js_string, jsoncpp_int
from ime.core.game import IllegalMoveError
from ime.games.reversi.bitboard import PASS

_JSONCPP_SPACE = " \t\r\n"
"""What jsoncpp's ``Reader::skipSpaces`` skips."""


def _no_constants(name: str) -> Any:
    raise ValueError(f"{name} is not JSON")


_DECODER = json.JSONDecoder(parse_constant=_no_constants, strict=False)
"""Python's JSON decoder, narrowed towards jsoncpp's ``Reader``: no ``NaN``/``Infinity``
literals (jsoncpp has none), raw control characters allowed inside strings (jsoncpp keeps them)."""


def jsoncpp_loads(text: str) -> Any:
    """``text`` as jsoncpp's ``Reader::parse`` reads it: the first JSON value after leading
    whitespace; trailing text is ignored. Raises :class:`ValueError` when there is no value."""
    s = text.lstrip(_JSONCPP_SPACE)
    try:
        value, _ = _DECODER.raw_decode(s)
    except RecursionError:  # jsoncpp stops at 1000 levels with a parse error
        raise ValueError("nested too deeply") from None
    return value


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
            content = jsoncpp_loads(content)
        except ValueError as e:  # JSONDecodeError, a constant, or too many digits
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


def _js_field(obj: Mapping, key: str) -> str:
    """``String(obj[key])`` in JavaScript: a missing key is ``undefined``."""
    if key not in obj:
        return "undefined"
    return js_string(obj[key])


def _xy_line(obj: Any) -> str:
    """``obj.x + ' ' + obj.y``: Botzone's ``request_from_json`` / ``response_from_json``."""
    if isinstance(obj, str):
        try:
            obj = json.loads(obj)
        except (ValueError, RecursionError):
            return obj.strip()
    if isinstance(obj, Mapping):
        return f"{_js_field(obj, 'x')} {_js_field(obj, 'y')}"
    return "" if obj is None else str(obj)


def _line_to_xy(line: str) -> dict:
    """``response_to_json``: ``parseInt`` of each ``split(' ')`` field, ``{x: parts[0], y:
    parts[1]}`` as ``JSON.stringify`` sends it (NaN is ``null``, an absent ``y`` is dropped)."""
    parts = [js_parse_int(p) for p in line.split(" ")]
    out: dict[str, int | None] = {"x": parts[0]}
    if len(parts) > 1:  # JSON.stringify drops an undefined y
        out["y"] = parts[1]
    return out


SIMPLE_CODEC = SimpleCodec(_xy_line, _xy_line, _line_to_xy)
