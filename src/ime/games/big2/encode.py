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

from ime.core.encoding import UNENCODABLE, ActionHead, Encoder, Observation, Policy
from ime.core.game import Action, Game, State
from ime.games.big2.actions import (
    MAJOR_COUNTS,
    MAJOR_KICKER_SIZE,
    MAJOR_KICKERS,
    MAX_KICKERS,
    NUM_MAJOR,
    NUM_MINOR,
    counts_from_codes,
    encode_type,
    major_code,
    minor_code,
    minor_mask,
    minor_rank,
)
from ime.games.big2.cards import NUM_RANKS, RANK_OF

ENCODER_VERSION = "big2-major302-minor26x5-v1"
ROWS = 4
MAJOR_PLANES = 6
MINOR_PLANES = 4
PLANES = MAJOR_PLANES + MINOR_PLANES * MAX_KICKERS
_ROW = np.arange(ROWS)[:, None]


def card_planes(counts: np.ndarray) -> np.ndarray:
    """``[..., 13]`` counts -> ``uint8[..., 4, 13]`` (row ``k`` set when the count is > ``k``)."""
    return (np.asarray(counts)[..., None, :] > _ROW).astype(np.uint8)


def count_plane(n: int) -> np.ndarray:
    """``uint8[4, 13]`` with columns ``0 .. n - 1`` set in every row (a thermometer)."""
    out = np.zeros((ROWS, NUM_RANKS), dtype=np.uint8)
    out[:, :n] = 1
    return out


def cell_plane(n: int) -> np.ndarray:
    """``uint8[4, 13]`` with the first ``n`` cells set, row by row (up to 52)."""
    out = np.zeros(ROWS * NUM_RANKS, dtype=np.uint8)
    out[:n] = 1
    return out.reshape(ROWS, NUM_RANKS)


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


def minor_planes(hand: np.ndarray, major: int, kickers: Sequence[int]) -> np.ndarray:
    """``uint8[4, 4, 13]`` of the kicker step after ``kickers`` (ranks, ascending) of
    ``major`` from ``hand`` (13 counts)."""
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


class Big2Encoder(Encoder):
    """302 major codes + 5 kicker steps of 26 minor codes over 26 planes of 4 x 13."""

    position_planes = MAJOR_PLANES  # the kicker planes follow the action played

    def __init__(self) -> None:
        super().__init__(
            version=ENCODER_VERSION,
            heads=(ActionHead("major", NUM_MAJOR, "the play without its kickers (0: pass)"),
                   *(ActionHead(f"minor{k}", NUM_MINOR,
                                f"kicker {k} (smallest first), -1 when unused")
                     for k in range(MAX_KICKERS))),
            state_shape=(PLANES, ROWS, NUM_RANKS),
        )

    def _row(self, state: State, player: int, planes: np.ndarray, masks: list[np.ndarray],
             i: int, major: int | None, kickers: Sequence[int], steps: int) -> None:
        """Fill row ``i``: major planes and mask, and kicker steps ``0 .. steps - 1`` of
        ``major`` after the prefixes of ``kickers`` (ranks)."""
        planes[i, :MAJOR_PLANES] = major_planes(state, player)
        types = state.legal_types(player)  # type: ignore[attr-defined]
        if len(types) <= 1:
            return  # no choice: all masks stay empty
        codes = sorted({c for c in (major_code(t) for t in types) if c >= 0})
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

    def _type(self, state: State, action: Action):
        t = state.type_of(action)  # type: ignore[attr-defined]
        if t is None:
            raise ValueError(f"big2 encoder: {action!r} is no hand type")
        return t

    def encode(self, states: Sequence[State], players: Sequence[int] | None = None,
               actions: Sequence[Action] | None = None) -> Observation:
        if players is None:
            players = [s.current_players()[0] for s in states]
        planes, masks = self._empty(len(states))
        for i, (s, p) in enumerate(zip(states, players, strict=True)):
            if actions is None:
                self._row(s, p, planes, masks, i, None, (), 0)
                continue
            t = self._type(s, actions[i])
            major, _ = encode_type(t)
            if major < 0:  # unencodable: the major mask as usual, label UNENCODABLE
                self._row(s, p, planes, masks, i, None, (), 0)
                continue
            kick = sorted(t.kickers)
            self._row(s, p, planes, masks, i, major, kick, len(kick))
        return Observation(planes, masks)

    def action_codes(self, states: Sequence[State], players: Sequence[int],
                     actions: Sequence[Action]) -> np.ndarray:
        """``[major, minor0 .. minor4]`` per action, ``-1`` where unused; the unencodable
        type's major is :data:`~ime.core.encoding.UNENCODABLE` (datasets drop the row)."""
        out = np.full((len(actions), len(self.heads)), -1, dtype=np.int64)
        for i, (s, a) in enumerate(zip(states, actions, strict=True)):
            major, minors = encode_type(self._type(s, a))
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
        """The most probable legal major, then each kicker in turn (the step re-encoded with
        the kickers chosen so far); a single legal play is played as is."""
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


def make_encoder(game: Game | None = None) -> Big2Encoder:
    """The plug-in's encoder factory (the encoding does not depend on ``hand_size``)."""
    return Big2Encoder()
