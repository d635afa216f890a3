"""Where a fitted imitator's unseen disagreements lie, by empties (quick fold 0)."""
import sys

from ime.imitators.data import fold_indices, load_decisions, unseen_positions
from ime.imitators.reversi_features import feature_names
from ime.imitators.search_fit import SearchImitator, predict

ds, path = sys.argv[1], sys.argv[2]
im = SearchImitator.load(path)
d = load_decisions(ds)
tr, va = fold_indices(d, 0, 5, 0)
val = d.subset(va)
test = val.subset(unseen_positions(d.subset(tr), val).rows)
p = predict(im.weights, im.settings, test.P, test.O)
ok = p == test.action
e = test.empties()
print(path, im.settings)
print(f"unseen {ok.mean()*100:.2f} % of {len(ok)}")
for lo, hi in ((0, 8), (9, 12), (13, 20), (21, 40), (41, 60)):
    m = (e >= lo) & (e <= hi)
    print(f"  empties {lo}-{hi}: {m.sum()} positions, {(~ok[m]).sum()} disagree ({(~ok[m]).mean()*100 if m.sum() else 0:.1f} %)")
names = feature_names(im.settings.phases)
print({n: round(float(x), 3) for n, x in zip(names, im.weights) if x})
