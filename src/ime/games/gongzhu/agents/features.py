"""What one seat may see of a Gongzhu position, and the two encodings built from it.

Every encoder goes through :func:`seat_view`, the only function here that touches
``state.hands``, and it reads ``hands[seat]`` alone: changing another seat's hidden cards cannot
change a feature (``tests/games/gongzhu/agents/test_features.py`` checks it on random games).
Seats are relative (``0`` = me, ``1`` = the next seat to act after me, ...), so one network serves
all four seats.

* :func:`cnn_planes` -- the supervised baseline's input: ``CNN_CHANNELS`` planes, each a 1x52 card
  vector laid out as a 4x13 (suit x rank) picture (own hand; per seat: played, won, shown,
  card in the current trick; unseen cards; legal cards; ...).
* :func:`dmc_play_features` -- the seed's DMC input for the play phase: a flat vector of 1x52
  one-hots (``DMC_X_DIM``) plus each seat's 13x52 play history for the LSTM, and
  :func:`play_action_features` (the candidate card's 1x52 one-hot).
* :func:`dmc_show_features` -- the show phase, handled apart as in the seed: the 1x4 show vector
  of each seat and the showable cards I hold (``SHOW_X_DIM``), and :func:`show_action_features`
  (the candidate's 1x4 vector).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ime.games.gongzhu import rules as R

N_CARDS = 52
N_SEATS = 4
N_TRICKS = 13
N_SHOW = 16  # show actions 52..67: the 16 subsets of SHOWABLE

_BYTE_BITS = np.unpackbits(np.arange(256, dtype=np.uint8)[:, None], axis=1, bitorder="little")


def mask_bits(mask: int) -> np.ndarray:
    """A 52-bit card mask as a uint8 0/1 vector (index = card id)."""
    raw = np.frombuffer(int(mask).to_bytes(7, "little"), dtype=np.uint8)
    return _BYTE_BITS[raw].reshape(-1)[:N_CARDS]


def show_bits(m: int) -> np.ndarray:
    """A 4-bit subset of ``SHOWABLE`` as a uint8 0/1 vector (the seed's 1x4 show vector)."""
    return np.array([(m >> i) & 1 for i in range(4)], dtype=np.uint8)


_SHOWABLE_MASK = [1 << c for c in R.SHOWABLE]


@dataclass(frozen=True)
class SeatView:
    """Everything ``seat`` knows: its own hand and the public record, seats made relative.

    ``rel(r)`` is the absolute seat ``(seat + r) % 4``; every per-seat tuple here is indexed by
    the relative seat.
    """

    seat: int
    phase: str
    hand: int  # 52-bit mask of my cards
    played: tuple[tuple[int, ...], ...]  # per relative seat, its cards in play order
    won: tuple[int, ...]  # per relative seat, 52-bit mask of cards won
    shown: tuple[int, ...]  # per relative seat, 4-bit mask over SHOWABLE
    show_acted: tuple[bool, ...]  # per relative seat: has it made its show decision
    trick: tuple[tuple[int, int], ...]  # (relative seat, card) in the current trick
    led_suits: int  # 4-bit mask of suits led so far
    first_leader: int  # relative seat of the club-2 holder (shows first, leads trick 1: public)
    tricks_done: int


def seat_view(state: R.GongzhuState, seat: int) -> SeatView:
    """The view of ``seat``: ``state.hands[seat]`` and public fields, nothing else."""
    order = [(seat + r) % N_SEATS for r in range(N_SEATS)]
    rel = {s: r for r, s in enumerate(order)}
    acted = [False] * N_SEATS
    for s, a in state.history:
        if a >= R.SHOW_BASE:
            acted[rel[s]] = True
    return SeatView(
        seat=seat,
        phase=state.phase,
        hand=int(state.hands[seat]),
        played=tuple(tuple(state.played[s]) for s in order),
        won=tuple(int(state.won[s]) for s in order),
        shown=tuple(int(state.shown[s]) for s in order),
        show_acted=tuple(acted),
        trick=tuple((rel[s], c) for s, c in state.trick),
        led_suits=int(state.led_suits),
        first_leader=rel[state.first_seat],
        tricks_done=int(state.tricks_done),
    )


def _played_mask(view: SeatView) -> int:
    m = 0
    for cards in view.played:
        for c in cards:
            m |= 1 << c
    return m


def _shown_cards(m: int) -> int:
    out = 0
    for i, bit in enumerate(_SHOWABLE_MASK):
        if (m >> i) & 1:
            out |= bit
    return out


# ---- the CNN baseline's planes ----------------------------------------------------------------

CNN_PLANES = (
    ["hand"]
    + [f"played_{r}" for r in range(4)]
    + [f"won_{r}" for r in range(4)]
    + [f"shown_{r}" for r in range(4)]
    + [f"trick_{r}" for r in range(4)]
    + ["unseen", "legal", "led_suits", "trick_suit", "show_phase"]
)
CNN_CHANNELS = len(CNN_PLANES)


def cnn_planes(view: SeatView, legal: list[int]) -> np.ndarray:
    """``(CNN_CHANNELS, 4, 13)`` uint8 planes, one 1x52 card vector each (see ``CNN_PLANES``).

    ``legal`` are the legal actions of the seat (its own hand and the public trick decide them);
    the play actions among them fill the ``legal`` plane.
    """
    x = np.zeros((CNN_CHANNELS, N_CARDS), dtype=np.uint8)
    x[0] = mask_bits(view.hand)
    for r in range(N_SEATS):
        for c in view.played[r]:
            x[1 + r, c] = 1
        x[5 + r] = mask_bits(view.won[r])
        x[9 + r] = mask_bits(_shown_cards(view.shown[r]))
    for r, c in view.trick:
        x[13 + r, c] = 1
    x[17] = 1 - (x[0] | x[1:5].max(axis=0))  # cards I have not seen (still in others' hands)
    for a in legal:
        if a < R.SHOW_BASE:
            x[18, a] = 1
    for s in range(4):
        if (view.led_suits >> s) & 1:
            x[19, s * 13 : (s + 1) * 13] = 1
    if view.trick:
        s = view.trick[0][1] // 13
        x[20, s * 13 : (s + 1) * 13] = 1
    if view.phase == "show":
        x[21] = 1
    return x.reshape(CNN_CHANNELS, 4, 13)


# ---- the DMC features (seed: 1x52 one-hots + 13x52 histories, 1x4 show vectors) ----------------

DMC_X_PARTS = (
    ("hand", 52),
    ("unseen", 52),
    ("played", 4 * 52),
    ("won", 4 * 52),
    ("trick", 4 * 52),
    ("shown", 4 * 4),
    ("trick_suit", 4),
    ("led_suits", 4),
    ("position", 4),
)
DMC_X_DIM = sum(n for _, n in DMC_X_PARTS)
DMC_Z_SHAPE = (N_SEATS, N_TRICKS, N_CARDS)
PLAY_ACTION_DIM = 52
SHOW_X_DIM = 52 + 4 + 4 * 4 + 4
SHOW_ACTION_DIM = 4


def dmc_play_features(view: SeatView) -> tuple[np.ndarray, np.ndarray]:
    """``(x, z)``: ``x`` the flat state vector (``DMC_X_DIM``, uint8) and ``z`` the four play
    histories ``(4, 13, 52)`` (relative seat, trick, card), zero rows for tricks not yet played
    (the seed's 13x52 matrix per player, fed to the LSTM)."""
    x = np.zeros(DMC_X_DIM, dtype=np.uint8)
    z = np.zeros(DMC_Z_SHAPE, dtype=np.uint8)
    hand = mask_bits(view.hand)
    x[0:52] = hand
    seen = hand.copy()
    o = 104
    for r in range(N_SEATS):
        for t, c in enumerate(view.played[r]):
            z[r, t, c] = 1
            x[o + r * 52 + c] = 1
            seen[c] = 1
    x[52:104] = 1 - seen
    o += 208
    for r in range(N_SEATS):
        x[o + r * 52 : o + (r + 1) * 52] = mask_bits(view.won[r])
    o += 208
    for r, c in view.trick:
        x[o + r * 52 + c] = 1
    o += 208
    for r in range(N_SEATS):
        x[o + r * 4 : o + (r + 1) * 4] = show_bits(view.shown[r])
    o += 16
    if view.trick:
        x[o + view.trick[0][1] // 13] = 1
    o += 4
    x[o : o + 4] = show_bits(view.led_suits)
    o += 4
    x[o + (-view.first_leader) % 4] = 1  # my position A..D counted from trick 1's leader
    return x, z


def play_action_features(actions: list[int]) -> np.ndarray:
    """``(len(actions), 52)`` one-hots of candidate cards."""
    a = np.zeros((len(actions), PLAY_ACTION_DIM), dtype=np.uint8)
    a[np.arange(len(actions)), actions] = 1
    return a


def dmc_show_features(view: SeatView) -> np.ndarray:
    """The show-phase state (``SHOW_X_DIM``, uint8): my hand, which showable cards I hold (1x4),
    each seat's shown 1x4 vector so far, and which seats have already decided."""
    x = np.zeros(SHOW_X_DIM, dtype=np.uint8)
    x[0:52] = mask_bits(view.hand)
    x[52:56] = [(view.hand >> c) & 1 for c in R.SHOWABLE]
    for r in range(N_SEATS):
        x[56 + r * 4 : 60 + r * 4] = show_bits(view.shown[r])
    x[72:76] = view.show_acted
    return x


def show_action_features(actions: list[int]) -> np.ndarray:
    """``(len(actions), 4)`` show vectors of candidate show actions ``52 + m``."""
    return np.stack([show_bits(a - R.SHOW_BASE) for a in actions]).astype(np.uint8)
