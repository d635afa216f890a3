# ruff: noqa: E501, E401, E402, E701, E702, UP031
"""DIAGNOSTIC: the leaves budget's depth and count, the territory alone, on 600 rows of snk09's
quick dataset with the head and turn planes.

    python snk09_leaves_depth.py data/snake/datasets/quick__h76c6d4c805/snk09.parquet
"""
import sys
import numpy as np, torch
from ime.imitators.snake_features import feature_names, planes_to_positions
from ime.imitators.snake_fit import fit_roots
from ime.imitators.snake_search import search_all, choices
from ime.train.loop import load_dataset
data0, _ = load_dataset(sys.argv[1], torch.device("cpu"))
planes = data0.planes.numpy(); act = np.asarray(data0.action.numpy())
idx = np.sort(np.random.default_rng(0).choice(len(act), min(600, len(act)), replace=False))
pos = planes_to_positions(planes[idx], opponent_head=True, turn_plane=True); a = act[idx]
roots = fit_roots(pos, a, 0)
w = np.zeros(len(feature_names())); w[0] = 1
print("depth (plies) x budget: % of moves (exits ties = direction order here)")
for depth in (8, 12, 16, 32, 64):
    row = []
    for budget in (50, 100, 200, 400, 800):
        res = search_all(pos, w, depth, roots, 0, budget, "natural", "leaves")
        row.append("%d:%.2f" % (budget, np.mean(choices(res, "exits") == a) * 100))
    print(depth, " ".join(row), flush=True)
