# ruff: noqa: E501, E401, E402, E701, E702, UP031
"""DIAGNOSTIC: the imitator's search on positions read from a dataset's planes (the opponent's head
left open where the rules leave it), territory alone: fixed depths and budgets, split by whether
one head candidate remains.

    python planes_budget.py data/snake/datasets/thesis__hda58f3bc60/snk04.parquet 1500 300,400,600
"""
import sys
import time

import numpy as np
import torch

from ime.imitators.snake_features import feature_names, planes_to_positions
from ime.imitators.snake_fit import fit_roots
from ime.imitators.snake_search import choices, search_all
from ime.train.loop import load_dataset

ds, n = sys.argv[1], int(sys.argv[2])
data0, _ = load_dataset(ds, torch.device("cpu"))
planes = data0.planes.numpy(); act = np.asarray(data0.action.numpy())
idx = np.sort(np.random.default_rng(0).choice(len(act), n, replace=False))
pos = planes_to_positions(planes[idx]); a = act[idx]
roots = fit_roots(pos, a, 0)
w = np.zeros(len(feature_names())); w[0] = 1
amb = np.array([len(p.opps) > 1 for p in pos])
print("ambiguous head share %.1f%%" % (amb.mean() * 100))
for depth in (4, 6):
    res = search_all(pos, w, depth, roots, phase=0)
    c = choices(res, "up"); print("fixed", depth, "%.1f" % (np.mean(c == a) * 100), "amb %.1f / single %.1f" % (np.mean((c == a)[amb]) * 100, np.mean((c == a)[~amb]) * 100), flush=True)
for budget in [int(x) for x in sys.argv[3].split(",")]:
    for order in ("natural", "exits"):
        t = time.time()
        res = search_all(pos, w, 24, roots, phase=0, budget=budget, order=order)
        c = choices(res, "exits")
        print(budget, order, {t_: round(np.mean(choices(res, t_) == a) * 100, 1) for t_ in ("up", "exits")},
              "amb %.1f / single %.1f" % (np.mean((c == a)[amb]) * 100, np.mean((c == a)[~amb]) * 100), "%.0fs" % (time.time() - t), flush=True)
