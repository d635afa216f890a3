"""Doudizhu observations for the nets (thesis 5.3.1): major planes, kicker-step planes, masks.

A card set is a ``4 x 15`` 0/1 matrix (:func:`card_planes`): column ``r`` is rank ``r``
(3 .. A, 2, small joker, big joker), row ``k`` is set when the set holds more than ``k`` cards
of that rank; suits are ignored. One dataset row is one decision, with ``6 + 4 * 5 = 26``
planes of ``4 x 15``:

* planes 0-5, the major input (thesis: ``4 x 15 x 6``): 0 own hand; 1 the bomb-capable cards
  (the ranks held four times, and both jokers when both are held: the thesis's "cards in my
  hand numbering more than 3"); 2 the seat (row ``seat`` all ones: 0 landlord, 1 the farmer
  after it, 2 the farmer before it); 3 the cards unseen by me (the other two hands, the
  landlord's public cards included); 4 the next player's last play and 5 the previous player's
  last play, both empty for a pass or before the first play (the last two plies of the history:
  they are always of the current round).
* planes ``6 + 4k .. 9 + 4k``, the minor input of kicker step ``k`` (thesis: ``4 x 15 x 4``,
  Fig 5.3): own hand minus the kickers chosen before step ``k``; the chosen major's main cards;
  the number of solo kickers still needed (this one included) and of pair kickers still needed,
  each as a thermometer over columns (columns ``< n`` set in every row; ``n`` is at most 5, more
  than the 4 rows). All zero for a step the play does not use.

Heads: ``major`` (309 codes, :mod:`ime.games.doudizhu.actions`) and ``minor0`` .. ``minor4``
(28 codes each), one per kicker, smallest first. Masks: ``major`` marks the major codes of the
legal plays. With ``actions`` given (teacher forcing), step ``k``'s planes and mask are those
that apply after the played major and its first ``k`` kickers; the mask holds the kickers that
may come next (distinct, ascending, not a main rank, in hand, leaving room for the kickers still
needed). Without actions, the minor planes and masks are zero: :meth:`DoudizhuEncoder.select`
chooses the major, then re-encodes one kicker step at a time.

Decisions without a choice the nets can make get all-zero masks, which datasets drop and count:
a decision with a single legal play (following with nothing that beats: a forced pass). A
played space shuttle has no code: its major label is ``UNENCODABLE``, so datasets drop the row
and count it as ``unencodable_dropped`` (``docs/games/doudizhu_encoding.md``). Hidden hands
never enter: an observation is a function of the player's hand, the union of the other two
hands, and the public history.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from ime.core.game import Action, Game, State
from ime.games.doudizhu.actions import CODES, encode_combo
from ime.games.doudizhu.cards import NUM_RANKS, RANK_OF
from ime.games.doudizhu.combos import Combo
from ime.games.kickers import MAJOR_PLANES, MINOR_PLANES, KickerStepEncoder, card_planes
from ime.games.kickers import count_plane as _count_plane

ENCODER_VERSION = "doudizhu-major309-minor28-v1"
PLANES = MAJOR_PLANES + MINOR_PLANES * CODES.max_kickers


def count_plane(n: int) -> np.ndarray:
    """``uint8[4, 15]`` with columns ``0 .. n - 1`` set in every row (a thermometer)."""
    return _count_plane(n, NUM_RANKS)


def _play_counts(cards: Sequence[int]) -> np.ndarray:
    return np.bincount(RANK_OF[np.asarray(cards, dtype=np.int64)], minlength=NUM_RANKS)


def major_planes(state: State, player: int) -> np.ndarray:
    """``uint8[6, 4, 15]``: what ``player`` sees of ``state`` (see the module doc)."""
    own = state.hand_counts(player)  # type: ignore[attr-defined]
    bombs = np.where(own == 4, 4, 0)
    if own[13] and own[14]:
        bombs[13:] = 1
    unseen = _play_counts(state.unseen_by(player))  # type: ignore[attr-defined]
    nxt, prev = (player + 1) % 3, (player + 2) % 3
    hist = state.history  # type: ignore[attr-defined]
    plays = [np.zeros(NUM_RANKS, dtype=np.int64) for _ in range(2)]
    for slot, back, who in ((0, 2, nxt), (1, 1, prev)):
        if len(hist) >= back and hist[-back][0] == who:
            plays[slot] = _play_counts(hist[-back][1])
    out = card_planes(np.stack([own, bombs, np.zeros_like(own), unseen, *plays]))
    out[2, player, :] = 1
    return out


class DoudizhuEncoder(KickerStepEncoder):
    """309 major codes + 5 kicker steps of 28 minor codes over 26 planes of 4 x 15.

    ``keep_forced``: give a decision with a single legal play its masks (a dataset row that is
    always right, as the thesis's logs seem to have kept them: see
    ``docs/games/doudizhu_encoding.md``) instead of empty ones (dropped and counted).
    """

    game_name, play_noun = "doudizhu", "combination"

    def __init__(self, keep_forced: bool = False) -> None:
        super().__init__(CODES, ENCODER_VERSION, "Table 5.2: the play without its kickers",
                         "Table 5.3: kicker {k} (smallest first), -1 when unused", keep_forced)

    def major_planes(self, state: State, player: int) -> np.ndarray:
        return major_planes(state, player)

    def legal_plays(self, state: State, player: int) -> list[Combo]:
        return state.legal_combos(player)  # type: ignore[attr-defined]

    def play_of(self, state: State, action: Action) -> Combo | None:
        return state.combo_of(action)  # type: ignore[attr-defined]

    def split(self, play: Combo) -> tuple[int, list[int]]:
        return encode_combo(play)


def make_encoder(game: Game | None = None, keep_forced: bool = False) -> DoudizhuEncoder:
    """The plug-in's encoder factory (the game has no options)."""
    return DoudizhuEncoder(keep_forced)


__all__ = ["ENCODER_VERSION", "PLANES", "DoudizhuEncoder", "card_planes", "count_plane",
           "major_planes", "make_encoder"]
