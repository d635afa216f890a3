# ruff: noqa: E501, E401, E402, E701, E702, UP031
"""DIAGNOSTIC: the zoo kernel itself at fixed depths and other budgets against its 400-node decisions
(positions.pkl of gen_positions.py): what a fixed-depth model of this bot can reach at best.

    python bot_variants.py positions.pkl
"""
import collections
import pickle
import sys

import numpy as np

from ime.games.snake.bots import kernels as K
from ime.games.snake.bots.search import ab_search

recs = pickle.load(open(sys.argv[1], "rb"))
scratch = K.scratch()
a = np.array([r[3] for r in recs]); dep = np.array([r[4] for r in recs])
print("snk04 depth reached:", sorted(collections.Counter(dep).items()))
def run(**kw):
    out = []
    for S, me, m, *_ in recs:
        sc = np.zeros(4); info = np.zeros(2, np.int64)
        out.append(ab_search(S.copy(), me, m, kw["depth"], kw["nodes"], kw["it"], True, kw.get("order", True), kw.get("ek", 0), sc, info, *scratch))
    return np.array(out)
for d in (1, 2, 3, 4):
    c = run(depth=d, nodes=10**8, it=False)
    print(f"fixed {d} turns: {np.mean(c == a)*100:.1f}%  (on rows where snk04 reached {d}: {np.mean((c==a)[dep==d])*100:.1f}% of {np.sum(dep==d)})")
for nb in (100, 200, 300, 400, 500, 800):
    c = run(depth=12, nodes=nb, it=True)
    print(f"ID budget {nb}: {np.mean(c == a)*100:.1f}%")
c = run(depth=12, nodes=400, it=True, order=False)
print(f"ID 400 no inner ordering: {np.mean(c == a)*100:.1f}%")
