# SCRATCH against a reverted change: search_all(..., cut=True), the "cut" budget style (every node a leaf once the budget is spent), tried on 2026-12-05 and not kept; the log is its output
# ruff: noqa: E501, E702, E401
"""DIAGNOSTIC: agreement of the Snake search, one-feature evaluation, fixed depth vs the cut style."""
import sys
import time

import numpy as np
import torch

from ime.imitators.snake_features import feature_names, planes_to_positions
from ime.imitators.snake_fit import fit_roots
from ime.imitators.snake_search import choices, search_all
from ime.train.loop import load_dataset

ds = sys.argv[1]; feat = sys.argv[2]; n = int(sys.argv[3])
data0, arr = load_dataset(ds, torch.device("cpu"))
planes = data0.planes.numpy(); act = np.asarray(data0.action.numpy())
idx = np.sort(np.random.default_rng(0).choice(len(act), n, replace=False))
pos = planes_to_positions(planes[idx]); a = act[idx]
w = np.zeros(len(feature_names()))
for part in feat.split("+"):
    name, _, k = part.partition("*"); w[feature_names().index(name)] = float(k or 1)
roots = fit_roots(pos, a, 0)
def show(tag, res, t):
    acc = {tie: np.mean(choices(res, tie) == a) * 100 for tie in ["up", "right", "down", "left", "reverse", "exits"]}
    b = max(acc, key=acc.get)
    print(f"{tag}: best tie {b} {acc[b]:.1f}% (up {acc['up']:.1f}), nodes {res.nodes.mean():.0f}, {time.time()-t:.0f}s", flush=True)
for d in [1, 2, 3, 4, 6]:
    t = time.time(); show(f"fixed depth {d}", search_all(pos, w, d, roots, 0), t)
for d in [12, 16, 20, 22, 24]:
    for budget in [75, 150, 300, 600]:
        for order in ["natural", "exits"]:
            t = time.time(); show(f"cut depth {d} budget {budget} {order}", search_all(pos, w, d, roots, 0, budget, order, cut=True), t)
