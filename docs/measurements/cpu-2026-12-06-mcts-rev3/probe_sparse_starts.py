import numpy as np
from ime.imitators.data import load_decisions, fold_indices, empties
from ime.imitators.search_fit import SearchImitator
from ime.imitators.reversi_mcts import uct_moves
from ime.imitators.reversi_features import feature_names
from ime.imitators.mmto import subsample
from ime.train.folds import Split
im = SearchImitator.load('docs/measurements/cpu-2026-12-06-mcts-rev3/imitator_mcts_fold0.json')
s = im.settings
d = load_decisions('data/reversi/datasets/quick/rev3.parquet')
tr, va = fold_indices(d, 0, 5, 0)
train = d.subset(tr)
inner = Split("kfold", 5, 0.0, 1).indices(train.match_id, 0)
fit_rows = train.subset(inner[0])
mid = np.flatnonzero(empties(fit_rows.P, fit_rows.O) > s.mcts_above)
idx = mid[subsample(len(mid), 800, 0)]
P, O, A = fit_rows.P[idx], fit_rows.O[idx], fit_rows.action[idx]
names = feature_names(s.phases)
w = im.weights
m0 = np.abs(w).max()
kw = s.uct_kwargs()
def sc(v):
    v = v * (m0 / np.abs(v).max())
    return 100 * np.mean(uct_moves(P, O, v, s.phases, **kw) == A)
print("AB weights", sc(w))
for keep in (["sq"], ["sq", "mob@"], ["sq", "mob@", "corner_mob"], ["sq", "mob", "frontier", "stable", "x_empty", "c_empty"]):
    mask = np.array([any(n.startswith(k) or n.split("@")[0] == k.rstrip("@") for k in keep) for n in names])
    v = np.where(mask, w, 0.0)
    print(keep, int(mask.sum()), sc(v))
# the same but with 1 phase (opening block only = average) 
print([ (n, round(x, 2)) for n, x in zip(names, w) if abs(x) > 0.05 * m0])
