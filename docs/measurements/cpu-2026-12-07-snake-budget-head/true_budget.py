# ruff: noqa: E501, E401, E402, E701, E702, UP031
"""DIAGNOSTIC: the imitator's search on the *true* positions of gen_positions.py (the opponent's
head and both tails' orders as the engine has them), territory alone: every fixed depth, and the
node budget (the textbook budgeted alpha-beta) at the given budgets and both orderings.

    python true_budget.py positions.pkl 1000 400
"""
import pickle
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[3] / "tests"))
from imitators.snake_helpers import true_position

from ime.imitators.snake_features import feature_names
from ime.imitators.snake_search import choices, search_all

recs = pickle.load(open(sys.argv[1], "rb"))[: int(sys.argv[2])]
pos = [true_position(r[0], r[1]) for r in recs]
roots = [[d for d in range(4) if (r[2] >> d) & 1] for r in recs]
a = np.array([r[3] for r in recs]); dep = np.array([r[4] for r in recs])
w = np.zeros(len(feature_names())); w[0] = 1
for depth in (2, 4, 6, 8):
    res = search_all(pos, w, depth, roots, phase=0)
    print(f"fixed {depth} plies:", {t: round(np.mean(choices(res, t) == a) * 100, 1) for t in ("up", "right", "exits")}, flush=True)
for budget in [int(x) for x in sys.argv[3].split(",")]:
    for order in ("natural", "exits"):
        t = time.time()
        res = search_all(pos, w, 24, roots, phase=0, budget=budget, order=order)
        print(f"budget {budget} {order}:", {t_: round(np.mean(choices(res, t_) == a) * 100, 1) for t_ in ("up", "exits")},
              "same depth as the bot %.1f%%" % (np.mean(res.depths // 2 == dep) * 100), "%.0fs" % (time.time() - t), flush=True)
