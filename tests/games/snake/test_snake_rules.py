"""Every rule of the Snake judge on hand-made positions (``SnakeGame.state_from_bodies``).

Boards here are 10 wide and 11 high with no obstacles unless a test places some; cells are
``(x, y)`` = (row 1..11, column 1..10); bodies are written head first.
"""

from __future__ import annotations

import numpy as np
import pytest

from ime.core.game import IllegalMoveError
from ime.games.snake import GAME, SnakeGame
from ime.games.snake import board as B
from ime.games.snake.codec import BOTH_DIE, INVALID_INPUT, INVALID_MOVE

UP, RIGHT, DOWN, LEFT = 0, 1, 2, 3
FAR = [(11, 10)]  # snake 1 out of the way


def setup(body0, body1=FAR, ply=0, obstacles=()):
    return GAME.state_from_bodies(10, 11, list(obstacles), [body0, body1], ply)


def test_growth_schedule():
    growing = [t for t in range(40) if B.grows(t)]
    assert growing == [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 12, 15, 18, 21, 24, 27, 30, 33, 36, 39]


@pytest.mark.parametrize("ply, grows", [(9, True), (10, False), (11, False), (12, True)])
def test_a_snake_grows_or_keeps_its_length(ply, grows):
    st = setup([(5, 5), (5, 4), (5, 3)], [(9, 9), (9, 8)], ply)
    st.apply_actions({0: RIGHT, 1: RIGHT})
    assert st.body(0) == [(5, 6), (5, 5), (5, 4)] + ([(5, 3)] if grows else [])
    assert st.body(1) == [(9, 10), (9, 9)] + ([(9, 8)] if grows else [])
    assert st.grid()[5, 3] == (B.SNAKE0 if grows else B.EMPTY)


def _loop():
    """Snake 0 on a 2x2 square, head (2, 2), tail (3, 2) just below it."""
    return [(2, 2), (2, 3), (3, 3), (3, 2)]


def test_tail_removed_before_the_heads_move():
    st = setup(_loop(), ply=10)  # no growth: the tail goes first, the head may take its cell
    assert DOWN in st.valid_actions(0)
    st.apply_actions({0: DOWN, 1: LEFT})
    assert not st.is_terminal()
    assert st.body(0) == [(3, 2), (2, 2), (2, 3), (3, 3)]


def test_own_tail_is_a_body_on_a_growth_turn():
    st = setup(_loop(), ply=12)
    assert DOWN not in st.valid_actions(0)
    s = st.S.copy()
    assert B.step(s, DOWN, LEFT) & 3 == 1  # the judge kills snake 0


def test_head_may_enter_the_opponents_vacated_tail():
    body1 = [(4, 4), (4, 5), (4, 6), (3, 6)]  # snake 1's tail at (3, 6)
    st = setup([(3, 7), (2, 7), (1, 7)], body1, ply=11)
    assert LEFT in st.valid_actions(0)
    st.apply_actions({0: LEFT, 1: DOWN})
    assert not st.is_terminal() and st.head(0) == (3, 6)
    st2 = setup([(3, 7), (2, 7), (1, 7)], body1, ply=12)
    assert LEFT not in st2.valid_actions(0)


def test_head_on_into_one_cell_is_a_tie():
    st = setup([(5, 4)], [(5, 6)])
    st.apply_actions({0: RIGHT, 1: LEFT})
    assert st.is_terminal() and st.returns() == [1.0, 1.0]
    assert st.display()["err"] == BOTH_DIE and "winner" not in st.display()


def test_swapping_heads_kills_both():
    # snake 0 enters snake 1's head (still there: snake 0 moves first) and dies unmoved;
    # snake 1 then enters snake 0's head: the judge's head-on rule, both lose
    S = setup([(5, 4), (5, 3)], [(5, 5), (5, 6)], ply=3).S.copy()
    assert B.step(S, RIGHT, LEFT) & 3 == 3


def test_snake0_dies_entering_a_head_that_moves_away():
    S = setup([(5, 4), (5, 3)], [(5, 5), (5, 6)], ply=3).S.copy()
    assert B.step(S, RIGHT, UP) & 3 == 1 and B.scores(1) == (0, 2)


def test_snake1_dies_entering_snake0s_old_head():
    # snake 0 moves away from (5, 4); its old head is now its neck: snake 1 dies there
    S = setup([(5, 4), (5, 3)], [(5, 5), (5, 6)], ply=3).S.copy()
    assert B.step(S, UP, LEFT) & 3 == 2 and B.scores(2) == (2, 0)


@pytest.mark.parametrize("body0, move, why", [
    ([(1, 5)], UP, "wall (x = 0)"),
    ([(11, 5)], DOWN, "wall (x = height + 1)"),
    ([(5, 1)], LEFT, "wall (y = 0)"),
    ([(5, 10)], RIGHT, "wall (y = width + 1)"),
    ([(5, 5), (5, 6), (4, 6), (4, 5)], UP, "own body"),
    ([(6, 9), (7, 9)], DOWN, "own neck"),
    ([(3, 3)], DOWN, "obstacle"),
    ([(10, 9)], DOWN, "the other snake"),
])
def test_deaths(body0, move, why):
    st = setup(body0, [(11, 9), (11, 10)], ply=4, obstacles=[(4, 3), (8, 8)])
    assert move not in st.valid_actions(0), why
    S = st.S.copy()
    assert B.step(S, move, UP) & 1, why
    if st.valid_actions(0):
        with pytest.raises(IllegalMoveError) as e:
            st.clone().apply_actions({0: move, 1: UP})
        assert e.value.reason == INVALID_MOVE and e.value.player == 0


def test_both_die_separately():
    S = setup([(1, 1)], [(11, 10)]).S.copy()
    assert B.step(S, UP, DOWN) & 3 == 3 and B.scores(3) == (1, 1)


def test_boxed_in_snake_may_answer_anything_and_loses():
    # snake 0 in the corner, boxed in by snake 1's body (its tail stays: a growth turn)
    st = setup([(1, 1)], [(4, 1), (3, 1), (2, 1), (2, 2), (1, 2)], ply=5)
    assert st.valid_actions(0) == [] and st.legal_actions(0) == [0, 1, 2, 3]
    st.apply_actions({0: RIGHT, 1: st.valid_actions(1)[0]})
    assert st.returns() == [0.0, 2.0]
    assert st.display()["err"] == INVALID_MOVE and st.display()["winner"] == "1"


def test_game_runs_until_someone_dies():
    st = setup([(5, 5)], [(7, 7)])
    assert st.current_players() == [0, 1] and st.returns() == [0.0, 0.0]
    with pytest.raises(IllegalMoveError):
        st.apply_action(UP)


def test_undo_restores_every_kind_of_turn():
    for ply in (3, 10, 12):
        st = setup([(5, 5), (5, 4), (5, 3)], [(6, 6), (6, 7)], ply)
        for a0 in range(-1, 5):
            for a1 in range(-1, 5):
                S = st.S.copy()
                code = B.step(S, a0, a1)
                B.undo(S, code)
                np.testing.assert_array_equal(S, st.S)


class TestForfeit:
    """A fault ends the turn as the judge scores it, the other snake's move included."""

    def _st(self):
        return setup([(5, 5), (5, 4)], [(1, 10), (2, 10)], ply=3)

    def test_fault_of_one_other_moves_fine(self):
        st = self._st()
        st.decode_response(1, {"direction": LEFT})
        st.forfeit(0, INVALID_INPUT)
        assert st.returns() == [0.0, 2.0]
        assert st.display()["err"] == INVALID_INPUT and st.display()["winner"] == "1"

    def test_fault_while_the_other_crashes(self):
        st = self._st()
        st.decode_response(0, {"direction": RIGHT})
        with pytest.raises(IllegalMoveError):
            st.decode_response(1, {"direction": UP})  # off the board: invalid, with choices
        st.forfeit(1, INVALID_MOVE)
        assert st.returns() == [2.0, 0.0]
        st = self._st()
        with pytest.raises(IllegalMoveError):
            st.decode_response(0, {"direction": LEFT})  # into its own neck: not legal
        with pytest.raises(IllegalMoveError):
            st.decode_response(1, {"direction": UP})
        st.forfeit(0, INVALID_MOVE)  # the judge: both directions invalid, 1/1
        assert st.returns() == [1.0, 1.0]

    def test_missing_answer_counts_as_a_fault(self):
        st = self._st()
        st.forfeit(1, "INVALID_INPUT_VERDICT_TLE")  # nobody answered: both lose
        assert st.returns() == [1.0, 1.0]
        st = self._st()
        st.decode_response(1, {"direction": LEFT})
        st.forfeit(0, "INVALID_INPUT_VERDICT_TLE")
        st.forfeit(1, "INVALID_INPUT_VERDICT_RE")  # a second fault in the same turn
        assert st.returns() == [1.0, 1.0] and st.display()["err"] == BOTH_DIE

    def test_illegal_apply_then_forfeit(self):
        st = self._st()
        with pytest.raises(IllegalMoveError) as e:
            st.apply_actions({0: LEFT, 1: LEFT})
        assert e.value.player == 0 and st.ply == 3 and not st.is_terminal()
        st.forfeit(e.value.player, e.value.reason)
        assert st.returns() == [0.0, 2.0]


def test_obstacles_are_symmetric_connected_and_off_the_starts():
    for seed in range(300):
        st = GAME.new_initial_state(seed=seed)
        w, h, obs = st.width, st.height, set(st.obstacles)
        assert 10 <= w <= 12 and 10 <= h <= 16 and (w + h) % 2 == 1
        assert len(obs) == len(st.obstacles) == 2 * (w * h // 10 // 2)
        assert all((h + 1 - x, w + 1 - y) in obs for x, y in obs)
        assert (1, 1) not in obs and (h, w) not in obs
        free = {(x, y) for x in range(1, h + 1) for y in range(1, w + 1)} - obs
        seen, todo = {(1, 1)}, [(1, 1)]
        while todo:
            x, y = todo.pop()
            for c in ((x - 1, y), (x + 1, y), (x, y - 1), (x, y + 1)):
                if c in free and c not in seen:
                    seen.add(c)
                    todo.append(c)
        assert seen == free


def test_sizes_cover_the_judges_range():
    sizes = {GAME.board(seed)[:2] for seed in range(400)}
    assert {w for w, _ in sizes} == {10, 11, 12}
    assert {h for _, h in sizes} == set(range(10, 17))
    assert all((w + h) % 2 for w, h in sizes)


def test_fixed_size_from_params():
    game = SnakeGame(width=10, height=11)
    for seed in range(20):
        st = game.new_initial_state(seed=seed)
        assert (st.width, st.height) == (10, 11) and st.head(1) == (11, 10)
    with pytest.raises(ValueError, match="odd"):
        SnakeGame(width=10, height=12)
    with pytest.raises(ValueError, match="width"):
        SnakeGame(width=13, height=12)
    with pytest.raises(ValueError, match="height"):
        SnakeGame(width=11, height=17)


def test_set_up_positions_are_checked():
    with pytest.raises(ValueError, match="neighbours"):
        setup([(5, 5), (5, 7)])
    with pytest.raises(ValueError, match="obstacle"):
        setup([(4, 3)], obstacles=[(4, 3)])
    with pytest.raises(ValueError, match="off the board"):
        setup([(12, 1)])
    with pytest.raises(ValueError, match="transcript"):
        setup([(5, 5)], ply=4).request_for(0)
