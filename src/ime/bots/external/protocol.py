"""What a bot program reads and what we take from its output, in both Botzone interactions.

* **JSON interaction**: the first (or every) turn's input is one line ``{"requests": [...],
  "responses": [...], "data": ..., "globaldata": ..., "time_limit": ..., "memory_limit": ...}``;
  a later keep-running turn gets only the bare new request. The output (or, if that is not JSON,
  its first line) is ``{"response": ..., "debug": ..., "data": ..., "globaldata": ...}``, or the
  response itself when it has no ``"response"`` key (as Botzone's local runner reads it).
* **Simple interaction**: ``n``, then ``2n-1`` lines alternating requests and responses ending
  with the new request, then the ``data`` line and ``globaldata``; the output is the response
  line, a debug line, a data line and globaldata lines. Lines come from the game's
  :class:`~ime.core.codec.SimpleCodec` (``GamePlugin.simple_codec``, Botzone's
  ``transform_code``); a game without one has no simple mode.
"""

from __future__ import annotations

import json
from typing import Any

from ime.core.bot import DecisionContext
from ime.core.codec import SimpleCodec

BOTZONE_MEMORY_LIMIT_MB = 256
"""What the ``memory_limit`` input field says when no limit is enforced (the platform default)."""


def simple_games() -> list[str]:
    """The registered games whose plug-in has a simple-interaction codec."""
    from ime.core.registry import get_plugin, known_games

    return [g for g in known_games() if get_plugin(g).simple_codec is not None]


def simple_codec(game: str, bot_id: str) -> SimpleCodec:
    """``game``'s simple-interaction codec; a clear error when the game has no simple mode."""
    from ime.core.registry import get_plugin

    try:
        codec = get_plugin(game).simple_codec
    except KeyError:
        codec = None
    if codec is None:
        raise ValueError(f"external bot {bot_id!r}: simple interaction is not defined for "
                         f"{game}; games with a simple mode: {simple_games()}")
    return codec


def full_input(codec: SimpleCodec | None, ctx: DecisionContext, data: Any, globaldata: Any,
               time_limit: float, memory_limit_mb: int) -> bytes:
    """A first-turn (or every-turn) input: the player's whole transcript.

    ``codec`` is the game's simple codec for simple interaction, ``None`` for JSON.
    """
    if codec is not None:
        lines = [str(len(ctx.requests))]
        for i, req in enumerate(ctx.requests):
            if i:
                lines.append(codec.response_to_line(ctx.responses[i - 1]))
            lines.append(codec.request_to_line(req))
        lines.append(_text(data))
        lines.append(_text(globaldata))
        return ("\n".join(lines) + "\n").encode()
    doc = {"requests": list(ctx.requests), "responses": list(ctx.responses),
           "data": data, "globaldata": globaldata,
           "time_limit": time_limit, "memory_limit": memory_limit_mb}
    return (json.dumps(doc, separators=(",", ":"), ensure_ascii=False) + "\n").encode()


def continue_input(codec: SimpleCodec | None, ctx: DecisionContext) -> bytes:
    """A later keep-running turn's input: only the new request."""
    req = ctx.requests[-1]
    if codec is not None:
        return (codec.request_to_line(req) + "\n").encode()
    return (json.dumps(req, separators=(",", ":"), ensure_ascii=False) + "\n").encode()


def _text(v: Any) -> str:
    if v is None:
        return ""
    return v if isinstance(v, str) else json.dumps(v, separators=(",", ":"), ensure_ascii=False)


def parse_json(text: str) -> tuple[Any, Any, Any, Any]:
    """Botzone's reading of a JSON-interaction answer: ``(response, debug, data, globaldata)``.

    Raises :class:`ValueError` when neither the output nor its first line is JSON (verdict NJ).
    """
    s = text.strip()
    if not s:
        raise ValueError("no output (expected one JSON line with a 'response')")
    try:
        obj = _loads(s)
    except json.JSONDecodeError:
        first = s.splitlines()[0]
        try:
            obj = _loads(first)
        except json.JSONDecodeError as e:
            raise ValueError(f"output is not JSON ({e.msg} at column {e.colno}): "
                             f"{first[:200]!r}") from None
    if isinstance(obj, dict) and "response" in obj:
        return obj["response"], obj.get("debug", ""), obj.get("data"), obj.get("globaldata")
    return obj, "", None, None


def _loads(text: str) -> Any:
    """``json.loads``, with nesting too deep for Python's parser reported as not JSON (a bot's
    output must never crash the judge)."""
    try:
        return json.loads(text)
    except RecursionError:
        raise json.JSONDecodeError("nested too deeply", text, 0) from None


def parse_simple(text: str, codec: SimpleCodec) -> tuple[Any, Any, Any, Any]:
    """A simple-interaction answer: the response line through the codec, then debug, data and
    globaldata lines (``None`` when absent)."""
    lines = text.split("\n")
    first = lines[0].rstrip("\r")
    debug = lines[1] if len(lines) > 1 else ""
    data = lines[2].rstrip("\r") if len(lines) > 2 else None
    glob = "\n".join(lines[3:]).rstrip("\n") if len(lines) > 3 else None
    return codec.line_to_response(first), debug, data, glob
