# ruff: noqa: E501, E401, E402, E701, E702, UP031
"""DIAGNOSTIC: hand-set weights at depth 1 and 2 on a dataset re-encoded with the opponent-head plane
(snk18's quick dataset, the pipeline run of reproduction/imitators-quick/snake_search_head/).

    python snk18b.py data/snake/datasets/quick__h24bc6b77f0/snk18.parquet
"""
import sys
import numpy as np, torch
from ime.imitators.snake_features import feature_names, planes_to_positions
from ime.imitators.snake_fit import fit_roots, decide, SnakeSettings
from ime.train.loop import load_dataset
data0, _ = load_dataset(sys.argv[1], torch.device("cpu"))
planes = data0.planes.numpy(); act = np.asarray(data0.action.numpy())
pos = planes_to_positions(planes, opponent_head=True)
roots = fit_roots(pos, act, 0)
names = feature_names()
for spec in ["reach_me", "reach_me:1,head_distance:-0.1", "reach_me:1,head_distance:-0.1,mobility_me:0.01"]:
    w = np.zeros(len(names))
    for part in spec.split(","):
        n, _, v = part.partition(":"); w[names.index(n)] = float(v or 1)
    for depth in (1, 2):
        for tie in ("up", "exits"):
            ch, _ = decide(w, SnakeSettings(depth=depth, tie=tie), pos, roots)
            print(spec, depth, tie, "%.2f" % (np.mean(ch == act) * 100))
