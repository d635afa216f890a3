"""Gongzhu's Botzone-style JSON codec (Botzone has no Gongzhu judge: this is our own protocol,
shaped after its FightTheLandlord requests; ``docs/games/gongzhu.md`` has examples).

* ``initdata``: ``{"hands": [[13 ids] x 4]}`` (card ids ``suit * 13 + rank``, ascending); a seed
  is accepted instead (``{"seed": 7}``, an int or a digit string), and a JSON string of either.
* Request to seat ``p``: ``{"history": [[seat, response], ...]}``, every move made since ``p``'s
  previous response (all moves before it on its first request), in order, each with the response
  that made it (below). The first request of each seat also carries ``"seat": p`` and
  ``"own": [13 ids]`` (its dealt hand); keys in the order ``seat, own, history``.
* Response: a list of card ids. In the show phase, the SHOWABLE cards (SQ, DJ, C10, HA) the seat
  shows, ascending (``[]`` shows nothing); in the play phase exactly one card, ``[c]``. A JSON
  string holding such a list is parsed first. Anything else is ``BAD_FORMAT``; a list the rules
  refuse is ``ILLEGAL_MOVE`` (the reason says why).
* Fault: the faulting seat scores :data:`FAULT_SCORE`, the others 0.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

from ime.core.game import IllegalMoveError, json_response
from ime.games.gongzhu.rules import (
    NUM_CARDS,
    SHOW_BASE,
    SHOWABLE,
    show_cards,
)

BAD_FORMAT = "BAD_FORMAT"
ILLEGAL_MOVE = "ILLEGAL_MOVE"
FAULT_SCORE = -1000.0
"""A faulting seat's score (below any deal's worst, -2400): it loses, everybody else wins."""


def encode_response(action: int) -> list[int]:
    """The response for an action id: ``[card]`` for a play, the shown card ids for a show."""
    if 0 <= action < NUM_CARDS:
        return [int(action)]
    if SHOW_BASE <= action < SHOW_BASE + 16:
        return sorted(show_cards(action - SHOW_BASE))
    raise ValueError(f"not a Gongzhu action id: {action}")


def parse_response(player: int, response: Any, phase: str) -> int:
    """The action id of a response in ``phase``; ``IllegalMoveError`` (``BAD_FORMAT``) when it
    cannot be one (legality is the rules' job)."""
    content = json_response(player, response)
    if not isinstance(content, list) or not all(
            isinstance(c, int) and not isinstance(c, bool) for c in content):
        raise IllegalMoveError(player, f"{BAD_FORMAT}: a response is a list of card ids",
                               response)
    if phase == "show":
        m = 0
        for c in content:
            if c not in SHOWABLE:
                raise IllegalMoveError(player, f"{ILLEGAL_MOVE}: card {c} cannot be shown "
                                       f"(only SQ=10, DJ=35, C10=47, HA=25)", response)
            bit = 1 << SHOWABLE.index(c)
            if m & bit:
                raise IllegalMoveError(player, f"{ILLEGAL_MOVE}: card {c} shown twice", response)
            m |= bit
        return SHOW_BASE + m
    if phase == "play":
        if len(content) != 1 or not 0 <= content[0] < NUM_CARDS:
            raise IllegalMoveError(player, f"{BAD_FORMAT}: a play is one card id [0..51]",
                                   response)
        return int(content[0])
    raise IllegalMoveError(player, f"{ILLEGAL_MOVE}: the deal is over", response)


def request(player: int, history: Sequence[tuple[int, int]], dealt: Sequence[int]) -> dict:
    """The request to ``player`` given the moves so far ``(seat, action)`` and its dealt hand."""
    last = max((i for i, (s, _) in enumerate(history) if s == player), default=-1)
    moves = [[int(s), encode_response(a)] for s, a in history[last + 1:]]
    if last < 0:
        return {"seat": int(player), "own": [int(c) for c in dealt], "history": moves}
    return {"history": moves}


def hands_from_initdata(initdata: Any) -> list[list[int]] | None:
    """The four dealt hands of an ``initdata`` (None when it gives a seed or nothing)."""
    data = initdata
    if isinstance(data, str):
        if not data.strip():
            return None
        try:
            data = json.loads(data)
        except json.JSONDecodeError:
            raise ValueError(f"gongzhu initdata is not JSON: {initdata[:80]!r}") from None
    if data is None or data == "":
        return None
    if not isinstance(data, Mapping):
        raise ValueError(f"gongzhu initdata must be an object, got {type(data).__name__}")
    if "hands" not in data:
        return None
    hands = data["hands"]
    if (not isinstance(hands, list) or len(hands) != 4
            or not all(isinstance(h, list) for h in hands)):
        raise ValueError("gongzhu initdata['hands'] must be 4 lists of card ids")
    return [[int(c) for c in h] for h in hands]


def seed_from_initdata(initdata: Any) -> int | None:
    data = initdata
    if isinstance(data, str):
        try:
            data = json.loads(data) if data.strip() else None
        except json.JSONDecodeError:
            return None
    if isinstance(data, Mapping) and "seed" in data:
        return int(data["seed"])
    return None


__all__ = ["BAD_FORMAT", "FAULT_SCORE", "ILLEGAL_MOVE", "encode_response", "hands_from_initdata",
           "parse_response", "request", "seed_from_initdata"]
