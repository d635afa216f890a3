#!/usr/bin/env python
"""Fit and measure a Reversi search imitator on one pipeline dataset and fold (issue 46).

Why a script: the search imitator is not wired into the pipeline yet (docs/imitators.md); this
measures it on the pipeline's own data and split so that its figure stands beside Table 4.4's.

Protocol: the pipeline's k-fold split by match (``train.folds``, ``train.seed``); the fold's
training matches are split again by match (an inner fold) into *fit* rows and *selection* rows
(the settings are chosen there); the imitator is then scored on the fold's validation positions
never seen in its training rows, deduplicated (Maia's protocol), with the seen share beside it.

Example (quick scale, rev1, fold 0)::

    nice -n 19 python scripts/search_imitator.py data/reversi/datasets/quick/rev1.parquet \\
        --fold 0 --out data/reversi/imitators/quick/search/rev1/fold0.json
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from dataclasses import asdict
from pathlib import Path

import numpy as np

from ime.imitators.data import Decisions, fold_indices, load_decisions, unseen_positions
from ime.imitators.fit_state import FitState, fit_key
from ime.imitators.mcts_fit import fit_mcts
from ime.imitators.search_fit import FitConfig, SearchImitator, fit, predict, round_values
from ime.train.folds import Split


def _ints(text: str) -> tuple[int, ...]:
    return tuple(int(x) for x in text.split(",") if x)


def _floats(text: str) -> tuple[float, ...]:
    return tuple(float(x) for x in text.split(",") if x)


def net_accuracy(checkpoint: Path, test: Decisions) -> float:
    """Agreement (percent) of a trained policy net (argmax of its masked policy, as the
    pipeline's imitator bot plays) with the target on ``test``'s positions."""
    from ime.bots.imitator import ImitatorBot
    from ime.games.reversi.encode import encode_boards

    bot = ImitatorBot.from_checkpoints(checkpoint.stem, [checkpoint], game="reversi")
    planes, mask = encode_boards(test.P, test.O)
    return float(np.mean(bot.choose(planes, mask) == test.action)) * 100


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("dataset", help="a Reversi dataset (data/reversi/datasets/<tag>/<bot>.parquet)")
    ap.add_argument("--fold", type=int, default=0)
    ap.add_argument("--folds", type=int, default=5, help="the pipeline's train.folds")
    ap.add_argument("--seed", type=int, default=0, help="the pipeline's train.seed")
    ap.add_argument("--depths", type=_ints, default=(1, 2, 3, 4))
    ap.add_argument("--phases", type=_ints, default=(1, 2))
    ap.add_argument("--endgames", type=_ints, default=(0, 8, 10, 12, 14))
    ap.add_argument("--endgame-modes", default="exact,wld", help="exact and/or wld")
    ap.add_argument("--endgames-wld", type=_ints, default=(0,),
                    help="win/draw/loss-solve thresholds tried above the endgame's (0: none)")
    ap.add_argument("--endgame-picks", default="value",
                    help="how a solve chooses among its best moves, tried in turn: value, "
                         "fastest_first, fastest_last, solver_first, solver_last "
                         "(comma-separated)")
    ap.add_argument("--ties", default="first,last,first_col,last_col",
                    help="tie rules tried (comma-separated): first, last, first_col, last_col, "
                         "searched_first, searched_last")
    ap.add_argument("--budgets", type=_ints, default=(0,),
                    help="node budgets tried after the fixed depths (0: none)")
    ap.add_argument("--orderings", default="static,none",
                    help="move orderings tried with a budget (static and/or none)")
    ap.add_argument("--pv-firsts", default="0,1",
                    help="with a budget, search the previous iteration's best move first: 0, 1")
    ap.add_argument("--budget-depth", type=int, default=64,
                    help="the deepest iteration of a budgeted search")
    ap.add_argument("--budget-passes", type=int, default=3,
                    help="MMTO passes under the best budgeted search")
    ap.add_argument("--loss", default="softmax", help="each pass's objective: softmax or hinge")
    ap.add_argument("--hinge-margin", type=float, default=1.0,
                    help="the hinge loss's margin over moves the tie rule prefers")
    ap.add_argument("--budget-screen", type=int, default=600,
                    help="selection positions on which every budget variant is screened")
    ap.add_argument("--budget-keep", type=int, default=3,
                    help="screened variants scored on the whole selection fold")
    ap.add_argument("--passes", type=_ints, default=(3,),
                    help="MMTO passes per depth: one number, or one per depth")
    ap.add_argument("--patience", type=int, default=None,
                    help="stop deepening after this many depths without a better selection "
                         "agreement")
    ap.add_argument("--pass-patience", type=int, default=None,
                    help="at one depth, stop the passes once this many in a row did not raise "
                         "the selection agreement")
    ap.add_argument("--max-fit", type=int, default=None,
                    help="at most this many fit positions per pass (seeded subsample)")
    ap.add_argument("--round-evals", type=int, default=0,
                    help="the round-value stage's most scorings (0: none); with --load, that "
                         "stage alone is run on the loaded imitator")
    ap.add_argument("--round-positions", type=int, default=1500,
                    help="fit positions each round-value scoring searches")
    ap.add_argument("--round-extra-share", type=float, default=0.1,
                    help="the round-value stage's sparse start: the square table and the "
                         "features weighing at least this share of the most (0: none)")
    ap.add_argument("--round-refit-positions", type=int,
                    default=FitConfig.round_refit_positions,
                    help="fit positions on which the round-value stage's table and sparse "
                         "starts are refitted (0: the climb's own)")
    ap.add_argument("--round-refit-passes", type=int,
                    default=FitConfig.round_refit_passes,
                    help="surrogate passes of those refits")
    ap.add_argument("--round-repeats", type=int, default=FitConfig.round_repeats,
                    help="the round-value stage runs again from its own result, at most this "
                         "many times in all, while the selection fold agrees more")
    ap.add_argument("--round-settings", action="store_true",
                    help="with a node budget, the round-value climb also moves the budget a "
                         "rung of --budgets and the round numbers between them, the ordering, "
                         "pv_first and the tie rule among --ties")
    ap.add_argument("--round-enter-shares", type=_floats, default=(),
                    help="the round-value climb's near moves of a weight at 0 also try these "
                         "shares of the largest weight, either sign (empty: off; e.g. "
                         "0.05,0.1,0.2)")
    ap.add_argument("--mcts-sims", type=_ints, default=(),
                    help="the Monte-Carlo stage's simulation counts (empty: no stage); with "
                         "--load, that stage alone is run on the loaded imitator")
    ap.add_argument("--mcts-cs", type=_floats, default=FitConfig.mcts_cs)
    ap.add_argument("--mcts-depths", type=_ints, default=FitConfig.mcts_depths,
                    help="playout lengths tried (0: to the end)")
    ap.add_argument("--mcts-playouts", default=",".join(FitConfig.mcts_playouts))
    ap.add_argument("--mcts-scales", type=_floats, default=FitConfig.mcts_scales)
    ap.add_argument("--mcts-aboves", type=_ints, default=FitConfig.mcts_aboves,
                    help="UCT decides positions with more empties than this")
    ap.add_argument("--mcts-positions", type=int, default=FitConfig.mcts_positions)
    ap.add_argument("--mcts-rounds", type=int, default=FitConfig.mcts_rounds)
    ap.add_argument("--mcts-climb-evals", type=int, default=FitConfig.mcts_climb_evals,
                    help="scorings of the climb of the weights on UCT's agreement (0: none)")
    ap.add_argument("--mcts-climb-positions", type=int,
                    default=FitConfig.mcts_climb_positions)
    ap.add_argument("--mcts-tree-iters", type=int, default=3,
                    help="steps of the weights fitted through UCT's tree (0: none)")
    ap.add_argument("--mcts-tree-positions", type=int, default=FitConfig.mcts_tree_positions)
    ap.add_argument("--mcts-tree-l2", type=float, default=FitConfig.mcts_tree_l2)
    ap.add_argument("--mcts-tree-repeats", type=int, default=FitConfig.mcts_tree_repeats)
    ap.add_argument("--net", type=Path, action="append", default=[],
                    help="a trained net's checkpoint (data/reversi/models/<tag>/<net>/<bot>/"
                         "fold<k>.pt) scored on the same unseen positions, for comparison")
    ap.add_argument("--load", type=Path, default=None,
                    help="score an imitator saved by --out instead of fitting one")
    ap.add_argument("--state", type=Path, default=None,
                    help="keep the fit's finished stages in this file; the same command run "
                         "again after a stop resumes after the last one (the same result)")
    ap.add_argument("--out", type=Path, default=None, help="write the fitted imitator (JSON)")
    ap.add_argument("--metrics", type=Path, default=None, help="write the measured figures")
    args = ap.parse_args(argv)

    d = load_decisions(args.dataset)
    tr, va = fold_indices(d, args.fold, args.folds, args.seed)
    train, val = d.subset(tr), d.subset(va)
    # inner split by match: 1 in 5 of the training matches choose the settings
    inner = Split("kfold", 5, 0.0, args.seed + 1).indices(train.match_id, 0)
    fit_rows, sel_rows = train.subset(inner[0]), train.subset(inner[1])
    cfg = FitConfig(depths=args.depths, phases=args.phases, endgames=args.endgames,
                    budgets=args.budgets, max_fit=args.max_fit, patience=args.patience,
                    orderings=tuple(args.orderings.split(",")), budget_depth=args.budget_depth,
                    budget_passes=args.budget_passes, budget_screen=args.budget_screen,
                    budget_keep=args.budget_keep, loss=args.loss,
                    hinge_margin=args.hinge_margin,
                    pv_firsts=tuple(bool(int(x)) for x in args.pv_firsts.split(",")),
                    endgames_wld=args.endgames_wld,
                    pass_patience=args.pass_patience, round_evals=args.round_evals,
                    round_positions=args.round_positions,
                    round_extra_share=args.round_extra_share,
                    round_refit_positions=args.round_refit_positions,
                    round_refit_passes=args.round_refit_passes,
                    round_repeats=args.round_repeats,
                    round_settings=args.round_settings,
                    round_enter_shares=args.round_enter_shares,
                    mcts_sims=args.mcts_sims, mcts_cs=args.mcts_cs,
                    mcts_depths=args.mcts_depths,
                    mcts_playouts=tuple(args.mcts_playouts.split(",")),
                    mcts_scales=args.mcts_scales, mcts_aboves=args.mcts_aboves,
                    mcts_positions=args.mcts_positions, mcts_rounds=args.mcts_rounds,
                    mcts_climb_evals=args.mcts_climb_evals,
                    mcts_climb_positions=args.mcts_climb_positions,
                    mcts_tree_iters=args.mcts_tree_iters,
                    mcts_tree_positions=args.mcts_tree_positions,
                    mcts_tree_l2=args.mcts_tree_l2,
                    mcts_tree_repeats=args.mcts_tree_repeats,
                    passes=args.passes[0] if len(args.passes) == 1 else args.passes,
                    endgame_modes=tuple(args.endgame_modes.split(",")),
                    endgame_picks=tuple(args.endgame_picks.split(",")),
                    ties=tuple(args.ties.split(",")))
    print(f"{args.dataset} fold {args.fold}: {len(fit_rows)} fit rows, {len(sel_rows)} selection "
          f"rows, {len(val)} validation rows", flush=True)
    t0 = time.perf_counter()
    state = None
    if args.state:  # keyed by everything the fit reads (the script's own argv is not needed)
        state = FitState(args.state, fit_key(
            {"fit": asdict(cfg), "fold": args.fold, "folds": args.folds, "seed": args.seed},
            [args.dataset, *([args.load] if args.load else [])]),
            lambda line: print(line, flush=True))
    if args.load:
        imitator = SearchImitator.load(args.load)
        fit_s = float(imitator.summary.get("fit_seconds", float("nan")))
        if args.round_evals:
            imitator = round_values(imitator, fit_rows, sel_rows, cfg,
                                    log=lambda line: print(line, flush=True), state=state)
            fit_s = time.perf_counter() - t0
        grid = cfg.mcts_grid()
        if grid is not None:
            mc = fit_mcts(imitator.weights, imitator.settings, sel_rows, grid, train=fit_rows,
                          seed=cfg.seed, say=lambda line: print(line, flush=True))
            imitator = SearchImitator(mc.weights, mc.settings,
                                      {**imitator.summary, "select_acc": mc.acc,
                                       "mcts_grid": mc.rows, "mcts_climb": mc.climb,
                                       "mcts_tree": mc.tree})
            fit_s = time.perf_counter() - t0
    else:
        imitator = fit(fit_rows, sel_rows, cfg, log=lambda line: print(line, flush=True),
                       state=state)
        fit_s = time.perf_counter() - t0

    unseen = unseen_positions(train, val)
    test = val.subset(unseen.rows)
    t1 = time.perf_counter()
    pred = predict(imitator.weights, imitator.settings, test.P, test.O)
    ms = (time.perf_counter() - t1) / max(1, len(test)) * 1000
    acc_unseen = float(np.mean(pred == test.action)) * 100
    pred_all = predict(imitator.weights, imitator.settings, val.P, val.O)
    acc_all = float(np.mean(pred_all == val.action)) * 100
    metrics = {
        "dataset": str(args.dataset), "fold": args.fold, "folds": args.folds, "seed": args.seed,
        "settings": imitator.settings.to_dict(), "select_acc": imitator.summary["select_acc"],
        "val_rows": len(val), "val_acc": acc_all, "unseen_positions": len(test),
        "val_acc_unseen_dedup": acc_unseen, "val_seen_share": unseen.seen_share,
        "unseen_conflicting": unseen.conflicting, "fit_seconds": fit_s,
        "ms_per_decision": ms, "fit_rows": len(fit_rows), "select_rows": len(sel_rows),
        "argv": sys.argv[1:] if argv is None else argv,
    }
    for ckpt in args.net:
        metrics.setdefault("nets", {})[str(ckpt)] = net_accuracy(ckpt, test)
    imitator.summary.update({k: metrics[k] for k in ("val_acc", "val_acc_unseen_dedup",
                                                     "val_seen_share", "ms_per_decision")})
    print(json.dumps(metrics, indent=1))
    if args.out:
        args.out.parent.mkdir(parents=True, exist_ok=True)
        imitator.save(args.out)
        assert SearchImitator.load(args.out).settings == imitator.settings
    if args.metrics:
        args.metrics.parent.mkdir(parents=True, exist_ok=True)
        args.metrics.write_text(json.dumps(metrics, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
