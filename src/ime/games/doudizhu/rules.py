"""The judge's verdict on one response, and its scores (Botzone ``FightTheLandlord.py3``, v1).

A response is checked in the judge's order, and the first failure is the verdict:

1. each element in turn: not one of the player's dealt cards (``allocation[p]``, whatever was
   played since) -> ``MISSING_CARD``; already played (earlier, or twice in this response) ->
   ``REPEATED_CARD``. A non-integer element is never one of the dealt cards, so it is
   ``MISSING_CARD`` too, except a whole float equal to a dealt card (``3.0``), on which the
   judge crashes (``BAD_FORMAT``); ``true``/``false`` are ``BAD_FORMAT`` here (the judge would
   read them as cards 1/0: a quirk not reproduced).
2. the cards are no combination -> ``INVALID_CARDTYPE``. (The deployed v1 judge tallies the
   score points of every play *before* this test and crashes on the invalid play's missing
   points entry, so the platform reports ``BAD_FORMAT`` here, with the same scores; our reason
   keeps the judge's intended name and the ``display`` shows what the platform shows:
   :func:`reported_code`.)
3. leading (the game's first play, or after two passes) with a pass -> ``INVALID_PASS``.
4. following: a pass is always allowed; otherwise :func:`~ime.games.doudizhu.combos.compare_error`
   (``LESS_COMPARE``, ``MISMATCH_CARDTYPE``, ``MISMATCH_CARDLENGTH``).

A response that is not a list (after parsing a JSON string) is ``BAD_FORMAT``, the judge's
catch-all. Any fault scores ``[-1, 2.5, 2.5]`` when the landlord (seat 0) made it, else
``[2.5, -1, -1]`` (:func:`fault_scores`).
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from typing import Any

import numpy as np

from ime.games.doudizhu.cards import NUM_CARDS, counts_of
from ime.games.doudizhu.combos import Combo, classify, compare_error
from ime.games.shedding.judge import (
    BAD_FORMAT,
    ERROR_CODES,
    INVALID_CARDTYPE,
    INVALID_PASS,
    LESS_COMPARE,
    MISMATCH_CARDLENGTH,
    MISMATCH_CARDTYPE,
    MISSING_CARD,
    REPEATED_CARD,
    PlayError,
)


def error_code(reason: str) -> str:
    """The Botzone error name at the head of a reason (``"LESS_COMPARE: ..."`` -> its code)."""
    return reason.split(":", 1)[0].strip()


def reported_code(reason: str) -> str:
    """The ``errorInfo`` Botzone's deployed judge shows for a fault: its code, except that an
    invalid combination shows as ``BAD_FORMAT`` (see the module doc)."""
    code = error_code(reason)
    return BAD_FORMAT if code == INVALID_CARDTYPE else code


def check_cards(cards: Sequence[Any], dealt: Collection[int], played: Sequence[bool]
                ) -> list[int]:
    """Step 1: the response's elements as card ids, or the judge's ``PlayError``."""
    seen: set[int] = set()
    out: list[int] = []
    for e in cards:
        if isinstance(e, np.integer):
            e = int(e)
        if isinstance(e, bool):
            raise PlayError(BAD_FORMAT, f"{e!r} is not a card id")
        if isinstance(e, float):
            if e in dealt:
                raise PlayError(BAD_FORMAT, f"{e!r} is not an integer card id")
            raise PlayError(MISSING_CARD, f"{e!r} was not dealt to this player")
        if not isinstance(e, int) or e not in dealt:
            raise PlayError(MISSING_CARD, f"{e!r} was not dealt to this player")
        if played[e] or e in seen:
            raise PlayError(REPEATED_CARD, f"card {e} was already played")
        seen.add(e)
        out.append(e)
    return out


def check_play(cards: Sequence[Any], dealt: Collection[int], played: Sequence[bool],
               to_beat: Combo | None) -> tuple[tuple[int, ...], Combo]:
    """The judge on one response (a list): ``(sorted card ids, combination)`` or ``PlayError``.

    ``dealt``: the player's allocation; ``played[c]``: card ``c`` is already on the table;
    ``to_beat``: the play to beat, ``None`` when leading.
    """
    ids = check_cards(cards, dealt, played)
    combo = classify(counts_of(ids))
    if combo is None:
        raise PlayError(INVALID_CARDTYPE, f"{sorted(ids)} is no combination")
    if to_beat is None:
        if combo.is_pass:
            raise PlayError(INVALID_PASS, "the leader must play")
    elif not combo.is_pass:
        err = compare_error(combo, to_beat)
        if err is not None:
            raise PlayError(err, f"{combo} does not beat {to_beat}")
    return tuple(sorted(ids)), combo


def fault_scores(player: int) -> list[float]:
    """Scores when ``player`` faults: the landlord -1 and the farmers 2.5 each, or the reverse."""
    return [-1.0, 2.5, 2.5] if player <= 0 else [2.5, -1.0, -1.0]


def final_scores(winner: int, points: Sequence[int]) -> list[float]:
    """The judge's ``finish`` scores: the winning side 2 each, plus every seat's combo points
    / 100, the two farmers' totals averaged (the same float operations as the judge)."""
    base = [0, 2, 2] if winner else [2, 0, 0]
    score = [base[i] + points[i] / 100 for i in range(3)]
    score[1] = (score[1] + score[2]) / 2
    score[2] = score[1]
    return [float(s) for s in score]


__all__ = ["BAD_FORMAT", "ERROR_CODES", "INVALID_CARDTYPE", "INVALID_PASS", "LESS_COMPARE",
           "MISMATCH_CARDLENGTH", "MISMATCH_CARDTYPE", "MISSING_CARD", "NUM_CARDS",
           "REPEATED_CARD", "PlayError", "check_cards", "check_play", "error_code",
           "fault_scores", "final_scores", "reported_code"]
