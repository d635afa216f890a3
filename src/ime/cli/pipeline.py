"""Pipeline glue: what each Snakemake job does, and ``ime pipeline`` to inspect a variant.

The scripts in ``workflow_scripts/`` are one-liners calling the ``job_*`` functions below with the
``snakemake`` object, so that all logic is importable and testable (and the rules stay thin).
Every job sends its stdout/stderr (file-descriptor level, so numba and torch messages too) to the
rule's ``log:`` file and logs one line per step.

``ime pipeline show [OVERRIDES...]`` prints the composed config of a variant and the directories
its stages write (``--json`` for the plain config), without running anything.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import logging
import os
import sys
from collections.abc import Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any

log = logging.getLogger("ime.pipeline")

# Jobs write their progress bars into log files: one refresh every 5 s, not ten per second.
# (tqdm reads TQDM_* defaults when it is imported, so this must run before any job imports it.)
if not sys.stderr.isatty():
    os.environ.setdefault("TQDM_MININTERVAL", "5")


@contextlib.contextmanager
def job_logging(log_path: str | None) -> Iterator[None]:
    """Redirect fds 1 and 2 to ``log_path`` (appending) and configure ``logging`` there."""
    if not log_path:
        logging.basicConfig(level=logging.INFO, format="%(asctime)s %(name)s: %(message)s")
        yield
        return
    Path(log_path).parent.mkdir(parents=True, exist_ok=True)
    sys.stdout.flush()
    sys.stderr.flush()
    saved = os.dup(1), os.dup(2)
    with open(log_path, "a", encoding="utf-8") as fh:
        os.dup2(fh.fileno(), 1)
        os.dup2(fh.fileno(), 2)
        root = logging.getLogger()
        handler = logging.StreamHandler(sys.stderr)
        handler.setFormatter(logging.Formatter("%(asctime)s %(name)s: %(message)s"))
        root.addHandler(handler)
        root.setLevel(logging.INFO)
        try:
            yield
        except BaseException:
            logging.getLogger("ime.pipeline").exception("job failed")
            raise
        finally:
            sys.stdout.flush()
            sys.stderr.flush()
            root.removeHandler(handler)
            os.dup2(saved[0], 1)
            os.dup2(saved[1], 2)
            os.close(saved[0])
            os.close(saved[1])


def _log_path(smk: Any) -> str | None:
    return str(smk.log[0]) if len(smk.log) else None


# --- jobs ---------------------------------------------------------------------------------------
def job_matches(smk: Any) -> None:
    """Play one shard of one target's match schedule into a Botzone JSON-lines file."""
    from ime.matches.runner import build_target_schedule, play_schedule, shard

    p = smk.params.spec
    with job_logging(_log_path(smk)):
        specs = build_target_schedule(p["game"], p["target"], p["opponents"], p["sparring"],
                                      int(p["per_target"]), int(p["seed"]),
                                      vs_targets=float(p["vs_targets"]))
        mine = shard(specs, int(p["shard"]), int(p["shards"]))
        log.info("%s shard %d/%d: %d of %d scheduled matches (sparring partners %s), "
                 "%d worker(s)", p["target"], p["shard"], p["shards"], len(mine), len(specs),
                 p["sparring"], smk.threads)
        n = play_schedule(p["game"], mine, p["bot_specs"], smk.output[0], seed=int(p["seed"]),
                          workers=int(smk.threads), progress=True,
                          desc=f"{p['target']} shard {p['shard']}")
        log.info("wrote %d matches to %s", n, smk.output[0])


def job_decisions(smk: Any) -> None:
    """Replay one log part and keep its targets' decisions (a generated part: its own target's;
    a raw part: every target's)."""
    from ime.datasets.extract import extract_part

    p = smk.params.spec
    with job_logging(_log_path(smk)):
        rep = extract_part(smk.input[0], smk.output.parquet, smk.output.report, game=p["game"],
                           targets=p["targets"], num_actions=int(p["num_actions"]),
                           mode=p["mode"], rejects_path=smk.output.rejects)
        if p["mode"] != "lenient":
            Path(smk.output.rejects).write_text("")
        log.info("%s: %d lines, %d accepted, %d rejected, %d ended by a fault; decisions %s",
                 smk.input[0], rep["total"], rep["accepted"], rep["rejected"], rep["faulted"],
                 rep["decisions_per_bot"])


def job_dataset(smk: Any) -> None:
    """Build one bot's Parquet dataset from its decision parts (its own generated parts, or
    every raw part)."""
    from ime.datasets.build import build_dataset

    p = smk.params.spec
    with job_logging(_log_path(smk)):
        st = build_dataset(list(smk.input.parts), list(smk.input.reports), p["bot"],
                           smk.output.parquet, smk.output.stats, game=p["game"],
                           max_matches=p["max_matches"], dedup=p["dedup"], config=p["config"])
        log.info("%s: %d matches, %d pairs, baseline %.2f%%, %d repeated pairs (%.1f%%), "
                 "%d states with several actions", p["bot"], st["matches"], st["pairs"],
                 st["baseline"], st["duplicate_pairs"], 100 * st["duplicate_share"],
                 st["conflicting_states"])


def job_train(smk: Any) -> None:
    """Train one (bot, net, fold)."""
    from ime.train.loop import train_fold

    p = smk.params.spec
    with job_logging(_log_path(smk)):
        train_fold(smk.input[0], p["net"], p["train"], bot=p["bot"], fold=int(p["fold"]),
                   checkpoint_path=smk.output.ckpt, metrics_path=smk.output.metrics,
                   threads=int(smk.threads), progress=True)


def _read_json(paths: Sequence[str]) -> list[dict[str, Any]]:
    return [json.loads(Path(p).read_text()) for p in paths]


def job_table4_2(smk: Any) -> None:
    from ime.datasets.build import table4_2

    with job_logging(_log_path(smk)):
        df = table4_2(_read_json(list(smk.input)))
        _write_csv(df, smk.output[0])


def job_table4_3(smk: Any) -> None:
    from ime.train.tables import table4_3

    p = smk.params.spec
    with job_logging(_log_path(smk)):
        df = table4_3(p["nets"], p["in_shape"], int(p["num_actions"]))
        _write_csv(df, smk.output[0])


def job_table4_4(smk: Any) -> None:
    from ime.train.tables import table4_4

    p = smk.params.spec
    with job_logging(_log_path(smk)):
        stats = {s["bot"]: s for s in _read_json(list(smk.input.stats))}
        df = table4_4(_read_json(list(smk.input.metrics)), stats, p["bots"], p["nets"])
        _write_csv(df, smk.output[0])


def job_sweep(smk: Any) -> None:
    from ime.train.tables import sweep_table

    p = smk.params.spec
    with job_logging(_log_path(smk)):
        points = []
        for pt in p["points"]:
            stats = {s["bot"]: s for s in _read_json(pt["stats"])}
            points.append((pt["value"], _read_json(pt["metrics"]), stats))
        df = sweep_table(points, p["key"], p["bots"], p["nets"])
        _write_csv(df, smk.output[0])


def job_run_report(smk: Any) -> None:
    from ime.datasets.build import run_report

    p = smk.params.spec
    with job_logging(_log_path(smk)):
        rep = run_report(_read_json(list(smk.input.reports)), _read_json(list(smk.input.stats)),
                         extra=p)
        Path(smk.output[0]).parent.mkdir(parents=True, exist_ok=True)
        Path(smk.output[0]).write_text(json.dumps(rep, indent=1, sort_keys=True) + "\n")
        log.info("%d log lines: %d matches accepted, %d rejected, %d faulted (excluded)",
                 rep["log_lines"], rep["matches_accepted"], rep["lines_rejected"],
                 rep["matches_faulted_excluded"])


def _write_csv(df: Any, path: str) -> None:
    Path(path).parent.mkdir(parents=True, exist_ok=True)
    df.to_csv(path, index=False, lineterminator="\n")
    log.info("wrote %s (%d rows)\n%s", path, len(df), df.to_string(index=False))


# --- ime pipeline show --------------------------------------------------------------------------
def register(sub: Any) -> None:
    p = sub.add_parser("pipeline", help="inspect the workflow's composed config and directories")
    ps = p.add_subparsers(dest="pipeline_command", metavar="SUBCOMMAND")
    ps.required = True
    show = ps.add_parser("show", help="print a variant's tags, directories and config")
    show.add_argument("overrides", nargs="*", help="Hydra overrides, e.g. scale=tiny")
    show.add_argument("--json", action="store_true", help="print the plain config as JSON")
    show.set_defaults(func=run_show)


def describe_variant(v: Any) -> dict[str, Any]:
    """The directories a variant's stages use (what docs/pipeline.md explains)."""
    return {
        "results_dir": v.results_dir,
        "logs": v.log_paths()[:3] + (["..."] if len(v.log_paths()) > 3 else []),
        "datasets": f"data/{v.game}/datasets/{v.dataset_tag}/",
        "models": {n: v.model_dir(n) + "/" for n in v.net_dirs},
        "tags": {"logs": v.logs_tag, "dataset": v.dataset_tag, "train": v.train_tag},
    }


def run_show(args: argparse.Namespace) -> int:
    from ime.config import make_plan

    plan = make_plan(args.overrides)
    if args.json:
        print(json.dumps(plan.main.cfg, indent=1, sort_keys=True))
        return 0
    print(json.dumps(describe_variant(plan.main), indent=1))
    for value, v in plan.sweep:
        print(f"sweep {plan.main.cfg['sweep']['key']}={value}:")
        print(json.dumps(describe_variant(v), indent=1))
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="ime pipeline")
    sub = parser.add_subparsers(dest="command")
    register(sub)
    args = parser.parse_args(["pipeline", *(argv if argv is not None else sys.argv[1:])])
    return int(args.func(args))


def plain(value: Any) -> Any:
    """Snakemake params must be plain values: refuse OmegaConf nodes early."""
    if isinstance(value, Mapping):
        return {str(k): plain(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [plain(v) for v in value]
    return value
