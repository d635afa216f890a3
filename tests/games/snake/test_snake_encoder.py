"""Snake's encoders (src/ime/games/snake/encode.py): the thesis's four planes on a fixed board,
the padded layout for drawn sizes, the egocentric crop, legal masks, per-seat views, the half-turn
symmetry, and decoding."""

from __future__ import annotations

import numpy as np
import pytest

from ime.games.snake import board as B
from ime.games.snake.encode import (
    SnakeEgoEncoder,
    SnakePadEncoder,
    make_encoder,
)
from ime.games.snake.game import SnakeGame

FIXED = SnakeGame(width=11, height=10)
OBST = [(3, 5), (8, 7)]  # centre-symmetric on 10 x 11: (x, y) <-> (11 - x, 12 - y)
BODIES = [[(2, 2), (2, 3), (3, 3)], [(9, 10), (9, 9)]]


def position(game: SnakeGame = FIXED, w: int = 11, h: int = 10):
    return game.state_from_bodies(w, h, OBST, BODIES, ply=12)


def played_states(game: SnakeGame, n_games: int = 6, seed: int = 0):
    """States along random legal games (both seats moving), ends included."""
    rng = np.random.default_rng(seed)
    out = []
    for g in range(n_games):
        st = game.new_initial_state(seed=seed + g)
        while True:
            out.append(st.clone())
            if st.is_terminal():
                break
            st.apply_actions({p: int(rng.choice(st.legal_actions(p))) for p in (0, 1)})
    return out


def cells(plane: np.ndarray) -> set[tuple[int, int]]:
    """Judge coordinates ``(x, y)`` of a plane's ones (row x - 1, column y - 1)."""
    return {(int(r) + 1, int(c) + 1) for r, c in zip(*np.nonzero(plane), strict=True)}


# --- pad, fixed size ------------------------------------------------------------------------------
def test_fixed_board_is_the_thesis_four_planes_for_each_seat():
    enc = make_encoder(FIXED)
    assert isinstance(enc, SnakePadEncoder) and enc.state_shape == (4, 10, 11)
    assert int(np.prod(enc.state_shape)) == 440 and enc.version == "snake-pad-v1:10x11"
    st = position()
    obs = enc.encode([st, st], [0, 1])
    assert obs.planes.dtype == np.uint8 and obs.planes.shape == (2, 4, 10, 11)
    me, you = obs.planes
    assert cells(me[0]) == {(2, 2)} and cells(me[1]) == {(2, 3), (3, 3)}
    assert cells(me[2]) == {(9, 10), (9, 9)} and cells(me[3]) == set(OBST)
    assert cells(you[0]) == {(9, 10)} and cells(you[1]) == {(9, 9)}
    assert cells(you[2]) == {(2, 2), (2, 3), (3, 3)} and cells(you[3]) == set(OBST)
    assert np.array_equal(enc.observe(st, 1), you)


def test_masks_are_the_engines_legal_directions():
    st = position()
    obs = make_encoder(FIXED).encode([st, st], [0, 1])
    for p in (0, 1):
        assert np.flatnonzero(obs.mask[p]).tolist() == st.legal_actions(p)
    # snake 0's head (2, 2): up (1, 2), right (2, 3) own body, down (3, 2), left (2, 1)
    assert st.legal_actions(0) == [0, 2, 3]
    states = played_states(FIXED)
    for p in (0, 1):
        obs = make_encoder(FIXED).encode(states, [p] * len(states))
        for s, m in zip(states, obs.mask, strict=True):
            assert np.flatnonzero(m).tolist() == s.legal_actions(p)
            assert m.any() == (not s.is_terminal())


def test_boxed_in_snake_gets_all_four_directions():
    st = FIXED.state_from_bodies(11, 10, [(1, 2)], [[(1, 1), (2, 1), (2, 2), (2, 3)],
                                                    [(10, 11)]], ply=20)
    assert st.valid_actions(0) == []
    assert make_encoder(FIXED).encode([st], [0]).mask.tolist() == [[1, 1, 1, 1]]


def test_fixed_encoder_refuses_another_size():
    other = SnakeGame(width=12, height=11)
    st = other.state_from_bodies(12, 11, [], BODIES)
    with pytest.raises(ValueError, match="11x12 Snake board .* fixed 10x11"):
        make_encoder(FIXED).encode([st], [0])
    with pytest.raises(ValueError, match="deciding seat"):
        make_encoder(FIXED).encode([st])


def test_rows_are_height_and_columns_width():
    tall = SnakeGame(width=10, height=11)
    assert make_encoder(tall).state_shape == (4, 11, 10)


# --- pad, drawn sizes -----------------------------------------------------------------------------
def test_drawn_sizes_pad_to_the_largest_board_with_an_off_board_plane():
    game = SnakeGame()
    enc = make_encoder(game)
    assert enc.state_shape == (5, B.MAX_H, B.MAX_W) == (5, 16, 12)
    assert enc.symmetry_groups == ("none",)
    states = played_states(game, n_games=4, seed=3)
    assert len({(s.height, s.width) for s in states}) > 1
    obs = enc.encode(states, [1] * len(states))
    fixed_obs = {}
    for s, planes, m in zip(states, obs.planes, obs.mask, strict=True):
        h, w = s.height, s.width
        assert planes[4, :h, :w].sum() == 0 and planes[4].sum() == 16 * 12 - h * w
        assert planes[:4, h:].sum() == 0 and planes[:4, :, w:].sum() == 0
        if (h, w) not in fixed_obs:
            fixed_obs[(h, w)] = SnakePadEncoder(w, h)
        same = fixed_obs[(h, w)].encode([s], [1])
        assert np.array_equal(planes[:4, :h, :w], same.planes[0])
        assert np.array_equal(m, same.mask[0])


# --- ego ------------------------------------------------------------------------------------------
def test_ego_crop_centres_the_head_and_shows_the_whole_board():
    enc = make_encoder(FIXED, "ego")
    assert isinstance(enc, SnakeEgoEncoder) and enc.state_shape == (5, 19, 21)
    st = position()
    pad = make_encoder(FIXED).encode([st, st], [0, 1]).planes
    obs = enc.encode([st, st], [0, 1])
    for p in (0, 1):
        ego = obs.planes[p]
        assert ego[0, 9, 10] == 1 and ego[0].sum() == 1
        hx, hy = st.head(p)
        r0, c0 = 9 - (hx - 1), 10 - (hy - 1)
        window = ego[:, r0:r0 + 10, c0:c0 + 11]
        assert np.array_equal(window[:4], pad[p]) and window[4].sum() == 0
        assert ego[4].sum() == 19 * 21 - 110
        assert np.array_equal(obs.mask[p], make_encoder(FIXED).encode([st], [p]).mask[0])


def test_ego_window_and_drawn_sizes():
    small = make_encoder(FIXED, "ego", ego_size=(5, 7))
    assert small.state_shape == (5, 5, 7)
    st = position()
    planes = small.observe(st, 0)  # head (2, 2): row 1 and column 1 of the board at the centre
    assert planes[0, 2, 3] == 1
    assert planes[4, 0].all() and not planes[4, 1:, 2:].any()  # row x = 0 is off the board
    assert cells(planes[1]) == {(3, 5), (4, 5)}  # (2, 3), (3, 3) shifted by (+1, +2)
    assert make_encoder(SnakeGame(), "ego").state_shape == (5, 31, 23)
    with pytest.raises(ValueError, match="odd sides"):
        make_encoder(FIXED, "ego", ego_size=(4, 5))
    with pytest.raises(ValueError, match="encoding must be one of"):
        make_encoder(FIXED, "crop")


def test_encoding_comes_from_the_game_params():
    from ime.core.registry import get_encoder

    assert isinstance(make_encoder(SnakeGame(width=11, height=10, encoding="ego")),
                      SnakeEgoEncoder)
    assert isinstance(make_encoder(SnakeGame(encoding="ego"), "pad"), SnakePadEncoder)
    enc = get_encoder("snake", {"width": 11, "height": 10, "encoding": "ego"})
    assert isinstance(enc, SnakeEgoEncoder)
    assert SnakeGame(width=11, height=10, encoding="ego").params()["encoding"] == "ego"
    with pytest.raises(ValueError, match="encoding"):
        SnakeGame(encoding="nope")


# --- symmetry, decoding ---------------------------------------------------------------------------
def rotated(st):
    h, w = st.height, st.width
    turn = [[(h + 1 - x, w + 1 - y) for x, y in st.body(p)] for p in (0, 1)]
    obs = [(h + 1 - x, w + 1 - y) for x, y in st.obstacles]
    return st.game.state_from_bodies(w, h, obs, turn, ply=st.ply)


@pytest.mark.parametrize("encoding", ["pad", "ego"])
def test_half_turn_maps_a_position_to_the_turned_one(encoding):
    enc = make_encoder(FIXED, encoding)
    assert enc.symmetry_groups == ("none", "rot180")
    ident, half = enc.symmetries("rot180")
    assert ident.name == "id" and half.name == "rot180"
    st = position()
    turned = rotated(st)
    for p in (0, 1):
        a, b = enc.encode([st], [p]), enc.encode([turned], [p])
        flat = a.planes[0].reshape(a.planes.shape[1], -1)
        moved = np.empty_like(flat)
        moved[:, half.cells] = flat
        assert np.array_equal(moved.reshape(b.planes[0].shape), b.planes[0])
        m = np.empty_like(a.mask[0])
        m[half.actions[0]] = a.mask[0]
        assert np.array_equal(m, b.mask[0])
    with pytest.raises(ValueError, match="no symmetry group"):
        make_encoder(SnakeGame()).symmetries("rot180")
    assert len(enc.symmetries("none")) == 1


def test_labels_decode_and_select_are_legal():
    enc = make_encoder(FIXED)
    st = position()
    assert enc.action_codes([st, st], [0, 1], [3, 1]).tolist() == [[3], [1]]
    assert enc.decode(st, 0, [2]) == 2
    prefer = np.array([[4.0, 3.0, 2.0, 1.0]])
    for p in (0, 1):
        choice = enc.select(st, p, lambda obs: [obs.mask * prefer])
        assert choice == st.legal_actions(p)[0]
    st.apply_actions({0: 2, 1: 0})
    assert enc.encode([st], [0]).planes[0, 0, 2, 1] == 1  # head moved down to (3, 2)
