"""Time a saved search imitator's fold metrics (Table 4.4's pass) with and without the cost cuts.

Why: at the thesis scale a deep search's metrics pass, not its fit, was the cost (rev2's fold 0
ran 44+ minutes). This reloads a fold's checkpoint and runs :func:`ime.train.loop.write_fold`
twice on the same split: as before (every training row scores train_acc, every call searches
again) and as the train stage does now (``DecisionMemo``; ``max_train_acc`` rows); it prints
both times, the searches made and whether every validation figure is equal. Usage::

    python scripts/fold_metrics_cost.py DATASET MODEL_DIR --fold 0 --max-train-acc 5000 \\
        --train-config results/reversi/<run>/... (the fold JSON's ``config.train`` is used)
"""

from __future__ import annotations

import argparse
import json
import tempfile
import time
from pathlib import Path

import torch

from ime.imitators.family import cap_rows
from ime.nets import load_checkpoint
from ime.train.folds import Split
from ime.train.loop import load_dataset, split_fold, write_fold

SAME = ("val_acc", "val_acc_unseen", "val_acc_unseen_distinct", "val_acc_opening", "val_loss",
        "val_rows", "val_unseen_rows")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("dataset")
    ap.add_argument("model_dir")
    ap.add_argument("--fold", type=int, default=0)
    ap.add_argument("--max-train-acc", type=int, default=5000)
    ap.add_argument("--out", help="a JSON file for the figures")
    a = ap.parse_args()
    saved = json.loads((Path(a.model_dir) / f"fold{a.fold}.json").read_text())
    train_cfg, net_cfg = saved["config"]["train"], saved["config"]["net"]
    data, arr = load_dataset(a.dataset, torch.device("cpu"))
    data = split_fold(data, arr, a.fold, Split.of(train_cfg))
    out: dict[str, dict] = {}
    with tempfile.TemporaryDirectory() as tmp:
        for mode in ("before", "now"):
            model = load_checkpoint(Path(a.model_dir) / f"fold{a.fold}.pt")
            rows = data.train_idx.numpy()
            acc = None
            if mode == "before":
                model.memo = None  # every call searches every row again
            else:
                acc = torch.as_tensor(cap_rows(rows, a.max_train_acc, 0))
            t0 = time.perf_counter()
            m = write_fold(model, data, bot=saved["bot"], net_config=net_cfg,
                           train_cfg=train_cfg, fold=a.fold, history=[], best_epoch=0,
                           timing=saved["timing"] | {"train_seconds": 1.0, "samples": 1},
                           checkpoint_path=Path(tmp) / f"{mode}.pt",
                           metrics_path=Path(tmp) / f"{mode}.json", train_acc_idx=acc)
            out[mode] = {"seconds": round(time.perf_counter() - t0, 1),
                         "train_acc": m["train_acc"],
                         "train_acc_rows": m.get("train_acc_rows", m["train_rows"]),
                         "searched": getattr(model.memo, "searched", None),
                         **{k: m.get(k) for k in SAME}}
            print(mode, json.dumps(out[mode]), flush=True)
    out["validation_figures_equal"] = all(out["before"][k] == out["now"][k] for k in SAME)
    print("validation figures equal:", out["validation_figures_equal"])
    if a.out:
        Path(a.out).write_text(json.dumps(out, indent=1) + "\n")


if __name__ == "__main__":
    main()
