"""Gongzhu observations for the nets, after the GZero paper's 1x52 one-hot card features.

The seed encodes every card set as a 1x52 one-hot row (its Table 3 order: suit-major, 2..A);
we lay each row out as a ``4 x 13`` plane (row = suit S H D C, column = rank 2..A), so that a
convolution sees suits and neighbouring ranks. One decision is ``PLANES = 16`` such planes,
seat-relative (``me``, ``next`` = seat + 1, ``across`` = seat + 2, ``prev`` = seat + 3):

====  ====================================================================================
0     own hand
1     unseen cards: the other three hands together (never which seat holds them)
2-5   cards won in tricks by me, next, across, prev
6-9   cards played by me, next, across, prev
10    shown cards (public; whoever showed them)
11-13 the current trick: the card of next, across, prev (empty until they play)
14    the led suit's row all ones (empty when leading or in the show phase)
15    all ones in the show phase
====  ====================================================================================

One head ``action`` of 68 codes, the rules' action ids (``0..51`` play a card; ``52 + m`` show
the subset ``m`` of SQ, DJ, C10, HA, the seed's 1x4 show vector as a bit mask). The mask is the
legal actions; a decision with a single legal action (the club-2 lead, a show phase without a
showable card, a last card) gets an empty mask unless ``keep_forced`` (datasets drop and count
forced rows, as for Doudizhu). Hidden hands never enter: an observation depends on the seat's
hand, the union of the other hands (what it has not seen) and the public record.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from ime.core.encoding import ActionHead, Encoder, Observation, Policy
from ime.core.game import Action, Game, State
from ime.games.gongzhu import rules as R

ENCODER_VERSION = "gongzhu-52x16-act68-v1"
PLANES = 16
SUITS, RANKS = 4, 13


def mask_bits(mask: int) -> np.ndarray:
    """``uint8[52]`` one-hot of a 52-bit card mask (the seed's 1x52 row)."""
    raw = np.frombuffer(mask.to_bytes(7, "little"), dtype=np.uint8)
    return np.unpackbits(raw, bitorder="little")[:R.NUM_CARDS]


def planes_of(core: R.GongzhuState, player: int) -> np.ndarray:
    """``uint8[16, 4, 13]``: what ``player`` sees of ``core`` (see the module doc)."""
    rows = np.zeros((PLANES, R.NUM_CARDS), dtype=np.uint8)
    order = [(player + k) % 4 for k in range(4)]
    hand = core.hands[player]
    played_all = 0
    for p in range(4):
        for c in core.played[p]:
            played_all |= 1 << c
    unseen = R.ALL_CARDS & ~hand & ~played_all
    masks = [hand, unseen, *(core.won[p] for p in order)]
    for p in order:
        m = 0
        for c in core.played[p]:
            m |= 1 << c
        masks.append(m)
    masks.append(core.shown_cards())
    in_trick = dict(core.trick)
    for p in order[1:]:
        masks.append(1 << in_trick[p] if p in in_trick else 0)
    for i, m in enumerate(masks):
        if m:
            rows[i] = mask_bits(m)
    out = rows.reshape(PLANES, SUITS, RANKS)
    if core.trick and core.phase == "play":
        out[14, core.trick[0][1] // 13, :] = 1
    if core.phase == "show":
        out[15] = 1
    return out


class GongzhuEncoder(Encoder):
    """16 planes of 4 x 13 and one 68-code action head (see the module doc)."""

    def __init__(self, keep_forced: bool = False) -> None:
        self.keep_forced = bool(keep_forced)
        super().__init__(
            version=ENCODER_VERSION,
            heads=(ActionHead("action", R.N_ACTIONS,
                              "0..51 play that card; 52 + m show the subset m of SQ,DJ,C10,HA"),),
            state_shape=(PLANES, SUITS, RANKS),
        )

    def encode(self, states: Sequence[State], players: Sequence[int] | None = None,
               actions: Sequence[Action] | None = None) -> Observation:
        if players is None:
            players = [s.current_players()[0] for s in states]
        n = len(states)
        planes = np.zeros((n, *self.state_shape), dtype=np.uint8)
        mask = np.zeros((n, R.N_ACTIONS), dtype=np.uint8)
        for i, (s, p) in enumerate(zip(states, players, strict=True)):
            core = s.core  # type: ignore[attr-defined]
            planes[i] = planes_of(core, p)
            legal = s.legal_actions(p)
            if len(legal) > 1 or (legal and self.keep_forced):
                mask[i, legal] = 1
        return Observation(planes, [mask])

    def action_codes(self, states: Sequence[State], players: Sequence[int],
                     actions: Sequence[Action]) -> np.ndarray:
        codes = np.asarray([int(a) for a in actions], dtype=np.int64).reshape(-1, 1)
        if ((codes < 0) | (codes >= R.N_ACTIONS)).any():
            raise ValueError(f"gongzhu encoder: action ids must be 0..67, got {actions!r}")
        return codes

    def decode(self, state: State, player: int, codes: Sequence[int]) -> Action:
        return int(codes[0])

    def select(self, state: State, player: int, policy: Policy) -> Action:
        """The most probable legal action (lowest code on ties); a forced action (one legal
        action: its mask is empty) is played without asking the net."""
        legal = state.legal_actions(player)
        if len(legal) == 1:
            return legal[0]
        obs = self.encode([state], [player])
        probs = np.asarray(policy(obs)[0][0], dtype=np.float64)
        masked = np.where(obs.masks[0][0] > 0, probs, -np.inf)
        return int(np.argmax(masked))


def make_encoder(game: Game | None = None, keep_forced: bool = False) -> GongzhuEncoder:
    """The plug-in's encoder factory (the game has no options)."""
    return GongzhuEncoder(keep_forced)
