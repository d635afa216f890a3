#!/usr/bin/env python
"""How far the search imitator's *search* can reach a target, given the target's own evaluation.

Not an imitator, and never part of one: it reads the target's zoo entry (config/bots/reversi.yaml),
which the imitators must not (tests/imitators/test_no_zoo.py). It answers a diagnostic question
of issue 46: where the fitted imitator falls short, is it the search's settings (depth, node
budget, move ordering, tie rule) or the fitted evaluation? For a target whose evaluation the
imitator's features express exactly (a symmetric square table plus a disc weight, nothing else:
rev4 and rev5), it plugs that table in as the imitator's weights and scores the imitator's own
search, at fixed depths and under node budgets with each move ordering, on the same unseen
validation positions as scripts/search_imitator.py (the pipeline's fold split, Maia's protocol).

The bot's tie rule becomes the imitator's ``searched_first`` / ``searched_last`` with the
``solver_*`` endgame pick (``--tie-order searched``, the default), or the square-order rule of the
same name with ``fastest_*`` (``--tie-order square``, what the imitator had before v9).

Example (quick scale, rev4, its tie rule and solve threshold)::

    python scripts/search_oracle.py data/reversi/datasets/quick/rev4.parquet rev4 \\
        --budgets 2000,3000,4000,5000
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import numpy as np
import yaml

from ime.games.reversi.bots.evaluation import NAMED_TABLES
from ime.imitators.data import fold_indices, load_decisions, unseen_positions
from ime.imitators.reversi_features import BASE_NAMES, NUM_BASE, square_class
from ime.imitators.reversi_search import ORDERINGS, SearchSettings
from ime.imitators.search_fit import predict

ROOT = Path(__file__).resolve().parents[1]
EXPRESSIBLE = {"weights", "disc", "max_depth", "nodes", "ordering", "pv_first", "tie",
               "endgame_empties", "endgame_nodes", "endgame_mode", "mobility", "parity",
               "frontier", "stable"}
"""Zoo parameters of a target whose evaluation the imitator's features express exactly."""
TERMS = {"mobility": (("mob", 1),), "parity": (("parity", 1),), "frontier": (("frontier", -1),),
         "stable": (("edge_stable", 1), ("full_edges", 6))}
"""The bot's evaluation terms as the imitator's features: each term's (feature, factor) pairs.
The bot's frontier term counts the opponent's frontier discs minus its own; the feature, own
minus opponent's. The bot's edge-stability term walks from each own corner, so it counts a
wholly owned edge's six inner discs twice: ``edge_stable + 6 * full_edges``."""


def table_weights(params: dict) -> np.ndarray:
    """The imitator's 1-phase weights equal to the bot's evaluation: its table + disc, mobility,
    parity, frontier and edge-stability terms."""
    extra = {k for k, v in params.items() if k not in EXPRESSIBLE and v}
    if extra:
        raise SystemExit(f"the target's evaluation uses {sorted(extra)}, which the imitator's "
                         f"features do not express exactly: no oracle")
    table = np.asarray(NAMED_TABLES[params.get("weights", "standard")], dtype=float).reshape(-1)
    w = np.zeros(NUM_BASE)
    for sq in range(64):
        k = square_class(sq)
        if w[k] and w[k] != table[sq] + params.get("disc", 0):
            raise SystemExit("the target's table is not symmetric: no oracle")
        w[k] = table[sq] + params.get("disc", 0)
    for term, pairs in TERMS.items():
        for name, factor in pairs:
            w[BASE_NAMES.index(name)] = factor * params.get(term, 0)
    return w


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("dataset")
    ap.add_argument("bot", help="the target's zoo id (read here, never by an imitator)")
    ap.add_argument("--fold", type=int, default=0)
    ap.add_argument("--folds", type=int, default=5)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--depths", default="1,2,3,4,5,6")
    ap.add_argument("--budgets", default="")
    ap.add_argument("--max-positions", type=int, default=1000)
    ap.add_argument("--tie-order", choices=("square", "searched"), default="searched",
                    help="the bot's tie rule as the imitator's square-order rule (first/last, "
                         "solve picks fastest_*) or by its search order (searched_*, solver_*)")
    args = ap.parse_args(argv)
    zoo = yaml.safe_load((ROOT / "config/bots/reversi.yaml").read_text())
    params = dict(zoo[args.bot].get("params", {}))
    w = table_weights(params)
    d = load_decisions(args.dataset)
    tr, va = fold_indices(d, args.fold, args.folds, args.seed)
    val = d.subset(va)
    test = val.subset(unseen_positions(d.subset(tr), val).rows[:args.max_positions])
    tie = params.get("tie", "first")
    pick_ = "value"
    if tie in ("first", "last"):
        pick_ = ("fastest_" if args.tie_order == "square" else "solver_") + tie
        tie = tie if args.tie_order == "square" else "searched_" + tie
    endgame = int(params.get("endgame_empties", 0)) if params.get("endgame_nodes") else 0
    mode = params.get("endgame_mode", "exact")
    out: dict[str, float] = {}
    for depth in (int(x) for x in args.depths.split(",") if x):
        s = SearchSettings(depth=depth, tie=tie, endgame=endgame, endgame_pick=pick_,
                           endgame_mode=mode)
        out[f"depth {depth}"] = float(np.mean(predict(w, s, test.P, test.O) == test.action)) * 100
    cap = int(params.get("max_depth", 0)) or 64
    for budget in (int(x) for x in args.budgets.split(",") if x):
        for ordering in ORDERINGS:
            for pv in (False, True):
                s = SearchSettings(depth=cap, budget=budget, tie=tie, endgame=endgame,
                                   ordering=ordering, pv_first=pv, endgame_pick=pick_,
                                   endgame_mode=mode)
                key = f"budget {budget} {ordering}{' pv-first' if pv else ''}"
                out[key] = float(np.mean(predict(w, s, test.P, test.O) == test.action)) * 100
    print(json.dumps({"dataset": args.dataset, "bot": args.bot, "positions": len(test),
                      "tie": tie, "endgame": endgame, "endgame_pick": pick_,
                      "agreement": out, "argv": sys.argv[1:] if argv is None else argv},
                     indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
