# ruff: noqa: E501, E401, E402, E701, E702, UP031
"""DIAGNOSTIC: hand-set weights under node budgets on a dataset re-encoded with the opponent-head
plane and the turn plane (snk08's quick dataset, re-encoded from the pipeline run's logs).

    python snk08_budget.py data/snake/datasets/quick__h76c6d4c805/snk08.parquet
"""
import sys
import numpy as np, torch
from ime.imitators.snake_features import feature_names, planes_to_positions
from ime.imitators.snake_fit import fit_roots
from ime.imitators.snake_search import search_all, choices
from ime.train.loop import load_dataset
data0, _ = load_dataset(sys.argv[1], torch.device("cpu"))
planes = data0.planes.numpy(); act = np.asarray(data0.action.numpy())
idx = np.sort(np.random.default_rng(0).choice(len(act), min(1000, len(act)), replace=False))
pos = planes_to_positions(planes[idx], opponent_head=True, turn_plane=True); a = act[idx]
roots = fit_roots(pos, a, 0)
names = feature_names()
for spec in ["reach_opp:-1", "reach_me:1,reach_opp:-1", "territory:1"]:
    w = np.zeros(len(names))
    for part in spec.split(","):
        n, _, v = part.partition(":"); w[names.index(n)] = float(v or 1)
    for budget in (100, 120, 200):
        for order in ("natural", "exits"):
            res = search_all(pos, w, 64, roots, 0, budget, order)
            print(spec, budget, order, {t: round(np.mean(choices(res, t) == a) * 100, 2) for t in ("up", "exits")}, flush=True)
