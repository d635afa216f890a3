"""The Connect Four encoder: plane shapes and contents, column masks, the flipx symmetry."""

from __future__ import annotations

import numpy as np
import pytest

from ime.core.registry import get_encoder
from ime.games.connect4 import GAME, Connect4Game
from ime.games.connect4.encode import Connect4Encoder


def _states(game, n, seed):
    rng = np.random.default_rng(seed)
    out = []
    while len(out) < n:
        st = game.new_initial_state()
        while not st.is_terminal():
            out.append(st.clone())
            st.apply_action(int(rng.choice(st.legal_actions())))
    return out[:n]


def test_planes_and_mask_follow_the_board():
    game = Connect4Game(6, 5, [[2, 0], [5, 4]])
    enc = Connect4Encoder(game.geometry)
    assert enc.state_shape == (3, 5, 6) and enc.num_actions == 6 and enc.heads[0].name == "column"
    states = _states(game, 200, 0)
    obs = enc.encode(states)
    assert obs.planes.shape == (200, 3, 5, 6) and obs.planes.dtype == np.uint8
    assert obs.mask.shape == (200, 6)
    for st, planes, mask in zip(states, obs.planes, obs.mask, strict=True):
        p = st.to_move
        for x in range(6):
            for y in range(5):
                row = 4 - y  # row 0 is the top of the board
                c = st.cell(x, y)
                assert planes[0, row, x] == (c == "XO"[p])
                assert planes[1, row, x] == (c == "XO"[1 - p])
                assert planes[2, row, x] == (c == "#")
        assert mask.tolist() == [int(c in st.legal_actions()) for c in range(6)]
    # another player's view swaps the first two planes
    other = enc.encode(states[:20], [1 - s.to_move for s in states[:20]])
    assert (other.planes[:, 0] == obs.planes[:20, 1]).all()
    codes = enc.action_codes(states[:3], [0, 1, 0], [4, 0, 5])
    assert codes.tolist() == [[4], [0], [5]] and enc.decode(states[0], 0, [4]) == 4


def test_encoder_refuses_another_board():
    enc = get_encoder("connect4", {"width": 7, "height": 6, "blocked": []})
    with pytest.raises(ValueError, match="encoder"):
        enc.encode([Connect4Game(6, 5).new_initial_state()])


def test_flipx_round_trip():
    enc = get_encoder("connect4", {"width": 7, "height": 6, "blocked": [[1, 2], [5, 2]]})
    assert enc.symmetry_groups == ("none", "flipx")
    states = _states(enc_game := Connect4Game(7, 6, [[1, 2], [5, 2]]), 100, 1)
    obs = enc.encode(states)
    ident, flip = enc.symmetries("flipx")
    assert ident.name == "id" and flip.name == "flipx"
    flat = obs.planes.reshape(100, 3, -1)
    moved = np.empty_like(flat)
    moved[:, :, flip.cells] = flat  # cell i goes to flip.cells[i]
    mirrored = []
    for st in states:  # the same game played in mirrored columns
        m = enc_game.new_initial_state()
        for col in st.history:
            m.apply_action(6 - col)
        mirrored.append(m)
    mobs = enc.encode(mirrored)
    assert (moved.reshape(obs.planes.shape) == mobs.planes).all()
    mask = np.empty_like(obs.mask)
    mask[:, flip.actions[0]] = obs.mask
    assert (mask == mobs.mask).all()
    back = np.empty_like(moved)
    back[:, :, np.argsort(flip.cells)] = moved
    assert (back == flat).all()


def test_flipx_needs_mirror_symmetric_blocked_cells():
    enc = get_encoder("connect4", {"width": 7, "height": 6, "blocked": [[1, 2]]})
    assert enc.symmetry_groups == ("none",)
    with pytest.raises(ValueError, match="mirror"):
        enc.symmetries("flipx")
    assert len(enc.symmetries("none")) == 1
    with pytest.raises(ValueError):
        enc.symmetries("rot180")
    assert get_encoder("connect4", {}).version == "connect4-planes-v1"
    assert GAME.new_initial_state().game.geometry == get_encoder("connect4", {}).geometry
