"""Seeded mid-game positions of random games (the games' ``positions`` tool and bot benchmarks),
and how fast the engine lists the legal actions of fresh states (``ime bench <game> movegen``).
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from typing import Any

import numpy as np

from ime.core.game import Game


def random_positions(game: Game, n: int, seed: int, plies: tuple[int, int]) -> list:
    """``n`` seeded mid-game positions: random games stopped after ``plies[0]`` to ``plies[1]``
    plies (not over)."""
    rng = np.random.default_rng(seed)
    out = []
    while len(out) < n:
        st = game.new_initial_state(seed=int(rng.integers(1 << 31)))
        for _ in range(int(rng.integers(plies[0], plies[1] + 1))):
            if st.is_terminal():
                break
            legal = st.legal_actions()
            st.apply_action(legal[int(rng.integers(len(legal)))])
        if not st.is_terminal():
            out.append(st)
    return out


def bench_legal_actions(states: Sequence[Any]) -> dict:
    """``legal_actions`` on fresh clones of ``states`` (nothing cached; card-id tuples
    included): calls per second and actions per call."""
    fresh = [s.clone() for s in states]
    for s in fresh:
        s._legal = None
    t = time.perf_counter()
    n_api = sum(len(s.legal_actions()) for s in fresh)
    dt_api = time.perf_counter() - t
    return {"legal_actions_per_s": len(states) / dt_api, "actions_per_call": n_api / len(states)}


__all__ = ["bench_legal_actions", "random_positions"]
