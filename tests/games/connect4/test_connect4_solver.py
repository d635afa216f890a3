"""The exact solver against brute force (small boards, blocked cells, late positions), against
Pascal Pons' published test positions, and the empty 7x6 board's known result."""

from __future__ import annotations

import os

import numpy as np
import pytest

from ime.games.connect4 import GAME, Connect4Game
from ime.games.connect4.reference import RefBoard, negamax
from ime.games.connect4.solver import INVALID, Solver

# A sample of Pons' test sets (connect4.gamesolver.org, Test_L{1,2,3}_R{1,2,3}): 1-based column
# sequences and the score of the side to move.
PONS = [
    ("2252576253462244111563365343671351441", -1), ("7422341735647741166133573473242566", 1),
    ("23163416124767223154467471272416755633", 0), ("65214673556155731566316327373221417", -1),
    ("52677675164321472411331752454", 0), ("233377345754465174223731671122611552", 1),
    ("6763525635134453444361412671365712", -1), ("3146762114467714356347741621375222", -1),
    ("67152117737262713366376314254", 6), ("2762751722231276466633475674533", 5),
    ("427566236745127177115664464254", 2), ("3575316255751336464276636772271112", -3),
    ("5554224333234511764415115", 4), ("2737772244262123677516643354", 0),
    ("274552224131661", 0), ("555317266147361", -1), ("32164625", 11), ("25144", 18),
    ("32751571231557", -3), ("75734233473735", 0),
]


def random_position(game: Connect4Game, rng: np.random.Generator, empties: int):
    """A random non-terminal state with ``empties`` playable cells left, and its reference."""
    while True:
        st = game.new_initial_state()
        ref = RefBoard(game.width, game.height, game.blocked)
        while not st.is_terminal() and game.geometry.cells - st.ply > empties:
            col = int(rng.choice(st.legal_actions()))
            st.apply_action(col)
            ref.play(col)
        if not st.is_terminal():
            return st, ref


@pytest.mark.parametrize("width,height,blocked,empties", [
    (4, 4, [], 8), (5, 4, [[2, 0]], 8), (4, 5, [[1, 2], [2, 2]], 9), (7, 6, [], 8),
    (6, 5, [[0, 4], [3, 2]], 8), (8, 7, [[3, 3]], 8), (4, 6, [[0, 0]], 9),
])
@pytest.mark.slow
def test_solver_matches_brute_force(width, height, blocked, empties):
    game = Connect4Game(width, height, blocked)
    solver = Solver(game.geometry, tt_bits=16)
    rng = np.random.default_rng(empties * 31 + width)
    seen = set()
    for _ in range(10):
        st, ref = random_position(game, rng, empties)
        me, opp = st.own_opp()
        want = negamax(ref)
        seen.add(np.sign(want))
        assert solver.solve(me, opp) == want
        assert solver.solve(me, opp, weak=True) == np.sign(want)
        scores = solver.analyze(me, opp)
        for col in range(width):
            if col in ref.legal():
                ref.play(col)
                v = (game.geometry.cells + 1 - ref.moves + 1) // 2 if ref.winner is not None \
                    else 0 if ref.full() else -negamax(ref)
                ref.undo(col)
                assert scores[col] == v, col
            else:
                assert scores[col] == INVALID
    assert len(seen) >= 2  # the positions were not all of one kind


@pytest.mark.slow
def test_pons_positions():
    solver = Solver(GAME.geometry, tt_bits=20)
    for seq, score in PONS:
        st = GAME.state_from_moves(seq)
        me, opp = st.own_opp()
        assert solver.solve(me, opp) == score, seq
        assert solver.solve(me, opp, weak=True) == np.sign(score), seq


def test_budget_and_determinism():
    solver = Solver(GAME.geometry, tt_bits=16)
    st = GAME.state_from_moves("274552224131661")
    me, opp = st.own_opp()
    assert solver.solve(me, opp, budget=1000) is None and solver.last.nodes == 1001
    first = solver.analyze(me, opp)
    nodes = solver.last.nodes
    other = GAME.state_from_moves("32751571231557")
    solver.solve(*other.own_opp())  # fills the table with another position
    again = solver.analyze(me, opp)
    assert (again == first).all() and solver.last.nodes == nodes  # the table is not reused
    for target in (-1, 0, 1):
        assert solver.at_least(me, opp, target) == (0 >= target)  # the position is a draw


def test_terminal_and_forced_positions():
    solver = Solver(GAME.geometry, tt_bits=12)
    # X can win at once in column 0 (three in a column): (42 + 1 - 6) // 2 = 18
    st = GAME.state_from_moves([0, 1, 0, 1, 0, 1])
    assert solver.solve(*st.own_opp()) == 18
    small = Connect4Game(4, 4)
    full = small.state_from_moves([0, 1, 0, 1, 1, 0, 1, 0, 2, 3, 2, 3, 3, 2, 3])
    assert Solver(small.geometry, 8).solve(*full.own_opp()) == 0  # one cell left, no four


@pytest.mark.slow
@pytest.mark.skipif(not os.environ.get("IME_CONNECT4_FULL_SOLVE"),
                    reason="solves the empty 7x6 board: about 6 minutes on one core; "
                           "set IME_CONNECT4_FULL_SOLVE=1 (docs/games/connect4.md)")
def test_empty_board_centre_column_wins():
    """The first player wins the empty 7x6 board only by playing the centre column."""
    solver = Solver(GAME.geometry, tt_bits=25)
    for col in (3, 2, 1, 0, 4, 5, 6):  # mirrored columns share the table (reuse)
        me, opp = GAME.state_from_moves([col]).own_opp()
        second_draws_or_wins = solver.at_least(me, opp, 0, reuse=True)
        assert second_draws_or_wins == (col != 3), col
