"""Reversi's command-line tools (``ime perft/solve/bench/zoo reversi``), found via its plug-in."""

from __future__ import annotations

import numpy as np

from ime.core.registry import GameTools, SolveOutcome, bench_perft

POSITION_HELP = "64 chars, A1..H8 row by row (A1 B1 ... H1 A2 ...): X black, O white, - empty"


def perft_leaves(depth: int, reference: bool = False) -> int:
    """Leaves at ``depth`` from the start, classic convention (a forced pass is one ply)."""
    from ime.games.reversi.bitboard import BLACK_START, WHITE_START, perft, perft_python

    if reference:
        return int(perft_python(int(BLACK_START), int(WHITE_START), depth))
    return int(perft(np.uint64(BLACK_START), np.uint64(WHITE_START), depth))


def parse_board(board: str, to_move: str) -> tuple[int, int]:
    """(P, O) bitboards for the side to move; ValueError with a message fit for the user."""
    board = board.strip()
    if len(board) != 64:
        raise ValueError(f"--board must have 64 characters (A1..H8 row by row), got {len(board)}")
    bad = sorted(set(board) - set("XO-"))
    if bad:
        raise ValueError(f"--board may only contain X, O, -; found {''.join(bad)!r}")
    side = to_move.strip().upper()
    if side not in ("X", "O"):
        raise ValueError(f"--to-move must be X or O, got {to_move!r}")
    black = sum(1 << i for i, c in enumerate(board) if c == "X")
    white = sum(1 << i for i, c in enumerate(board) if c == "O")
    return (black, white) if side == "X" else (white, black)


def solve_board(board: str, to_move: str) -> SolveOutcome:
    """Final disc difference for the side to move under perfect play (Botzone counts discs
    only: empties at the end go to nobody) and every optimal square (``pass``: forced)."""
    from ime.games.reversi.bitboard import PASS
    from ime.games.reversi.game import square_name
    from ime.games.reversi.solver import solve

    P, O = parse_board(board, to_move)
    r = solve(P, O)
    best = ["pass" if sq == PASS else square_name(sq) for sq in r.best_moves]
    return SolveOutcome(int(r.score), best, int(r.nodes), float(r.seconds))


def _bench_perft(quick: bool) -> dict:
    return bench_perft(perft_leaves, *((9, 6) if quick else (11, 7)))


def _bench_solver(quick: bool) -> dict:
    from ime.games.reversi.solver import bench_solver

    return bench_solver(n_positions=3 if quick else 5, empties=18 if quick else 20, seed=0)


def _bench_edax(quick: bool) -> dict:
    from ime.games.reversi.edax import bench_edax

    return bench_edax(quick)


def _bench_search_imitator(quick: bool) -> dict:
    from ime.imitators.bench import bench_search_imitator

    return bench_search_imitator(quick)


def _positions(n: int, seed: int) -> list:
    from ime.games.reversi.bots.analysis import random_midgame_positions

    return random_midgame_positions(n, seed=seed)


def _agreement(bots: list[str], positions: int, seed: int) -> dict:
    from ime.games.reversi.bots.analysis import agreement_matrix

    return agreement_matrix(bots, positions, seed)


def _round_robin(bots: list[str], rounds: int, seed: int) -> dict:
    from ime.games.reversi.bots.analysis import round_robin

    return round_robin(bots, rounds, seed)


TOOLS = GameTools(perft=perft_leaves, solve=solve_board, position_help=POSITION_HELP,
                  positions=_positions, bench={"perft": _bench_perft, "solver": _bench_solver,
                         "edax": _bench_edax, "search_imitator": _bench_search_imitator},
                  zoo={"agreement": _agreement, "roundrobin": _round_robin},
                  default_bots=("rev1", "rev2", "rev3", "rev4", "rev5"))
