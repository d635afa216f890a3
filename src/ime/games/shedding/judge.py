"""The judge's verdict names (Botzone's FightTheLandlord names, which our Big-2 judge reuses) and
the error a rejected response raises. Each game's ``rules`` module checks a response in its own
judge's order and gives its own scores; :func:`reported_code` and the messages stay there.
"""

from __future__ import annotations

MISSING_CARD = "MISSING_CARD"
REPEATED_CARD = "REPEATED_CARD"
INVALID_CARDTYPE = "INVALID_CARDTYPE"
INVALID_PASS = "INVALID_PASS"
LESS_COMPARE = "LESS_COMPARE"
MISMATCH_CARDTYPE = "MISMATCH_CARDTYPE"
MISMATCH_CARDLENGTH = "MISMATCH_CARDLENGTH"
BAD_FORMAT = "BAD_FORMAT"

ERROR_CODES = (MISSING_CARD, REPEATED_CARD, INVALID_CARDTYPE, INVALID_PASS, LESS_COMPARE,
               MISMATCH_CARDTYPE, MISMATCH_CARDLENGTH, BAD_FORMAT)
"""Every verdict the judges give a response."""

CARD_CODES = (MISSING_CARD, REPEATED_CARD, BAD_FORMAT)
"""The verdicts on the response's elements, given before its cards are sorted (the judge then
shows the rejected response as it came)."""


class PlayError(ValueError):
    """A response the judge rejects: ``code`` is one of :data:`ERROR_CODES`."""

    def __init__(self, code: str, detail: str = ""):
        super().__init__(f"{code}: {detail}" if detail else code)
        self.code = code
        self.detail = detail


__all__ = ["BAD_FORMAT", "CARD_CODES", "ERROR_CODES", "INVALID_CARDTYPE", "INVALID_PASS",
           "LESS_COMPARE", "MISMATCH_CARDLENGTH", "MISMATCH_CARDTYPE", "MISSING_CARD",
           "REPEATED_CARD", "PlayError"]
