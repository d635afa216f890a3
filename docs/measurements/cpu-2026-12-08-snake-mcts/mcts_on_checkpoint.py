# ruff: noqa: E501
"""DIAGNOSTIC: Snake's Monte-Carlo stage (ime.imitators.snake_fit.fit_mcts) run on a fitted
fold's checkpoint: the same fold split, fit/selection rows and seed as the train stage
(ime.imitators.family.fit_member), the checkpoint's weights and search settings as the base;
prints the stage's log and the fold's unseen agreement with the search alone and with the
stage's choice. Why: the stage runs last in a fit, after its weights and settings are fixed,
so applying it to an archived fold's checkpoint measures what it adds without refitting.

    python mcts_on_checkpoint.py DATASET CHECKPOINT --fold 0 --bot snk10 --overrides ... \
        --sims 2000 1000 4000 --cs 0.35 0.7 1.4 --scales 1 0.5 2 0.25 4 --depths 0 8 2 32
"""
import argparse
import json
import time

import numpy as np
import torch

from ime.core.seeding import derive_seed
from ime.games.snake.encode import extra_options
from ime.imitators.family import cap_rows, select_split
from ime.imitators.snake_features import feature_names, num_features, planes_to_positions
from ime.imitators.snake_fit import SnakeFitConfig, decide, fit_mcts, fit_roots
from ime.nets import load_checkpoint
from ime.train.folds import Split
from ime.train.loop import load_dataset, split_fold
from ime.workflow.compose import compose_plain

ap = argparse.ArgumentParser()
ap.add_argument("dataset")
ap.add_argument("checkpoint")
ap.add_argument("--fold", type=int, required=True)
ap.add_argument("--bot", required=True)
ap.add_argument("--overrides", nargs="*", default=[])
ap.add_argument("--sims", nargs="+", type=int, required=True)
ap.add_argument("--cs", nargs="+", type=float, required=True)
ap.add_argument("--scales", nargs="+", type=float, required=True)
ap.add_argument("--depths", nargs="+", type=int, default=[0])
ap.add_argument("--positions", type=int, default=300)
ap.add_argument("--rounds", type=int, default=2)
ap.add_argument("--out", default=None)
args = ap.parse_args()

cfg = compose_plain(list(args.overrides))
train = {**cfg["train"], "device": "cpu"}
settings = dict(cfg["net"].get("search") or {})
split = Split.of(train)
data, arr = load_dataset(args.dataset, torch.device("cpu"))
data = split_fold(data, arr, args.fold, split)
run_seed = derive_seed("train", split.seed, args.bot, "search", args.fold)
train_rows = data.train_idx.cpu().numpy()
fit_rows, select_rows = select_split(arr.match_id, train_rows, float(settings.get("select_share", 0.2)), run_seed)
select_rows = cap_rows(select_rows, settings.get("max_select"), run_seed)
planes, actions, mask = data.planes.cpu().numpy(), data.action.cpu().numpy(), data.mask.cpu().numpy()
extra = extra_options(data.encoder_version)  # the planes the dataset's encoder has
model = load_checkpoint(args.checkpoint)
w = np.zeros(num_features())
w[model.columns] = model.weights.detach().cpu().numpy()
base = model.settings
sel_pos = planes_to_positions(planes[select_rows], **extra)
sel_act = actions[select_rows]
chosen, _ = decide(w, base, sel_pos, fit_roots(sel_pos, sel_act, base.phase))
base_acc = 100.0 * float(np.mean(chosen == sel_act))
print(f"{args.bot} fold {args.fold}: base {base}, {[n for n, x in zip(feature_names(), w, strict=True) if x]} ; selection {len(sel_act)} rows, search alone {base_acc:.2f}%", flush=True)
fc = SnakeFitConfig(mcts_sims=tuple(args.sims), mcts_cs=tuple(args.cs), mcts_scales=tuple(args.scales), mcts_depths=tuple(args.depths), mcts_positions=args.positions, mcts_rounds=args.rounds, seed=run_seed)
t0 = time.perf_counter()
new, info = fit_mcts(w, base, base_acc, sel_pos, sel_act, fc, lambda line: print(line, flush=True))
stage_s = time.perf_counter() - t0
rows = data.val_unseen_idx.cpu().numpy()
val_pos = planes_to_positions(planes[rows], **extra)
roots = [np.flatnonzero(m > 0).tolist() for m in mask[rows]]
target = actions[rows]
plain, _ = decide(w, base, val_pos, roots)
t1 = time.perf_counter()
mc, _ = decide(w, new if new.mcts_sims else base.__class__(**{**base.to_dict(), "mcts_sims": int(info["settings"]["sims"]), "mcts_c": float(info["settings"]["c"]), "mcts_scale": float(info["settings"]["scale"]) * info["unit"], "mcts_playout": int(info["settings"]["playout"]), "mcts_seed": run_seed}), val_pos, roots)
ms = (time.perf_counter() - t1) / max(len(rows), 1) * 1000
out = {"bot": args.bot, "fold": args.fold, "unseen_rows": int(len(rows)),
       "search_unseen": 100.0 * float(np.mean(plain == target)),
       "uct_unseen": 100.0 * float(np.mean(mc == target)), "kept": info["kept"],
       "select_search": base_acc, "select_uct": info["select"], "settings": info["settings"],
       "unit": info["unit"], "stage_seconds": stage_s, "uct_ms_per_decision": ms,
       "rows": info["rows"]}
print(json.dumps({k: v for k, v in out.items() if k != "rows"}), flush=True)
if args.out:
    open(args.out, "w").write(json.dumps(out, indent=1) + "\n")
