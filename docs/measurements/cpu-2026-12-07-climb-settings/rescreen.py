"""Diagnostic: a fit state's round-stage weights scored under each budget x ordering x pv_first."""
import json, sys, time
from dataclasses import replace
import numpy as np
from ime.imitators.data import load_decisions, unseen_validation
from ime.imitators.reversi_search import ORDERINGS, SearchSettings
from ime.imitators.search_fit import predict

ds, fs, fold, stage, n = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4], int(sys.argv[5])
budgets = [int(x) for x in sys.argv[6].split(",")]
c = json.load(open(fs))["stages"][stage]
w = np.array(c["weights"]["__ndarray__"])
base = SearchSettings(depth=64, budget=c["budget"], tie=c["tie"], endgame=c["endgame"],
                      endgame_mode=c["endgame_mode"], endgame_wld=c["endgame_wld"],
                      endgame_pick=c["endgame_pick"], ordering=c["ordering"],
                      pv_first=c["pv_first"], phases=c["phases"])
d = load_decisions(ds)
t = unseen_validation(d, fold, 5, 0)
idx = np.random.default_rng(0).permutation(len(t))[:n]
P, O, A = t.P[idx], t.O[idx], t.action[idx]
res = {}
print("chosen", c["budget"], c["ordering"], c["pv_first"], flush=True)
for b in budgets:
    for o in ORDERINGS:
        for pv in (False, True):
            ok = predict(w, replace(base, budget=b, ordering=o, pv_first=pv), P, O) == A
            res[f"{b} {o}{' pv' if pv else ''}"] = round(float(ok.mean()) * 100, 2)
            print(b, o, pv, res[f"{b} {o}{' pv' if pv else ''}"], flush=True)
