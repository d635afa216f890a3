"""Budget-stage passes with only the square-class features free (diagnostic): from the fitted
start (fixed-depth weights, squares only) or from scratch; does a pure-table fit keep ties?"""
import sys, numpy as np
from dataclasses import replace
from ime.imitators.data import load_decisions, fold_indices, unseen_positions
from ime.imitators.search_fit import (FitConfig, search_as_budgeted, _problem, _optimise, predict,
                                      _subsample)
from ime.imitators.reversi_search import SearchSettings
from ime.imitators.reversi_features import NUM_BASE
from ime.train.folds import Split
d = load_decisions(sys.argv[1]); budget = int(sys.argv[2]); ordering = sys.argv[3]; tie = sys.argv[4]
loss = sys.argv[5]; start = sys.argv[6]
tr, va = fold_indices(d, 0, 5, 0); train = d.subset(tr); val = d.subset(va)
inner = Split("kfold", 5, 0.0, 1).indices(train.match_id, 0)
fit_rows, sel = train.subset(inner[0]), train.subset(inner[1])
idx = _subsample(len(fit_rows), 5000, 0); F = fit_rows.subset(idx)
s = SearchSettings(depth=64, budget=budget, ordering=ordering, tie=tie, phases=1)
w = np.zeros(NUM_BASE)
w[:10] = [float(x) for x in start.split(",")]
mask = np.zeros(NUM_BASE, bool); mask[:10] = True
def acc(w, D): return (predict(w, s, D.P, D.O) == D.action).mean() * 100
print("start sel", acc(w, sel), flush=True)
best = (acc(w, sel), w.copy())
for it in range(int(sys.argv[7]) if len(sys.argv) > 7 else 6):
    res, A = search_as_budgeted(F.P, F.O, F.action, w, s, 12.0)
    res.features[:, ~mask] = 0.0
    prob = _problem(res, A, np.ones(NUM_BASE), tie)
    w = _optimise(prob, w, 1e-4, 40, loss, 1.0)
    w[~mask] = 0
    a = acc(w, sel); print(f"pass {it}: sel {a:.2f}", np.round(w[:10] / max(abs(w[:10])) * 100, 1), flush=True)
    if a > best[0]: best = (a, w.copy())
u = unseen_positions(train, val); test = val.subset(u.rows)
print("unseen with best", acc(best[1], test))
