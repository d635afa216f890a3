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

With the game option ``observation: seats`` (``game.params.observation``; the default
``thesis`` is the layout above), 3 *seat planes* follow the kicker steps (planes 26-28), what
the thesis's planes leave out although every player sees it: 26 the next player's cards left and
27 the previous player's, each a thermometer over the 60 cells row by row (cells ``< n`` set,
as Big 2's plane 5), and 28 the landlord's public cards it still holds. Why: a rule bot plays
differently when an opponent or its teammate is down to a card or two, and the thesis's planes
hold the other two hands only as one union. The thesis's nets read planes 0-25 and ignore them;
the lookahead imitator's afterstates carry them (:meth:`KickerStepEncoder.afterstates`).

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
from typing import Any

import numpy as np

from ime.core.game import Action, Game, State
from ime.games.doudizhu.actions import CODES, encode_combo
from ime.games.doudizhu.cards import LANDLORD, NUM_RANKS, RANK_OF
from ime.games.doudizhu.combos import Combo
from ime.games.doudizhu.controls import controls
from ime.games.doudizhu.features import hand_split, min_turns
from ime.games.kickers import MAJOR_PLANES, MINOR_PLANES, KickerStepEncoder, card_planes
from ime.games.kickers import cell_plane as _cell_plane
from ime.games.kickers import count_plane as _count_plane

ENCODER_VERSION = "doudizhu-major309-minor28-v1"
PLANES = MAJOR_PLANES + MINOR_PLANES * CODES.max_kickers
SEAT_PLANES = 3


def count_plane(n: int) -> np.ndarray:
    """``uint8[4, 15]`` with columns ``0 .. n - 1`` set in every row (a thermometer)."""
    return _count_plane(n, NUM_RANKS)


def cell_plane(n: int) -> np.ndarray:
    """``uint8[4, 15]`` with the first ``n`` cells set, row by row (up to 60)."""
    return _cell_plane(n, NUM_RANKS)


def seat_planes(state: State, player: int) -> np.ndarray:
    """``uint8[3, 4, 15]``: the next and the previous player's cards left, and the landlord's
    public cards it still holds (see the module doc)."""
    left = [state.cards_left((player + k) % 3) for k in (1, 2)]  # type: ignore[attr-defined]
    held = set(state.hand(LANDLORD))  # type: ignore[attr-defined]
    kept = [c for c in state.public_cards if c in held]  # type: ignore[attr-defined]
    return np.stack([cell_plane(left[0]), cell_plane(left[1]),
                     card_planes(_play_counts(kept))])


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
    """309 major codes + 5 kicker steps of 28 minor codes over 26 planes of 4 x 15 (29 with
    ``seats``: the seat planes, see the module doc).

    ``keep_forced``: give a decision with a single legal play its masks (a dataset row that is
    always right, as the thesis's logs seem to have kept them: see
    ``docs/games/doudizhu_encoding.md``) instead of empty ones (dropped and counted).
    """

    game_name, play_noun = "doudizhu", "combination"
    seat_plane_count = SEAT_PLANES
    afterstate_features = ("hand_turns", "hand_split", "controls")

    def __init__(self, keep_forced: bool = False, seats: bool = False) -> None:
        super().__init__(CODES, ENCODER_VERSION, "Table 5.2: the play without its kickers",
                         "Table 5.3: kicker {k} (smallest first), -1 when unused", keep_forced,
                         seats)
        if seats:  # the cards the other seats hold are known only with their planes
            self.afterstate_features = (  # type: ignore[misc]
                *type(self).afterstate_features, "seat_sizes")

    def major_planes(self, state: State, player: int) -> np.ndarray:
        return major_planes(state, player)

    def seat_planes(self, state: State, player: int) -> np.ndarray:
        return seat_planes(state, player)

    def hand_turns(self, counts: np.ndarray, kickers: int, size: int) -> int:
        return min_turns(counts, kickers, size)

    def seat_sizes(self, planes: Any, cards: Any) -> Any:
        """Rows: 0 the next seat holds as many cards as the play, 1 the previous seat does,
        2 the next holds fewer, 3 the previous holds fewer (each row all ones or all zeros).
        Why: a seat that holds as many cards as a play may go out over it with a higher one
        of the same kind, and one that holds fewer cannot answer it but with a bomb; players
        lead around a seat that has one or two cards left (报单, 报双), away from an opponent
        and towards a teammate (the seat plane says which)."""
        import torch

        left = planes[:, self.kicker_end:self.kicker_end + 2].sum(dim=(2, 3)).round()
        c = cards[:, None].to(left.dtype)
        rows = torch.cat([left == c, left < c], dim=1).to(planes.dtype)  # next, prev, next, prev
        return rows[:, :, None].expand(-1, -1, self.codes.num_ranks)

    def hand_split(self, counts: np.ndarray, kickers: int, size: int) -> np.ndarray:
        return hand_split(counts, kickers, size)

    def controls(self, planes: Any, codes: Any) -> Any:
        """:func:`ime.games.doudizhu.controls.controls` over the own-hand and unseen planes."""
        return controls(planes[:, 0].sum(dim=1), planes[:, 3].sum(dim=1), codes)

    def legal_plays(self, state: State, player: int) -> list[Combo]:
        return state.legal_combos(player)  # type: ignore[attr-defined]

    def play_of(self, state: State, action: Action) -> Combo | None:
        return state.combo_of(action)  # type: ignore[attr-defined]

    def split(self, play: Combo) -> tuple[int, list[int]]:
        return encode_combo(play)


def make_encoder(game: Game | None = None, keep_forced: bool = False) -> DoudizhuEncoder:
    """The plug-in's encoder factory: the game's ``observation`` option (``thesis`` or
    ``seats``) chooses the planes."""
    return DoudizhuEncoder(keep_forced, getattr(game, "observation", "thesis") == "seats")


__all__ = ["ENCODER_VERSION", "PLANES", "SEAT_PLANES", "DoudizhuEncoder",
           "card_planes", "cell_plane", "count_plane", "major_planes", "make_encoder",
           "seat_planes"]
