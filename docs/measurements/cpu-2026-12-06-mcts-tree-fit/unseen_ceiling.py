# Run from the repository root: python docs/measurements/cpu-2026-12-06-mcts-tree-fit/unseen_ceiling.py 4 tree=PATH ... (the re-asks are cached in unseen_ceiling_rows.json).
"""Experiment: rev3's self-agreement and top-1 ceiling on exactly the unseen validation positions
of quick fold 0 (the positions the imitators' unseen accuracy is measured on), by empties, beside
imitators' agreement on the same rows."""
import json, sys
import numpy as np
from ime.bots.registry import make_bot
from ime.core.registry import get_game
from ime.datasets.integrity import read_parquet
from ime.evaluate.ceiling import self_agreement
from ime.imitators.data import load_decisions, fold_indices, unseen_positions
from ime.imitators.search_fit import SearchImitator, predict
import glob

DS = "data/reversi/datasets/quick/rev3.parquet"
d = load_decisions(DS)
tab = read_parquet(DS, columns=["match_id", "ply", "seat"])
mid, ply, seat = (np.array(tab[c].to_pylist()) for c in ("match_id", "ply", "seat"))
tr, va = fold_indices(d, 0, 5, 0)
u = unseen_positions(d.subset(tr), d.subset(va))
rows_idx = va[u.rows]
test = d.subset(rows_idx)
rows = sorted({(str(mid[i]), int(ply[i]), int(seat[i])) for i in rows_idx})
order = {(str(mid[i]), int(ply[i]), int(seat[i])): k for k, i in enumerate(rows_idx)}
import os
CACHE = "docs/measurements/cpu-2026-12-06-mcts-tree-fit/unseen_ceiling_rows.json"
if os.path.exists(CACHE):  # the re-asks of an earlier run (the same rows)
    res = json.load(open(CACHE))
else:
    game = get_game("reversi", {})
    bot = make_bot("reversi", "rev3")
    logs = sorted(glob.glob("data/reversi/logs/quick/rev3/*.jsonl"))
    res = self_agreement(game, "rev3", bot, logs, rows, default_seed=0, repeats=int(sys.argv[1]) if len(sys.argv) > 1 else 4)
    bot.close()
same = np.zeros(len(rows_idx)); lo = np.zeros(len(rows_idx)); hi = np.zeros(len(rows_idx))
for (m, p, s, v) in res["rows"]:
    same[order[(m, p, s)]] = v
for (m, p, s, a, b) in res["top1_rows"]:
    lo[order[(m, p, s)]] = a; hi[order[(m, p, s)]] = b
emp = test.empties()
ims = {}
for name, path in [("alphabeta", "docs/measurements/cpu-2026-12-06-mcts-rev3/imitator_alphabeta_fold0.json"),
                   ("mcts", "docs/measurements/cpu-2026-12-06-mcts-rev3/imitator_mcts_fold0.json")] + \
        [(a.split("=")[0], a.split("=")[1]) for a in sys.argv[2:]]:
    im = SearchImitator.load(path)
    ims[name] = predict(im.weights, im.settings, test.P, test.O) == test.action
print(f"{len(rows_idx)} unseen positions of quick fold 0; self-agreement {res['self_agreement']} %, "
      f"top-1 {res['top1_mode']}-{res['top1_max']} % ({res['repeats']} re-asks)")
print("empties  n  self  top1_mode top1_max  " + "  ".join(ims))
for a, b in ((0, 12), (13, 14), (15, 20), (21, 40), (41, 60), (0, 60)):
    m = (emp >= a) & (emp <= b)
    print(f"{a:2d}-{b:2d} {int(m.sum()):5d} {100*same[m].mean():6.2f} {100*lo[m].mean():6.2f} {100*hi[m].mean():6.2f}  "
          + "  ".join(f"{100*v[m].mean():6.2f}" for v in ims.values()))
if not os.path.exists(CACHE):
    json.dump({k: res[k] for k in ("rows", "top1_rows", "self_agreement", "top1_mode", "top1_max", "repeats")},
              open(CACHE, "w"))
