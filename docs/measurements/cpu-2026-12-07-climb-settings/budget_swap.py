"""Diagnostic: a fitted fold's search imitator scored with its node budget swapped (unseen rows)."""
import json, sys, time
from dataclasses import replace
import numpy as np
from ime.imitators.data import load_decisions, unseen_validation
from ime.imitators.search_fit import predict
from ime.nets import load_checkpoint

ds, ck, fold, n = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
budgets = [int(x) for x in sys.argv[5].split(",")]
m = load_checkpoint(ck)
d = load_decisions(ds)
t = unseen_validation(d, fold, 5, 0)
idx = np.random.default_rng(0).permutation(len(t))[:n]
P, O, A = t.P[idx], t.O[idx], t.action[idx]
w, s = m.search_weights(), m.settings
out = {"checkpoint": ck, "fold": fold, "positions": int(len(idx)), "unseen_total": int(len(t)),
       "chosen": s.to_dict(), "agreement": {}}
for b in budgets:
    t0 = time.time()
    ok = predict(w, replace(s, budget=b), P, O) == A
    out["agreement"][b] = round(float(ok.mean()) * 100, 2)
    print(b, out["agreement"][b], f"{time.time()-t0:.0f}s", flush=True)
print(json.dumps(out, indent=1))
