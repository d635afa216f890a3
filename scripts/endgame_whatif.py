"""A fitted Reversi search imitator with other endgame settings, and how deep its target looks.

A diagnostic for issue 46's gap explanations, on one fold's unseen validation positions
(Maia's protocol: positions that never occur in the fold's training rows), sampled at most
``--max-empties`` empty squares, for a pipeline checkpoint
(``data/reversi/models/<tag>/search-<digest>/<bot>/fold<k>.pt``):

* **settings**: the imitator's agreement with the target by band of empties when its
  win/draw/loss solve reaches ``--wld`` empties and its solver picks by each of ``--picks``
  (``SearchSettings.endgame_wld`` / ``endgame_pick``; the fitted weights and everything else
  kept), so a setting the fit's grid did not offer is measured before it is added;
* **depth**: on positions of ``--band`` empties, among the moves the win/draw/loss solver keeps
  (``--among wld``; ``legal``: every legal move), which rule picks the target's move: the
  imitator's own search at each of ``--depths`` with no solve (ties by its tie rule), each tie
  rule's square order, and the fewest / most opponent replies; beside chance. A target whose
  agreement keeps rising with the depth searches deeper than the imitator does there.

It reads the target's logged decisions and the imitator only.

    python scripts/endgame_whatif.py data/reversi/datasets/thesis/rev1.parquet \\
        data/reversi/models/thesis/search-14d3ae0e/rev1/fold0.pt --fold 0 --out rev1.json
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

from ime.games.reversi.encode import encode_boards
from ime.imitators.data import empties, load_decisions, unseen_validation
from ime.imitators.reversi_search import (
    ENDGAME_PICKS,
    U64,
    endgame_moves,
    flips,
    legal_moves,
    order_of,
)
from ime.imitators.search_fit import search_all
from ime.nets import load_checkpoint

TIES = ("first", "last", "first_col", "last_col")


def _ints(text: str) -> list[int]:
    return [int(x) for x in text.split(",") if x]


def _bands(top: int) -> list[tuple[int, int]]:
    edges = [(0, 8), (9, 12), (13, 14), (15, 16), (17, 18), (19, 20), (21, 24), (25, 60)]
    return [(a, min(b, top)) for a, b in edges if a <= top]


def settings_grid(model: Any, P: np.ndarray, O: np.ndarray, A: np.ndarray, e: np.ndarray,
                  wlds: Sequence[int], picks: Sequence[str]) -> list[dict[str, Any]]:
    """Agreement by band for each (endgame_wld, endgame_pick), the rest of the fit kept."""
    # model.moves searches afresh (its decision memo serves forward() alone), so each setting
    # set below is searched with, not answered from an earlier setting's decisions
    base, planes, rows = model.settings, encode_boards(P, O)[0], []
    try:
        for wld in wlds:
            for pick in picks:
                model.settings = dataclasses.replace(base, endgame_wld=int(wld), endgame_pick=pick)
                t0 = time.perf_counter()
                ok = model.moves(planes) == A
                rows.append({"endgame_wld": int(wld), "endgame_pick": pick,
                             "agreement": round(100 * float(ok.mean()), 2),
                             "seconds": round(time.perf_counter() - t0, 1),
                             "by_empties": {f"{a}-{b}": [int(ok[(e >= a) & (e <= b)].sum()),
                                                         int(((e >= a) & (e <= b)).sum())]
                                            for a, b in _bands(int(e.max()))}})
    finally:
        model.settings = base
    return rows


def _replies(P: int, O: int, sq: int) -> int:
    f = int(flips(U64(P), U64(O), sq))
    return bin(int(legal_moves(U64(O ^ f), U64(P | f | (1 << sq))))).count("1")


def depth_rules(model: Any, P: np.ndarray, O: np.ndarray, A: np.ndarray, depths: Sequence[int],
                among: str) -> dict[str, Any]:
    """Which rule picks the target's move among the kept moves (see the module doc)."""
    w = model.search_weights()
    base = model.settings
    if among == "wld":
        kept = [endgame_moves(int(p), int(o), "wld") for p, o in zip(P, O, strict=True)]
    else:
        kept = [{sq for sq in range(64) if (int(legal_moves(U64(p), U64(o))) >> sq) & 1}
                for p, o in zip(P, O, strict=True)]
    rules: dict[str, list[int]] = {}
    for depth in depths:
        s = dataclasses.replace(base, depth=int(depth), endgame=0, endgame_wld=0,
                                endgame_pick="value", budget=0)
        res = search_all(P, O, w, s)
        picks = []
        for i, k in enumerate(kept):
            a0, a1 = int(res.offsets[i]), int(res.offsets[i + 1])
            vals = {int(sq): float(v) for sq, v in zip(res.squares[a0:a1], res.values[a0:a1],
                                                       strict=True)}
            top = max(vals[sq] for sq in k)
            picks.append(min((sq for sq in k if vals[sq] == top),
                             key=lambda q: order_of(q, base.tie)))
        rules[f"search_depth{depth}"] = picks
    for tie in TIES:
        rules[f"square_{tie}"] = [min(k, key=lambda q, t=tie: order_of(q, t)) for k in kept]
    for name, sign in (("fewest_replies", 1), ("most_replies", -1)):
        rules[name] = [min(k, key=lambda q, p=int(p), o=int(o): (sign * _replies(p, o, q),
                                                                  order_of(q, base.tie)))
                       for k, p, o in zip(kept, P, O, strict=True)]
    inside = np.array([int(a) in k for a, k in zip(A, kept, strict=True)])
    return {"among": among, "positions": int(len(P)),
            "target_in_kept": round(100 * float(inside.mean()), 1),
            "mean_kept": round(float(np.mean([len(k) for k in kept])), 2),
            "chance": round(100 * float(np.mean([1 / len(k) for k in kept])), 1),
            "rules": {k: round(100 * float(np.mean(np.array(v) == A)), 1)
                      for k, v in rules.items()}}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("dataset")
    ap.add_argument("checkpoint")
    ap.add_argument("--fold", type=int, default=0)
    ap.add_argument("--folds", type=int, default=5)
    ap.add_argument("--seed", type=int, default=0, help="the pipeline's train.seed")
    ap.add_argument("--max-empties", type=int, default=18)
    ap.add_argument("--sample", type=int, default=3000,
                    help="unseen positions (at most --max-empties) the settings are scored on")
    ap.add_argument("--wld", type=_ints, default=[0, 14, 16, 18],
                    help="win/draw/loss-solve thresholds (comma-separated; 0: none)")
    ap.add_argument("--picks", default=",".join(ENDGAME_PICKS),
                    help="endgame picks (comma-separated)")
    ap.add_argument("--band", type=_ints, default=[13, 18],
                    help="empties MIN,MAX of the depth diagnostic ('' to skip it)")
    ap.add_argument("--band-sample", type=int, default=500)
    ap.add_argument("--depths", type=_ints, default=[1, 2, 3, 4, 5, 6])
    ap.add_argument("--among", choices=("wld", "legal"), default="wld")
    ap.add_argument("--out", type=Path, default=None)
    args = ap.parse_args(argv)

    model = load_checkpoint(args.checkpoint)
    d = load_decisions(args.dataset)
    t = unseen_validation(d, args.fold, args.folds, args.seed)
    e = empties(t.P, t.O)
    rng = np.random.default_rng(args.seed)

    def sample(rows: np.ndarray, n: int) -> np.ndarray:
        return np.sort(rng.choice(rows, min(n, len(rows)), replace=False))

    out: dict[str, Any] = {"dataset": args.dataset, "checkpoint": args.checkpoint,
                           "fold": args.fold, "settings": dataclasses.asdict(model.settings),
                           "unseen_positions": int(len(t))}
    rows = sample(np.flatnonzero(e <= args.max_empties), args.sample)
    out["sampled"] = {"positions": int(len(rows)), "max_empties": args.max_empties}
    out["settings_grid"] = settings_grid(model, t.P[rows], t.O[rows], t.action[rows], e[rows],
                                         args.wld, [p for p in args.picks.split(",") if p])
    if args.band:
        lo, hi = args.band
        rows = sample(np.flatnonzero((e >= lo) & (e <= hi)), args.band_sample)
        out["depth"] = {"empties": [lo, hi],
                        **depth_rules(model, t.P[rows], t.O[rows], t.action[rows], args.depths,
                                      args.among)}
    text = json.dumps(out, indent=1)
    if args.out:
        args.out.write_text(text + "\n", encoding="utf-8")
    print(text)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
