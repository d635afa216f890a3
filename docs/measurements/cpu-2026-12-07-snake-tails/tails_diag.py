# ruff: noqa: E501, E401, E702
"""DIAGNOSTIC: hand-set one-feature searches (territory, territory_tails) of Snake's search family on rows of a quick dataset with the head, turn and order planes."""
import sys, glob
import numpy as np, torch
from ime.imitators.snake_features import planes_to_positions, num_features, feature_names
from ime.imitators.snake_search import search_all, choices
from ime.imitators.snake_fit import fit_roots
from ime.train.loop import load_dataset
for path in sys.argv[1:]:
    d, _ = load_dataset(path, torch.device("cpu"))
    planes = d.planes.numpy(); act = d.action.numpy()
    idx = np.sort(np.random.default_rng(0).choice(len(act), min(300, len(act)), replace=False))
    pos = planes_to_positions(planes[idx], opponent_head=True, turn_plane=True, order_plane=True); a = act[idx]
    roots = fit_roots(pos, a, 0)
    for name in ("territory", "territory_tails"):
        w = np.zeros(num_features()); w[feature_names().index(name)] = 1
        for budget, kind, order in ((0, "deepen", "natural"), (400, "deepen", "natural"), (1600, "deepen", "natural"), (400, "deepen", "exits"), (400, "leaves", "natural")):
            res = search_all(pos, w, 4 if budget == 0 else 64, roots, 0, budget, order, kind, features=False)
            print(path.split("/")[-1], name, budget, kind, order, max(round(np.mean(choices(res, t) == a) * 100, 2) for t in ("up", "exits", "left", "right", "down", "reverse")), flush=True)
