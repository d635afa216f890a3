"""The budget stage started from the target's own table (a diagnostic, issue 46; it reads the
table from the command line, as no imitator may): is the table a fixed point of the fit?

Usage (from the repository root; rev4's standard table, scale 0.1, 40 L-BFGS iterations)::

    python docs/measurements/cpu-2026-12-02-search-imitator/v5/fit_from_the_table.py \\
        data/reversi/datasets/quick/rev4.parquet 100,-20,10,5,-50,-2,-2,1,1,0 0.1 40 hinge 1.0
"""

import sys

import numpy as np

from ime.imitators.data import fold_indices, load_decisions
from ime.imitators.reversi_features import NUM_BASE, num_features
from ime.imitators.search_fit import FitConfig, _fit_budgeted, legal_offsets
from ime.train.folds import Split

d = load_decisions(sys.argv[1])
tab = [float(x) for x in sys.argv[2].split(",")]
scale = float(sys.argv[3]) if len(sys.argv) > 3 else 1.0
iters = int(sys.argv[4]) if len(sys.argv) > 4 else 40
loss = sys.argv[5] if len(sys.argv) > 5 else "softmax"
margin = float(sys.argv[6]) if len(sys.argv) > 6 else 1.0
tr, va = fold_indices(d, 0, 5, 0)
train = d.subset(tr)
inner = Split("kfold", 5, 0.0, 1).indices(train.match_id, 0)
fit_rows, sel = train.subset(inner[0]), train.subset(inner[1])
w = np.zeros(num_features(2))
w[:10] = tab
w[NUM_BASE:NUM_BASE + 10] = tab
w *= scale
cfg = FitConfig(budgets=(4000,), orderings=("none",), pv_firsts=(False,), budget_passes=4,
                endgames=(0,), ties=("last",), inner_iters=iters, loss=loss, hinge_margin=margin)
out = _fit_budgeted(w, 2, fit_rows.P, fit_rows.O, fit_rows.action, None, sel,
                    legal_offsets(sel.P, sel.O), dict, cfg, sel.empties(),
                    [(4000, "none", False)], print)
wf = out[-1]["weights"]
print("corr with table (sq, open/end):", np.corrcoef(wf[:10], tab)[0, 1],
      np.corrcoef(wf[NUM_BASE:NUM_BASE + 10], tab)[0, 1])
print("non-sq weights open:", np.round(wf[10:NUM_BASE], 2))
