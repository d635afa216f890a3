"""Big-2 observations for the nets: major planes, kicker-step planes, masks (Doudizhu's model).

A card set is a ``4 x 13`` 0/1 matrix (:func:`card_planes`): column ``r`` is rank ``r``
(3 .. A, 2), row ``k`` is set when the set holds more than ``k`` cards of that rank; suits are
ignored. One dataset row is one decision, with ``6 + 4 * 5 = 26`` planes of ``4 x 13`` (the
layout of Doudizhu's 26 planes of ``4 x 15``, so its nets fit):

* planes 0-5, the major input: 0 own hand; 1 the bomb ranks (held four times); 2 the cards
  unseen by me (the opponent's hand and any undealt cards: with the default 26 + 26 deal exactly
  the opponent's hand, which the seat deduces from its own hand and the plays); 3 the play to
  beat (empty when leading); 4 every card played so far; 5 the opponent's cards left, a
  thermometer over the 52 cells row by row (cells ``< n`` set).
* planes ``6 + 4k .. 9 + 4k``, the minor input of kicker step ``k``: own hand minus the
  kickers chosen before step ``k``; the chosen major's main cards; the number of single kickers
  still needed (this one included) and of pair kickers still needed, each a thermometer over
  columns. All zero for a step the play does not use.

Heads: ``major`` (302 codes, :mod:`ime.games.big2.actions`) and ``minor0`` .. ``minor4``
(26 codes each), one per kicker, smallest first. Masks: ``major`` marks the major codes of the
legal plays (the pass, code 0, when following). With ``actions`` given (teacher forcing), step
``k``'s planes and mask are those that apply after the played major and its first ``k``
kickers; the mask holds the kickers that may come next (distinct, ascending, not a main rank,
in hand, leaving room for the kickers still needed). Without actions, the minor planes and
masks are zero: :meth:`Big2Encoder.select` chooses the major, then re-encodes one kicker step
at a time.

A decision with a single legal play (a forced pass, a last card) gets all-zero masks, which
datasets drop and count. A played trio chain of 6 with six singles has no code (its major
label is ``UNENCODABLE``: datasets drop the row and count it as ``unencodable_dropped``).
Hidden information never enters: an observation is a function of the player's own hand, the
cards it has not seen (as a union) and the public plays.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from ime.core.game import Action, Game, State
from ime.games.big2.actions import CODES, encode_type
from ime.games.big2.cards import NUM_RANKS, RANK_OF
from ime.games.big2.hands import HandType
from ime.games.kickers import MAJOR_PLANES, MINOR_PLANES, ROWS, KickerStepEncoder, card_planes
from ime.games.kickers import cell_plane as _cell_plane

ENCODER_VERSION = "big2-major302-minor26x5-v1"
PLANES = MAJOR_PLANES + MINOR_PLANES * CODES.max_kickers


def cell_plane(n: int) -> np.ndarray:
    """``uint8[4, 13]`` with the first ``n`` cells set, row by row (up to 52)."""
    return _cell_plane(n, NUM_RANKS)


def _counts(cards: Sequence[int]) -> np.ndarray:
    return np.bincount(RANK_OF[np.asarray(cards, dtype=np.int64)], minlength=NUM_RANKS)


def major_planes(state: State, player: int) -> np.ndarray:
    """``uint8[6, 4, 13]``: what ``player`` sees of ``state`` (see the module doc)."""
    own = state.hand_counts(player)  # type: ignore[attr-defined]
    bombs = np.where(own == 4, 4, 0)
    unseen = _counts(state.unseen_by(player))  # type: ignore[attr-defined]
    beat = state.to_beat()  # type: ignore[attr-defined]
    beat_c = np.zeros(NUM_RANKS, np.int64) if beat is None else np.array(beat.counts)
    played = _counts([c for _, cards in state.history for c in cards])  # type: ignore
    out = np.zeros((MAJOR_PLANES, ROWS, NUM_RANKS), dtype=np.uint8)
    out[:5] = card_planes(np.stack([own, bombs, unseen, beat_c, played]))
    out[5] = cell_plane(state.cards_left(1 - player))  # type: ignore[attr-defined]
    return out


class Big2Encoder(KickerStepEncoder):
    """302 major codes + 5 kicker steps of 26 minor codes over 26 planes of 4 x 13."""

    game_name, play_noun = "big2", "hand type"

    def __init__(self) -> None:
        super().__init__(CODES, ENCODER_VERSION, "the play without its kickers (0: pass)",
                         "kicker {k} (smallest first), -1 when unused")

    def major_planes(self, state: State, player: int) -> np.ndarray:
        return major_planes(state, player)

    def legal_plays(self, state: State, player: int) -> list[HandType]:
        return state.legal_types(player)  # type: ignore[attr-defined]

    def play_of(self, state: State, action: Action) -> HandType | None:
        return state.type_of(action)  # type: ignore[attr-defined]

    def split(self, play: HandType) -> tuple[int, list[int]]:
        return encode_type(play)


def make_encoder(game: Game | None = None) -> Big2Encoder:
    """The plug-in's encoder factory (the encoding does not depend on ``hand_size``)."""
    return Big2Encoder()
