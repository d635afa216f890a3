"""Escape experiments for the round-value climb (rev5 thesis fold k)."""
import sys, json, time
from dataclasses import replace
import numpy as np, yaml, torch
sys.path.insert(0, "/work/main/scripts")
from search_oracle import table_weights, ROOT
from ime.imitators.data import fold_indices, load_decisions, unseen_positions
from ime.imitators import search_fit as sf
from ime.imitators.reversi_search import SearchSettings
from ime.imitators.search_fit import (predict, subsample, round_scorer, with_disc)
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
_score = round_scorer(Pr, Or, Ar, st)  # the pipeline's own climb score
score = lambda v, phases=1: _score(v, phases)
zoo = yaml.safe_load((ROOT / "config/bots/reversi.yaml").read_text())
w_true = table_weights(dict(zoo["rev5"]["params"]))
unseen = unseen_positions(train, val); test = val.subset(unseen.rows)
def unseen_acc(w, n=3000):
    t = test.subset(np.arange(min(n, len(test))))
    return float(np.mean(predict(w, st, t.P, t.O) == t.action)) * 100
