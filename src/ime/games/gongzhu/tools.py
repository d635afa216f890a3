"""Gongzhu's command-line tools (``ime bench/zoo gongzhu``), found via its plug-in.

* ``positions``: seeded mid-game positions of random games (bot benchmarks).
* ``bench``: ``random_games`` (uniformly random games/s through the rules core and through the
  State API) and ``rule_games`` (games/s of four rule styles through the rules core).
* ``zoo``: ``roundrobin`` (duplicate 4-seat round robin, :mod:`.bots.analysis`) and
  ``agreement``.
"""

from __future__ import annotations

import time
from collections.abc import Sequence

import numpy as np

from ime.core.registry import GameTools
from ime.games.gongzhu import rules as R


def random_positions(n: int, seed: int, game=None) -> list:
    """``n`` seeded positions: random games stopped after 0 to 55 plies (not over)."""
    from ime.games.gongzhu.game import GAME

    game = game or GAME
    rng = np.random.default_rng(seed)
    out = []
    while len(out) < n:
        st = game.new_initial_state(seed=int(rng.integers(1 << 31)))
        for _ in range(int(rng.integers(0, 56))):
            legal = st.legal_actions()
            st.apply_action(legal[int(rng.integers(len(legal)))])
        out.append(st)
    return out


def _bench_random_games(quick: bool) -> dict:
    """Games/s of uniformly random play: rules core (``rules.apply``) and the State API."""
    from ime.games.gongzhu.game import GAME

    n = 300 if quick else 2000
    rng = np.random.default_rng(0)
    t = time.perf_counter()
    for s in range(n):
        st = R.deal(s)
        while st.phase != "done":
            legal = R.legal_actions(st)
            R.apply(st, legal[int(rng.integers(len(legal)))])
    dt_core = time.perf_counter() - t
    t = time.perf_counter()
    for s in range(n):
        gs = GAME.new_initial_state(seed=s)
        while not gs.is_terminal():
            legal = gs.legal_actions()
            gs.apply_action(legal[int(rng.integers(len(legal)))])
    dt_api = time.perf_counter() - t
    return {"games": n, "core_games_per_s": n / dt_core, "api_games_per_s": n / dt_api,
            "plies_per_game": 56}


def _bench_rule_games(quick: bool) -> dict:
    """Games/s with the four styles seated (duck, shoot, low, random) through the rules core."""
    from ime.games.gongzhu.bots.rulebots import rule_action

    n = 100 if quick else 500
    styles = ("duck", "shoot", "low", "random")
    t = time.perf_counter()
    for g in range(n):
        st = R.deal(g)
        while st.phase != "done":
            p = st.to_move
            rng = np.random.default_rng([g, len(st.history), p])
            R.apply(st, rule_action(styles[(p + g) % 4], st, p, rng))
    dt = time.perf_counter() - t
    return {"games": n, "games_per_s": n / dt}


def _round_robin(bots: Sequence[str], rounds: int, seed: int) -> dict:
    from ime.games.gongzhu.bots.analysis import round_robin

    return round_robin(bots, rounds, seed)


def _agreement(bots: Sequence[str], n: int, seed: int) -> dict:
    from ime.games.gongzhu.bots.analysis import agreement

    return agreement(bots, n, seed)


TOOLS = GameTools(positions=lambda n, seed: random_positions(n, seed),
                  bench={"random_games": _bench_random_games, "rule_games": _bench_rule_games},
                  zoo={"roundrobin": _round_robin, "agreement": _agreement},
                  default_bots=("gz_duck", "gz_shoot", "gz_low", "gz_random"))
