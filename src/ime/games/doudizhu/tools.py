"""Doudizhu's command-line tools (``ime perft/bench doudizhu``), found via its plug-in.

* ``perft``: leaves of the game tree ``depth`` plies from the deal of seed 0, one move per legal
  rank multiset, a pass being a move (a game that ends early is one leaf); the reference walks
  the same tree with the literal judge and brute-force moves (:mod:`.reference`).
* ``positions``: seeded mid-game positions of random games (bot benchmarks).
* ``bench``: ``perft`` (compiled vs reference), ``movegen`` (legal-move generations/s) and
  ``random_games`` (games/s through the State API, and of the compiled playout kernel).
"""

from __future__ import annotations

import time
from collections.abc import Sequence

import numpy as np

from ime.core.registry import GameTools, bench_perft
from ime.games.doudizhu.cards import RANK_OF, counts_of, deal
from ime.games.doudizhu.movegen import (
    CANONICAL_IDS,
    LEAD,
    generate_from_tables,
    hand_tables,
    random_playouts,
)
from ime.games.shedding.positions import bench_legal_actions
from ime.games.shedding.positions import random_positions as shedding_positions


def perft_leaves(depth: int, reference: bool = False, seed: int = 0) -> int:
    """Leaves ``depth`` plies from the deal of ``seed`` (see the module doc)."""
    allocation, _ = deal(seed)
    return perft_hands(allocation, depth, reference)


def perft_hands(hands: list[list[int]], depth: int, reference: bool = False) -> int:
    """Leaves ``depth`` plies from three hands (card ids), seat 0 to lead."""
    if reference:
        from ime.games.doudizhu.reference import perft_reference

        return perft_reference(hands, depth)
    return _perft([counts_of(h) for h in hands], 0, -1, (LEAD, -1, 0), depth)


def _perft(hands: list[np.ndarray], p: int, last_player: int, last: tuple[int, int, int],
           depth: int) -> int:
    lead = last_player in (-1, p)
    kind, rank, chain = (LEAD, -1, 0) if lead else last
    moves = generate_from_tables(hands[p], CANONICAL_IDS, kind, rank, chain)
    if depth == 1:
        return moves.n + (0 if lead else 1)
    nxt = (p + 1) % 3
    total = 0 if lead else _perft(hands, nxt, last_player, last, depth - 1)
    meta = moves.meta[: moves.n].tolist()
    for i in range(moves.n):
        rest = hands[p] - moves.counts[i]
        if not rest.any():
            total += 1
            continue
        child = list(hands)
        child[p] = rest
        total += _perft(child, nxt, p, tuple(meta[i][:3]), depth - 1)
    return total


def random_positions(n: int, seed: int, game=None) -> list:
    """``n`` seeded mid-game positions: random games stopped after 3 to 40 plies (not over)."""
    from ime.games.doudizhu.game import GAME

    return shedding_positions(game or GAME, n, seed, (3, 40))


def play_random_game(game, seed: int) -> tuple[int, list[float]]:
    """One game of uniformly random legal actions through the State API: (plies, scores)."""
    rng = np.random.default_rng(seed)
    st = game.new_initial_state(seed=seed)
    while not st.is_terminal():
        legal = st.legal_actions()
        st.apply_action(legal[int(rng.integers(len(legal)))])
    return st.ply, st.returns()


def _bench_perft(quick: bool) -> dict:
    return bench_perft(perft_leaves, *((7, 1) if quick else (8, 1)))


def _bench_movegen(quick: bool) -> dict:
    """Legal-move generations/s on the positions of seeded random games (compiled kernel with
    card ids; and ``legal_actions`` on fresh states, tuples included)."""
    states = random_positions(200 if quick else 1000, 11)
    tables = []
    for st in states:
        beat = st.to_beat()
        h, ids = hand_tables(np.asarray(st.hand(st.to_move), np.int64), RANK_OF)
        tables.append((h, ids, (LEAD, -1, 0) if beat is None else
                       (int(beat.kind), beat.rank, beat.chain)))
    generate_from_tables(*tables[0][:2], *tables[0][2])
    reps = 5 if quick else 20
    moves = 0
    t = time.perf_counter()
    for _ in range(reps):
        for h, ids, (k, r, c) in tables:
            moves += generate_from_tables(h, ids, k, r, c).n
    dt = time.perf_counter() - t
    leads = sum(1 for s in states if s.leading)
    return {"positions": len(states), "leading_positions": leads,
            "kernel_generations_per_s": reps * len(states) / dt,
            "moves_per_generation": moves / (reps * len(states)), **bench_legal_actions(states)}


def _bench_random_games(quick: bool) -> dict:
    """Games/s of uniformly random play: through the State API (card ids, judge bookkeeping),
    and in the compiled playout kernel (rank level, no Python per ply)."""
    from ime.games.doudizhu.game import GAME

    play_random_game(GAME, 0)
    n = 100 if quick else 500
    t = time.perf_counter()
    plies = sum(play_random_game(GAME, s)[0] for s in range(n))
    dt = time.perf_counter() - t
    random_playouts(1, 0, 4096)
    m = 5000 if quick else 50000
    t = time.perf_counter()
    k_plies, _ = random_playouts(m, 1, 4096)
    dt_k = time.perf_counter() - t
    return {"api_games": n, "api_games_per_s": n / dt, "api_plies_per_game": plies / n,
            "kernel_games": m, "kernel_games_per_s": m / dt_k,
            "kernel_plies_per_game": k_plies / m}


def _agreement(bots: Sequence[str], n: int, seed: int) -> dict:
    """``ime zoo agreement``: how often pairs of bots choose alike."""
    from ime.games.doudizhu.bots.analysis import agreement

    return agreement(bots, n, seed)


def _round_robin(bots: Sequence[str], rounds: int, seed: int) -> dict:
    """``ime zoo roundrobin``: the thesis's pair protocol, win 3 / loss 0."""
    from ime.games.doudizhu.bots.analysis import round_robin

    return round_robin(bots, rounds, seed)


TOOLS = GameTools(perft=perft_leaves, positions=lambda n, seed: random_positions(n, seed),
                  bench={"perft": _bench_perft, "movegen": _bench_movegen,
                         "random_games": _bench_random_games},
                  zoo={"agreement": _agreement, "roundrobin": _round_robin},
                  default_bots=("ddz1", "ddz2", "ddz3", "ddz4", "ddz5", "ddz_mc"))
