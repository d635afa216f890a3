"""Botzone's line-based "simple interaction" protocol, as a per-game codec.

In simple mode a bot reads ``n``, then ``2n-1`` lines alternating requests and its own responses,
each turned into a line by the game's ``transform_code`` on Botzone, and prints one response
line (then optional debug / data / globaldata lines). The JSON protocol needs no codec: requests
and responses are the judge's JSON. A game that has simple mode registers a :class:`SimpleCodec`
with its plug-in (``GamePlugin.simple_codec``); the external-program adapter looks it up by name.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from decimal import Decimal
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


_MAX_SAFE = 1 << 53
"""Beyond this a JavaScript Number no longer holds every integer: values round to a double."""


def js_parse_int(s: str) -> int | None:
    """JavaScript ``parseInt(s)`` with no radix, as the value ``JSON.stringify`` would carry.

    Botzone's simple-IO transform code parses numbers this way, so ``"0x3"`` is 3 (a hex
    prefix, after an optional sign), ``"\\u00a03"`` is 3 (leading JS whitespace is skipped),
    ``"3abc"`` is 3, ``"abc"`` and ``"0x"`` are NaN. NaN and +-Infinity (more digits than a
    double holds) are ``None``: ``JSON.stringify`` writes all three as ``null``. Beyond 2**53 the
    result is the nearest double, as in JavaScript, so a long digit string never becomes a
    Python integer JavaScript could not have produced.
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
    end = 0
    while end < len(s) and s[end] in digits_ok:
        end += 1
    if end == 0:
        return None
    digits = s[:end].lstrip("0") or "0"
    if radix == 10 and len(digits) > 400:  # > 1e399: Infinity (and beyond int()'s digit limit)
        return None
    value = int(digits, radix)
    if value > _MAX_SAFE:
        try:
            value = int(float(value))  # round half to even, as JavaScript does
        except OverflowError:
            return None
    return sign * value


def js_string(v: Any) -> str:
    """JavaScript ``String(v)`` of a JSON value, i.e. what ``v + ' '`` gives in a transform.

    ``None`` is ``"null"``, booleans are ``"true"``/``"false"``, numbers follow
    ``Number::toString`` (``2.0`` is ``"2"``, ``1e-7`` is ``"1e-7"``, ``1e21`` is ``"1e+21"``);
    an integer beyond 2**53 is first rounded to a double, as ``JSON.parse`` would. A string is
    itself, an array its elements joined by ``,`` (null as empty), an object
    ``"[object Object]"``. (JavaScript's ``undefined``, a missing key, has no Python value:
    callers write ``"undefined"`` themselves.)
    """
    if v is None:
        return "null"
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, int) and abs(v) <= _MAX_SAFE:
        return str(v)
    if isinstance(v, (int, float)):
        try:
            return _js_number(float(v))
        except OverflowError:
            return "Infinity" if v > 0 else "-Infinity"
    if isinstance(v, str):
        return v
    if isinstance(v, (list, tuple)):
        return ",".join("" if e is None else js_string(e) for e in v)
    return "[object Object]"


def _js_number(x: float) -> str:
    """ECMAScript ``Number::toString(x)`` (radix 10) from the shortest round-trip digits."""
    if math.isnan(x):
        return "NaN"
    if math.isinf(x):
        return "Infinity" if x > 0 else "-Infinity"
    if x == 0:
        return "0"
    if x < 0:
        return "-" + _js_number(-x)
    sign, digits_t, exp = Decimal(repr(x)).normalize().as_tuple()
    digits = "".join(map(str, digits_t))
    k = len(digits)
    n = k + int(exp)  # x = 0.digits * 10**n
    if k <= n <= 21:
        return digits + "0" * (n - k)
    if 0 < n <= 21:
        return digits[:n] + "." + digits[n:]
    if -6 < n <= 0:
        return "0." + "0" * (-n) + digits
    e = n - 1
    mantissa = digits if k == 1 else digits[0] + "." + digits[1:]
    return f"{mantissa}e{'+' if e >= 0 else '-'}{abs(e)}"


INT32_MIN, INT32_MAX = -(1 << 31), (1 << 31) - 1


def jsoncpp_int(v: Any) -> int | None:
    """``v`` as jsoncpp's ``asInt()`` when ``isInt()`` holds, else ``None``.

    Botzone's C++ judges read numbers with jsoncpp: an integer within the signed 32-bit range, or
    a whole-number double within it (``2.0`` reads as 2), is an int; a bool, a string, ``2.5`` or
    ``2**31`` is not.
    """
    if isinstance(v, bool):
        return None
    if isinstance(v, int):
        return v if INT32_MIN <= v <= INT32_MAX else None
    if isinstance(v, float) and math.isfinite(v) and v == int(v) and INT32_MIN <= v <= INT32_MAX:
        return int(v)
    return None
