"""Diagnostic: the climbed weights of rev2's fold 0 (v17, r1_then2) with parity added, beside
rev2's own evaluation in the same features (zoo-reading, never part of an imitator)."""
import json, sys, time
from dataclasses import replace
import numpy as np, yaml
sys.path.insert(0, "scripts")
from search_oracle import table_weights
from ime.imitators.data import load_decisions, unseen_validation
from ime.imitators.search_fit import predict
from ime.imitators.reversi_features import BASE_NAMES
from ime.imitators.reversi_search import SearchSettings

ds, state, res, n = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
st = json.load(open(state))
c = st["stages"][[k for k in st["stages"] if k.startswith("round")][-1]]
c = c.get("candidate", c)
w = np.asarray(c["weights"]["__ndarray__"], dtype=float)
s = SearchSettings(**json.load(open(res))["settings"])
truth = table_weights(dict(yaml.safe_load(open("config/bots/reversi.yaml"))["rev2"]["params"])) * 25
d = load_decisions(ds)
t = unseen_validation(d, 0, 5, 0)
idx = np.random.default_rng(0).permutation(len(t))[:n]
P, O, A = t.P[idx], t.O[idx], t.action[idx]
par = BASE_NAMES.index("parity")
variants = {"climbed": w}
for v in (100, 200, 375, 600):
    x = w.copy(); x[par] = v; variants[f"climbed + parity {v}"] = x
variants["rev2's own (x25)"] = truth
out = {}
for name, x in variants.items():
    t0 = time.time()
    out[name] = round(float((predict(x, s, P, O) == A).mean()) * 100, 2)
    print(f"{name}: {out[name]} % ({time.time()-t0:.0f}s)", flush=True)
x = w.copy(); x[par] = 375
for name, wt in (("rev2's own (x25)", truth), ("climbed + parity 375", x), ("climbed", w)):
    for tie in ("searched_last",):  # the bot's ties as the search's order
        for b in (64000, 60000):
            s2 = replace(s, tie=tie, budget=b)
            acc = round(float((predict(wt, s2, P, O) == A).mean()) * 100, 2)
            print(f"{name}, tie {tie}, budget {b}: {acc} %", flush=True)
            out[f"{name}, tie {tie}, budget {b}"] = acc
print(json.dumps({"state": state, "positions": n, "unseen_total": int(len(t)),
                  "settings": s.to_dict(), "agreement": out}, indent=1))
