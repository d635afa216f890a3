"""Snake's encoders (src/ime/games/snake/encode.py): the thesis's four planes on a fixed board,
the padded layout for drawn sizes, the egocentric crop, legal masks, per-seat views, the half-turn
symmetry, and decoding."""

from __future__ import annotations

import numpy as np
import pytest

from ime.datasets.build import random_baseline
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
    forced = 0
    for p in (0, 1):
        obs = make_encoder(FIXED).encode(states, [p] * len(states))
        kept = make_encoder(FIXED, keep_forced=True).encode(states, [p] * len(states))
        assert np.array_equal(obs.planes, kept.planes)
        for s, m, k in zip(states, obs.mask, kept.mask, strict=True):
            legal = s.legal_actions(p)
            assert np.flatnonzero(k).tolist() == legal
            assert k.any() == (not s.is_terminal())
            # a forced decision (one legal direction) has an empty mask unless keep_forced
            assert np.flatnonzero(m).tolist() == (legal if len(legal) > 1 else [])
            forced += len(legal) == 1
    assert forced > 0  # random games run into corridors: the rule above was exercised


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


# --- forced decisions and the random baseline (thesis 2.1.3: 40.0-47.3 %) ------------------------
FAR = [(10, 11), (10, 10)]  # snake 1, out of the way in the bottom-right corner


def corridor_positions():
    """Hand-made 10 x 11 positions (ply 12: a growth turn, tails stay) where snake 0 has 1, 2,
    3 and 4 legal directions, with those directions."""
    return [
        # head (1, 2), body (1, 1), (2, 1), obstacle (2, 2): up is the wall, left the body,
        # down the obstacle -> right only
        (FIXED.state_from_bodies(11, 10, [(2, 2), (9, 10)], [[(1, 2), (1, 1), (2, 1)], FAR],
                                 ply=12), [1]),
        # head (1, 5) on the top wall, body (1, 4): right and down
        (FIXED.state_from_bodies(11, 10, [], [[(1, 5), (1, 4)], FAR], ply=12), [1, 2]),
        # head (5, 5) in the open, body (5, 4): up, right, down
        (FIXED.state_from_bodies(11, 10, [], [[(5, 5), (5, 4)], FAR], ply=12), [0, 1, 2]),
        # a one-cell snake in the open: all four
        (FIXED.state_from_bodies(11, 10, [], [[(5, 5)], FAR], ply=12), [0, 1, 2, 3]),
    ]


def test_forced_decision_is_dropped_and_the_baseline_is_over_real_choices():
    """The baseline is the mean over dataset rows of 1 / #legal directions; the forced position
    (one legal direction) is no row by default, so the baseline is (1/2 + 1/3 + 1/4) / 3 =
    36.1 %; with ``keep_forced`` it is (1 + 1/2 + 1/3 + 1/4) / 4 = 52.1 %."""
    pos = corridor_positions()
    states = [s for s, _ in pos]
    assert [s.legal_actions(0) for s in states] == [legal for _, legal in pos]
    for keep, counts, expect in ((False, [0, 2, 3, 4], 36.11), (True, [1, 2, 3, 4], 52.08)):
        rows = make_encoder(FIXED, keep_forced=keep).encode(states, [0] * 4).mask.sum(axis=1)
        assert rows.tolist() == counts
        assert random_baseline(rows[rows > 0]) == pytest.approx(expect, abs=0.01)


def test_a_forced_direction_is_played_without_the_net():
    def never(obs):
        raise AssertionError("the net was asked about a forced decision")

    def prefer_down(obs):
        return [np.tile(np.array([[0.0, 0.1, 0.9, 0.0]]), (len(obs.planes), 1))]

    enc = make_encoder(FIXED)
    (forced, legal), (choice, _) = corridor_positions()[:2]
    assert enc.select(forced, 0, never) == legal[0] == 1
    assert enc.select(choice, 0, prefer_down) == 2  # a real choice goes to the policy


def test_extracted_rows_have_real_choices_and_forced_ones_are_counted(tmp_path):
    """Through the dataset extractor on played matches: every row has 2+ legal directions, and
    rows + forced_passes_dropped are all the target's decisions, the forced ones exactly those
    with one legal direction."""
    import pyarrow.parquet as pq

    from ime.bots.registry import load_bot_specs
    from ime.datasets.extract import extract_part
    from ime.matches.logs import read_matches
    from ime.matches.runner import build_target_schedule, play_schedule

    params = {"width": 11, "height": 10}
    sched = build_target_schedule("snake", "greedy", ["random"], [], 4, 7, 0.0)
    log = tmp_path / "m.jsonl"
    play_schedule("snake", sched, load_bot_specs("snake"), log, seed=7, workers=1,
                  progress=False, game_params=params)
    rep = extract_part(log, tmp_path / "d.parquet", tmp_path / "d.json", game="snake",
                       targets=["greedy"], game_params=params)
    n_legal = pq.read_table(tmp_path / "d.parquet")["num_legal"].to_numpy()
    decisions = [len(d.state.legal_actions(d.player))
                 for m in read_matches(log, SnakeGame(**params)).accepted if m.fault is None
                 for d in m.decisions if m.players[d.player] == "greedy"]
    assert len(n_legal) > 0 and n_legal.min() >= 2
    assert sorted(n_legal.tolist()) == sorted(a for a in decisions if a > 1)
    assert rep["forced_passes_dropped"] == decisions.count(1) > 0


@pytest.mark.parametrize("layout", ["pad_fixed", "pad_any", "ego"])
def test_the_opponent_head_plane_is_a_last_plane_and_changes_nothing_else(layout: str) -> None:
    """``opponent_head: true`` adds one last plane holding the opponent's head (where the ego
    crop shows it) and a ``+head`` version; the planes before it are the default encoder's."""
    game = SnakeGame() if layout == "pad_any" else FIXED
    kind = "ego" if layout == "ego" else "pad"
    plain, headed = make_encoder(game, kind), make_encoder(game, kind, opponent_head=True)
    assert headed.version == plain.version.replace(":", "+head:", 1)
    assert headed.state_shape == (plain.state_shape[0] + 1, *plain.state_shape[1:])
    states = [s for s in played_states(game, 3, seed=5) if not s.is_terminal()]
    for seat in (0, 1):
        a = plain.encode(states, [seat] * len(states)).planes
        b = headed.encode(states, [seat] * len(states)).planes
        np.testing.assert_array_equal(b[:, :-1], a)
        for s, planes in zip(states, b, strict=True):
            hx, hy = s.head(1 - seat)
            if kind == "pad":
                assert planes[-1].sum() == 1 and planes[-1, hx - 1, hy - 1] == 1
            else:  # the crop is centred on our head and shows the whole board by default
                mx, my = s.head(seat)
                r, c = headed.rows // 2 + hx - mx, headed.cols // 2 + hy - my
                assert planes[-1].sum() == 1 and planes[-1, r, c] == 1
            # the opponent's head is a cell of its snake's plane
            assert (planes[-1] <= planes[2]).all()


def test_the_game_keeps_and_checks_opponent_head() -> None:
    assert SnakeGame(width=11, height=10, opponent_head=True).params() == {
        "width": 11, "height": 10, "opponent_head": True}
    assert "opponent_head" not in FIXED.params()
    assert make_encoder(SnakeGame(width=11, height=10, opponent_head=True)).version \
        == "snake-pad-v1+head:10x11"
    with pytest.raises(ValueError, match="opponent_head"):
        SnakeGame(opponent_head="yes")  # type: ignore[arg-type]


def test_the_opponent_head_plane_re_encodes_the_same_logs() -> None:
    """``+game.params.opponent_head=true`` is the encoder's option: the variant shares the match
    logs (tag and matches' params) with the thesis's and has its own datasets and models."""
    from ime.bots.registry import load_bot_specs
    from ime.workflow import WorkflowIndex, make_plan

    base = make_plan(["game=snake", "scale=tiny"])
    headed = make_plan(["game=snake", "scale=tiny", "+game.params.opponent_head=true"])
    b, v = base.main, headed.main
    assert v.logs_tag == b.logs_tag == "tiny"
    assert v.dataset_tag == "tiny__game.params.opponent_head-true" != b.dataset_tag
    assert v.train_tag != b.train_tag
    part = v.parts()[0]
    assert v.log_path(part) == b.log_path(part)
    assert v.decisions_path(part) == b.decisions_path(part).replace(
        "/strict/", "/strict__opponent_head-True/")
    idx = WorkflowIndex([base, headed], {"snake": load_bot_specs("snake")})
    spec = idx.decisions_spec(v.game, v.logs_tag, "strict__opponent_head-True", part)
    assert spec["game_params"] == {"width": 11, "height": 10, "opponent_head": True}
    assert spec["num_actions"] == 4
    assert idx.matches_spec(v.game, v.logs_tag, part)["game_params"] == {"width": 11,
                                                                          "height": 10}
    assert idx.dataset_spec(v.game, v.dataset_tag, "snk04")["game_params"] == {
        "width": 11, "height": 10, "opponent_head": True}


def test_the_snake_search_experiment_is_the_measured_recipe() -> None:
    """``experiment=snake_search`` alone: Snake, the search family with its budget stage on
    (both kinds), the opponent-head, turn and order planes, the plain run's match logs, and its
    own results folder."""
    from ime.workflow import make_plan

    v = make_plan(["experiment=snake_search"]).main
    plain = make_plan(["game=snake"]).main
    assert v.game == "snake" and v.cfg["net"]["kind"] == "search"
    assert v.cfg["game"]["params"]["opponent_head"] is True
    assert v.cfg["game"]["params"]["turn_plane"] is True
    assert v.cfg["game"]["params"]["order_plane"] is True
    search = v.cfg["net"]["search"]
    assert 400 in search["budgets"] and search["budget_passes"] == 2 and search["round_evals"] > 0
    assert search["budget_kinds"] == ["deepen", "leaves"]
    assert v.logs_tag == plain.logs_tag and v.dataset_tag != plain.dataset_tag
    assert v.results_dir == "results/snake/snake_search"


@pytest.mark.parametrize("layout", ["pad_fixed", "pad_any", "ego"])
def test_the_turn_plane_is_the_last_plane_and_holds_the_turn(layout: str) -> None:
    """``turn_plane: true`` adds a last plane (after the head plane) whose on-board cells hold
    the turn being decided, and a ``+turn`` version; the planes before it are unchanged."""
    game = SnakeGame() if layout == "pad_any" else FIXED
    kind = "ego" if layout == "ego" else "pad"
    headed = make_encoder(game, kind, opponent_head=True)
    both = make_encoder(game, kind, opponent_head=True, turn_plane=True)
    assert both.version == headed.version.replace("+head:", "+head+turn:", 1)
    assert make_encoder(game, kind, turn_plane=True).version == make_encoder(
        game, kind).version.replace(":", "+turn:", 1)
    assert both.state_shape == (headed.state_shape[0] + 1, *headed.state_shape[1:])
    states = [s for s in played_states(game, 3, seed=5) if not s.is_terminal()]
    assert max(s.ply for s in states) > 12
    for seat in (0, 1):
        a = headed.encode(states, [seat] * len(states)).planes
        b = both.encode(states, [seat] * len(states)).planes
        np.testing.assert_array_equal(b[:, :-1], a)
        for s, planes in zip(states, b, strict=True):
            on = planes[-1] > 0
            assert set(np.unique(planes[-1][on]).tolist()) <= {s.ply}
            if s.ply > 0:  # every cell of the board, and no other
                board = planes[4] == 0 if layout != "pad_fixed" else np.ones_like(on)
                np.testing.assert_array_equal(on, board)


def test_the_game_keeps_and_checks_turn_plane() -> None:
    assert SnakeGame(width=11, height=10, turn_plane=True).params() == {
        "width": 11, "height": 10, "turn_plane": True}
    assert "turn_plane" not in FIXED.params()
    with pytest.raises(ValueError, match="turn_plane"):
        SnakeGame(turn_plane=1)  # type: ignore[arg-type]


def test_the_turn_plane_re_encodes_the_same_logs() -> None:
    """``+game.params.turn_plane=true`` is an encoder option as the head plane is: the same
    match logs, its own datasets."""
    from ime.workflow import make_plan

    base = make_plan(["game=snake", "scale=tiny"]).main
    v = make_plan(["game=snake", "scale=tiny", "+game.params.opponent_head=true",
                   "+game.params.turn_plane=true"]).main
    assert v.logs_tag == base.logs_tag and v.dataset_tag != base.dataset_tag
    part = v.parts()[0]
    assert v.log_path(part) == base.log_path(part)


@pytest.mark.parametrize("layout", ["pad_fixed", "pad_any", "ego"])
def test_the_order_plane_holds_each_cells_place_from_its_tail(layout: str) -> None:
    """``order_plane: true`` adds a last plane (after the head and turn planes) with each snake
    cell's place from its tail (1 = the tail, the head the length), and a ``+order`` version;
    the planes before it are unchanged."""
    game = SnakeGame() if layout == "pad_any" else FIXED
    kind = "ego" if layout == "ego" else "pad"
    both = make_encoder(game, kind, opponent_head=True, turn_plane=True)
    three = make_encoder(game, kind, opponent_head=True, turn_plane=True, order_plane=True)
    assert three.version == both.version.replace("+turn:", "+turn+order:", 1)
    states = [s for s in played_states(game, 3, seed=6) if not s.is_terminal()]
    for seat in (0, 1):
        a = both.encode(states, [seat] * len(states)).planes
        b = three.encode(states, [seat] * len(states)).planes
        np.testing.assert_array_equal(b[:, :-1], a)
        for s, planes in zip(states, b, strict=True):
            snakes = planes[0] | planes[1] | planes[2]
            np.testing.assert_array_equal(planes[-1] > 0, snakes > 0)
            for p in (0, 1):  # the places of each snake are 1..length, the head its length
                n = int(s.S[B.I_LEN + p])
                theirs = planes[0] | planes[1] if p == seat else planes[2]
                assert sorted(planes[-1][theirs > 0].tolist()) == list(range(1, n + 1))
            assert planes[-1][planes[0] > 0].item() == int(s.S[B.I_LEN + seat])


def test_the_game_keeps_and_checks_order_plane() -> None:
    assert SnakeGame(width=11, height=10, order_plane=True).params() == {
        "width": 11, "height": 10, "order_plane": True}
    with pytest.raises(ValueError, match="order_plane"):
        SnakeGame(order_plane="yes")  # type: ignore[arg-type]
