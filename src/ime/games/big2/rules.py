"""The judge's verdict on one response, and the scores (our Big-2 judge; there is no Botzone one).

A response is checked in this order, and the first failure is the verdict (Botzone's error
names, as its FightTheLandlord judge uses them: :mod:`ime.games.shedding.judge`):

1. not a list of card ids (after parsing a JSON string) -> ``BAD_FORMAT``; an element that is
   not an integer (``true``, ``3.5``, ``"3"``) -> ``BAD_FORMAT``.
2. each element in turn: one of the player's dealt cards already played, or repeated in this
   response -> ``REPEATED_CARD``; any other id not in the player's hand -> ``MISSING_CARD``.
3. the cards form no hand type (:func:`ime.games.big2.hands.classify`) -> ``INVALID_CARDTYPE``.
4. leading (the game's first play, or after the opponent passed) with a pass ->
   ``INVALID_PASS``.
5. following: a pass is always allowed; otherwise
   :func:`~ime.games.big2.hands.compare_error` (``LESS_COMPARE``, ``MISMATCH_CARDTYPE``,
   ``MISMATCH_CARDLENGTH``).

Scores (:func:`final_scores`): the winner (first to empty the hand) gets ``+n``, the loser
``-n``, ``n`` the loser's cards left. A fault (an illegal response, a bot failure) scores
``-hand_size`` for the offender and ``+hand_size`` for the other seat: as bad as the worst
legal loss (losing without having played a card) (:func:`fault_scores`).
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from typing import Any

from ime.games.big2.cards import NUM_CARDS, counts_of
from ime.games.big2.hands import HandType, classify, compare_error
from ime.games.shedding.judge import (
    BAD_FORMAT,
    ERROR_CODES,
    INVALID_CARDTYPE,
    INVALID_PASS,
    MISSING_CARD,
    REPEATED_CARD,
    PlayError,
)


def check_play(response: Sequence[Any], dealt: Collection[int], played: Sequence[bool],
               last: HandType | None) -> tuple[tuple[int, ...], HandType]:
    """``(sorted card ids, hand type)`` of a legal response, else :class:`PlayError`.

    ``dealt``: the player's dealt cards; ``played[c]``: card ``c`` was played (by anyone);
    ``last``: the play to beat (``None`` when leading).
    """
    if not isinstance(response, (list, tuple)):
        raise PlayError(BAD_FORMAT, f"a response is a list of card ids, got {response!r}")
    seen: set[int] = set()
    for c in response:
        if isinstance(c, bool) or not isinstance(c, int):
            raise PlayError(BAD_FORMAT, f"card {c!r} is not an integer id")
        if c in seen or (c in dealt and played[c]):
            raise PlayError(REPEATED_CARD, f"card {c} was already played")
        if c not in dealt or not 0 <= c < NUM_CARDS:
            raise PlayError(MISSING_CARD, f"card {c} is not in the hand")
        seen.add(c)
    cards = tuple(sorted(seen))
    t = classify(counts_of(cards))
    if t is None:
        raise PlayError(INVALID_CARDTYPE, f"cards {list(cards)} form no hand type")
    if t.is_pass:
        if last is None:
            raise PlayError(INVALID_PASS, "the leader may not pass")
        return cards, t
    err = compare_error(t, last)
    if err is not None:
        raise PlayError(err, f"{t} does not beat {last}")
    return cards, t


def final_scores(winner: int, loser_cards: int) -> list[float]:
    """``+n`` to the winner, ``-n`` to the loser (``n`` the loser's cards left)."""
    s = [0.0, 0.0]
    s[winner] = float(loser_cards)
    s[1 - winner] = -float(loser_cards)
    return s


def fault_scores(player: int, hand_size: int) -> list[float]:
    """``-hand_size`` to the offender, ``+hand_size`` to the other seat."""
    s = [float(hand_size), float(hand_size)]
    s[player] = -float(hand_size)
    return s


def reported_code(reason: str) -> str:
    """The error name at the start of a judge reason (``"LESS_COMPARE: ..."``), else
    ``BAD_FORMAT`` (a bot failure such as a time-out is reported by its verdict elsewhere)."""
    head = reason.split(":", 1)[0].strip()
    return head if head in ERROR_CODES else BAD_FORMAT


__all__ = ["BAD_FORMAT", "ERROR_CODES", "INVALID_CARDTYPE", "INVALID_PASS", "MISSING_CARD",
           "REPEATED_CARD", "PlayError", "check_play", "fault_scores", "final_scores",
           "reported_code"]
