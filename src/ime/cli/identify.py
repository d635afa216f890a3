"""``ime identify GAME LOG [LOG ...]``: which bot of the pool played these matches?

Reads one player's matches (a Botzone log or match pack, an imported pack, our own logs;
:mod:`ime.evaluate.player_logs`), scores every move under each pool bot's imitator (the
pipeline's trained models of the composed variant: ``data/<game>/models/<train tag>/<net>/<bot>/
fold<k>.pt``, every trained fold as an ensemble), and prints a probability per bot and the
open-set verdict, with a threshold set on the pool's held-out matches at the same k
(:mod:`ime.evaluate.identify`; docs/identify.md).

The variant is composed as the workflow composes it (``-o scale=tiny``, any Hydra override),
so ``ime identify`` finds exactly the models ``snakemake`` trained for those overrides.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "identify", help="name the bot of a pool that most likely played a player's matches",
        description="Score one player's moves in the given matches under every pool bot's "
                    "imitator (the pipeline's trained models), print each bot's probability "
                    "and say whether the player is one of them at all (an open-set threshold "
                    "set on the pool's held-out matches). docs/identify.md.")
    p.add_argument("game", help="the game (reversi, connect4, doudizhu, snake, big2, gongzhu)")
    p.add_argument("logs", nargs="+", metavar="LOG",
                   help="match logs: Botzone JSON lines (a platform *.matches pack, an "
                        "imported pack, our own data/<game>/logs/...); .gz is fine")
    who = p.add_mutually_exclusive_group()
    who.add_argument("--player", metavar="ID",
                     help="the player's id in the logs' players (a 24-hex platform id or a "
                          "name); default: the one id that plays in every match")
    who.add_argument("--seat", type=int, metavar="N",
                     help="the player is whoever sits in seat N of every match")
    p.add_argument("--max-matches", type=_positive, metavar="K",
                   help="use only the player's first K matches (file order)")
    p.add_argument("--pool", metavar="BOT,BOT,...",
                   help="the pool (default: the composed variant's targets and "
                        "identify.extra_bots)")
    p.add_argument("--net", help="whose imitators (default: evaluate.imitator.net)")
    p.add_argument("-o", "--override", action="append", default=[], metavar="KEY=VALUE",
                   help="a Hydra override choosing the variant whose models are the pool's, "
                        "as the workflow's --config overrides (repeatable), e.g. -o scale=tiny")
    p.add_argument("--threshold", type=float, metavar="NATS",
                   help="the open-set threshold on the mean log-likelihood per move (default: "
                        "set on the pool's held-out matches, which needs their datasets)")
    p.add_argument("--no-open-set", action="store_true",
                   help="only rank the pool: no threshold, no held-out datasets needed")
    p.add_argument("--mode", choices=["strict", "lenient"], default="strict",
                   help="strict: a bad log line stops (default); lenient: skip and count it")
    p.add_argument("--root", default=".", metavar="DIR",
                   help="the workflow's directory holding data/ (default: here)")
    p.add_argument("--json", action="store_true", help="print the verdict as JSON")
    p.set_defaults(func=run)


def _positive(text: str) -> int:
    from ime.cli.games import positive_int

    return positive_int(text)


def check_game(game: str) -> None:
    """A clear error for a game without a plug-in, naming the nearest."""
    from ime.core.registry import known_games
    from ime.workflow.errors import did_you_mean, nearest

    games = known_games()
    if game not in games:
        close = did_you_mean(nearest(game, games, n=1, cutoff=0.5))
        raise ValueError(f"no game {game!r} (the games: {', '.join(games)})"
                         + (f"; {close}" if close else ""))


def _build_hint(paths: Sequence[str], overrides: Sequence[str]) -> str:
    from ime.workflow.compose import config_arg

    shown = list(paths[:4]) + (["..."] if len(paths) > 4 else [])
    return f"snakemake -j8 {' '.join(shown)} {config_arg(list(overrides))}".rstrip()


def pool_files(v: Any, pool: Sequence[str], net: str, root: Path,
               overrides: Sequence[str]) -> dict[str, list[str]]:
    """Every pool bot's checkpoints (one per trained fold), or an error naming the missing
    files and the snakemake command that builds them (rule ``train_<game>``)."""
    if net not in v.net_dirs:
        raise ValueError(f"--net {net!r} is not a net of this composition (its nets: "
                         f"{', '.join(sorted(v.net_dirs))})")
    ckpts = {b: [v.checkpoint_path(b, net, k) for k in range(v.folds)] for b in pool}
    missing = [c for cs in ckpts.values() for c in cs if not (root / c).is_file()]
    if missing:
        bots = sorted({b for b, cs in ckpts.items() if any(c in missing for c in cs)})
        raise FileNotFoundError(
            f"the pool has no trained models of {', '.join(bots)} ({net} imitators; missing "
            f"{len(missing)} of {sum(len(c) for c in ckpts.values())} checkpoints under "
            f"{root / v.model_dir(net)}/); rule train_{v.game} builds them: "
            f"{_build_hint(missing, overrides)} (or all of the variant's tables: snakemake -j8 "
            f"{v.game}_tables)")
    return {b: [str(root / c) for c in cs] for b, cs in ckpts.items()}


def calibrate(v: Any, pool: Sequence[str], ckpts: dict[str, list[str]], k: int,
              root: Path, overrides: Sequence[str]) -> tuple[float, int]:
    """The open-set threshold at ``k`` matches from the pool's held-out matches."""
    from ime.evaluate.identify import heldout_scores, threshold_at
    from ime.train.folds import Split

    datasets = {b: v.dataset_path(b) for b in pool}
    missing = [p for p in datasets.values() if not (root / p).is_file()]
    if missing:
        raise FileNotFoundError(
            f"the open-set threshold is set on the pool's held-out matches, but their datasets "
            f"are missing: {', '.join(missing)}; rule dataset builds them: "
            f"{_build_hint(missing, overrides)} (or give --threshold NATS, or --no-open-set)")
    cfg = v.cfg["identify"]
    scores = heldout_scores({b: root / p for b, p in datasets.items()}, ckpts,
                            Split.of(v.cfg["train"]), game=v.game,
                            game_params=v.game_params or None, epsilon=float(cfg["epsilon"]))
    return threshold_at(scores, k, float(cfg["open_set_quantile"]), int(cfg["seed"]))


def run(args: argparse.Namespace) -> int:
    from ime.bots.imitator import ImitatorBot
    from ime.evaluate.identify import identify
    from ime.evaluate.player_logs import read_player
    from ime.workflow import make_plan
    from ime.workflow.errors import ConfigError
    from ime.workflow.identify import identify_pool

    check_game(args.game)
    root = Path(args.root)
    overrides = [o for o in args.override if not o.startswith("game=")]
    try:
        plan = make_plan([f"game={args.game}", *overrides])
    except ConfigError as e:
        raise ValueError(f"the overrides {overrides} do not compose: {e}") from None
    v = plan.main
    pool = ([b.strip() for b in args.pool.split(",") if b.strip()] if args.pool
            else identify_pool(v.cfg))
    if len(pool) < 2:
        raise ValueError(f"--pool needs at least 2 bots, got {pool}")
    net = args.net or str(v.cfg["evaluate"]["imitator"]["net"])
    logs = read_player(args.logs, v.game, v.game_params or None, player=args.player,
                       seat=args.seat, mode=args.mode,
                       keep_forced=bool(v.cfg["dataset"].get("keep_forced")),
                       max_matches=args.max_matches)
    ckpts = pool_files(v, pool, net, root, overrides)
    threshold = threshold_k = None
    if args.threshold is not None:
        threshold = float(args.threshold)
    elif not args.no_open_set:
        threshold, threshold_k = calibrate(v, pool, ckpts, len(logs.matches), root, overrides)
    models = {b: ImitatorBot.from_checkpoints(b, ckpts[b], game=v.game,
                                              game_params=v.game_params or None)
              for b in pool}
    result = identify(models, logs.decisions, epsilon=float(v.cfg["identify"]["epsilon"]),
                      threshold=threshold, threshold_k=threshold_k)
    if args.json:
        doc = {"game": v.game, "player": logs.player, "logs": list(args.logs),
               "net": net, "folds": v.folds, "matches_used": logs.matches,
               "skipped": {"without_player": logs.without_player, "faulted": logs.faulted,
                           "bad": len(logs.rejected)}, **result.to_json()}
        print(json.dumps(doc, indent=1))
        return 0
    print(f"{v.game}: {logs.summary()}")
    print(f"pool: {', '.join(pool)} ({net} imitators, {v.folds} folds each, "
          f"{root / v.model_dir(net)}/)")
    print(result.table().to_string(index=False, float_format=lambda x: f"{x:.4g}"))
    p = float(result.probabilities[result.ranking[0]])
    print(f"most likely: {result.best} (probability {p:.4g})")
    if result.known is None:
        print("open set: not checked (--no-open-set)")
    else:
        where = (f"set on held-out groups of {threshold_k} matches at quantile "
                 f"{v.cfg['identify']['open_set_quantile']}" if threshold_k is not None
                 else "given")
        verdict = "one of the pool" if result.known else "none of them"
        sign = ">=" if result.known else "<"
        print(f"open set: {verdict} (mean log-likelihood per move {result.mean_loglik:.4g} "
              f"{sign} threshold {threshold:.4g}, {where})")
    if logs.rejected:
        for b in logs.rejected[:5]:
            print(f"skipped: {b}", file=sys.stderr)
    return 0
