"""Issue 13, failure 10: ``ime solve reversi --board -OO...`` failed with "expected one
argument": argparse read a board whose first square (A1) is empty as an option. Most FFO
positions start that way. Fails on the old package (exit 2, argparse's message)."""

from __future__ import annotations

import pytest
from reliability_helpers import ime

# A1, H1, A8 and H8 empty: the board starts (and ends) with '-'
BOARD = "-OOOOOO-" + "X" * 40 + "OOOOOOO-" + "XXXXXXX-"


@pytest.mark.slow
def test_a_board_starting_with_a_dash_is_solved():
    run = ime("solve", "reversi", "--board", BOARD, "--to-move", "X")
    assert run.returncode == 0, run.stderr
    assert run.stdout.splitlines() == ["score -12", "best H8"], run.stdout


@pytest.mark.slow
def test_a_dash_board_is_still_checked():
    run = ime("solve", "reversi", "--board", BOARD[:-1], "--to-move", "X")
    assert run.returncode == 2 and "expected one argument" not in run.stderr, run.stderr
