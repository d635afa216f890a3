"""Experiment: climb the evaluation's weights on UCT's own agreement (round_values.climb), from
the alpha-beta fit's weights, UCT settings fixed at the Monte-Carlo stage's choice."""
import sys, json, time
import numpy as np
from dataclasses import replace
from ime.imitators.data import load_decisions, fold_indices, unseen_positions, empties
from ime.imitators.search_fit import SearchImitator, predict
from ime.imitators.reversi_mcts import uct_moves
from ime.imitators.round_values import climb
from ime.imitators.mmto import subsample
from ime.train.folds import Split

evals = int(sys.argv[1]) if len(sys.argv) > 1 else 300
npos = int(sys.argv[2]) if len(sys.argv) > 2 else 800
import os
im = SearchImitator.load(os.environ.get('START', 'docs/measurements/cpu-2026-12-06-mcts-rev3/imitator_mcts_fold0.json'))
s = im.settings
d = load_decisions('data/reversi/datasets/quick/rev3.parquet')
tr, va = fold_indices(d, 0, 5, 0)
train, val = d.subset(tr), d.subset(va)
inner = Split("kfold", 5, 0.0, 1).indices(train.match_id, 0)
fit_rows, sel_rows = train.subset(inner[0]), train.subset(inner[1])
mid = np.flatnonzero(empties(fit_rows.P, fit_rows.O) > s.mcts_above)
idx = mid[subsample(len(mid), npos, 0)]
P, O, A = fit_rows.P[idx], fit_rows.O[idx], fit_rows.action[idx]
m0 = np.abs(im.weights).max()
kw = s.uct_kwargs()
def score(v, phases):
    mx = np.abs(v).max()
    if mx == 0:
        return 0.0
    return 100.0 * float(np.mean(uct_moves(P, O, v * (m0 / mx), phases, **kw) == A))
t0 = time.perf_counter()
print("start", score(im.weights, s.phases), flush=True)
out = climb([(im.weights, s.phases)], score, evals, say=lambda l: print(l, flush=True))
w = out["weights"] * (m0 / np.abs(out["weights"]).max())
print("climb", out["score"], out["evals"], time.perf_counter() - t0, flush=True)
new = SearchImitator(w, s, {**im.summary})
def acc(imt, dd): return 100.0 * float(np.mean(predict(imt.weights, imt.settings, dd.P, dd.O) == dd.action))
test = val.subset(unseen_positions(train, val).rows)
res = {"select_before": acc(im, sel_rows), "select_after": acc(new, sel_rows),
       "unseen_before": acc(im, test), "unseen_after": acc(new, test), "evals": out["evals"],
       "fit_score_before": out["start_scores"], "fit_score_after": out["score"]}
print(json.dumps(res), flush=True)
new.save(os.environ.get('SAVE', '/tmp/rev3_mcts_climb_fold0.json'))
