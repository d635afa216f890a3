#!/usr/bin/env python3
"""Per-rule time of one Snakemake run: jobs, summed wall and CPU seconds, and when each rule's
jobs ended, as JSON and as a Markdown table (for BENCHMARKS.md).

Why a script beside :func:`ime.core.provenance.stage_times`: that sums a variant's stages for the
report; a run on a lent machine (``scripts/device_thesis.sh``, issue 31) needs more from the same
files: the longest job per rule, each rule's last finish relative to the run's start (the
critical path is the rule that finishes last, and what it waited for), and, from Snakemake's own
log, the jobs without a ``benchmark:`` (tables, reports), the jobs that failed or were cut off
at the deadline, and the "N of M steps" reached. It reads only files and imports nothing that the
GPU machine lacks (standard library and ``ime.core.provenance``, from ``src/``).

Two sources, kept apart in the output because they measure different things:

* ``benchmarks``: Snakemake's ``benchmark:`` TSVs under ``<run>/benchmarks/`` (wall ``s`` and
  ``cpu_time`` of the job's process tree; one file per finished job). Grouped by rule: the rule
  is read from the path the rules give (``paths.JOB_BENCHMARK``:
  ``benchmarks/<game>/<kind>/<tag>/...``; :data:`KIND_RULES`). ``last_end_s``: the latest file's
  modification time (written when its job ended) minus ``--start``.
* ``snakemake``: the run's log (``<run>/.snakemake/log/*.snakemake.log``, the newest unless
  ``--log``): per rule, jobs started / finished / failed, their wall seconds (log timestamps,
  1 s resolution) and first start / last end relative to ``--start`` (else the log's first
  timestamp).

    python3 scripts/bench_summary.py /tmp/s13/quick                       # Markdown on stdout
    python3 scripts/bench_summary.py RUN --game reversi --json s.json --markdown s.md \\
        --start 1764230000.5 --meta warmup_s=41.2 --meta deadline_s=430
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from datetime import datetime
from pathlib import Path
from typing import Any

SRC = Path(__file__).resolve().parents[1] / "src"
if str(SRC) not in sys.path:  # the GPU machine runs from a checkout, ime not installed
    sys.path.insert(0, str(SRC))

from ime.core.provenance import TABLES, _read_benchmark  # noqa: E402

KIND_RULES = {"eval_tournament": "eval_tournament_pair"}
"""Benchmark folders (``P.job_benchmark(kind, ...)``) whose rule has another name; any other
folder is its rule's name, except ``eval_score`` and ``train`` (:func:`rule_of`)."""

EVAL_SCORE_RULES = {"zoo": "eval_score_zoo", "imit": "eval_score_imitator",
                    "heldout": "eval_score_heldout"}
"""``benchmarks/<game>/eval_score/<ltag>/<ktag>/<which>/...``: the three scoring rules share
the folder and differ in the fifth part."""

_TS = re.compile(r"^\[(\w{3} \w{3} +\d+ \d\d:\d\d:\d\d \d{4})\]$")
_START = re.compile(r"^(?:local)?(?:rule|checkpoint) (\S+):$")
_JOBID = re.compile(r"^\s+jobid: (\d+)$")
_FINISHED = re.compile(r"^Finished jobid: (\d+) \(Rule: (\S+)\)$")
_ERROR = re.compile(r"^Error in rule (\S+):$")
_STEPS = re.compile(r"^(\d+) of (\d+) steps \((\d+)%\) done$")
_TERMINATING = "Terminating processes on user request"
_KILLED = re.compile(r"died with <Signals\.SIG(?:INT|TERM|KILL): \d+>")
"""A job's command killed by a signal (the RuleException before its error block): the deadline's
SIGINT reaches the whole process group, so a job's shell can die of it, and Snakemake log its
error, before Snakemake's own handler logs :data:`_TERMINATING`."""


def rule_of(parts: tuple[str, ...]) -> str | None:
    """The rule that wrote the benchmark file at ``parts`` (its path under ``benchmarks/``), or
    ``None`` for a path no rule of ours writes.

    ``benchmarks/tables/results/<game>[/<variant>]/<stage>/<result>.tsv`` is a results-directory
    job, rule ``<stage>`` (``game_result``); ``train``'s stacked job (file ``_stacked.tsv``) is
    rule ``train_<game>_stacked``, the per-bot ones ``train_<game>``."""
    if parts[0] == TABLES:
        return parts[-2] if len(parts) >= 5 and parts[1] == "results" else None
    if len(parts) < 3:
        return None
    game, kind = parts[0], parts[1]
    if kind == "eval_score":
        return EVAL_SCORE_RULES.get(parts[4], f"eval_score_{parts[4]}") if len(parts) > 5 else None
    if kind == "train":
        return f"train_{game}_stacked" if parts[-1] == "_stacked.tsv" else f"train_{game}"
    return KIND_RULES.get(kind, kind)


def game_of(parts: tuple[str, ...]) -> str:
    """The game a benchmark file belongs to (``tables/results/<game>/...`` or ``<game>/...``)."""
    return parts[2] if parts[0] == TABLES else parts[0]


def benchmark_rules(root: Path, game: str | None = None,
                    start: float | None = None) -> list[dict[str, Any]]:
    """Per rule, from the ``benchmark:`` TSVs under ``root``: ``jobs`` (files), ``wall_s`` and
    ``cpu_s`` (sums over every row), ``wall_max_s``, ``cpu_missing`` (rows without a CPU time),
    and with ``start`` (epoch seconds) ``first_end_s`` / ``last_end_s`` (file mtimes minus
    ``start``). A file no rule of ours writes is skipped; a malformed one raises (file:line)."""
    acc: dict[str, dict[str, Any]] = {}
    if not root.is_dir():
        return []
    for path in sorted(root.rglob("*.tsv")):
        parts = path.relative_to(root).parts
        rule = rule_of(parts)
        if rule is None or (game is not None and game_of(parts) != game):
            continue
        r = acc.setdefault(rule, {"rule": rule, "jobs": 0, "wall_s": 0.0, "cpu_s": 0.0,
                                  "wall_max_s": 0.0, "cpu_missing": 0, "ends": []})
        r["jobs"] += 1
        for wall, cpu in _read_benchmark(path):
            r["wall_s"] += wall
            r["wall_max_s"] = max(r["wall_max_s"], wall)
            if cpu is None:
                r["cpu_missing"] += 1
            else:
                r["cpu_s"] += cpu
        if start is not None:
            r["ends"].append(path.stat().st_mtime - start)
    out = []
    for rule in sorted(acc, key=lambda k: (-acc[k]["cpu_s"], k)):
        r = acc[rule]
        ends = r.pop("ends")
        row = {**r, "wall_s": round(r["wall_s"], 2), "cpu_s": round(r["cpu_s"], 2),
               "wall_max_s": round(r["wall_max_s"], 2)}
        if ends:
            row["first_end_s"], row["last_end_s"] = round(min(ends), 1), round(max(ends), 1)
        out.append(row)
    return out


def _when(text: str) -> datetime:
    return datetime.strptime(" ".join(text.split()), "%a %b %d %H:%M:%S %Y")


def parse_snakemake_log(path: Path, start: float | None = None) -> dict[str, Any]:
    """What one Snakemake log says of its jobs: per rule, jobs started, finished, failed and
    interrupted (failed after "Terminating processes on user request", or killed by a signal:
    the deadline's SIGINT; a job still running when the log says it terminated is interrupted too),
    their wall seconds from the log's timestamps, and first start / last end in seconds after
    ``start`` (epoch seconds; ``None``: the log's first timestamp); the last "N of M steps" line;
    every job as ``[rule, jobid, start, end, state]``. Timestamps are local time with 1 s
    resolution, so a job's wall is good to +-1 s."""
    lines = path.read_text(encoding="utf-8", errors="replace").splitlines()
    t0: float | None = start
    now: float | None = None
    jobs: dict[int, dict[str, Any]] = {}
    pending: str | None = None  # a rule whose start block has not shown its jobid yet
    steps: tuple[int, int] | None = None
    terminating = killed = False
    error_rule: str | None = None
    for line in lines:
        if _KILLED.search(line):
            killed = True
            continue
        if m := _TS.match(line):
            now = _when(m.group(1)).timestamp()
            t0 = now if t0 is None else t0
            pending = error_rule = None
            continue
        if line.startswith(_TERMINATING):
            terminating = True
            continue
        if now is None:
            continue
        off = round(now - t0, 1)
        if m := _START.match(line):
            pending, error_rule = m.group(1), None
        elif m := _ERROR.match(line):
            error_rule, pending = m.group(1), None
        elif (m := _JOBID.match(line)) and (pending or error_rule):
            jid = int(m.group(1))
            if pending:
                jobs[jid] = {"rule": pending, "start": off, "end": None, "state": "running"}
            else:
                j = jobs.setdefault(jid, {"rule": error_rule, "start": None, "end": None})
                j.update(end=off, state="interrupted" if terminating or killed else "failed")
                killed = False
            pending = error_rule = None
        elif m := _FINISHED.match(line):
            j = jobs.setdefault(int(m.group(1)), {"rule": m.group(2), "start": None})
            j.update(end=off, state="finished")
        elif m := _STEPS.match(line):
            steps = (int(m.group(1)), int(m.group(2)))
    if terminating:  # the run ended with them still running: the deadline cut them off
        for j in jobs.values():
            if j["state"] == "running":
                j["state"] = "interrupted"
    rules: dict[str, dict[str, Any]] = {}
    for j in jobs.values():
        r = rules.setdefault(j["rule"], {"rule": j["rule"], "started": 0, "finished": 0,
                                         "failed": 0, "interrupted": 0, "running": 0,
                                         "wall_s": 0.0, "wall_max_s": 0.0, "first_start_s": None,
                                         "last_end_s": None})
        r["started"] += j["start"] is not None
        r[j["state"]] += 1
        if j["start"] is not None:
            r["first_start_s"] = min(x for x in (r["first_start_s"], j["start"]) if x is not None)
        if j["state"] == "finished":
            r["last_end_s"] = max(x for x in (r["last_end_s"], j["end"]) if x is not None)
            if j["start"] is not None:
                r["wall_s"] += j["end"] - j["start"]
                r["wall_max_s"] = max(r["wall_max_s"], j["end"] - j["start"])
    return {
        "log": str(path),
        "times_after": "start" if start is not None else "the log's first timestamp",
        "steps_done": steps[0] if steps else 0,
        "steps_total": steps[1] if steps else None,
        "terminated": terminating,
        "rules": sorted(rules.values(), key=lambda r: (r["first_start_s"] is None,
                                                       r["first_start_s"] or 0.0, r["rule"])),
        "jobs": [[j["rule"], jid, j["start"], j["end"], j["state"]]
                 for jid, j in sorted(jobs.items())],
    }


def newest_log(run: Path) -> Path | None:
    """The newest ``.snakemake/log/*.snakemake.log`` of ``run`` (its names sort by start time)."""
    logs = sorted((run / ".snakemake" / "log").glob("*.snakemake.log"))
    return logs[-1] if logs else None


def _meta_value(text: str) -> Any:
    try:
        return json.loads(text)
    except json.JSONDecodeError:
        return text


def markdown(summary: dict[str, Any]) -> str:
    """The per-rule tables of :func:`summarize` as Markdown (BENCHMARKS.md's style)."""
    out = []
    smk = summary.get("snakemake")
    if smk:
        out += [f"Snakemake: {smk['steps_done']} of {smk['steps_total']} steps done"
                + (" (stopped at the deadline)" if smk["terminated"] else ""), "",
                "| rule | started | finished | failed | cut off | wall s (sum) | wall s (max) "
                "| first start s | last end s |", "|---|---|---|---|---|---|---|---|---|"]
        for r in smk["rules"]:
            out.append(f"| {r['rule']} | {r['started']} | {r['finished']} | {r['failed']} | "
                       f"{r['interrupted'] + r['running']} | {r['wall_s']:.0f} | "
                       f"{r['wall_max_s']:.0f} | {_num(r['first_start_s'])} | "
                       f"{_num(r['last_end_s'])} |")
        out.append("")
    rows = summary["benchmarks"]
    out += ["Benchmark files (`benchmark:` TSVs; finished jobs only):", "",
            "| rule | jobs | wall s (sum) | CPU s (sum) | wall s (max) | last end s |",
            "|---|---|---|---|---|---|"]
    for r in rows:
        out.append(f"| {r['rule']} | {r['jobs']} | {r['wall_s']:.1f} | {r['cpu_s']:.1f} | "
                   f"{r['wall_max_s']:.1f} | {_num(r.get('last_end_s'))} |")
    tot = summary["totals"]
    out.append(f"| **all** | {tot['jobs']} | {tot['wall_s']:.1f} | {tot['cpu_s']:.1f} | | |")
    return "\n".join(out) + "\n"


def _num(x: float | None) -> str:
    return "" if x is None else f"{x:.0f}"


def summarize(run: Path, game: str | None = None, start: float | None = None,
              log: Path | None = None, meta: dict[str, Any] | None = None) -> dict[str, Any]:
    """The whole summary of the run under ``run`` (see the module's docstring)."""
    rows = benchmark_rules(run / "benchmarks", game, start)
    log = log or newest_log(run)
    return {
        "meta": meta or {},
        "benchmarks": rows,
        "totals": {"jobs": sum(r["jobs"] for r in rows),
                   "wall_s": round(sum(r["wall_s"] for r in rows), 2),
                   "cpu_s": round(sum(r["cpu_s"] for r in rows), 2)},
        "snakemake": parse_snakemake_log(log, start) if log and log.is_file() else None,
    }


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("run", type=Path, help="the run's directory (benchmarks/, .snakemake/log/)")
    ap.add_argument("--game", help="only this game's benchmark files")
    ap.add_argument("--start", type=float,
                    help="epoch seconds the run started: benchmark mtimes are given after it")
    ap.add_argument("--log", type=Path, help="Snakemake log (default: the run's newest)")
    ap.add_argument("--meta", action="append", default=[], metavar="KEY=VALUE",
                    help="extra top-level facts for the JSON (VALUE parsed as JSON if it can be)")
    ap.add_argument("--json", type=Path, help="write the summary as JSON here")
    ap.add_argument("--markdown", type=Path, help="write the Markdown tables here")
    args = ap.parse_args(argv)
    meta = {}
    for item in args.meta:
        key, eq, value = item.partition("=")
        if not eq:
            ap.error(f"--meta {item!r}: expected KEY=VALUE")
        meta[key] = _meta_value(value)
    summary = summarize(args.run, args.game, args.start, args.log, meta)
    text = markdown(summary)
    if args.json:
        args.json.write_text(json.dumps(summary, indent=1) + "\n", encoding="utf-8")
    if args.markdown:
        args.markdown.write_text(text, encoding="utf-8")
    print(text, end="")


if __name__ == "__main__":
    main()
