"""Where a fitted Reversi search imitator and its target disagree, with counts (issue 46).

On one fold's unseen validation positions (Maia's protocol: positions that never occur in the
fold's training rows, each once), for a pipeline checkpoint (``data/reversi/models/<tag>/search/
<bot>/fold<k>.pt``):

* agreement by empty squares (the opening, the middle game, the late middle game, the endgame);
* of the disagreements: the target's move tied with the imitator's for the best value (the tie
  rule lost), second best, or further down (the evaluation or the horizon), and the value gap;
* per band of empties, how often the target's move is one of the exact solver's best moves
  (best disc difference) and one of the best win/draw/loss moves: a target that solves shows
  100 % there; one that plays the outcome's best but not the disc difference's solves for
  win/draw/loss (or searches to the end).

    python scripts/imitator_disagreements.py data/reversi/datasets/quick/rev4.parquet \\
        data/reversi/models/quick/search/rev4/fold0.pt --fold 0 --out rev4.json
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

import numpy as np

from ime.games.reversi.encode import encode_boards
from ime.imitators.data import empties, load_decisions, unseen_validation
from ime.imitators.reversi_search import endgame_moves
from ime.imitators.search_fit import search_all
from ime.nets import load_checkpoint

BANDS = ((0, 8), (9, 12), (13, 18), (19, 29), (30, 44), (45, 60))
SOLVE_BANDS = ((0, 8), (9, 12), (13, 16), (17, 18))
SOLVE_SAMPLE = 150  # positions per band checked against the solver (a solve at 18 empties is dear)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("dataset")
    ap.add_argument("checkpoint")
    ap.add_argument("--fold", type=int, default=0)
    ap.add_argument("--folds", type=int, default=5)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--solve-sample", type=int, default=SOLVE_SAMPLE,
                    help="positions per band of empties checked against the solver")
    ap.add_argument("--out", type=Path, default=None)
    args = ap.parse_args(argv)

    model = load_checkpoint(args.checkpoint)
    d = load_decisions(args.dataset)
    t = unseen_validation(d, args.fold, args.folds, args.seed)
    chosen = model.moves(encode_boards(t.P, t.O)[0])
    ok = chosen == t.action
    w = model.search_weights()
    res = search_all(t.P, t.O, w, model.settings)  # every move's exact value
    rank, gap = np.zeros(len(t), dtype=np.int64), np.zeros(len(t))
    for i in range(len(t)):
        a, b = res.offsets[i], res.offsets[i + 1]
        v, sq = res.values[a:b], res.squares[a:b]
        tv = float(v[sq == t.action[i]][0])
        rank[i], gap[i] = int((v > tv + 1e-9 * max(1.0, abs(tv))).sum()), float(v.max() - tv)
    e = empties(t.P, t.O)
    wrong = ~ok
    out = {
        "dataset": args.dataset, "checkpoint": args.checkpoint, "fold": args.fold,
        "settings": model.settings.to_dict(), "positions": int(len(t)),
        "agreement": round(float(ok.mean()) * 100, 2), "disagreements": int(wrong.sum()),
        "wrong_target_tied_best": int((wrong & (rank == 0)).sum()),
        "wrong_target_second": int((wrong & (rank == 1)).sum()),
        "wrong_target_third_or_lower": int((wrong & (rank >= 2)).sum()),
        "wrong_value_gap_quartiles": [round(float(x), 3) for x in
                                      np.quantile(gap[wrong], [0.25, 0.5, 0.75])]
        if wrong.any() else [],
        "by_empties": [{"empties": f"{lo}-{hi}", "positions": int(((e >= lo) & (e <= hi)).sum()),
                        "agreement": round(float(ok[(e >= lo) & (e <= hi)].mean()) * 100, 2)
                        if ((e >= lo) & (e <= hi)).any() else None,
                        "disagreements": int((wrong & (e >= lo) & (e <= hi)).sum())}
                       for lo, hi in BANDS],
        "target_vs_solver": [],
    }
    for lo, hi in SOLVE_BANDS:
        rows = np.flatnonzero((e >= lo) & (e <= hi))[:args.solve_sample]
        if not len(rows):
            continue
        exact = [int(t.action[i]) in endgame_moves(t.P[i], t.O[i], "exact") for i in rows]
        wld = [int(t.action[i]) in endgame_moves(t.P[i], t.O[i], "wld") for i in rows]
        out["target_vs_solver"].append({
            "empties": f"{lo}-{hi}", "positions": int(len(rows)),
            "target_in_exact_best_pct": round(float(np.mean(exact)) * 100, 1),
            "target_in_wld_best_pct": round(float(np.mean(wld)) * 100, 1),
            "imitator_agreement_pct": round(float(ok[rows].mean()) * 100, 1)})
    text = json.dumps(out, indent=1)
    print(text)
    if args.out:
        args.out.parent.mkdir(parents=True, exist_ok=True)
        args.out.write_text(text + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
