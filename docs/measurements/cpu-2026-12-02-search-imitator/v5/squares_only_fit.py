"""Budget-stage passes with only the 10 square-class weights free (a diagnostic, issue 46).

Does a pure square-table fit, under the target's chosen budget and ordering, converge to the
target's table? Usage (from the repository root)::

    python docs/measurements/cpu-2026-12-02-search-imitator/v5/squares_only_fit.py \\
        data/reversi/datasets/quick/rev4.parquet 4000 none last hinge 1,0,0,0,0,0,0,0,0,0 16
"""

import sys

import numpy as np

from ime.imitators.data import fold_indices, load_decisions, unseen_positions
from ime.imitators.reversi_features import NUM_BASE
from ime.imitators.reversi_search import SearchSettings
from ime.imitators.search_fit import (
    _optimise,
    _problem,
    _subsample,
    predict,
    search_as_budgeted,
)
from ime.train.folds import Split

d = load_decisions(sys.argv[1])
budget, ordering, tie, loss = int(sys.argv[2]), sys.argv[3], sys.argv[4], sys.argv[5]
start, passes = sys.argv[6], int(sys.argv[7]) if len(sys.argv) > 7 else 6
tr, va = fold_indices(d, 0, 5, 0)
train, val = d.subset(tr), d.subset(va)
inner = Split("kfold", 5, 0.0, 1).indices(train.match_id, 0)
fit_rows, sel = train.subset(inner[0]), train.subset(inner[1])
F = fit_rows.subset(_subsample(len(fit_rows), 5000, 0))
s = SearchSettings(depth=64, budget=budget, ordering=ordering, tie=tie, phases=1)
w = np.zeros(NUM_BASE)
w[:10] = [float(x) for x in start.split(",")]
mask = np.zeros(NUM_BASE, bool)
mask[:10] = True


def acc(w: np.ndarray, D) -> float:  # noqa: ANN001
    return float(np.mean(predict(w, s, D.P, D.O) == D.action)) * 100


print("start sel", acc(w, sel), flush=True)
best = (acc(w, sel), w.copy())
for it in range(passes):
    res, A = search_as_budgeted(F.P, F.O, F.action, w, s, 12.0)
    res.features[:, ~mask] = 0.0
    prob = _problem(res, A, np.ones(NUM_BASE), tie)
    w = _optimise(prob, w, 1e-4, 40, loss, 1.0)
    w[~mask] = 0
    a = acc(w, sel)
    print(f"pass {it}: sel {a:.2f}", np.round(w[:10] / max(abs(w[:10])) * 100, 1), flush=True)
    if a > best[0]:
        best = (a, w.copy())
test = val.subset(unseen_positions(train, val).rows)
print("unseen with best", acc(best[1], test))
