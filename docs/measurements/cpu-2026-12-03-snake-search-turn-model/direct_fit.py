# ruff: noqa: E402, E501
"""Scratch (issue 46, not a pipeline script): Snake's search imitator fitted on the train stage's
folds directly (the same split, selection rows and seed as ime.imitators.family.fit_member, so
'default' gives scripts/family_vs_net.py's unseen top-1), printing the fit's own training
agreement and the agreement by head candidates and length.

usage: python direct_fit.py DATASET BOT VARIANT
VARIANT: default | phases=0,1,2 (tail rules tried) | phases=-1 (bodies fixed) | depths=N |
true_turn (a DIAGNOSTIC only: the tails leave by the dataset's own ply column, which the imitator
may not read; it measures what knowing the turn exactly would add)."""

import sys

import numpy as np
import torch

import ime.imitators.snake_search as SS
from ime.core.seeding import derive_seed
from ime.imitators.family import select_split
from ime.imitators.snake_family import fit_config
from ime.imitators.snake_features import planes_to_positions
from ime.imitators.snake_fit import decide, fit
from ime.train.folds import Split
from ime.train.loop import load_dataset, split_fold
from ime.workflow.compose import compose_plain

ds, bot, variant = sys.argv[1], sys.argv[2], sys.argv[3]
cfg = compose_plain(["game=snake", "imitator=search"])
train = {**cfg["train"], "device": "cpu"}
split = Split.of(train)
search = dict(cfg["net"].get("search") or {})
data0, arr = load_dataset(ds, torch.device("cpu"))
ply = np.asarray(arr.ply)
planes = data0.planes.numpy()
pos_all = planes_to_positions(planes)
for i, p in enumerate(pos_all):
    p.turn = int(ply[i])
if variant == "true_turn":
    orig = SS._Searcher.__init__

    def init(self, pos, w, phase, depth):
        orig(self, pos, w, phase, depth)
        if phase >= 0:
            self.pop = [not SS.grows(pos.turn + j) for j in range(depth // 2 + 2)]

    SS._Searcher.__init__ = init
for fold in range(int(train["run_folds"])):
    data = split_fold(data0, arr, fold, split)
    seed = derive_seed("train", split.seed, bot, "search", fold)
    tr = data.train_idx.numpy()
    fr, sr = select_split(arr.match_id, tr, float(search.get("select_share", 0.2)), seed)
    fc = fit_config({k: v for k, v in search.items() if k != "select_share"}, seed)
    if variant.startswith("phases="):
        fc.tail_phases = tuple(int(x) for x in variant.split("=")[1].split(","))
    if variant == "true_turn":
        fc.tail_phases = (0,)
    if variant.startswith("depths="):
        fc.depths = tuple(range(1, int(variant.split("=")[1]) + 1))
        fc.passes = tuple(list(fc.passes) + [2] * 10)[: len(fc.depths)]
    act = data.action.numpy()
    res = fit([pos_all[i] for i in fr], act[fr], [pos_all[i] for i in sr], act[sr], fc)
    va = data.val_unseen_idx.numpy()
    roots = [np.flatnonzero(m).tolist() for m in data.mask.numpy()[va]]
    ch, _ = decide(res.weights, res.settings, [pos_all[i] for i in va], roots)
    print(
        f"{variant} fold {fold}: unseen {100 * np.mean(ch == act[va]):.1f}% ({len(va)}) "
        f"train {res.summary['train_acc']:.1f}% sel {res.summary['select_acc']:.1f}% "
        f"{res.settings} {res.summary['fit_seconds']:.0f}s",
        flush=True,
    )
    one = np.array([len(pos_all[i].opps) == 1 for i in va])
    ok = ch == act[va]
    L = np.array([pos_all[i].length for i in va])
    print(
        f"   single cand {one.mean():.2f}: {100 * ok[one].mean():.1f}% multi {100 * ok[~one].mean():.1f}%; "
        f"len<=11 {100 * ok[L <= 11].mean():.1f}% ({(L <= 11).sum()}) len>11 {100 * ok[L > 11].mean():.1f}%"
    )
