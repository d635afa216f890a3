# Run from the thesis-scale clone's root (its data/ holds the run's models, dataset and ceiling):
#   python <this file> [per_fold] > by_empties.log
"""Experiment: where rev3's v16 imitators (thesis scale, all five folds) disagree with rev3, by
empties, beside rev3's own self-agreement on the ceiling sample's unseen decisions. Each fold's
imitator is scored on a seeded sample of ``per_fold`` (default 2,000) of its fold's unseen
validation positions (Maia's protocol, each position once), the rows Table 4.4's unseen accuracy
counts; the ceiling rows are the pipeline's (data/reversi/ceiling/thesis/n1000_s0_r4/rev3.json),
kept where their position is unseen in their fold (ime.evaluate.ceiling.unseen_decisions)."""
import json
import sys

import numpy as np

from ime.datasets.integrity import read_parquet
from ime.evaluate.ceiling import unseen_decisions
from ime.imitators.data import empties, load_decisions, unseen_validation
from ime.nets import load_checkpoint
from ime.train.folds import Split

DS = "data/reversi/datasets/thesis/rev3.parquet"
MODELS = "data/reversi/models/thesis/search-be90b87b/rev3"
CEILING = "data/reversi/ceiling/thesis/n1000_s0_r4/rev3.json"
BUCKETS = ((0, 12), (13, 14), (15, 20), (21, 40), (41, 60), (0, 60))
per_fold = int(sys.argv[1]) if len(sys.argv) > 1 else 2000

d = load_decisions(DS)
hits, emp_all = [], []
for fold in range(5):
    test = unseen_validation(d, fold)
    pick = np.sort(np.random.default_rng(fold).choice(len(test), min(per_fold, len(test)),
                                                      replace=False))
    test = test.subset(pick)
    model = load_checkpoint(f"{MODELS}/fold{fold}.pt")
    planes = np.zeros((len(test), 2, 8, 8), dtype=np.uint8)
    for k in range(64):
        planes[:, 0, k // 8, k % 8] = (test.P >> np.uint64(k)) & np.uint64(1)
        planes[:, 1, k // 8, k % 8] = (test.O >> np.uint64(k)) & np.uint64(1)
    moves = model.moves(planes)
    hits.append(moves == test.action)
    emp_all.append(empties(test.P, test.O))
    print(f"fold {fold}: {len(test)} unseen positions sampled, agreement "
          f"{100 * np.mean(hits[-1]):.2f} %", flush=True)
hit, emp = np.concatenate(hits), np.concatenate(emp_all)

# rev3 against itself on the ceiling sample's unseen decisions, by empties
c = json.load(open(CEILING))
unseen = unseen_decisions(DS, Split("kfold", 5, 0.0, 0))
tab = read_parquet(DS, columns=["match_id", "ply", "seat"])
where = {(str(m), int(p), int(s)): i for i, (m, p, s) in enumerate(zip(
    tab["match_id"].to_pylist(), tab["ply"].to_pylist(), tab["seat"].to_pylist(), strict=True))}
rows = [r for r in c["rows"] if (str(r[0]), int(r[1]), int(r[2])) in unseen]
idx = np.array([where[(str(r[0]), int(r[1]), int(r[2]))] for r in rows])
c_same = np.array([r[3] for r in rows], dtype=float)
c_emp = empties(d.P[idx], d.O[idx])
print(f"\nrev3's self-agreement on the {len(rows)} unseen decisions of the ceiling sample: "
      f"{100 * c_same.mean():.2f} %")
print("empties   imitator: n   agree %   disagreements   rev3 itself: n   agree %")
for a, b in BUCKETS:
    m, cm = (emp >= a) & (emp <= b), (c_emp >= a) & (c_emp <= b)
    print(f"{a:2d}-{b:2d}  {int(m.sum()):14d} {100 * hit[m].mean():9.2f} {int((~hit[m]).sum()):15d}"
          f" {int(cm.sum()):16d} {100 * c_same[cm].mean():9.2f}")
