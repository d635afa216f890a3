# ruff: noqa: E501, E702, E401
"""DIAGNOSTIC: agreement of the Snake search with a one-feature evaluation at budgets."""
import sys
import time

import numpy as np
import torch

from ime.imitators.snake_features import feature_names, planes_to_positions
from ime.imitators.snake_fit import SnakeSettings, decide, fit_roots
from ime.train.loop import load_dataset

ds = sys.argv[1]; feat = sys.argv[2]; n = int(sys.argv[3])
data0, arr = load_dataset(ds, torch.device("cpu"))
planes = data0.planes.numpy(); act = np.asarray(data0.action.numpy())
rng = np.random.default_rng(0); idx = np.sort(rng.choice(len(act), n, replace=False))
pos = planes_to_positions(planes[idx]); a = act[idx]
w = np.zeros(len(feature_names()))
for part in feat.split("+"):
    name, _, k = part.partition("*"); w[feature_names().index(name)] = float(k or 1)
roots = fit_roots(pos, a, 0)
for budget in [0, 50, 100, 200, 400, 800, 1600, 3200]:
    for order in (["natural"] if budget == 0 else ["natural", "exits"]):
        depths = [1, 2, 3, 4, 5, 6] if budget == 0 else [64]
        for d in depths:
            t = time.time()
            res = {}
            for tie in ["up", "right", "down", "left", "reverse", "exits"]:
                ch, r = decide(w, SnakeSettings(depth=d, tie=tie, budget=budget, order=order), pos, roots)
                res[tie] = np.mean(ch == a) * 100
            best = max(res, key=res.get)
            print(f"budget {budget} {order} depth {d}: best tie {best} {res[best]:.1f}% (up {res['up']:.1f}, exits {res['exits']:.1f}), depth reached {r.depths.mean():.1f}, {time.time()-t:.0f}s", flush=True)
