# ruff: noqa: E501, E401, E402, E701, E702, UP031
"""DIAGNOSTIC: the same rows read with and without the order plane, hand-set searches: snk04's
kind (the territory, 400 nodes deepened, exits ordering and ties) and snk09's (the territory,
the leaves budget, natural ordering).

    python order_plane.py data/snake/datasets/quick__h76c6d4c805 data/snake/datasets/quick__h3c5dc2a7ea
"""
import sys
import numpy as np, torch
from ime.imitators.snake_features import feature_names, planes_to_positions
from ime.imitators.snake_fit import fit_roots
from ime.imitators.snake_search import search_all, choices
from ime.train.loop import load_dataset
w = np.zeros(len(feature_names())); w[0] = 1
for bot, args in (("snk04", (64, 400, "exits", "deepen")), ("snk09", (64, 100, "natural", "leaves")), ("snk07", (64, 100, "exits", "deepen"))):
    for folder, order in ((sys.argv[1], False), (sys.argv[2], True)):
        data0, _ = load_dataset(f"{folder}/{bot}.parquet", torch.device("cpu"))
        planes = data0.planes.numpy(); act = np.asarray(data0.action.numpy())
        idx = np.sort(np.random.default_rng(0).choice(len(act), min(1000, len(act)), replace=False))
        pos = planes_to_positions(planes[idx], opponent_head=True, turn_plane=True, order_plane=order); a = act[idx]
        roots = fit_roots(pos, a, 0)
        res = search_all(pos, w, args[0], roots, 0, args[1], args[2], args[3])
        print(bot, "order plane" if order else "no order plane", args, round(np.mean(choices(res, "exits") == a) * 100, 2), flush=True)
