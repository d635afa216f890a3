# ruff: noqa: E501, E401, E402, E701, E702, UP031
"""DIAGNOSTIC: on the positions with several head candidates, the search answering each candidate
alone, and the root values combined over the first two (mean, max, min).

    python planes_candidates.py data/snake/datasets/thesis__hda58f3bc60/snk04.parquet 1500 400
"""
import sys
from dataclasses import replace

import numpy as np
import torch

from ime.imitators.snake_features import feature_names, planes_to_positions
from ime.imitators.snake_fit import fit_roots
from ime.imitators.snake_search import choices, search_all
from ime.train.loop import load_dataset

ds, n, budget = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
data0, _ = load_dataset(ds, torch.device("cpu"))
planes = data0.planes.numpy(); act = np.asarray(data0.action.numpy())
idx = np.sort(np.random.default_rng(0).choice(len(act), n, replace=False))
pos = planes_to_positions(planes[idx]); a = act[idx]
amb = [i for i, p in enumerate(pos) if len(p.opps) > 1]
print(len(amb), "ambiguous; candidates:", np.bincount([len(pos[i].opps) for i in amb]))
P = [pos[i] for i in amb]; A = a[amb]
roots = fit_roots(P, A, 0)
w = np.zeros(len(feature_names())); w[0] = 1
kw = dict(phase=0, budget=budget, order="exits")
base = search_all(P, w, 24, roots, **kw)
print("paranoid %.1f" % (np.mean(choices(base, "exits") == A) * 100))
# per candidate
per = []
for k in range(2):
    Pk = [replace(p, opps=p.opps[k:k + 1], opp_tails=p.tails()[k:k + 1]) if len(p.opps) > k else replace(p, opps=p.opps[:1], opp_tails=p.tails()[:1]) for p in P]
    per.append(search_all(Pk, w, 24, roots, **kw))
c0, c1 = (choices(r, "exits") for r in per)
print("cand0 %.1f cand1 %.1f oracle %.1f agree-both %.1f" % (np.mean(c0 == A) * 100, np.mean(c1 == A) * 100, np.mean((c0 == A) | (c1 == A)) * 100, np.mean(c0 == c1) * 100))
# aggregate values: mean / max over candidates, ties by cand0's rank
for name, f in (("mean", lambda x, y: (x + y) / 2), ("max", np.maximum), ("min", np.minimum)):
    r = per[0]; vals = f(per[0].values, per[1].values)
    ch = []
    for i in range(len(P)):
        s, e = r.offsets[i], r.offsets[i + 1]
        v = vals[s:e]; best = v.max()
        tied = [k for k in range(s, e) if v[k - s] >= best - 1e-9 * max(1, abs(best))]
        ch.append(r.squares[min(tied, key=lambda k: r.ranks[k])])
    print(name, "%.1f" % (np.mean(np.array(ch) == A) * 100))
