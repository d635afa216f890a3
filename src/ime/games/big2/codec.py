"""Big-2's Botzone-style JSON codec: our judge's requests, bots' responses, seat inference.

There is no Big-2 game on Botzone; this protocol is ours, in the shape of Botzone's
FightTheLandlord (``docs/games/big2.md``, "Protocol"):

* Request to player ``p`` at ply ``t`` (``p = t mod 2`` while the game runs):
  ``{"history": [...]}``, the plays of the turns since ``p``'s previous turn, oldest first:
  ``[]`` at ply 0 (nobody has played), else one play, the opponent's last turn (card ids
  ascending, ``[]`` a pass). The first request to each player (plies 0 and 1) also carries
  ``"own"``, that player's dealt cards in the deal's order; keys in the order ``own, history``.
* Response: a list of card ids; ``[]`` is a pass. A JSON string holding such a list is parsed
  first (logs may store responses as text). Anything else is ``BAD_FORMAT``.
* Seat inference (how a bot program finds its seat from its first request): an empty
  ``history`` is seat 0 (it leads the game), one play is seat 1. It is exact because the
  leader may not pass.

There is no simple-interaction (line) mode.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from ime.games.shedding.codec import encode_response, parse_response


def request(ply: int, plays: Sequence[Sequence[int]], own: Sequence[int]) -> dict:
    """The judge's request at ``ply`` after ``plays`` (one per ply, passes as ``[]``)."""
    hist = [[int(c) for c in plays[-1]]] if plays else []
    if ply < 2:
        return {"own": [int(c) for c in own], "history": hist}
    return {"history": hist}


def infer_seat(first_request: Mapping[str, Any]) -> int:
    """The seat of a bot from its first request (see the module doc)."""
    return 0 if len(first_request["history"]) == 0 else 1


__all__ = ["encode_response", "infer_seat", "parse_response", "request"]
