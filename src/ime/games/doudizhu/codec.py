"""FightTheLandlord's Botzone JSON codec (the judge's requests, bots' responses, seat inference).

* Request to player ``p`` at ply ``t`` (``p = t mod 3``): ``{"history": [h2, h1]}`` where ``h1``
  is the previous player's play and ``h2`` the one before it (card ids ascending, ``[]`` a pass;
  missing plays at the start are ``[]``). The first request to each player (plies 0, 1, 2) also
  carries ``"own"`` (that player's 20 or 17 dealt cards, in the allocation's order) and
  ``"publiccard"`` (the landlord's 3 public cards), keys in the judge's order
  ``own, history, publiccard``.
* Response: a list of card ids; ``[]`` is a pass. A JSON string holding such a list is parsed
  first (match packs may store responses as text). Botzone's deployed judge would iterate the
  characters of a string a bot really sent and answer ``MISSING_CARD``: bots must print a list.
  Anything else that is not a list is ``BAD_FORMAT`` (the judge's catch-all; it would answer
  ``MISSING_CARD`` for a non-empty object, whose keys it iterates).
* Seat inference (how Botzone's sample bots find their seat from their first request): both
  plays of ``history`` empty -> 0 (the landlord, nobody has played), only the first empty -> 1,
  else 2. It is exact because the landlord may not pass its first play.

There is no simple-interaction (line) mode.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from ime.games.shedding.codec import encode_response, parse_response


def history_of(plays: Sequence[Sequence[int]]) -> list[list[int]]:
    """The request's ``history``: the last two plays (oldest first), padded with ``[]``."""
    last = [list(p) for p in plays[-2:]]
    return [[]] * (2 - len(last)) + last


def request(ply: int, plays: Sequence[Sequence[int]], own: Sequence[int],
            publiccard: Sequence[int]) -> dict:
    """The judge's request at ``ply`` after ``plays`` (one per ply, passes as ``[]``)."""
    hist = history_of(plays)
    if ply < 3:
        return {"own": [int(c) for c in own], "history": hist,
                "publiccard": [int(c) for c in publiccard]}
    return {"history": hist}


def infer_seat(first_request: Mapping[str, Any]) -> int:
    """The seat of a bot from its first request, as Botzone's sample bots infer it."""
    history = first_request["history"]
    if len(history[0]) == 0:
        return 0 if len(history[1]) == 0 else 1
    return 2


__all__ = ["encode_response", "history_of", "infer_seat", "parse_response", "request"]
