"""Escape experiments for the round-value climb (rev5 thesis fold k)."""
import sys, json, time
from dataclasses import replace
import numpy as np, yaml, torch
sys.path.insert(0, "/work/main/scripts")
from search_oracle import table_weights, ROOT
from ime.imitators.data import fold_indices, load_decisions, unseen_positions
from ime.imitators import search_fit as sf
from ime.imitators.reversi_search import SearchSettings, endgame_moves
from ime.imitators.search_fit import search_all, choices, empties
from ime.imitators.search_fit import (predict, subsample, solver_threshold, solver_mode,
    solver_pick_moves, _endgame_pick, with_disc)
from ime.imitators.reversi_features import TABLE_FEATURES

fold = int(sys.argv[1]) if len(sys.argv) > 1 else 1
M = f"/tmp/th9/data/reversi/models/thesis/search-adcfcdd0/rev5/fold{fold}.pt"
ck = torch.load(M, weights_only=False)
st = SearchSettings(**ck["net_config"]["settings"])
w_fit = ck["state_dict"]["weights"].numpy()
d = load_decisions("/tmp/th9/data/reversi/datasets/thesis/rev5.parquet")
tr, va = fold_indices(d, fold, 5, 0)
train, val = d.subset(tr), d.subset(va)
idx = subsample(len(train), 12000, 0)
P, O, A = train.P[idx], train.O[idx], train.action[idx]
rows = subsample(len(P), 1500, 2)
Pr, Or, Ar = P[rows], O[rows], A[rows]
thr = solver_threshold(st)
end = np.flatnonzero(empties(Pr, Or) <= thr)
best_moves = [endgame_moves(Pr[i], Or[i], str(solver_mode(st, int(e)))) for i, e in zip(end, empties(Pr[end], Or[end]))]
def score(v, phases=1):
    s = replace(st, phases=phases)
    w = with_disc(v, phases)
    out = choices(search_all(Pr, Or, w, s, margin=s.decide_margin), s.tie)
    if len(end):
        full = search_all(Pr[end], Or[end], w, s)
        for j, i in enumerate(end):
            allowed = solver_pick_moves(int(Pr[i]), int(Or[i]), best_moves[j], s.endgame_pick, s.tie, w, s.phases)
            out[i] = _endgame_pick(full, j, s.tie, allowed)
    return float(np.mean(out == Ar)) * 100
zoo = yaml.safe_load((ROOT / "config/bots/reversi.yaml").read_text())
w_true = table_weights(dict(zoo["rev5"]["params"]))
unseen = unseen_positions(train, val); test = val.subset(unseen.rows)
def unseen_acc(w, n=3000):
    t = test.subset(np.arange(min(n, len(test))))
    return float(np.mean(predict(w, st, t.P, t.O) == t.action)) * 100
