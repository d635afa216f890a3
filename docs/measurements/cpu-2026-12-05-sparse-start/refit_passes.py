"""Diagnostic: the masked surrogate refit from the dense fitted weights, pass by pass."""
import sys, time, numpy as np
from dataclasses import replace
from ime.imitators.search_fit import SearchImitator, FitConfig, round_scorer, _masked_refit, leading_features
from ime.imitators.data import load_decisions, fold_indices
from ime.imitators.search_fit import subsample
from ime.imitators.reversi_features import BASE_NAMES, TABLE_FEATURES
from ime.train.folds import Split
imf, ds, names = sys.argv[1], sys.argv[2], sys.argv[3]
imi = SearchImitator.load(imf); st = replace(imi.settings, phases=1)
d = load_decisions(ds); tr, va = fold_indices(d, 0, 5, 0); train = d.subset(tr)
inner = Split("kfold", 5, 0.0, 1).indices(train.match_id, 0); fit_rows = train.subset(inner[0])
idx = subsample(len(fit_rows), 4000, 0); P, O, A = fit_rows.P[idx], fit_rows.O[idx], fit_rows.action[idx]
rows = subsample(len(P), 400, 2)
score = round_scorer(P[rows], O[rows], A[rows], st)
w = imi.weights.reshape(imi.settings.phases, -1).mean(axis=0)
print("dense", score(np.append(w, 0.0), 1), flush=True)
mask = np.zeros(len(w), bool); mask[TABLE_FEATURES] = True
if names == "lead":
    mask |= leading_features(w, st, P[rows], O[rows], 0.1)
else:
    mask[[BASE_NAMES.index(n) for n in names.split(",")]] = True
print("mask", [BASE_NAMES[i] for i in np.flatnonzero(mask)])
cfg = FitConfig(loss="hinge")
w = np.where(mask, w, 0.0)
for k in range(10):
    t = time.time(); w = _masked_refit(w, mask, st, P[rows], O[rows], A[rows], cfg, passes=1)
    print(k, score(np.append(w, 0.0), 1), f"{time.time()-t:.0f}s",
          {BASE_NAMES[i]: round(w[i] / abs(w[0]) * 100, 1) for i in np.flatnonzero(w)}, flush=True)
