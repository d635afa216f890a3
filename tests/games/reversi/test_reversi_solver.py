"""The exact endgame solver against an independent pure-Python minimax on the ReversiState API.

The reference shares nothing with the solver but the game rules (``ReversiState.apply_action``):
no bitboard search, no TT, no ordering, so agreement on scores *and* best-move sets over many
seeded positions is strong evidence that pruning, the TT, the stability cutoff and pass handling
are sound.
"""

from __future__ import annotations

import argparse
import subprocess
import sys

import numpy as np
import pytest

from ime.games.reversi.bitboard import BLACK_START, PASS, WHITE_START, flips, legal_moves
from ime.games.reversi.game import GAME, ReversiState, square_name
from ime.games.reversi.solver import (
    SolveResult,
    bench_solver,
    random_positions,
    solve,
    solve_state,
    solve_wld,
)

# --- reference -----------------------------------------------------------------------------------


def _final_diff(state: ReversiState, me: int) -> int:
    b, w = state.disc_counts()
    return b - w if me == 0 else w - b  # Botzone: discs only, empties go to nobody


def _ref_value(state: ReversiState, alpha: int, beta: int) -> int:
    """Exact negamax value for ``state.to_move`` (alpha-beta is exact on a full window)."""
    me = state.to_move
    actions = state.legal_actions()
    if actions == [PASS]:
        P, O = state.own_opp()
        if not legal_moves(O, P):  # neither side can move: the game is over
            return _final_diff(state, me)
    best = -100
    for a in actions:
        child = state.clone()
        child.apply_action(a)
        if child.is_terminal():
            v = _final_diff(child, me)
        else:
            v = -_ref_value(child, -beta, -alpha)
        if v > best:
            best = v
            alpha = max(alpha, v)
            if alpha >= beta:
                break
    return best


def ref_solve(P: int, O: int) -> tuple[int, list[int]]:
    """(score, sorted best moves) by brute force: every root move gets its exact value."""
    state = ReversiState(GAME, P, O, 0)
    actions = state.legal_actions()
    if actions == [PASS] and not legal_moves(np.uint64(O), np.uint64(P)):
        return _final_diff(state, 0), []
    values = {}
    for a in actions:
        child = state.clone()
        child.apply_action(a)
        values[a] = _final_diff(child, 0) if child.is_terminal() else -_ref_value(child, -100, 100)
    score = max(values.values())
    return score, sorted(a for a, v in values.items() if v == score)


# --- position generators -------------------------------------------------------------------------


def pass_positions(n: int, max_empties: int, seed: int) -> list[tuple[int, int]]:
    """Positions (P to move) where P must pass but O can move, from seeded random games."""
    rng = np.random.default_rng(seed)
    out: list[tuple[int, int]] = []
    for _ in range(20000):
        P, O = BLACK_START, WHITE_START
        while True:
            moves = int(legal_moves(P, O))
            if not moves:
                if not legal_moves(O, P):
                    break
                if 64 - bin(int(P | O)).count("1") <= max_empties:
                    out.append((int(P), int(O)))
                    break
                P, O = O, P
                continue
            sqs = [i for i in range(64) if (moves >> i) & 1]
            sq = sqs[int(rng.integers(len(sqs)))]
            f = flips(P, O, sq)
            P, O = O ^ f, P | f | np.uint64(1 << sq)
        if len(out) >= n:
            break
    return out


# --- tests ---------------------------------------------------------------------------------------


@pytest.mark.parametrize("empties,count,seed", [(4, 30, 1), (6, 30, 2), (8, 20, 3), (10, 6, 4)])
@pytest.mark.slow
def test_matches_brute_force(empties: int, count: int, seed: int) -> None:
    for P, O in random_positions(count, empties, seed=seed):
        score, best = ref_solve(P, O)
        r = solve(P, O)
        assert (r.score, r.best_moves) == (score, best), (hex(P), hex(O))
        assert r.exact
        assert solve_wld(P, O) == (score > 0) - (score < 0)


def test_forced_pass_positions() -> None:
    positions = pass_positions(8, 10, seed=5)
    assert len(positions) >= 4
    for P, O in positions:
        score, best = ref_solve(P, O)
        assert best == [PASS]
        r = solve(P, O)
        assert (r.score, r.best_moves) == (score, [PASS])
        # the pass costs nothing: the value is minus the opponent's value
        assert r.score == -solve(O, P).score


def test_finished_positions() -> None:
    full = int("0x" + "F" * 10 + "0" * 6, 16)  # 40 black discs, 24 white
    r = solve(full, ((1 << 64) - 1) ^ full)
    assert (r.score, r.best_moves) == (40 - 24, [])
    # wipe-out with empties left: empties are awarded to nobody (Botzone counts discs)
    r = solve(0b111, 0)
    assert (r.score, r.best_moves) == (3, [])
    assert solve(0, 0b111).score == -3


def test_empties_go_to_nobody() -> None:
    # X: A1 B1; O: C1; to move: X plays D1? no -- O at C1 flanked by B1 and D1: X plays D1, the
    # game then ends with 4 discs vs 0 and 60 empties: score 4, not 64.
    P = (1 << 0) | (1 << 1)
    O = 1 << 2
    r = solve(P, O)
    assert r.best_moves == [3]
    assert r.score == 4


def test_window_semantics() -> None:
    for P, O in random_positions(6, 9, seed=7):
        exact = solve(P, O).score
        hi = solve(P, O, window=(exact - 3, exact - 1))  # fails high
        assert not hi.exact and hi.score >= exact - 1 and hi.score <= exact
        lo = solve(P, O, window=(exact + 1, exact + 3))  # fails low
        assert not lo.exact and lo.score <= exact + 1 and lo.score >= exact and lo.best_moves == []
        mid = solve(P, O, window=(exact - 1, exact + 1))
        assert mid.exact and mid.score == exact


def test_solve_state_uses_side_to_move() -> None:
    st = GAME.new_initial_state()
    rng = np.random.default_rng(11)
    while 64 - sum(st.disc_counts()) > 8 and not st.is_terminal():
        acts = st.legal_actions()
        st.apply_action(acts[int(rng.integers(len(acts)))])
    assert not st.is_terminal()
    P, O = st.own_opp()
    assert solve_state(st).score == ref_solve(int(P), int(O))[0]


@pytest.mark.slow
def test_twenty_empties_consistent() -> None:
    P, O = random_positions(4, 20, seed=1)[0]
    a = solve(P, O)
    b = solve(P, O, use_tt=False, all_best=False)
    assert isinstance(a, SolveResult) and a.exact
    assert b.score == a.score
    assert b.nodes > 0 and a.best_moves and set(a.best_moves) <= set(a.move_scores)


def test_tt_off_agrees() -> None:
    for P, O in random_positions(6, 13, seed=9):
        a = solve(P, O)
        b = solve(P, O, use_tt=False)
        assert (a.score, a.best_moves) == (b.score, b.best_moves)


def test_bench_solver_keys() -> None:
    out = bench_solver(n_positions=2, empties=12, seed=3)
    assert out["nodes"] > 0 and out["seconds"] > 0 and out["nodes_per_s"] > 0


# --- CLI -----------------------------------------------------------------------------------------


def _run_cli(board: str, to_move: str, capsys: pytest.CaptureFixture[str]) -> tuple[int, str]:
    from ime.cli.solve import run

    rc = run(argparse.Namespace(game="reversi", board=board, to_move=to_move))
    return rc, capsys.readouterr().out


def test_cli_output_format(capsys: pytest.CaptureFixture[str]) -> None:
    P, O = random_positions(1, 8, seed=13)[0]
    st = ReversiState(GAME, P, O, 0)  # P plays black
    rc, out = _run_cli(st.board_string(), "X", capsys)
    assert rc == 0
    score, best = ref_solve(P, O)
    from ime.games.reversi.game import square_name

    assert out.splitlines() == [f"score {score}", "best " + " ".join(square_name(s) for s in best)]
    # the same position from white's side: O to move
    st2 = ReversiState(GAME, O, P, 0)
    rc, out = _run_cli(st2.board_string(), "O", capsys)
    assert rc == 0 and out.splitlines()[0] == f"score {score}"


def test_cli_pass_and_game_over(capsys: pytest.CaptureFixture[str]) -> None:
    P, O = pass_positions(1, 10, seed=5)[0]
    rc, out = _run_cli(ReversiState(GAME, P, O, 0).board_string(), "X", capsys)
    assert rc == 0 and out.splitlines()[1] == "best pass"
    rc, out = _run_cli("X" * 40 + "O" * 24, "O", capsys)
    assert rc == 0 and out.splitlines() == ["score -16", "best -"]


@pytest.mark.parametrize(
    "board,side",
    [("X" * 63, "X"), ("X" * 63 + "Z", "X"), ("-" * 64, "B")],
)
def test_cli_bad_input(board: str, side: str, capsys: pytest.CaptureFixture[str]) -> None:
    from ime.cli.solve import run

    rc = run(argparse.Namespace(game="reversi", board=board, to_move=side))
    assert rc == 2
    assert "error" in capsys.readouterr().err


def _cli(*args: str) -> subprocess.CompletedProcess[str]:
    cmd = [sys.executable, "-m", "ime", "solve", "reversi", *args]
    return subprocess.run(cmd, capture_output=True, text=True, timeout=120)


@pytest.mark.slow
def test_cli_subprocess() -> None:
    p = _cli("--board", "X" * 40 + "O" * 24, "--to-move", "X")
    assert p.returncode == 0, p.stderr
    assert p.stdout.splitlines() == ["score 16", "best -"]
    assert p.stderr.startswith("nodes ")
    p = _cli("--board", "bad", "--to-move", "X")
    assert p.returncode == 2 and "64" in p.stderr


def test_last_empty_flip_count_matches_flips() -> None:
    """The table count of the last empty square (one look-up per line) against the flips
    kernel, for both sides, on random full boards with the empty square anywhere."""
    from numba import njit

    from ime.games.reversi import solver as S

    @njit(cache=False)
    def count(P, sq):
        return S._count_last_flips(P, sq)

    rng = np.random.default_rng(3)
    for _ in range(3000):
        sq = int(rng.integers(64))
        full = ((1 << 64) - 1) & ~(1 << sq)
        col = int(rng.integers(0, 1 << 63)) | (int(rng.integers(0, 2)) << 63)
        P, O = np.uint64(col & full), np.uint64(~col & full)
        assert count(P, sq) == bin(int(flips(P, O, sq))).count("1")
        assert count(O, sq) == bin(int(flips(O, P, sq))).count("1")


@pytest.mark.slow
def test_ffo_40() -> None:
    """FFO endgame #40 (20 empties): A2 is the only best move, +38 (no empties at the end)."""
    from ime.games.reversi.edax import FFO_40_44
    from ime.games.reversi.tools import parse_board

    board, side, best = FFO_40_44[0]
    r = solve(*parse_board(board, side))
    assert r.score == 38
    assert [square_name(s) for s in r.best_moves] == [best]
