# ruff: noqa: E501, E401, E402, E701, E702, UP031
"""DIAGNOSTIC: hand-set weights under the two node-budget kinds on snk09's quick dataset with the
head and turn planes.

    python snk09_leaves.py data/snake/datasets/quick__h76c6d4c805/snk09.parquet
"""
import sys, time
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
names = feature_names()
for spec in ["territory:1", "reach_me:1,reach_opp:-1"]:
    w = np.zeros(len(names))
    for part in spec.split(","):
        n, _, v = part.partition(":"); w[names.index(n)] = float(v or 1)
    for kind, depth, budget in [("deepen", 64, 300), ("deepen", 64, 100), ("leaves", 22, 300), ("leaves", 20, 300), ("leaves", 24, 300), ("leaves", 22, 250), ("leaves", 22, 400)]:
        for order in ("natural", "exits"):
            t = time.time()
            res = search_all(pos, w, depth, roots, 0, budget, order, kind)
            print(spec, kind, depth, budget, order, {t: round(np.mean(choices(res, t) == a) * 100, 2) for t in ("up", "exits")}, "%.1fs" % (time.time() - t), flush=True)
    for d in (2, 4, 6):
        res = search_all(pos, w, d, roots, 0)
        print(spec, "fixed", d, {t: round(np.mean(choices(res, t) == a) * 100, 2) for t in ("up", "exits")}, flush=True)
