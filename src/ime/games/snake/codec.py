"""Snake's Botzone codec, as ``Snake.cpp`` reads and writes it.

* **initdata** (the judge's first output, stored with the match; logs may hold it as a JSON
  string): ``{"0": {"x": 1, "y": 1}, "1": {"x": n, "y": m}, "height": n,
  "obstacle": [{"x": .., "y": ..}, ...], "width": m}``. ``x`` is the row (1..height), ``y``
  the column (1..width). Keys are written in jsoncpp's (sorted) order.
* **First request**, to each player: ``{"height", "obstacle", "width", "x", "y"}``, where
  ``(x, y)`` is *that player's* start, (1, 1) for player 0 and (height, width) for player 1:
  that is how a bot learns its seat (:func:`seat_from_request`).
* **Later requests**: ``{"direction": d}``, the opponent's direction of the last turn.
* **Response**: ``{"direction": d}``. The judge reads ``response`` only if it is a JSON
  *object* whose ``direction`` is an integer (jsoncpp's ``isInt()``: a 32-bit integer, or a
  whole-number float such as ``2.0``); anything else (a string, even one holding JSON, an
  array, a bool, ``2.5``, a missing key) is an invalid input, ``INVALID_INPUT_VERDICT_OK``
  here. Unlike ``Reversi.cpp``, ``Snake.cpp`` does not parse a string response.
* **Verdicts** (the judge's ``display.err``): ``INVALIDMOVE`` (a direction outside 0..3 or
  into a wall, an obstacle or a body), ``INVALID_INPUT_VERDICT_<verdict>``, ``BothSnakeDie``.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

from ime.core.codec import jsoncpp_int
from ime.core.game import IllegalMoveError

INVALID_INPUT = "INVALID_INPUT_VERDICT_OK"
INVALID_MOVE = "INVALIDMOVE"
BOTH_DIE = "BothSnakeDie"

Cell = tuple[int, int]


def cells_json(cells: Sequence[Cell]) -> list[dict[str, int]]:
    return [{"x": int(x), "y": int(y)} for x, y in cells]


def start(player: int, height: int, width: int) -> Cell:
    """Where snake ``player`` starts: (1, 1) or (height, width)."""
    return (1, 1) if player == 0 else (height, width)


def make_initdata(width: int, height: int, obstacles: Sequence[Cell]) -> dict[str, Any]:
    """The judge's ``initdata`` for a board."""
    return {"0": {"x": 1, "y": 1}, "1": {"x": int(height), "y": int(width)},
            "height": int(height), "obstacle": cells_json(obstacles), "width": int(width)}


def first_request(player: int, width: int, height: int, obstacles: Sequence[Cell]) -> dict:
    """The request of turn 0 to ``player``."""
    x, y = start(player, height, width)
    return {"height": int(height), "obstacle": cells_json(obstacles), "width": int(width),
            "x": x, "y": y}


def later_request(opponent_direction: int) -> dict:
    """A request after turn 0: the direction the opponent just played."""
    return {"direction": int(opponent_direction)}


def encode_response(direction: int) -> dict:
    return {"direction": int(direction)}


def parse_direction(player: int, response: Any) -> int:
    """The direction of a response, any 32-bit integer (the caller checks 0..3 and the board);
    raises :class:`IllegalMoveError` ``INVALID_INPUT_VERDICT_OK`` as the judge would."""
    d = jsoncpp_int(response.get("direction")) if isinstance(response, Mapping) else None
    if d is None:
        raise IllegalMoveError(player, INVALID_INPUT, response)
    return d


def seat_from_request(request: Any) -> int:
    """A bot's seat from its first request: 0 when it starts at (1, 1), else 1."""
    if not isinstance(request, Mapping) or "x" not in request or "y" not in request:
        raise ValueError(f"not a first Snake request (no x/y): {request!r}")
    return 0 if (request["x"], request["y"]) == (1, 1) else 1


def load_initdata(initdata: Any) -> dict[str, Any]:
    """``initdata`` as the judge reads it: an object, or a string holding one; anything else
    (empty, null, a string that is not a JSON object) is ``{}``."""
    if isinstance(initdata, str):
        try:
            initdata = json.loads(initdata) if initdata.strip() else {}
        except json.JSONDecodeError:
            initdata = {}
    return dict(initdata) if isinstance(initdata, Mapping) else {}


def obstacles_from_json(items: Any, width: int, height: int) -> list[Cell]:
    """A stored ``obstacle`` list as cells; raises ValueError for a malformed entry, a cell off
    the board or on a start (the judge would write outside its grid or block a snake's start)."""
    if not isinstance(items, list):
        raise ValueError(f"Snake initdata 'obstacle' must be a list, got {items!r}")
    out = []
    for k, item in enumerate(items):
        x = jsoncpp_int(item.get("x")) if isinstance(item, Mapping) else None
        y = jsoncpp_int(item.get("y")) if isinstance(item, Mapping) else None
        if x is None or y is None:
            raise ValueError(f"Snake initdata obstacle[{k}] must be {{'x': int, 'y': int}}, "
                             f"got {item!r}")
        if not (1 <= x <= height and 1 <= y <= width):
            raise ValueError(f"Snake initdata obstacle[{k}] ({x}, {y}) is off the "
                             f"{height}x{width} board (x = row 1..height, y = column 1..width)")
        if (x, y) in ((1, 1), (height, width)):
            raise ValueError(f"Snake initdata obstacle[{k}] ({x}, {y}) is on a snake's start")
        out.append((x, y))
    return out


def transcript_moves(requests: Sequence[Any], responses: Sequence[Any]
                     ) -> tuple[dict, int, list[tuple[int, int]]]:
    """What a bot knows from its Botzone transcript: the board (first request), its seat, and
    the joint moves ``(direction of player 0, direction of player 1)`` of every finished turn.

    ``requests`` holds one more entry than ``responses`` (the request to answer now), or as
    many (then the last turn's opponent move is not known yet and is left out).
    """
    if not requests:
        raise ValueError("an empty Snake transcript has no board")
    first = requests[0]
    seat = seat_from_request(first)
    board = {"width": first["width"], "height": first["height"], "obstacle": first["obstacle"]}
    moves = []
    for k, resp in enumerate(responses):
        if k + 1 >= len(requests):
            break
        own = parse_direction(seat, resp)
        opp = parse_direction(1 - seat, requests[k + 1])
        moves.append((own, opp) if seat == 0 else (opp, own))
    return board, seat, moves
