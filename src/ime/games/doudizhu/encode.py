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

from ime.core.encoding import UNENCODABLE, ActionHead, Encoder, Observation, Policy
from ime.core.game import Action, Game, State
from ime.games.doudizhu.actions import (
    MAJOR_COUNTS,
    MAJOR_KICKER_SIZE,
    MAJOR_KICKERS,
    MAX_KICKERS,
    NUM_MAJOR,
    NUM_MINOR,
    counts_from_codes,
    encode_combo,
    major_code,
    minor_code,
    minor_mask,
    minor_rank,
)
from ime.games.doudizhu.cards import NUM_RANKS, RANK_OF

ENCODER_VERSION = "doudizhu-major309-minor28-v1"
ROWS = 4
MAJOR_PLANES = 6
MINOR_PLANES = 4
PLANES = MAJOR_PLANES + MINOR_PLANES * MAX_KICKERS
_ROW = np.arange(ROWS)[:, None]


def card_planes(counts: np.ndarray) -> np.ndarray:
    """``[..., 15]`` counts -> ``uint8[..., 4, 15]`` (row ``k`` set when the count is > ``k``)."""
    return (np.asarray(counts)[..., None, :] > _ROW).astype(np.uint8)


def count_plane(n: int) -> np.ndarray:
    """``uint8[4, 15]`` with columns ``0 .. n - 1`` set in every row (a thermometer)."""
    out = np.zeros((ROWS, NUM_RANKS), dtype=np.uint8)
    out[:, :n] = 1
    return out


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


def minor_planes(hand: np.ndarray, major: int, kickers: Sequence[int]) -> np.ndarray:
    """``uint8[4, 4, 15]`` of the kicker step after ``kickers`` (ranks, ascending) of
    ``major`` from ``hand`` (15 counts)."""
    size = int(MAJOR_KICKER_SIZE[major])
    left = np.array(hand, dtype=np.int64)
    for r in kickers:
        left[r] -= size
    need = int(MAJOR_KICKERS[major]) - len(kickers)
    return np.stack([card_planes(left), card_planes(MAJOR_COUNTS[major]),
                     count_plane(need if size == 1 else 0), count_plane(need if size == 2 else 0)])


def _masked_argmax(probs: np.ndarray, mask: np.ndarray) -> int:
    """The legal code of highest probability (lowest code on ties)."""
    p = np.where(np.asarray(mask) > 0, np.asarray(probs, dtype=np.float64), -np.inf)
    return int(np.argmax(p))


class DoudizhuEncoder(Encoder):
    """309 major codes + 5 kicker steps of 28 minor codes over 26 planes of 4 x 15.

    ``keep_forced``: give a decision with a single legal play its masks (a dataset row that is
    always right, as the thesis's logs seem to have kept them: see
    ``docs/games/doudizhu_encoding.md``) instead of empty ones (dropped and counted).
    """

    position_planes = MAJOR_PLANES  # the kicker planes follow the action played

    def __init__(self, keep_forced: bool = False) -> None:
        self.keep_forced = bool(keep_forced)
        super().__init__(
            version=ENCODER_VERSION,
            heads=(ActionHead("major", NUM_MAJOR, "Table 5.2: the play without its kickers"),
                   *(ActionHead(f"minor{k}", NUM_MINOR,
                                f"Table 5.3: kicker {k} (smallest first), -1 when unused")
                     for k in range(MAX_KICKERS))),
            state_shape=(PLANES, ROWS, NUM_RANKS),
        )

    def _row(self, state: State, player: int, planes: np.ndarray, masks: list[np.ndarray],
             i: int, major: int | None, kickers: Sequence[int], steps: int) -> None:
        """Fill row ``i``: major planes and mask, and kicker steps ``0 .. steps - 1`` of
        ``major`` after the prefixes of ``kickers`` (ranks)."""
        planes[i, :MAJOR_PLANES] = major_planes(state, player)
        combos = state.legal_combos(player)  # type: ignore[attr-defined]
        if not combos or (len(combos) == 1 and not self.keep_forced):
            return  # no choice: all masks stay empty
        codes = [c for c in (major_code(x) for x in combos) if c >= 0]
        masks[0][i, codes] = 1
        if major is None:
            return
        hand = state.hand_counts(player)  # type: ignore[attr-defined]
        size = int(MAJOR_KICKER_SIZE[major])
        for k in range(steps):
            at = MAJOR_PLANES + MINOR_PLANES * k
            planes[i, at:at + MINOR_PLANES] = minor_planes(hand, major, kickers[:k])
            masks[1 + k][i] = minor_mask(hand, major, [minor_code(r, size) for r in kickers[:k]])

    def _empty(self, n: int) -> tuple[np.ndarray, list[np.ndarray]]:
        return (np.zeros((n, *self.state_shape), dtype=np.uint8),
                [np.zeros((n, h.size), dtype=np.uint8) for h in self.heads])

    def encode(self, states: Sequence[State], players: Sequence[int] | None = None,
               actions: Sequence[Action] | None = None) -> Observation:
        if players is None:
            players = [s.current_players()[0] for s in states]
        planes, masks = self._empty(len(states))
        for i, (s, p) in enumerate(zip(states, players, strict=True)):
            if actions is None:
                self._row(s, p, planes, masks, i, None, (), 0)
                continue
            combo = s.combo_of(actions[i])  # type: ignore[attr-defined]
            if combo is None:
                raise ValueError(f"doudizhu encoder: {actions[i]!r} is no combination")
            major, _ = encode_combo(combo)
            if major < 0:  # a space shuttle: the major mask as usual, label UNENCODABLE
                self._row(s, p, planes, masks, i, None, (), 0)
                continue
            kick = sorted(combo.kickers)
            self._row(s, p, planes, masks, i, major, kick, len(kick))
        return Observation(planes, masks)

    def action_codes(self, states: Sequence[State], players: Sequence[int],
                     actions: Sequence[Action]) -> np.ndarray:
        """``[major, minor0 .. minor4]`` per action, ``-1`` where unused; a space shuttle's
        major is :data:`~ime.core.encoding.UNENCODABLE` (datasets drop and count the row)."""
        out = np.full((len(actions), len(self.heads)), -1, dtype=np.int64)
        for i, (s, a) in enumerate(zip(states, actions, strict=True)):
            combo = s.combo_of(a)  # type: ignore[attr-defined]
            if combo is None:
                raise ValueError(f"doudizhu encoder: {a!r} is no combination")
            major, minors = encode_combo(combo)
            if major >= 0:
                out[i, : 1 + len(minors)] = [major, *minors]
            else:
                out[i, 0] = UNENCODABLE
        return out

    def decode(self, state: State, player: int, codes: Sequence[int]) -> Action:
        """The canonical card ids (lowest of each rank) of the major code and the minor codes
        it needs (later codes are ignored)."""
        major = int(codes[0])
        need = int(MAJOR_KICKERS[major]) if 0 <= major < NUM_MAJOR else 0
        counts = counts_from_codes(major, [int(c) for c in codes[1:1 + need]])
        return state.cards_for(player, counts)  # type: ignore[attr-defined]

    def select(self, state: State, player: int, policy: Policy) -> Action:
        """Fig 5.3 at play time: the most probable legal major, then each kicker in turn (the
        step re-encoded with the kickers chosen so far); a single legal play is played as is."""
        legal = state.legal_actions(player)
        if len(legal) == 1:
            return legal[0]
        obs = self.encode([state], [player])
        major = _masked_argmax(policy(obs)[0][0], obs.masks[0][0])
        kickers: list[int] = []
        for k in range(int(MAJOR_KICKERS[major])):
            planes, masks = self._empty(1)
            self._row(state, player, planes, masks, 0, major, kickers, k + 1)
            code = _masked_argmax(policy(Observation(planes, masks))[1 + k][0], masks[1 + k][0])
            kickers.append(minor_rank(code))
        size = int(MAJOR_KICKER_SIZE[major])
        return self.decode(state, player, [major, *(minor_code(r, size) for r in kickers)])


def make_encoder(game: Game | None = None, keep_forced: bool = False) -> DoudizhuEncoder:
    """The plug-in's encoder factory (the game has no options)."""
    return DoudizhuEncoder(keep_forced)
