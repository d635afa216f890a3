# ruff: noqa: E501, E401, E702
"""DIAGNOSTIC: hand-set DUCT (territory_tails) against the maximin search on rows of a quick dataset."""
import sys
import time

import numpy as np
import torch

from ime.imitators.snake_features import feature_names, num_features, planes_to_positions
from ime.imitators.snake_fit import fit_roots
from ime.imitators.snake_mcts import uct_moves
from ime.imitators.snake_search import choices, search_all
from ime.train.loop import load_dataset

path = sys.argv[1]; n = int(sys.argv[2]); grid = eval(sys.argv[3])
d, _ = load_dataset(path, torch.device("cpu"))
planes = d.planes.numpy(); act = d.action.numpy()
idx = np.sort(np.random.default_rng(0).choice(len(act), min(n, len(act)), replace=False))
pos = planes_to_positions(planes[idx], opponent_head=True, turn_plane=True, order_plane=True); a = act[idx]
roots = fit_roots(pos, a, 0)
w = np.zeros(num_features()); w[feature_names().index("territory_tails")] = 1
res = search_all(pos, w, 64, roots, 0, 400, "natural", "deepen", features=False)
print("maximin 400", max(round(np.mean(choices(res, t) == a) * 100, 2) for t in ("up", "exits", "left", "right", "down", "reverse")), flush=True)
for sims, c, scale, *po in grid:
    t0 = time.perf_counter()
    ch, v = uct_moves(pos, w, roots, sims, c, scale, 0, 0, po[0] if po else 0)
    dt = time.perf_counter() - t0
    print(f"duct sims={sims} c={c} scale={scale} playout={po}: {np.mean(ch == a) * 100:.2f}% {dt / len(pos) * 1000:.1f} ms/decision", flush=True)
