"""Connect Four's command-line tools (``ime perft/solve/bench connect4``), found via its plug-in.

They work on the standard 7x6 board; the library functions take any board.
"""

from __future__ import annotations

import time

import numpy as np

from ime.core.registry import GameTools, SolveOutcome, bench_perft

POSITION_HELP = ("the columns played from the empty 7x6 board, 1-based, as in Pascal Pons' test "
                 "sets (e.g. 4453); --to-move X (first player) or O must match its length")


def perft_leaves(depth: int, reference: bool = False) -> int:
    """Leaves ``depth`` plies from the empty 7x6 board (a won or full position is a leaf)."""
    from ime.games.connect4.game import GAME

    if reference:
        from ime.games.connect4.reference import RefBoard, perft

        return perft(RefBoard(7, 6), depth)
    from ime.games.connect4.board import perft

    zero = np.uint64(0)
    return int(perft(zero, zero, GAME.geometry.g, depth))


def solve_position(moves: str, to_move: str) -> SolveOutcome:
    """Pons' score for the side to move and every optimal column (``a`` = leftmost)."""
    from ime.games.connect4.game import GAME
    from ime.games.connect4.plugin import column_label
    from ime.games.connect4.solver import Solver

    moves = moves.strip()
    if not moves.isdigit() and moves not in ("", "-"):
        raise ValueError(f"--board must be digits 1..7 (columns played), got {moves!r}")
    try:
        st = GAME.state_from_moves("" if moves == "-" else moves)
    except Exception as e:  # IllegalMoveError or a column outside 1..7
        raise ValueError(f"--board {moves!r} is not a legal game: {e}") from None
    side = to_move.strip().upper()
    if side not in ("X", "O") or "XO"[st.to_move] != side:
        raise ValueError(f"--to-move must be {'XO'[st.to_move]} after {st.ply} moves, "
                         f"got {to_move!r}")
    if st.is_terminal():
        raise ValueError(f"the game is over after {moves!r}")
    solver = Solver(GAME.geometry, 23)
    t = time.perf_counter()
    scores = solver.analyze(*st.own_opp())
    assert scores is not None
    best = [column_label(int(c)) for c in GAME.geometry.order if scores[c] == scores.max()]
    return SolveOutcome(int(scores.max()), best, solver.last.nodes, time.perf_counter() - t)


def random_positions(n: int, seed: int, game=None) -> list:
    """``n`` seeded mid-game positions (6 to 20 random plies, the game not over)."""
    from ime.games.connect4.game import GAME

    game = game or GAME
    rng = np.random.default_rng(seed)
    out = []
    while len(out) < n:
        st = game.new_initial_state()
        for _ in range(int(rng.integers(6, 21))):
            if st.is_terminal():
                break
            st.apply_action(int(rng.choice(st.legal_actions())))
        if not st.is_terminal():
            out.append(st)
    return out


def _bench_perft(quick: bool) -> dict:
    return bench_perft(perft_leaves, *((7, 5) if quick else (9, 6)))


def _bench_solver(quick: bool) -> dict:
    """Nodes/s of the exact solver on Pons' positions of the middle game (Test_L2)."""
    from ime.games.connect4.game import GAME
    from ime.games.connect4.solver import Solver

    solver = Solver(GAME.geometry, 22)
    seqs = ["274552224131661", "555317266147361", "32751571231557", "75734233473735"]
    nodes, seconds = 0, 0.0
    for seq in seqs[:2] if quick else seqs:
        solver.solve(*GAME.state_from_moves(seq).own_opp())
        nodes += solver.last.nodes
        seconds += solver.last.seconds
    return {"positions": 2 if quick else 4, "nodes": nodes, "seconds": seconds,
            "nodes_per_s": nodes / seconds}


TOOLS = GameTools(perft=perft_leaves, solve=solve_position, position_help=POSITION_HELP,
                  positions=lambda n, seed: random_positions(n, seed),
                  bench={"perft": _bench_perft, "solver": _bench_solver})
