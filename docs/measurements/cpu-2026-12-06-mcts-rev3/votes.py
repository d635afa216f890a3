import numpy as np
from collections import Counter
from ime.imitators.data import load_decisions, fold_indices, unseen_positions, empties
from ime.imitators.search_fit import SearchImitator, predict
from ime.imitators.reversi_mcts import uct_moves
from ime.train.folds import Split
d = load_decisions('data/reversi/datasets/quick/rev3.parquet')
tr, va = fold_indices(d, 0, 5, 0)
train, val = d.subset(tr), d.subset(va)
inner = Split("kfold", 5, 0.0, 1).indices(train.match_id, 0)
sel = train.subset(inner[1])
test = val.subset(unseen_positions(train, val).rows)
for path in ('docs/measurements/cpu-2026-12-06-mcts-rev3/imitator_mcts_fold0.json', '/tmp/rev3_mcts_climb_fold0.json'):
    im = SearchImitator.load(path); s = im.settings
    for name, dd in (("selection", sel), ("unseen", test)):
        u = s.uct(empties(dd.P, dd.O))
        base = predict(im.weights, s, dd.P, dd.O)
        kw = s.uct_kwargs(); seed0 = kw.pop("seed")
        runs = [uct_moves(dd.P[u], dd.O[u], im.weights, s.phases, **kw, seed=seed0 + k) for k in range(7)]
        out = {}
        for K in (1, 3, 5, 7):
            st = np.stack(runs[:K], 1)
            vote = np.array([Counter(r).most_common(1)[0][0] for r in st])
            m = base.copy(); m[u] = vote
            out[K] = round(100 * float(np.mean(m == dd.action)), 2)
        print(path.split('/')[-1], name, out, flush=True)
