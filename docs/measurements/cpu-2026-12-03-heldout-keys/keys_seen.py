"""How many of a target's held-out keys hold a position its scoring fold trained on, and the
held-out search imitator's S1 on each part (run in the thesis-scale clone's root, after its held-out
scores: python keys_seen.py rev1 rev2 rev5; writes /tmp/keys_seen.json)."""

import json
import sys

import numpy as np

from ime.evaluate.heldout import dataset_match_folds
from ime.evaluate.keyset import read_keyset
from ime.evaluate.scoring import read_scores
from ime.imitators.data import Decisions, load_decisions, planes_to_bitboards, position_keys

out = {}
for b in sys.argv[1:]:
    ks = read_keyset(f"data/reversi/eval/thesis/n1000_l2_s0/keys/{b}.parquet")
    df = ks.df
    held = "data/reversi/eval/thesis/n1000_l2_s0/scores/heldout/thesis/search-7b4f7e06"
    sc, _ = read_scores(f"{held}/imit_{b}/{b}.parquet")
    ds = f"data/reversi/datasets/thesis/{b}.parquet"
    fold_of = dataset_match_folds(ds, 5, 0)
    d = load_decisions(ds)
    dfold = np.array([fold_of.get(m, -1) for m in d.match_id])
    planes = np.asarray(ks.planes)
    P, O = planes_to_bitboards(planes.reshape(len(df), 2, 8, 8).round().astype(np.uint8))
    kk = position_keys(Decisions(P, O, df.action.to_numpy(), df.match_id.to_numpy()))
    dk = position_keys(d)
    kfold = np.array([fold_of[m] for m in df.match_id])
    seen = np.zeros(len(df), dtype=bool)
    for f in np.unique(kfold):  # a key is seen where a fold that trained its scorer holds it
        seen[kfold == f] = np.isin(kk[kfold == f], dk[dfold != f])
    df = df.assign(seen=seen)
    on = ["match_id", "ply", "seat"]
    mg = df.merge(sc[on + ["action"]], on=on, suffixes=("_t", "_a"))
    ok = mg.action_t.astype(int) == mg.action_a.astype(int)
    out[b] = {"keys": len(mg), "seen_share": round(100 * float(mg.seen.mean()), 1),
              "S1_seen": round(100 * float(ok[mg.seen].mean()), 1),
              "S1_unseen": round(100 * float(ok[~mg.seen].mean()), 1),
              "S1": round(100 * float(ok.mean()), 1)}
    print(b, out[b], flush=True)
json.dump(out, open("/tmp/keys_seen.json", "w"), indent=1)
