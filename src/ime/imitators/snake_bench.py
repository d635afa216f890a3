"""``ime bench snake --only search_imitator``: what Snake's search imitator costs here.

Why: a fit searches every fit and selection position once a pass, and every later stage asks
the module again, so the depth or node budget the fit chooses sets the train job's time and
every later stage's. Measured on seeded positions of running games
(:func:`ime.games.snake.tools.random_positions`, both seats, read through the encoder with the
opponent-head plane as the ``snake_search`` experiment reads them), the territory alone as the
evaluation (no bot is involved), one core: ms per decision at fixed depths and under node
budgets in both child orderings, with the mean depth a budget reached and its nodes, and under
the ``leaves`` budget (a search to the end whose nodes past the budget are leaves).
"""

from __future__ import annotations

import time

import numpy as np

from ime.imitators.snake_features import feature_names, planes_to_positions
from ime.imitators.snake_search import search_all


def bench_search_imitator(quick: bool) -> dict:
    """ms per decision of the search at fixed depths (plies) and node budgets."""
    from ime.games.snake.encode import make_encoder
    from ime.games.snake.game import SnakeGame
    from ime.games.snake.tools import random_positions

    game = SnakeGame(width=11, height=10, opponent_head=True)
    states = random_positions(100 if quick else 400, seed=46, game=game)
    enc = make_encoder(game, keep_forced=True)
    obs = enc.encode(states + states, [0] * len(states) + [1] * len(states))
    keep = obs.mask.sum(axis=1) >= 2
    positions = planes_to_positions(obs.planes[keep], opponent_head=True)
    roots = [np.flatnonzero(m).tolist() for m in obs.mask[keep]]
    w = np.zeros(len(feature_names()))
    w[0] = 1.0  # the territory
    out: dict = {"positions": len(positions)}
    search_all(positions[:5], w, 2, roots[:5], 0)  # the numba features: load or compile first
    for depth in (2, 4, 6):
        t = time.perf_counter()
        search_all(positions, w, depth, roots, 0)
        out[f"depth {depth} ms/decision"] = 1000 * (time.perf_counter() - t) / len(positions)
    for budget in (100, 400) if quick else (100, 400, 1600):
        for order in ("natural", "exits"):
            t = time.perf_counter()
            res = search_all(positions, w, 64, roots, 0, budget, order)
            key = f"budget {budget} {order}"
            out[f"{key} ms/decision"] = 1000 * (time.perf_counter() - t) / len(positions)
            out[f"{key} mean depth (turns)"] = float(res.depths.mean()) / 2
            out[f"{key} mean nodes"] = float(res.nodes.mean())
    for budget in (100, 400):
        t = time.perf_counter()
        res = search_all(positions, w, 64, roots, 0, budget, "natural", "leaves")
        key = f"leaves {budget} natural"
        out[f"{key} ms/decision"] = 1000 * (time.perf_counter() - t) / len(positions)
        out[f"{key} mean nodes"] = float(res.nodes.mean())
    return out
