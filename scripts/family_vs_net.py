#!/usr/bin/env python
"""Fit an imitator family and a policy net on the same folds of one pipeline dataset with the
train stage's own code and composed config, and print their agreement (issue 46).

Why a script: it measures one target without the whole chapter's jobs (a quick check of a new
family, e.g. Connect Four's search imitator), yet with exactly what the train rule would do:
the composed ``train`` section (split, folds, seed), :func:`ime.train.ensemble.train_members`
and its metrics (``val_acc_unseen``: validation rows whose position never occurs in the fold's
training rows). For a search family it also counts where its disagreements lie
(:func:`disagreements`).

Example (Connect Four's c4_ab3, quick scale, the two folds the quick scale trains)::

    nice -n 15 python scripts/family_vs_net.py data/connect4/datasets/quick/c4_ab3.parquet \\
        --bot c4_ab3 --overrides game=connect4 imitator=search --nets search conv \\
        --out docs/measurements/cpu-2026-12-03-connect4-search-imitator/c4_ab3_quick.json
"""

from __future__ import annotations

import argparse
import json
import logging
import sys
import tempfile
from pathlib import Path
from typing import Any

import numpy as np
import torch

from ime.nets import load_checkpoint
from ime.train.ensemble import Member, train_members
from ime.train.folds import Split
from ime.train.loop import load_dataset, split_fold
from ime.workflow.compose import compose_plain

BANDS = (0, 6, 12, 18, 24, 30, 1000)
"""Ply bands of the disagreement counts (the ply of the decision in its match)."""
KEYS = ("val_acc", "val_acc_unseen", "val_acc_unseen_distinct", "val_unseen_rows", "val_rows",
        "val_acc_opening", "params")


def disagreements(dataset: str, checkpoint: Path, fold: int,
                  train: dict[str, Any]) -> dict[str, Any]:
    """Where a search family's imitator disagrees with the target on the fold's unseen
    validation rows, from its root values (``model.decide``: its moves and the softmax of its
    root values): the target's move tied for the best value (the tie rule lost), second, or
    lower; valued as a forced loss (softmax weight 0: the search sees it lose by force); and
    agreement by ply band."""
    data, arr = load_dataset(dataset, torch.device("cpu"))
    data = split_fold(data, arr, fold, Split.of(train))
    rows = data.val_unseen_idx.cpu().numpy()
    model = load_checkpoint(checkpoint)
    chosen, soft = model.decide(data.planes[rows].cpu().numpy())  # type: ignore[operator]
    target = data.action[rows].cpu().numpy()
    wrong = chosen != target
    t = soft[np.arange(len(rows)), target]
    above = (soft > t[:, None] * (1 + 1e-9)).sum(axis=1)  # moves valued above the target's
    ply = np.asarray(arr.ply)[rows]
    bands = {}
    for lo, hi in zip(BANDS[:-1], BANDS[1:], strict=True):
        inside = (ply >= lo) & (ply < hi)
        if inside.any():
            bands[f"{lo}-{min(hi, 99) - 1}"] = {"rows": int(inside.sum()),
                                                "agree": float(100 * np.mean(~wrong[inside]))}
    return {"unseen_rows": int(len(rows)), "wrong": int(wrong.sum()),
            "wrong_tied_for_best": int((wrong & (above == 0)).sum()),
            "wrong_second": int((wrong & (above == 1)).sum()),
            "wrong_lower": int((wrong & (above >= 2)).sum()),
            "wrong_target_valued_forced_loss": int((wrong & (t == 0)).sum()),
            "agree_by_ply": bands}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[1])
    ap.add_argument("dataset")
    ap.add_argument("--bot", required=True)
    ap.add_argument("--overrides", nargs="*", default=[], help="config overrides (compose)")
    ap.add_argument("--nets", nargs="+", default=["search", "conv"],
                    help="net / family names of the composed config")
    ap.add_argument("--folds", nargs="*", type=int, default=None,
                    help="folds to fit (default: train.run_folds of the config)")
    ap.add_argument("--out", default=None, help="write the metrics here as JSON")
    ap.add_argument("--verbose", action="store_true",
                    help="print the fits' own log (stages, scorings, seconds) to stderr")
    args = ap.parse_args(argv)
    if args.verbose:
        logging.basicConfig(level=logging.INFO, format="%(asctime)s %(message)s")
    cfg = compose_plain(list(args.overrides))
    train = {**cfg["train"], "device": "cpu"}
    nets = {**cfg["nets"], cfg["net"]["name"]: cfg["net"]}
    folds = args.folds if args.folds is not None else list(range(int(train["run_folds"] or
                                                                     train["folds"])))
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        for name in args.nets:
            members = [Member(nets[name], k, Path(tmp) / f"{name}{k}.pt",
                              Path(tmp) / f"{name}{k}.json") for k in folds]
            for k, m in zip(folds, train_members(args.dataset, members, train, bot=args.bot,
                                                 progress=False), strict=True):
                row = {"net": name, "fold": k, **{key: m.get(key) for key in KEYS},
                       "train_seconds": m.get("timing", {}).get("train_seconds"),
                       "ms_per_decision": m.get("timing", {}).get("ms_per_decision")}
                fitted = getattr(load_checkpoint(Path(tmp) / f"{name}{k}.pt"), "config", {})
                if "settings" in fitted:  # a family's fitted settings (depth, tie rule, ...)
                    row["settings"] = fitted["settings"]
                    row["disagreements"] = disagreements(args.dataset,
                                                         Path(tmp) / f"{name}{k}.pt", k, train)
                rows.append(row)
                print(json.dumps(row), flush=True)
    result = {"dataset": args.dataset, "bot": args.bot, "overrides": args.overrides,
              "train": train, "rows": rows}
    if args.out:
        Path(args.out).parent.mkdir(parents=True, exist_ok=True)
        Path(args.out).write_text(json.dumps(result, indent=1, sort_keys=True) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
