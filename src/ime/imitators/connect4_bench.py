"""``ime bench connect4 --only search_imitator``: what Connect Four's search imitator costs here.

Why: the fit and every decision are searches whose cost grows several times a ply, so the depth
the fit chooses sets the train job's time and every later stage's. Measured on seeded mid-game
positions (:func:`ime.games.connect4.tools.random_positions`) and a synthetic target (this
imitator's own search at depth 3 with seeded weights, so no bot is involved), one core: the
fit's seconds per pass per 1,000 positions at each depth, the milliseconds per decision of the
search at several depths and of the Monte-Carlo mode at several simulation counts (the move
rules at their dearest, decisive and anti-decisive), and the fitted imitator's agreement with
the target on held-out positions.
"""

from __future__ import annotations

import time

import numpy as np

from ime.imitators.connect4_features import num_features
from ime.imitators.connect4_fit import Connect4FitConfig, Connect4Settings, decide, fit
from ime.imitators.connect4_mcts import uct_moves


def bench_search_imitator(quick: bool) -> dict:
    """Fit seconds per pass per 1,000 positions by depth, ms per decision by depth and by the
    Monte-Carlo mode's simulations."""
    from ime.games.connect4.game import GAME
    from ime.games.connect4.tools import random_positions

    n = 300 if quick else 1500
    states = random_positions(n + 300, seed=46)
    me = np.array([int(s.own_opp()[0]) for s in states], dtype=np.uint64)
    opp = np.array([int(s.own_opp()[1]) for s in states], dtype=np.uint64)
    geo = GAME.geometry
    w = np.random.default_rng(46).normal(size=num_features(2))
    cols, _ = decide(w, Connect4Settings(depth=3, phases=2, tie="centre"), me, opp, geo)
    fit_rows, sel, test = slice(0, n), slice(n, n + 150), slice(n + 150, n + 300)
    fit_s = {}
    for d in (1, 2, 3, 4) if quick else (1, 2, 3, 4, 5, 6):
        t = time.perf_counter()
        fit(me[fit_rows], opp[fit_rows], cols[fit_rows], me[sel], opp[sel], cols[sel], geo,
            Connect4FitConfig(depths=(d,), passes=1, phases=(2,)))
        fit_s[d] = (time.perf_counter() - t) / n * 1000
    decide_ms = {}
    for d in (3, 5) if quick else (3, 5, 7):
        s = Connect4Settings(depth=d, phases=2)
        decide(w, s, me[:5], opp[:5], geo)  # compiled before the clock
        t = time.perf_counter()
        decide(w, s, me[:200], opp[:200], geo)
        decide_ms[d] = (time.perf_counter() - t) / 200 * 1000
    uct_ms = {}
    for sims in (500, 2000) if quick else (500, 2000, 8000):
        kw = {"sims": sims, "c": 0.707, "tree": "anti_decisive", "playout": "anti_decisive"}
        uct_moves(me[:5], opp[:5], geo, **kw)  # compiled before the clock
        t = time.perf_counter()
        uct_moves(me[:200], opp[:200], geo, **kw)
        uct_ms[sims] = (time.perf_counter() - t) / 200 * 1000
    result = fit(me[fit_rows], opp[fit_rows], cols[fit_rows], me[sel], opp[sel], cols[sel], geo,
                 Connect4FitConfig(depths=(1, 2, 3, 4), passes=2, phases=(2,)))
    chosen, _ = decide(result.weights, result.settings, me[test], opp[test], geo)
    return {"positions": n, "fit_s_per_1000_positions_by_depth": fit_s,
            "decision_ms_by_depth": decide_ms, "uct_decision_ms_by_sims": uct_ms,
            "chosen_depth": result.settings.depth,
            "synthetic_target_agreement_pct": float(np.mean(chosen == cols[test])) * 100}
