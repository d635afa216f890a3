"""Diagnostic (reads the zoo entry): does the masked surrogate refit keep a target's own weights?"""
import sys, time, numpy as np
from dataclasses import replace
sys.path.insert(0, "scripts")
from search_oracle import table_weights
import yaml
from ime.imitators.search_fit import SearchImitator, FitConfig, round_scorer, _masked_refit, with_disc
from ime.imitators.data import load_decisions, fold_indices
from ime.imitators.search_fit import subsample
from ime.imitators.reversi_features import BASE_NAMES, TABLE_FEATURES
from ime.train.folds import Split
bot, imf, ds = sys.argv[1], sys.argv[2], sys.argv[3]
imi = SearchImitator.load(imf); st = replace(imi.settings, phases=1)
d = load_decisions(ds); tr, va = fold_indices(d, 0, 5, 0); train = d.subset(tr)
inner = Split("kfold", 5, 0.0, 1).indices(train.match_id, 0); fit_rows = train.subset(inner[0])
idx = subsample(len(fit_rows), 4000, 0); P, O, A = fit_rows.P[idx], fit_rows.O[idx], fit_rows.action[idx]
rows = subsample(len(P), 400, 2)
score = round_scorer(P[rows], O[rows], A[rows], st)
zoo = yaml.safe_load(open("config/bots/reversi.yaml"))
truth = table_weights(dict(zoo[bot]["params"]))
print("truth", score(np.append(truth, 0.0), 1), flush=True)
cfg = FitConfig(loss="hinge")
mask = np.zeros(len(truth), bool); mask[TABLE_FEATURES] = True
mask[[BASE_NAMES.index(n) for n in sys.argv[4].split(",")]] = True
for n, (p_, o_, a_) in {"400": (P[rows], O[rows], A[rows]), "4000": (P, O, A)}.items():
    t = time.time(); w = _masked_refit(truth, mask, st, p_, o_, a_, cfg)
    print(n, "refit from truth", score(np.append(w, 0.0), 1), f"{time.time()-t:.0f}s",
          {BASE_NAMES[i]: round(w[i] / w[0] * truth[0], 1) for i in np.flatnonzero(w)}, flush=True)
