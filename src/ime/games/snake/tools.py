"""Snake's command-line tools (``ime perft snake``, ``ime bench snake``), found via its plug-in.

``perft`` counts the joint-move tree on the judge's board of seed 1 (10 wide, 11 high), with the
numba kernels or the plain-Python transcription of the judge. ``bench`` adds two sections:
``playouts`` (whole random games in numba, board drawing included: games/s and moves/s) and
``api`` (the same kind of games through ``SnakeState.apply_actions``, the path the judge and
Python bots take), and ``search_imitator`` the search imitator's decisions
(:mod:`ime.imitators.snake_bench`).
"""

from __future__ import annotations

import time

import numpy as np

from ime.core.registry import GameTools, bench_perft

PERFT_SEED = 1
"""The board of ``ime perft snake``: the judge's draw for ``initdata {"seed": 1}``."""


def perft_leaves(depth: int, reference: bool = False) -> int:
    """Leaves of the joint-move tree ``depth`` turns deep from the start of the seed-1 board."""
    from ime.games.snake import board as B
    from ime.games.snake.game import GAME

    w, h, obs = GAME.board(PERFT_SEED)
    if reference:
        from ime.games.snake.reference import RefGame, perft

        return perft(RefGame(h, w, set(obs)), depth)
    S = B.new_state(h, w, np.array(obs, dtype=np.int64).reshape(-1, 2))
    return int(B.perft(S, depth))


def random_playouts(games: int, seed: int = 0) -> dict:
    """Games/s and moves/s of whole random games in numba (a move is one snake's direction;
    each game draws its own board as the judge does)."""
    from ime.games.snake import board as B

    B.random_games(2, seed, B.NO_OPTION, B.NO_OPTION)  # compile / load the cache
    t = time.perf_counter()
    out = B.random_games(games, seed, B.NO_OPTION, B.NO_OPTION)
    dt = time.perf_counter() - t
    n, turns = int(out[0]), int(out[1])
    return {"games": n, "turns": turns, "seconds": dt, "games_per_s": n / dt,
            "moves_per_s": 2 * turns / dt, "mean_turns": turns / n,
            "wins0": int(out[2]), "wins1": int(out[3]), "draws": int(out[4])}


def api_games(games: int, seed: int = 0) -> dict:
    """Games/s of random games played through the Python state API (legal actions, apply)."""
    from ime.games.snake.game import GAME

    rng = np.random.default_rng(seed)
    GAME.new_initial_state(seed=0)
    turns = 0
    t = time.perf_counter()
    for i in range(games):
        st = GAME.new_initial_state(seed=seed + i)
        while not st.is_terminal():
            acts = {}
            for p in (0, 1):
                legal = st.legal_actions(p)
                acts[p] = legal[int(rng.integers(len(legal)))]
            st.apply_actions(acts)
        turns += st.ply
    dt = time.perf_counter() - t
    return {"games": games, "turns": turns, "seconds": dt, "games_per_s": games / dt,
            "moves_per_s": 2 * turns / dt}


def random_positions(n: int, seed: int, game=None) -> list:
    """``n`` seeded positions of running games (5 to 40 random turns on a seeded board)."""
    from ime.games.snake.game import GAME

    game = game or GAME
    rng = np.random.default_rng(seed)
    out = []
    while len(out) < n:
        st = game.new_initial_state(seed=int(rng.integers(1 << 31)))
        for _ in range(int(rng.integers(5, 41))):
            if st.is_terminal():
                break
            acts = {}
            for p in (0, 1):
                legal = st.valid_actions(p) or st.legal_actions(p)
                acts[p] = legal[int(rng.integers(len(legal)))]
            st.apply_actions(acts)
        if not st.is_terminal():
            out.append(st)
    return out


def _bench_perft(quick: bool) -> dict:
    return bench_perft(perft_leaves, *((8, 6) if quick else (10, 7)))


def _bench_playouts(quick: bool) -> dict:
    return random_playouts(2000 if quick else 20000)


def _bench_api(quick: bool) -> dict:
    return api_games(20 if quick else 200)


def _bench_search_imitator(quick: bool) -> dict:
    from ime.imitators.snake_bench import bench_search_imitator

    return bench_search_imitator(quick)


TOOLS = GameTools(perft=perft_leaves, positions=lambda n, seed: random_positions(n, seed),
                  bench={"perft": _bench_perft, "playouts": _bench_playouts, "api": _bench_api,
                         "search_imitator": _bench_search_imitator})
