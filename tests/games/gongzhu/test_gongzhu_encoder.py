"""Gongzhu encoder: the planes of a hand-made position, masks equal to the legal actions, no leak
of the other hands, codes and decode, and the imitator's selection with a random net."""

from __future__ import annotations

import numpy as np

from ime.core.encoding import Observation
from ime.games.gongzhu import rules as R
from ime.games.gongzhu.encode import PLANES, make_encoder, mask_bits, planes_of
from ime.games.gongzhu.game import GAME
from ime.games.gongzhu.rules import SHOW_BASE, parse_card

ENC = make_encoder()
KEEP = make_encoder(keep_forced=True)


def random_states(n: int, seed: int = 0):
    rng = np.random.default_rng(seed)
    out = []
    g = 0
    while len(out) < n:
        st = GAME.new_initial_state(seed=1000 + g)
        g += 1
        while not st.is_terminal() and len(out) < n:
            out.append(st.clone())
            legal = st.legal_actions()
            st.apply_action(legal[int(rng.integers(len(legal)))])
    return out


def test_mask_bits_is_the_one_hot_row():
    m = R.mask_of([0, 13, 51])
    row = mask_bits(m)
    assert row.dtype == np.uint8 and row.shape == (52,)
    assert np.flatnonzero(row).tolist() == [0, 13, 51]


def test_masks_equal_the_legal_actions():
    states = random_states(600)
    obs = KEEP.encode(states)
    dropped = ENC.encode(states)
    assert obs.planes.shape == (600, PLANES, 4, 13) and obs.mask.shape == (600, 68)
    forced = 0
    for i, st in enumerate(states):
        legal = st.legal_actions()
        assert np.flatnonzero(obs.mask[i]).tolist() == legal
        if len(legal) > 1:
            assert np.flatnonzero(dropped.mask[i]).tolist() == legal
        else:
            forced += 1
            assert dropped.mask[i].sum() == 0
        assert np.array_equal(obs.planes[i], dropped.planes[i])
    assert forced > 0


def test_planes_of_a_hand_made_position():
    hands = [
        [parse_card(c) for c in "SQ SK S3 H3 H4 D2 D3 D4 D5 C3 C4 C5 C6".split()],
        [parse_card(c) for c in "C2 S2 S4 S5 S6 H2 H5 H6 D6 D7 D8 C7 C8".split()],
        [parse_card(c) for c in "HA HK H7 H8 S7 S8 S9 D9 D10 C9 C10 CJ CQ".split()],
        [parse_card(c) for c in "DJ DQ DK DA SJ SA S10 H9 H10 HJ HQ CK CA".split()],
    ]
    st = GAME.new_initial_state(initdata={"hands": hands})
    p = planes_of(st.core, 1)
    assert p[15].all() and not p[14].any()  # show phase
    st.apply_action(SHOW_BASE)          # seat 1
    st.apply_action(SHOW_BASE + 12)     # seat 2 shows C10, HA
    st.apply_action(SHOW_BASE)          # seat 3
    st.apply_action(SHOW_BASE + 1)      # seat 0 shows SQ
    for c in ("C2", "C9", "CA", "C3"):  # seat 3 wins
        st.apply_action(parse_card(c))
    st.apply_action(parse_card("SA"))   # seat 3 leads
    # seat 0 to move: next = 1, across = 2, prev = 3
    p = planes_of(st.core, 0).reshape(PLANES, 52)
    assert np.flatnonzero(p[0]).tolist() == sorted(R.cards_of_mask(st.core.hands[0]))
    unseen = R.ALL_CARDS & ~st.core.hands[0] & ~R.mask_of(
        [c for pl in st.core.played for c in pl])
    assert np.flatnonzero(p[1]).tolist() == R.cards_of_mask(unseen)
    assert not p[2].any() and not p[3].any() and not p[4].any()
    assert np.flatnonzero(p[5]).tolist() == sorted(parse_card(c) for c in ("C2", "C9", "CA", "C3"))
    assert np.flatnonzero(p[6]).tolist() == [parse_card("C3")]           # my plays
    assert np.flatnonzero(p[7]).tolist() == [parse_card("C2")]           # next's
    assert np.flatnonzero(p[9]).tolist() == sorted(parse_card(c) for c in ("CA", "SA"))  # prev
    assert np.flatnonzero(p[10]).tolist() == sorted([R.SQ, R.C10, R.HA])
    assert not p[11].any() and not p[12].any()
    assert np.flatnonzero(p[13]).tolist() == [parse_card("SA")]          # prev's trick card
    assert np.flatnonzero(p[14]).tolist() == list(range(13))             # spades led
    assert not p[15].any()


def test_hidden_hands_never_leak():
    """Re-deal the other seats' unplayed cards among them: the observation is unchanged."""
    rng = np.random.default_rng(7)
    for st in random_states(200, seed=3)[::3]:
        me = st.current_players()[0]
        others = [q for q in range(4) if q != me]
        pool = [c for q in others for c in R.cards_of_mask(st.core.hands[q])]
        pool = [pool[int(i)] for i in rng.permutation(len(pool))]
        alt = st.clone()
        for q in others:
            n = st.core.hands[q].bit_count()
            alt.core.hands[q] = R.mask_of(pool[:n])
            pool = pool[n:]
        a = ENC.encode([st], [me])
        b = ENC.encode([alt], [me])
        assert np.array_equal(a.planes, b.planes) and np.array_equal(a.mask, b.mask)


def test_action_codes_and_decode():
    states = random_states(50, seed=5)
    acts = [s.legal_actions()[-1] for s in states]
    players = [s.current_players()[0] for s in states]
    codes = ENC.action_codes(states, players, acts)
    assert codes.shape == (50, 1) and codes[:, 0].tolist() == acts
    assert all(ENC.decode(s, p, [a]) == a for s, p, a in zip(states, players, acts, strict=True))


def test_select_plays_legal_actions_with_a_random_policy():
    rng = np.random.default_rng(1)

    def policy(obs: Observation):
        return [rng.random((len(obs), 68))]

    for st in random_states(300, seed=9):
        p = st.current_players()[0]
        a = ENC.select(st, p, policy)
        assert a in st.legal_actions(p)

    def prefer_high(obs: Observation):
        return [np.tile(np.arange(68, dtype=float), (len(obs), 1))]

    st = GAME.new_initial_state(seed=11)
    assert ENC.select(st, st.current_players()[0], prefer_high) == st.legal_actions()[-1]
