"""Big-2's encoder: the masks are exactly the legal plays, codes round trip, teacher forcing,
the unencodable trio chain of 6, and no hidden card in any observation."""

from __future__ import annotations

import numpy as np
import pytest
from b2_helpers import deal_texts, state_of, swap_hidden

from ime.core.encoding import UNENCODABLE, Observation
from ime.core.registry import get_encoder
from ime.games.big2 import GAME, Big2Game
from ime.games.big2.actions import (
    MAJOR_KICKER_SIZE,
    MAJOR_KICKERS,
    NUM_MAJOR,
    RANGES,
    major_label,
    minor_code,
    minor_rank,
)
from ime.games.big2.encode import MAJOR_PLANES, Big2Encoder

ENC = Big2Encoder()


def _random_states(n: int, seed: int, game=GAME) -> list:
    rng = np.random.default_rng(seed)
    out = []
    while len(out) < n:
        st = game.new_initial_state(seed=int(rng.integers(1 << 30)))
        for _ in range(int(rng.integers(0, 30))):
            if st.is_terminal():
                break
            legal = st.legal_actions()
            st.apply_action(legal[int(rng.integers(len(legal)))])
        if not st.is_terminal():
            out.append(st)
    return out


def _completions(st, p: int, major: int, kickers: list[int], out: set) -> None:
    """Add every action the kicker masks allow after ``kickers`` of ``major``."""
    if len(kickers) == int(MAJOR_KICKERS[major]):
        size = int(MAJOR_KICKER_SIZE[major])
        out.add(ENC.decode(st, p, [major, *(minor_code(r, size) for r in kickers)]))
        return
    planes, masks = ENC._empty(1)
    ENC._row(st, p, planes, masks, 0, major, kickers, len(kickers) + 1)
    for code in np.flatnonzero(masks[1 + len(kickers)][0]):
        _completions(st, p, major, [*kickers, minor_rank(int(code))], out)


def _mask_actions(st) -> set:
    """Every action reachable by choosing codes inside the masks, head by head."""
    p = st.to_move
    obs = ENC.encode([st], [p])
    out: set = set()
    for major in np.flatnonzero(obs.masks[0][0]):
        _completions(st, p, int(major), [], out)
    return out


def test_the_table():
    assert NUM_MAJOR == 302 and RANGES["bombs"] == (66, 78) and RANGES["pass"] == (0, 0)
    assert RANGES["trio chains + pairs"][1] == NUM_MAJOR - 1
    assert major_label(0) == "pass" and major_label(1) == "3" and major_label(40) == "333+s"
    assert major_label(264) == "333444+pp"
    assert ENC.state_shape == (26, 4, 13) and ENC.head_sizes == [302, 26, 26, 26, 26, 26]


def test_masks_are_exactly_the_legal_plays():
    checked = 0
    for st in _random_states(120, 0):
        legal = st.legal_actions()
        if len(legal) == 1:  # forced: nothing to choose, all masks empty
            obs = ENC.encode([st])
            assert all(m.sum() == 0 for m in obs.masks)
            continue
        encodable = {a for a in legal if ENC.action_codes([st], [st.to_move], [a])[0, 0] >= 0}
        assert _mask_actions(st) == encodable
        checked += 1
    assert checked > 80


def test_codes_round_trip_and_teacher_forcing():
    for st in _random_states(40, 1):
        p = st.to_move
        legal = st.legal_actions()
        if len(legal) == 1:
            continue
        codes = ENC.action_codes([st] * len(legal), [p] * len(legal), legal)
        obs = ENC.encode([st] * len(legal), [p] * len(legal), legal)
        for i, a in enumerate(legal):
            row = codes[i]
            assert ENC.decode(st, p, row) == a
            for h, code in enumerate(row):
                if code >= 0:
                    assert obs.masks[h][i, code] == 1  # the played code is always legal
                else:
                    assert obs.masks[h][i].sum() == 0  # an unused head has no mask


@pytest.mark.slow
def test_the_unencodable_trio_chain_of_six():
    st = state_of("3334445556667778889TJQKA22", "345678999TTTJJJQQQKKKAAA22")
    legal = st.legal_actions()
    big = [a for a in legal if len(a) == 24 and st.type_of(a).key == (5, 6, 3, 1)]
    assert big
    codes = ENC.action_codes([st], [0], big[:1])
    assert codes[0, 0] == UNENCODABLE
    obs = ENC.encode([st], [0], big[:1])
    assert obs.masks[0][0].sum() > 0 and all(m.sum() == 0 for m in obs.masks[1:])
    assert big[0] not in _mask_actions(st)


def test_planes():
    st = state_of("33334567", "89TJQKA2", ["3333"])
    me = 1
    planes = ENC.observe(st, me)
    assert planes.shape == (26, 4, 13) and planes.dtype == np.uint8
    assert planes[0].sum() == 8 and planes[0][:, 6].tolist() == [1, 0, 0, 0]  # one 9 ...
    assert planes[1].sum() == 0  # no bomb
    unseen = planes[2]  # seat 0's 4567 plus the 36 undealt cards: counts per rank
    assert unseen[:, 0].sum() == 0 and unseen[:, 1].sum() == 4 and unseen[:, 12].sum() == 3
    assert planes[3][:, 0].tolist() == [1, 1, 1, 1]  # the bomb to beat
    assert planes[4][:, 0].tolist() == [1, 1, 1, 1]  # played so far
    assert planes[5].sum() == 4  # the opponent holds 4 cards
    assert planes[MAJOR_PLANES:].sum() == 0  # no kicker step without an action


@pytest.mark.parametrize("hand_size", [13, 20])
def test_observations_never_show_the_hidden_cards(hand_size):
    rng = np.random.default_rng(hand_size)
    changed = 0
    for st in _random_states(30, 2, Big2Game(hand_size)):
        alt = swap_hidden(st, rng)
        changed += alt.hand(1 - st.to_move) != st.hand(1 - st.to_move)
        a, b = ENC.encode([st]), ENC.encode([alt])
        assert np.array_equal(a.planes, b.planes)
        assert all(np.array_equal(x, y) for x, y in zip(a.masks, b.masks, strict=True))
    assert changed >= 25


def test_select_plays_the_policys_choice():
    rng = np.random.default_rng(3)
    for st in _random_states(25, 4):
        legal = st.legal_actions()
        target = legal[int(rng.integers(len(legal)))]
        if ENC.action_codes([st], [st.to_move], [target])[0, 0] < 0:
            continue
        codes = ENC.action_codes([st], [st.to_move], [target])[0]

        def policy(obs: Observation, codes=codes) -> list[np.ndarray]:
            out = [rng.random((len(obs), h)) * 0.5 for h in ENC.head_sizes]
            for h, c in enumerate(codes):
                if c >= 0:
                    out[h][:, c] = 1.0
            return out

        assert ENC.select(st, st.to_move, policy) == target


def test_the_registry_builds_it():
    enc = get_encoder("big2", {"hand_size": 26})
    assert enc.version == ENC.version and enc.position_planes == MAJOR_PLANES
    assert deal_texts("3", "4") == [[0], [4]]
