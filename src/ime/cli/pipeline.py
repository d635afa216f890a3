"""``ime pipeline show [OVERRIDES...]``: a variant's composed config and directories.

Prints, first, the variant's results folder (``results: results/reversi/quick__.../``) and the
command that builds it by the game's name (``snakemake -j8 reversi_tables --config ...``), then
the directories the stages of a variant write and its tags (``--json``: only the plain composed
config), without running anything. Composition, variants and paths are :mod:`ime.workflow`'s.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from typing import Any


def register(sub: Any) -> None:
    p = sub.add_parser("pipeline", help="inspect the workflow's composed config and directories")
    ps = p.add_subparsers(dest="pipeline_command", metavar="SUBCOMMAND")
    ps.required = True
    show = ps.add_parser("show", help="print a variant's tags, directories and config")
    show.add_argument("overrides", nargs="*", help="Hydra overrides, e.g. scale=tiny game=reversi")
    show.add_argument("--json", action="store_true", help="print the plain config as JSON")
    show.set_defaults(func=run_show)


def describe_variant(v: Any) -> dict[str, Any]:
    """The directories a variant's stages use (what docs/pipeline.md explains)."""
    from ime.workflow import paths as P

    logs = v.log_paths()
    return {
        "game": v.game,
        "results_dir": v.results_dir,
        "logs": logs[:3] + (["..."] if len(logs) > 3 else []),
        "datasets": P.fill(P.DATASET, game=v.game, dtag=v.dataset_tag, bot="<bot>"),
        "models": {n: v.model_dir(n) + "/" for n in v.net_dirs},
        "tags": {"logs": v.logs_tag, "dataset": v.dataset_tag, "train": v.train_tag},
    }


def headline(plan: Any, overrides: Sequence[str]) -> list[str]:
    """The first lines of ``ime pipeline show``: where the results go and the command that builds
    them by the game's name (a variant's directory is named after its overrides, so a user who
    changed the config should not have to spell it)."""
    from ime.workflow.compose import config_arg

    rdir = plan.sweep.results_dir if plan.sweep is not None else plan.main.results_dir
    build = f"snakemake -j8 {plan.main.game}_tables {config_arg(overrides)}".rstrip()
    return [f"results: {rdir}/", f"build:   {build}"]


def run_show(args: argparse.Namespace) -> int:
    from ime.workflow import make_plan

    plan = make_plan(args.overrides)
    if args.json:
        print(json.dumps(plan.main.cfg, indent=1, sort_keys=True))
        return 0
    for line in headline(plan, args.overrides):
        print(line)
    print(json.dumps(describe_variant(plan.main), indent=1))
    if plan.sweep is not None:
        print(f"sweep {plan.sweep.describe_axes()}: results in {plan.sweep.results_dir}/")
        for labels, v in plan.sweep.points:
            print("point " + ", ".join(f"{k}={x!r}" for k, x in labels.items()) + ":")
            print(json.dumps(describe_variant(v), indent=1))
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="ime pipeline")
    sub = parser.add_subparsers(dest="command")
    register(sub)
    args = parser.parse_args(["pipeline", *(argv if argv is not None else sys.argv[1:])])
    return int(args.func(args))
