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
        st = _random_walk(game, rng, 6, 20)
        if not st.is_terminal():
            out.append(st)
    return out


def quiet_positions(n: int, seed: int, game) -> list:
    """``n`` seeded positions 4 to 12 random plies in where neither side can win at once."""
    from ime.games.connect4.openings import balanced

    rng = np.random.default_rng(seed)
    out = []
    while len(out) < n:
        st = _random_walk(game, rng, 4, 12)
        if not st.is_terminal() and balanced(st, {}):
            out.append(st)
    return out


def _random_walk(game, rng: np.random.Generator, lo: int, hi: int):
    """A new game after ``lo`` to ``hi`` uniformly random plies (fewer if it ends first)."""
    st = game.new_initial_state()
    for _ in range(int(rng.integers(lo, hi + 1))):
        if st.is_terminal():
            break
        st.apply_action(int(rng.choice(st.legal_actions())))
    return st


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


SIM_BOARDS = {"7x6": (7, 6, ()), "9x9": (9, 9, ((4, 4),)), "12x12": (12, 12, ((5, 3),))}
"""Boards of the simulations/s bench: the standard one, and the course's smallest and largest
(seed 002; one blocked cell each, where the course draws it at random)."""


def uct_decision(state, simulations: int, heuristic: bool, seed: int = 1) -> int:
    """One decision of seed 002's agent (selection rule on; ``heuristic``: win/block rollouts)
    on any board: the one-word kernel, or the three-word one on a wide board."""
    from ime.games.connect4 import wide as wd
    from ime.games.connect4.bots.uct import uct_search, uct_search_wide

    geo = state.game.geometry
    info = np.zeros(3, dtype=np.float64)
    me, opp = state.own_opp()
    if geo.wide:
        return int(uct_search_wide(wd.to_words(me), wd.to_words(opp), geo.g, geo.gw, geo.order,
                                   simulations, 0.707, True, heuristic, seed, info))
    return int(uct_search(np.uint64(me), np.uint64(opp), geo.g, geo.order, simulations, 0.707,
                          True, heuristic, seed, info))


def _bench_sims(quick: bool) -> dict:
    """Simulations/s of seed 002's UCT agent (``uct_search``; ``uct_search_wide`` on the course
    boards), heuristic rollouts (both rules) and plain rollouts (the selection rule only), over
    the empty board and four seeded quiet positions, one decision each. Quiet: 4-12 random
    plies in, no playable win for either side (``openings.balanced``); a position with an
    immediate win is no measure, the selection rule answers most simulations there without a
    rollout (10-40x the rate). Rates are per CPU second of this process (``process_time``),
    so a loaded box slows them less than a wall clock would. Its figures set the
    time-equivalent budget of the seed's 1.8 s (docs/games/connect4.md)."""
    from ime.games.connect4.game import connect4_game

    sims = 20_000 if quick else 100_000
    out: dict = {"simulations_per_decision": sims}
    for name, (w, h, blocked) in SIM_BOARDS.items():
        game = connect4_game(w, h, blocked)
        states = [game.new_initial_state(), *quiet_positions(4, 11, game)]
        for label, heuristic in (("heuristic", True), ("plain", False)):
            uct_decision(states[0], 100, heuristic)  # compile or load outside the timing
            t = time.process_time()  # CPU seconds of this process: the shared box is loaded
            for st in states:
                uct_decision(st, sims, heuristic)
            out[f"{name} {label} sims/s"] = len(states) * sims / (time.process_time() - t)
    return out


def _bench_search_imitator(quick: bool) -> dict:
    from ime.imitators.connect4_bench import bench_search_imitator

    return bench_search_imitator(quick)


TOOLS = GameTools(perft=perft_leaves, solve=solve_position, position_help=POSITION_HELP,
                  positions=lambda n, seed: random_positions(n, seed),
                  bench={"perft": _bench_perft, "solver": _bench_solver, "sims": _bench_sims,
                         "search_imitator": _bench_search_imitator})
