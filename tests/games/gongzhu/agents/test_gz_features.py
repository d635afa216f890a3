"""Features: what one seat sees, and nothing of the other hands."""

from __future__ import annotations

import numpy as np
from gz_agent_helpers import positions, reshuffle_hidden

from ime.games.gongzhu import rules as R
from ime.games.gongzhu.agents.features import (
    CNN_CHANNELS,
    CNN_PLANES,
    DMC_X_DIM,
    DMC_Z_SHAPE,
    SHOW_X_DIM,
    cnn_planes,
    dmc_play_features,
    dmc_show_features,
    mask_bits,
    seat_view,
)


def _all_features(state: R.GongzhuState, seat: int) -> list[np.ndarray]:
    view = seat_view(state, seat)
    legal = R.legal_actions(state)
    out = [cnn_planes(view, legal)]
    if state.phase == "show":
        out.append(dmc_show_features(view))
    else:
        out.extend(dmc_play_features(view))
    return out


def test_mask_bits_round_trip():
    cards = [0, 5, 13, 26, 39, 51]
    bits = mask_bits(R.mask_of(cards))
    assert bits.shape == (52,)
    assert list(np.flatnonzero(bits)) == cards


def test_features_ignore_other_hands():
    """Redistributing the other seats' hidden cards changes no feature of the seat to move; the
    same change to the seat's own hand does (so the comparison can fail)."""
    rng = np.random.default_rng(7)
    checked = changed_own = 0
    for state, seat in positions(12, seed=3, every=3):
        if state.hands[seat] == 0:
            continue
        other = reshuffle_hidden(state, seat, rng)
        if all(other.hands[s] == state.hands[s] for s in range(4)):
            continue
        for a, b in zip(_all_features(state, seat), _all_features(other, seat), strict=True):
            assert np.array_equal(a, b)
        checked += 1
        # negative control: swap one of my cards with a hidden card of the next seat
        nxt = (seat + 1) % 4
        if state.hands[nxt]:
            mine = R.cards_of_mask(state.hands[seat])[0]
            theirs = R.cards_of_mask(state.hands[nxt])[0]
            swapped = state.copy()
            swapped.hands[seat] ^= (1 << mine) | (1 << theirs)
            swapped.hands[nxt] ^= (1 << mine) | (1 << theirs)
            view = seat_view(swapped, seat)
            assert not np.array_equal(cnn_planes(view, []), cnn_planes(seat_view(state, seat), []))
            changed_own += 1
    assert checked > 100 and changed_own > 50


def test_shapes_and_worked_example():
    """After the club-2 lead, the next seat sees C2 in the leader's (relative seat 3) trick and
    played planes; the leader's history row 0 holds C2."""
    state = R.deal(11)
    while state.phase == "show":
        R.apply(state, R.SHOW_BASE)
    leader = state.to_move
    R.apply(state, R.C2)
    seat = state.to_move
    assert seat == (leader + 1) % 4
    view = seat_view(state, seat)
    planes = cnn_planes(view, R.legal_actions(state))
    assert planes.shape == (CNN_CHANNELS, 4, 13)
    flat = planes.reshape(CNN_CHANNELS, 52)
    assert flat[CNN_PLANES.index("trick_3"), R.C2] == 1
    assert flat[CNN_PLANES.index("played_3"), R.C2] == 1
    assert flat[CNN_PLANES.index("trick_suit"), R.CLUBS * 13 : R.CLUBS * 13 + 13].all()
    assert flat[CNN_PLANES.index("hand")].sum() == 13
    assert flat[CNN_PLANES.index("unseen")].sum() == 52 - 13 - 1
    x, z = dmc_play_features(view)
    assert x.shape == (DMC_X_DIM,) and z.shape == DMC_Z_SHAPE
    assert z[3, 0, R.C2] == 1 and z.sum() == 1
    assert x[52:104].sum() == 52 - 13 - 1  # unseen
    assert x[-4:].tolist() == [0, 1, 0, 0]  # I am position B (one seat after the leader)
    assert dmc_show_features(seat_view(R.deal(11), R.deal(11).to_move)).shape == (SHOW_X_DIM,)
