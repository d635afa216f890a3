"""The Doudizhu encoder: Table 5.2/5.3 codes one to one with the engine, the observation planes,
teacher-forced kicker masks, shuttles and forced passes, and head-by-head selection."""

from __future__ import annotations

import numpy as np
import pytest
import torch
from ddz_helpers import play, state_from

from ime.core.encoding import UNENCODABLE
from ime.datasets.extract import encode_decisions
from ime.games.doudizhu.actions import (
    MAJOR_COUNTS,
    MAJOR_KICKER_SIZE,
    MAJOR_KICKERS,
    MAX_KICKERS,
    NUM_MAJOR,
    NUM_MINOR,
    RANGES,
    combo_from_codes,
    encode_combo,
    kicker_candidates,
    major_code,
    minor_mask,
)
from ime.games.doudizhu.cards import RANK_CHARS, parse_ranks
from ime.games.doudizhu.combos import SHUTTLE_KINDS
from ime.games.doudizhu.combos import ComboType as T
from ime.games.doudizhu.encode import DoudizhuEncoder, card_planes, count_plane, make_encoder
from ime.games.doudizhu.game import GAME, DoudizhuState
from ime.nets import build_net

ENC = DoudizhuEncoder()
HEADS = [NUM_MAJOR] + [NUM_MINOR] * MAX_KICKERS
CONV1 = {"name": "ddz_conv1", "kind": "branches", "branches": [
    {"name": "major", "planes": [0, 6], "heads": 1, "kind": "conv", "channels": [32, 16],
     "kernel": 3, "batch_norm": "each", "hidden": [309]},
    {"name": "minor", "planes": [6, 10], "heads": 5, "plane_stride": 4, "kind": "conv",
     "channels": [32, 16], "kernel": 3, "batch_norm": "each", "hidden": [28]}]}


def state_of(*texts: str, plays: tuple[str, ...] = ()) -> DoudizhuState:
    st = state_from(*texts)
    play(st, *plays)
    return st


def cards(st: DoudizhuState, text: str) -> tuple[int, ...]:
    return st.cards_for(st.to_move, parse_ranks(text))


def random_positions(games: int, seed: int) -> list[DoudizhuState]:
    """Every decision of ``games`` random games (deals of seeds ``seed ..``)."""
    rng = np.random.default_rng(seed)
    out = []
    for g in range(games):
        st = GAME.new_initial_state(seed=seed + g)
        while not st.is_terminal():
            out.append(st.clone())
            legal = st.legal_actions()
            st.apply_action(legal[int(rng.integers(len(legal)))])
    return out


def mask_sequences(hand: np.ndarray, majors: np.ndarray) -> set[tuple[int, tuple[int, ...]]]:
    """Every (major, minors) the masks allow, kicker step by kicker step."""
    out: set[tuple[int, tuple[int, ...]]] = set()

    def walk(major: int, prefix: list[int]) -> None:
        if len(prefix) == MAJOR_KICKERS[major]:
            out.add((major, tuple(prefix)))
            return
        for c in np.flatnonzero(minor_mask(hand, major, prefix)):
            walk(major, [*prefix, int(c)])

    for m in np.flatnonzero(majors):
        walk(int(m), [])
    return out


# --- code tables --------------------------------------------------------------------------------
def test_code_ranges_are_table_5_2():
    assert {k.name: v for k, v in RANGES.items()} == {
        "PASS": (0, 0), "ROCKET": (1, 1), "BOMB": (2, 14), "SINGLE": (15, 29),
        "STRAIGHT": (30, 65), "PAIR": (66, 78), "PAIR_STRAIGHT": (79, 130), "TRIO": (131, 143),
        "AIRPLANE": (144, 188), "TRIO_SINGLE": (189, 201), "AIRPLANE_SINGLES": (202, 239),
        "TRIO_PAIR": (240, 252), "AIRPLANE_PAIRS": (253, 282), "FOUR_SINGLES": (283, 295),
        "FOUR_PAIRS": (296, 308)}
    assert sum(b - a + 1 for a, b in RANGES.values()) == NUM_MAJOR == 309
    assert NUM_MINOR == 28 and MAX_KICKERS == 5
    assert ENC.state_shape == (26, 4, 15) and ENC.head_sizes == HEADS
    assert [h.name for h in ENC.heads] == ["major", *(f"minor{k}" for k in range(5))]
    # examples of Table 5.2 and the first / last code of some ranges
    for text, kind, code in (("", T.PASS, 0), ("XD", T.ROCKET, 1), ("4444", T.BOMB, 3),
                             ("3", T.SINGLE, 15), ("D", T.SINGLE, 29),
                             ("34567", T.STRAIGHT, 30), ("3456789TJQKA", T.STRAIGHT, 65),
                             ("88", T.PAIR, 71), ("334455", T.PAIR_STRAIGHT, 79),
                             ("666", T.TRIO, 134), ("333444", T.AIRPLANE, 144),
                             ("8883", T.TRIO_SINGLE, 194), ("66777", T.TRIO_PAIR, 244),
                             ("444467", T.FOUR_SINGLES, 284),
                             ("44446677", T.FOUR_PAIRS, 297)):
        combo = combo_from_codes(code, encode_combo(_classify(text))[1])
        assert combo.kind == kind and major_code(combo) == code and combo == _classify(text)
    assert encode_combo(_classify("77788845")) == (202 + 4, [1, 2])
    assert encode_combo(_classify("7778884455")) == (253 + 4, [16, 17])
    assert encode_combo(_classify("444467")) == (284, [3, 4])
    assert encode_combo(_classify("33334444")) == (-1, [])  # a space shuttle has no code


def _classify(text: str):
    from ime.games.doudizhu.combos import classify

    return classify(parse_ranks(text))


@pytest.mark.slow
def test_codes_one_to_one_with_the_engine():
    """Every legal non-shuttle play of many positions has distinct codes that decode to the
    engine's own action, and the masks allow exactly the legal plays, no more."""
    positions = random_positions(25, 100)
    # rich hands: the landlord's first decision of many deals (20 cards: wings, four + 2, ...)
    positions += [GAME.new_initial_state(seed=s) for s in range(5000, 5150)]
    majors_seen: set[int] = set()
    for st in positions:
        p = st.to_move
        pairs = {}
        for a, c in zip(st.legal_actions(), st.legal_combos(), strict=True):
            if c.kind in SHUTTLE_KINDS:
                continue
            major, minors = encode_combo(c)
            assert (major, tuple(minors)) not in pairs
            pairs[(major, tuple(minors))] = a
            assert combo_from_codes(major, minors) == c
            assert ENC.decode(st, p, [major, *minors, *[-1] * (5 - len(minors))]) == a
            majors_seen.add(major)
        obs = ENC.encode([st], [p])
        if len(st.legal_actions()) > 1:
            assert mask_sequences(st.hand_counts(p), obs.masks[0][0]) == set(pairs)
    assert len(majors_seen) > 200  # every code: test_every_major_code_is_reachable


def hand_with(major: int) -> list[int]:
    """A rank text holding the play of ``major`` with its smallest possible kickers."""
    counts = MAJOR_COUNTS[major].copy()
    need, size = int(MAJOR_KICKERS[major]), int(MAJOR_KICKER_SIZE[major])
    deck = np.array([4] * 13 + [1, 1])
    for r in kicker_candidates(deck, major)[:need]:
        counts[r] += size
    return counts


def test_every_major_code_is_reachable():
    for major in range(1, NUM_MAJOR):
        counts = hand_with(major)
        text = "".join(RANK_CHARS[r] * int(counts[r]) for r in range(15))
        st = state_of(text)
        codes = {major_code(c) for c in st.legal_combos(0)}
        assert major in codes, (major, text)
        assert ENC.encode([st]).masks[0][0, major] == 1
    st = state_of("3", "4", plays=("3",))  # the pass, following
    assert ENC.encode([st]).masks[0][0, 0] == 1 and major_code(st.legal_combos()[0]) == 0


# --- observation planes -------------------------------------------------------------------------
def test_major_planes_of_a_hand_made_position():
    st = state_of("3333 444 55 6 789TJQKA2X", "4 55 666 777 888 999 TT", plays=("6", "7", ""))
    obs = ENC.encode([st])
    x = obs.planes[0]
    own = parse_ranks("3333 444 55 789TJQKA2X")
    assert (x[0] == card_planes(own)).all()
    bombs = np.zeros(15, dtype=np.int64)
    bombs[0] = 4
    assert (x[1] == card_planes(bombs)).all()  # one small joker: no rocket
    assert x[2, 0].all() and x[2, 1:].sum() == 0  # landlord
    unseen = np.array([4] * 13 + [1, 1]) - own - parse_ranks("67")
    assert (x[3] == card_planes(unseen)).all() and x[3].sum() == 33
    assert (x[4] == card_planes(parse_ranks("7"))).all()  # seat 1, the next player, played 7
    assert x[5].sum() == 0  # seat 2, the previous player, passed
    assert x[6:].sum() == 0  # no kicker step without an action
    singles = [15 + r for r in range(5, 14)]  # 8 .. small joker beat the 7
    assert sorted(np.flatnonzero(obs.masks[0][0])) == [0, 2, *singles]  # pass, bomb 3333
    assert all(m.sum() == 0 for m in obs.masks[1:])
    # seat 2 (the farmer before the landlord) after the landlord's 8 and seat 1's pass: its
    # next player is the landlord, its previous player seat 1
    st.apply_action(cards(st, "8"))
    st.apply_action(())
    y = ENC.encode([st]).planes[0]
    assert st.to_move == 2 and y[2, 2].all() and y[2].sum() == 15
    assert (y[4] == card_planes(parse_ranks("8"))).all() and y[5].sum() == 0


def test_rocket_and_count_planes():
    st = state_of("3333 55 77 99 JJ KK AA 22 XD")
    x = ENC.encode([st]).planes[0]
    assert x[1, :, 0].all() and x[1, 0, 13:].all() and x[1].sum() == 6
    assert count_plane(0).sum() == 0 and count_plane(5)[:, :5].all() and count_plane(5).sum() == 20


def test_hidden_hands_never_leak():
    """Re-dealing the other two hands' unplayed cards between them (same history) leaves every
    observation of the player unchanged."""
    rng = np.random.default_rng(3)
    for st in random_positions(4, 200)[::7]:
        p = st.to_move
        others = [q for q in range(3) if q != p]
        public = set(st.publiccard)  # seen by all: stays in the landlord's hand
        pool = [c for q in others for c in st.hand(q) if c not in public]
        rng.shuffle(pool)
        alloc = [list(h) for h in st.allocation]
        for q in others:
            keep = [c for c in st.allocation[q] if c not in st.hand(q) or c in public]
            n = len(st.allocation[q]) - len(keep)
            alloc[q] = keep + pool[:n]
            pool = pool[n:]
        twin = GAME.new_initial_state(initdata={"allocation": alloc,
                                                "publiccard": list(st.publiccard)})
        for _, a in st.history:
            twin.apply_action(a)
        assert twin.hand(p) == st.hand(p)
        assert (ENC.encode([twin], [p]).planes == ENC.encode([st], [p]).planes).all()
        legal = st.legal_actions()
        a = legal[int(rng.integers(len(legal)))]
        assert (ENC.encode([twin], [p], [a]).planes == ENC.encode([st], [p], [a]).planes).all()


# --- teacher-forced kicker steps ------------------------------------------------------------------
def minors_of(mask: np.ndarray) -> list[int]:
    return [int(c) for c in np.flatnonzero(mask)]


def test_trio_with_a_single():
    st = state_of("3333 444 55 6 789TJQKA2X")
    a = cards(st, "4446")
    obs = ENC.encode([st], [0], [a])
    codes = ENC.action_codes([st], [0], [a])[0]
    assert list(codes) == [190, 3, -1, -1, -1, -1]
    assert minors_of(obs.masks[1][0]) == [0, *range(2, 14)]  # any single but a 4
    assert all(m.sum() == 0 for m in obs.masks[2:])
    x = obs.planes[0]
    assert (x[6] == x[0]).all()  # the whole hand before the first kicker
    assert (x[7] == card_planes(parse_ranks("444"))).all()
    assert (x[8] == count_plane(1)).all() and x[9].sum() == 0
    assert x[10:].sum() == 0


def test_airplane_with_two_singles():
    st = state_of("3333 444 55 6 789TJQKA2X")
    a = cards(st, "3334447X")
    obs = ENC.encode([st], [0], [a])
    assert list(ENC.action_codes([st], [0], [a])[0]) == [202, 4, 13, -1, -1, -1]
    # step 0: above nothing, leaving one candidate above it; step 1: above the 7
    assert minors_of(obs.masks[1][0]) == list(range(2, 13))
    assert minors_of(obs.masks[2][0]) == list(range(5, 14))
    x = obs.planes[0]
    assert (x[7] == card_planes(parse_ranks("333444"))).all() and (x[11] == x[7]).all()
    assert (x[8] == count_plane(2)).all() and (x[12] == count_plane(1)).all()
    assert (x[10] == card_planes(parse_ranks("3333 444 55 6 89TJQKA2X"))).all()  # minus the 7
    assert x[9].sum() == x[13].sum() == 0 and x[14:].sum() == 0


def test_four_with_two_pairs():
    st = state_of("3333 55 77 99 JJ KK AA 22 XD")
    a = cards(st, "33337799")
    obs = ENC.encode([st], [0], [a])
    assert list(ENC.action_codes([st], [0], [a])[0]) == [296, 19, 21, -1, -1, -1]
    assert minors_of(obs.masks[1][0]) == [15 + r for r in (2, 4, 6, 8, 10, 11)]
    assert minors_of(obs.masks[2][0]) == [15 + r for r in (6, 8, 10, 11, 12)]
    x = obs.planes[0]
    assert (x[14 - 4] == card_planes(parse_ranks("3333 55 99 JJ KK AA 22 XD"))).all()
    assert x[8].sum() == 0 and (x[9] == count_plane(2)).all() and (x[13] == count_plane(1)).all()


def test_teacher_forced_codes_are_in_their_masks():
    """What datasets check for every row: each used head's label is in its mask."""
    positions = random_positions(6, 300)
    actions = []
    for st in positions:  # the play with the most kickers
        combos = st.legal_combos()
        actions.append(st.legal_actions()[max(range(len(combos)),
                                              key=lambda i: len(combos[i].kickers))])
    players = [st.to_move for st in positions]
    out = encode_decisions(ENC, positions, players, actions, "random games")
    kept = [i for i, (st, a) in enumerate(zip(positions, actions, strict=True))
            if len(st.legal_actions()) > 1 and st.combo_of(a).kind not in SHUTTLE_KINDS]
    assert list(out["rows"]) == kept
    with_kickers = (out["action_minor0"] >= 0).sum()
    assert with_kickers > 10
    assert ((out["action_minor1"] >= 0) <= (out["action_minor0"] >= 0)).all()


# --- shuttles and forced decisions ----------------------------------------------------------------
def test_space_shuttles_are_not_encoded():
    st = state_of("33334444 5 6 789TJQKA2")
    legal = st.legal_actions()
    shuttles = [a for a, c in zip(legal, st.legal_combos(), strict=True)
                if c.kind in SHUTTLE_KINDS]
    assert shuttles
    a = cards(st, "3333444456")
    assert a in shuttles
    codes = ENC.action_codes([st], [0], [a])
    assert codes[0, 0] == UNENCODABLE and (codes[0, 1:] == -1).all()
    obs = ENC.encode([st], [0], [a])
    assert obs.masks[0].sum() > 0 and all(m.sum() == 0 for m in obs.masks[1:])
    out = encode_decisions(ENC, [st, st], [0, 0], [a, cards(st, "3")], "shuttle")
    assert list(out["rows"]) == [1] and out["unencodable"] == 1  # dropped and counted
    # the imitator never plays one: no mask allows it
    obs = ENC.encode([st])
    allowed = mask_sequences(st.hand_counts(0), obs.masks[0][0])
    assert len(allowed) == len(legal) - len(shuttles)


def test_a_forced_pass_has_no_mask():
    """A single legal play (nothing beats: the pass) is no choice: empty masks, so datasets
    drop it, and select plays it without asking the policy."""
    forced = [s for s in random_positions(3, 400) if len(s.legal_actions()) == 1]
    assert len(forced) > 10
    obs = ENC.encode(forced, None, [s.legal_actions()[0] for s in forced])
    assert all(m.sum() == 0 for m in obs.masks)

    def no_policy(obs):
        raise AssertionError("a forced decision asked the net")

    assert all(ENC.select(s, s.to_move, no_policy) == s.legal_actions()[0] for s in forced)
    keep = DoudizhuEncoder(keep_forced=True)
    obs = keep.encode(forced, None, [s.legal_actions()[0] for s in forced])
    assert (obs.masks[0].sum(axis=1) == 1).all() and all(m.sum() == 0 for m in obs.masks[1:])
    assert keep.select(forced[0], forced[0].to_move, no_policy) == forced[0].legal_actions()[0]


# --- selection ----------------------------------------------------------------------------------
@pytest.fixture
def one_thread():
    """One torch thread, as the imitator plays (one position through threaded torch is
    thousands of times slower on a small shared machine)."""
    before = torch.get_num_threads()
    torch.set_num_threads(1)
    yield
    torch.set_num_threads(before)


def net_policy(net):
    def policy(obs):
        x = torch.as_tensor(obs.planes, dtype=torch.float32)
        ms = [torch.as_tensor(m, dtype=torch.float32) for m in obs.masks]
        with torch.no_grad():
            out = net(x, ms)
        return [torch.softmax(o.double().masked_fill(m <= 0, float("-inf")), 1)
                .nan_to_num(0.0).numpy() for o, m in zip(out, ms, strict=True)]
    return policy


@pytest.mark.parametrize("prefer_kickers", [False, True])
def test_select_with_a_random_net_plays_legal_actions(prefer_kickers, one_thread):
    """Random weights, many positions: always a legal, non-shuttle play whose major is the
    net's argmax. With ``prefer_kickers`` the major probabilities of plays with kickers are
    boosted, so that the net's minor head chooses many kickers."""
    net = build_net(CONV1, ENC.state_shape, HEADS, seed=5).eval()
    plain = net_policy(net)
    boost = np.where(MAJOR_KICKERS > 0, 1000.0, 1.0) if prefer_kickers else np.ones(NUM_MAJOR)

    def policy(obs):
        out = plain(obs)
        return [out[0] * boost, *out[1:]]

    kicked = 0
    positions = random_positions(3, 500) + [GAME.new_initial_state(seed=s) for s in range(30)]
    for st in positions:
        a = ENC.select(st, st.to_move, policy)
        assert a in st.legal_actions()
        c = st.combo_of(a)
        assert c.kind not in SHUTTLE_KINDS
        kicked += len(c.kickers)
        if len(st.legal_actions()) > 1:  # the major is the policy's argmax over legal majors
            obs = ENC.encode([st])
            p = np.where(obs.masks[0][0] > 0, policy(obs)[0][0], -1)
            assert major_code(c) == int(np.argmax(p))
    assert kicked > (25 if prefer_kickers else 0)


def test_select_chooses_head_by_head():
    """A policy that wants the airplane and the highest kickers gets the highest kickers that
    still complete the play: the steps are re-encoded with the kickers chosen so far."""
    st = state_of("3333 444 55 6 789TJQKA2X")

    def policy(obs):
        major = np.zeros((1, NUM_MAJOR))
        major[0, 202] = 1.0
        minor = np.tile(np.arange(NUM_MINOR, dtype=float) / 100, (1, 1))
        return [major, *[minor] * MAX_KICKERS]

    a = ENC.select(st, 0, policy)
    assert a == cards(st, "3334442X")  # 2 then the small joker, not the joker first
    obs = ENC.encode([st], [0], [a])
    assert obs.masks[1][0, 13] == 0  # the joker first would leave nothing above it


def test_plugin_factory_and_decode():
    enc = make_encoder(GAME)
    st = state_of("3333 444 55 6 789TJQKA2X", "4")
    assert enc.decode(st, 0, [2, -1, -1, -1, -1, -1]) == cards(st, "3333")
    assert enc.decode(st, 0, [0, 3, 3, 3, 3, 3]) == ()
    with pytest.raises(ValueError):
        enc.decode(st, 0, [190, 1, -1, -1, -1, -1])  # a 4 beside the 444


# --- the seats observation (game.params.observation=seats) ---------------------------------------
def test_the_seats_observation_adds_what_every_player_sees_of_the_other_seats():
    """Planes 26-28: the next and the previous player's cards left (cells row by row) and the
    landlord's public cards it still holds; planes 0-25 are the thesis's, masks and codes too, so
    the thesis's nets read the same rows; an unknown observation is refused naming the options."""
    from ime.core.registry import get_encoder, get_game

    seats = get_encoder("doudizhu", {"observation": "seats"})
    assert seats.version == ENC.version + "-seats" and seats.state_shape == (29, 4, 15)
    assert seats.position_tail_planes == 3 and ENC.position_tail_planes == 0
    checked = 0
    for st in random_positions(5, 200)[::5]:
        p = st.to_move
        legal = st.legal_actions()
        a = legal[len(legal) // 2]
        ours, thesis = seats.encode([st], [p], [a]), ENC.encode([st], [p], [a])
        np.testing.assert_array_equal(ours.planes[0, :26], thesis.planes[0])
        for m, n in zip(ours.masks, thesis.masks, strict=True):
            np.testing.assert_array_equal(m, n)
        x = ours.planes[0, 26:]
        for plane, q in ((x[0], (p + 1) % 3), (x[1], (p + 2) % 3)):
            n = st.cards_left(q)
            assert plane.sum() == n and plane.reshape(-1)[:n].all()
        kept = [c for c in st.publiccard if c in st.hand(0)]
        np.testing.assert_array_equal(x[2], card_planes(np.bincount(_ranks(kept),
                                                                    minlength=15)))
        checked += 1
    assert checked > 30
    assert get_game("doudizhu", {"observation": "seats"}).params() == {"observation": "seats"}
    assert get_game("doudizhu") is GAME and GAME.params() == {}
    with pytest.raises(ValueError, match="observation must be one of"):
        get_game("doudizhu", {"observation": "everything"})
    with pytest.raises(ValueError, match="no game option 'seat'"):
        get_game("doudizhu", {"seat": 1})


def _ranks(cards):
    from ime.games.doudizhu.cards import RANK_OF

    return [int(RANK_OF[c]) for c in cards]
