"""The afterstates the lookahead imitator values (``Encoder.afterstates``) are the engines' own:
for seeded positions of each game that offers them, every legal move's afterstate planes equal the
encoding of the position the engine's ``apply_action`` reaches (Reversi, Connect Four), or, for
Snake's simultaneous moves, the own head where the engine moves it, or, for the card games'
majors, the hand the engine leaves."""

from __future__ import annotations

import numpy as np
import pytest
import torch

from ime.core.registry import get_encoder, get_game, get_plugin
from ime.games.reversi.bitboard import legal_moves


def _pairs(game: str, n: int, params: dict | None = None):
    """(state, player, code) for every legal first-head code of ``n`` seeded positions."""
    enc = get_encoder(game, params)
    states = get_plugin(game).tools.positions(n, 5)
    out = []
    for s in states:
        for p in s.current_players():
            obs = enc.encode([s], [p])
            for code in np.flatnonzero(obs.mask[0]):
                out.append((s, p, int(code), obs.planes[0]))
    return enc, out


def _after(enc, pairs) -> np.ndarray:
    planes = torch.as_tensor(np.stack([pl for *_, pl in pairs]), dtype=torch.float32)
    codes = torch.as_tensor([c for _, _, c, _ in pairs], dtype=torch.int64)
    out = enc.afterstates(planes, codes)
    assert out.shape == (len(pairs), *enc.afterstate_shape)
    assert out.dtype == torch.float32
    return out.numpy()


def test_reversi_afterstates_are_the_engines_positions() -> None:
    enc, pairs = _pairs("reversi", 60)
    after = _after(enc, pairs)
    assert len(pairs) > 300
    for (s, p, code, _planes), a in zip(pairs, after, strict=True):
        nxt = s.clone()
        nxt.apply_action(code)
        own, opp = int(nxt.boards[p]), int(nxt.boards[1 - p])
        bits = [int(sum(1 << i for i in range(64) if a[k].reshape(64)[i] > 0.5))
                for k in range(6)]
        before = int(s.boards[p])
        assert bits[0] == own and bits[1] == opp
        assert bits[3] == 1 << code
        assert bits[2] == own & ~before & ~(1 << code)  # the flips
        assert bits[4] == int(legal_moves(np.uint64(opp), np.uint64(own)))
        assert bits[5] == int(legal_moves(np.uint64(own), np.uint64(opp)))


@pytest.mark.parametrize("params", [None, {"width": 7, "height": 6, "blocked": [[3, 0]]}])
def test_connect4_afterstates_are_the_engines_positions(params: dict | None) -> None:
    enc = get_encoder("connect4", params)
    game = get_game("connect4", params)
    rng = np.random.default_rng(2)
    pairs = []
    for _ in range(40):  # seeded random games on this board
        s = game.new_initial_state()
        for _ in range(int(rng.integers(0, 20))):
            if s.is_terminal():
                break
            s.apply_action(int(rng.choice(s.legal_actions(s.current_players()[0]))))
        if s.is_terminal():
            continue
        p = s.current_players()[0]
        obs = enc.encode([s], [p])
        pairs += [(s, p, int(c), obs.planes[0]) for c in np.flatnonzero(obs.mask[0])]
    after = _after(enc, pairs)
    assert len(pairs) > 100
    for (s, p, code, planes), a in zip(pairs, after, strict=True):
        nxt = s.clone()
        nxt.apply_action(code)
        want = enc.encode([nxt], [p]).planes[0]
        np.testing.assert_array_equal(a[:3], want)  # mover's discs, opponent's, blocked
        np.testing.assert_array_equal(a[3], want[0] - planes[0])  # the cell just played
        assert a[3].sum() == 1 and a[3][:, code].sum() == 1


def test_snake_afterstates_move_the_own_head_where_the_engine_does() -> None:
    enc, pairs = _pairs("snake", 40)  # any board size: the padded layout
    after = _after(enc, pairs)
    assert len(pairs) > 100
    moved = 0
    for (s, p, code, planes), a in zip(pairs, after, strict=True):
        nxt = s.clone()
        other = 1 - p
        nxt.apply_actions({p: code, other: int(s.legal_actions(other)[0])})
        if nxt.is_terminal():  # a death ends the match before the heads move
            continue
        hx, hy = nxt.head(p)
        assert a[0][hx - 1, hy - 1] == 1 and a[0].sum() == 1
        assert a[1][planes[0] > 0].all()  # the old head joins the body
        np.testing.assert_array_equal(a[2:], planes[2:])  # the rest as observed
        moved += 1
    assert moved > 100


@pytest.mark.parametrize(("game", "params"), [("doudizhu", None), ("big2", None),
                                             ("doudizhu", {"observation": "seats"})])
def test_card_game_afterstates_leave_the_hand_the_engine_leaves(game: str, params) -> None:
    """A major's afterstate holds the hand the engine leaves once the play is made, less its
    kickers (which the later heads choose), the major's main cards, the kickers still needed,
    and the seat, unseen cards and last plays unchanged, and the seat planes after them when
    the observation has them: checked for every legal play of seeded positions."""
    from ime.games.kickers import MAJOR_PLANES, card_planes

    enc = get_encoder(game, params)
    tail = 3 if params else 0
    assert enc.afterstate_shape[0] == 8 + tail and enc.state_shape[0] == 26 + tail
    c = enc.codes
    rows, codes, want = [], [], []
    for s in get_plugin(game).tools.positions(40, 4):
        p = s.current_players()[0]
        planes = enc.encode([s], [p]).planes[0]
        for a in s.legal_actions(p):
            play = enc.play_of(s, a)
            major, _ = enc.split(play)
            if major < 0:
                continue
            nxt = s.clone()
            nxt.apply_action(a)
            left = np.array(nxt.hand_counts(p), dtype=np.int64)
            size = int(c.major_kicker_size[major])
            for r in play.kickers:
                left[r] += size  # the kickers go back: the afterstate has not chosen them
            rows.append(planes)
            codes.append(major)
            want.append((left, major))
    assert len(rows) > 200 and len(set(codes)) > 20
    after = _after(enc, list(zip(rows, rows, codes, rows, strict=True))).astype(np.uint8)
    for a, planes, (left, major) in zip(after, rows, want, strict=True):
        np.testing.assert_array_equal(a[0], card_planes(left))
        np.testing.assert_array_equal(a[1], card_planes(c.major_counts[major]))
        need, size = int(c.major_kickers[major]), int(c.major_kicker_size[major])
        assert a[2].sum() == 4 * need * (size == 1) and a[3].sum() == 4 * need * (size == 2)
        np.testing.assert_array_equal(a[4:8], planes[2:MAJOR_PLANES])
        np.testing.assert_array_equal(a[8:], planes[26:])
        assert a[8:].any() == bool(tail)
    if game == "doudizhu":  # the features: the fewest plays of the hand left, and its split
        from ime.games.doudizhu.features import hand_split, min_turns

        x = torch.as_tensor(np.stack(rows), dtype=torch.float32)
        feat = enc.afterstate_feature_planes(x, torch.as_tensor(codes),
                                             ["hand_turns", "hand_split"]).numpy()
        assert feat.shape == (len(rows), 2, 4, 15)
        kick = [(int(c.major_kickers[m]), int(c.major_kicker_size[m])) for _, m in want]
        turns = [min(min_turns(left, *k), 15) for (left, _), k in zip(want, kick, strict=True)]
        np.testing.assert_array_equal(feat[:, 0].sum(axis=(1, 2)), 4 * np.array(turns))
        assert len(set(turns)) > 3
        np.testing.assert_array_equal(feat[:, 1], np.stack(
            [hand_split(left, *k) for (left, _), k in zip(want, kick, strict=True)]))
        assert feat[:, 1, 3].any() and feat[:, 1, 2].any()  # chains and trios among them
    with pytest.raises(ValueError, match="offers no afterstate feature 'mobility'"):
        enc.afterstate_feature_planes(torch.zeros(1, *enc.state_shape),
                                      torch.zeros(1, dtype=torch.int64), ["mobility"])


def test_a_game_without_afterstates_says_so() -> None:
    enc = get_encoder("gongzhu")
    assert enc.afterstate_shape is None
    with pytest.raises(ValueError, match="no afterstates"):
        enc.afterstates(torch.zeros(1), torch.zeros(1, dtype=torch.int64))
