# ruff: noqa: E402, E501
"""Scratch (issue 46): the first Snake search imitator (commit d00fe1f's snake_features,
snake_search and snake_fit, unpacked by `git archive d00fe1f src | tar -x -C /tmp/helper23/base`)
fitted on the train stage's folds as direct_fit.py does: its unseen top-1 (snk04: 66.8 / 66.8 %,
as scripts/family_vs_net.py measured it) and its training agreement at the chosen settings.

usage: python base_fit.py DATASET BOT"""

import importlib.util
import sys

import numpy as np
import torch

for name in ("snake_features", "snake_search", "snake_fit"):
    spec = importlib.util.spec_from_file_location(
        f"ime.imitators.{name}", f"/tmp/helper23/base/src/ime/imitators/{name}.py"
    )
    mod = importlib.util.module_from_spec(spec)
    sys.modules[f"ime.imitators.{name}"] = mod
    spec.loader.exec_module(mod)
import ime.imitators.snake_fit as M
from ime.core.seeding import derive_seed
from ime.imitators.family import select_split
from ime.imitators.snake_family import fit_config
from ime.imitators.snake_features import planes_to_positions
from ime.imitators.snake_fit import decide, fit, fit_roots
from ime.train.folds import Split
from ime.train.loop import load_dataset, split_fold
from ime.workflow.compose import compose_plain

print(M.__file__)
import sys

ds, bot = sys.argv[1], sys.argv[2]
cfg = compose_plain(["game=snake", "imitator=search"])
train = {**cfg["train"], "device": "cpu"}
split = Split.of(train)
search = dict(cfg["net"].get("search") or {})
data0, arr = load_dataset(ds, torch.device("cpu"))
pos_all = planes_to_positions(data0.planes.numpy())
for fold in range(int(train["run_folds"])):
    data = split_fold(data0, arr, fold, split)
    seed = derive_seed("train", split.seed, bot, "search", fold)
    fr, sr = select_split(
        arr.match_id, data.train_idx.numpy(), float(search.get("select_share", 0.2)), seed
    )
    fc = fit_config({k: v for k, v in search.items() if k != "select_share"}, seed)
    act = data.action.numpy()
    res = fit([pos_all[i] for i in fr], act[fr], [pos_all[i] for i in sr], act[sr], fc)
    p = [pos_all[i] for i in fr]
    ch, _ = decide(res.weights, res.settings, p, fit_roots(p, act[fr]))
    va = data.val_unseen_idx.numpy()
    cv, _ = decide(
        res.weights,
        res.settings,
        [pos_all[i] for i in va],
        [np.flatnonzero(m).tolist() for m in data.mask.numpy()[va]],
    )
    print(
        f"fold {fold}: unseen {100 * np.mean(cv == act[va]):.1f}% train {100 * np.mean(ch == act[fr]):.1f}% sel {res.summary['select_acc']:.1f}% {res.settings}",
        flush=True,
    )
