"""Botzone's line-based "simple interaction" protocol, as a per-game codec.

In simple mode a bot reads ``n``, then ``2n-1`` lines alternating requests and its own responses,
each turned into a line by the game's ``transform_code`` on Botzone, and prints one response
line (then optional debug / data / globaldata lines). The JSON protocol needs no codec: requests
and responses are the judge's JSON. A game that has simple mode registers a :class:`SimpleCodec`
with its plug-in (``GamePlugin.simple_codec``); the external-program adapter looks it up by name.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

_JS_WHITESPACE = frozenset(
    " \t\n\r\v\f\u00a0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009"
    "\u200a\u2028\u2029\u202f\u205f\u3000\ufeff"
)
"""What JavaScript's ``String.prototype.trim`` (and so ``parseInt``) skips: ECMAScript
WhiteSpace and LineTerminator, including the no-break space U+00A0 and the BOM U+FEFF."""


@dataclass(frozen=True)
class SimpleCodec:
    """A game's simple-interaction transform (Botzone ``transform_code``)."""

    request_to_line: Callable[[Any], str]
    response_to_line: Callable[[Any], str]
    line_to_response: Callable[[str], Any]


def js_parse_int(s: str) -> int | None:
    """JavaScript ``parseInt(s)`` with no radix (``None`` for NaN).

    Botzone's simple-IO transform code parses numbers this way, so ``"0x3"`` is 3 (a hex
    prefix), ``"\\u00a03"`` is 3 (leading JS whitespace is skipped), ``"3abc"`` is 3 and ``"abc"``
    is NaN.
    """
    i = 0
    while i < len(s) and s[i] in _JS_WHITESPACE:
        i += 1
    s = s[i:]
    sign = 1
    if s[:1] in ("+", "-"):
        sign = -1 if s[0] == "-" else 1
        s = s[1:]
    radix, digits_ok = 10, "0123456789"
    if s[:2] in ("0x", "0X"):
        radix, digits_ok, s = 16, "0123456789abcdefABCDEF", s[2:]
    digits = ""
    for c in s:
        if c not in digits_ok:
            break
        digits += c
    return sign * int(digits, radix) if digits else None
