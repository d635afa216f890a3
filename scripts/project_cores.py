"""Project one measured Snakemake run onto a machine with more cores: when would it end?

Issue 31 asks for the whole thesis-scale Reversi run on the 2-core box, and for a critical-path
projection of the same run on a 16-core GPU machine "from those files". This script replays the
run's jobs in a list-scheduling simulation of the bigger machine:

* **the jobs and their cost** come from the run's Snakemake log (rule, jobid, outputs, priority,
  benchmark file) and each job's ``benchmark:`` TSV (``cpu_time``: the job's process tree, user +
  system; the fair figure on a loaded box, where wall time includes waiting for a core);
* **the dependencies** come from ``snakemake --detailed-summary`` of the same run (each output's
  input files): a job waits for every job that wrote one of its inputs;
* **the bigger machine**: ``--cores`` cores; ``--speed``: how much faster one of its cores is
  than this box's (measured on the same jobs, e.g. match play's CPU-seconds there and here);
  the rules named by ``--parallel`` get ``--workers`` threads each (the pipeline's
  ``evaluate.workers=auto``: ``(cores - 1) // 3``) and are assumed to divide their CPU-seconds
  evenly over them (an optimistic bound: a job's slowest worker is longer); ``--fixed
  RULE=SECONDS`` gives a rule's jobs a measured duration instead (training on a GPU);
* **the scheduler** starts ready jobs by Snakemake priority (higher first), then jobid, whenever
  their threads fit, as Snakemake's greedy scheduler does.

It prints the projected makespan, the critical path (infinite cores: the floor no core count can
beat) and a per-rule table, as Markdown, and writes JSON with ``--json``::

    snakemake --detailed-summary --config overrides='[scale=thesis]' > ds.tsv   # in the run dir
    python3 scripts/project_cores.py RUN --summary ds.tsv --cores 16 --speed 1.3 \\
        --fixed train_reversi=70 --json projection.json
"""

from __future__ import annotations

import argparse
import csv
import heapq
import json
import re
import sys
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

EVAL_RULES = ("eval_keys", "eval_score_zoo", "eval_score_imitator", "eval_score_heldout",
              "eval_tournament_pair")
"""The rules whose threads are ``evaluate.workers`` (rules/evaluate.smk)."""

_START = re.compile(r"^(?:local)?rule (\w+):$")
_FIELD = re.compile(r"^\s+(output|benchmark|jobid|priority|threads): (.*)$")


@dataclass
class Job:
    """One job of the run: what the log says of it, its measured cost, its inputs."""

    jobid: int
    rule: str
    outputs: list[str]
    benchmark: str | None = None
    priority: int = 0
    cpu_s: float = 0.0
    wall_s: float = 0.0
    inputs: list[str] = field(default_factory=list)
    deps: set[int] = field(default_factory=set)


def parse_log(path: Path) -> dict[int, Job]:
    """Every job a Snakemake log started: rule, outputs, benchmark file and priority."""
    jobs: dict[int, Job] = {}
    block: dict[str, str] | None = None
    rule = ""

    def close() -> None:
        if block and "jobid" in block and "output" in block:
            jid = int(block["jobid"])
            jobs[jid] = Job(jid, rule, [o.strip() for o in block["output"].split(",")],
                            block.get("benchmark"), int(block.get("priority", 0)))

    for line in path.read_text(encoding="utf-8", errors="replace").splitlines():
        if m := _START.match(line):
            close()
            rule, block = m.group(1), {}
        elif block is not None and (m := _FIELD.match(line)):
            block[m.group(1)] = m.group(2).strip()
        elif block is not None and not line.startswith(" "):
            close()
            block = None
    close()
    return jobs


def read_benchmark(path: Path) -> tuple[float, float]:
    """(cpu seconds, wall seconds) of a job's ``benchmark:`` TSV (its last row: a rerun)."""
    with path.open(encoding="utf-8") as fh:
        rows = list(csv.DictReader(fh, delimiter="\t"))
    if not rows:
        raise ValueError(f"{path}: no benchmark row")
    row = rows[-1]

    def num(key: str) -> float:
        try:
            return float(row.get(key, "") or 0.0)
        except ValueError:
            return 0.0

    return num("cpu_time"), num("s")


def read_summary(path: Path) -> dict[str, list[str]]:
    """``snakemake --detailed-summary``: each output file's input files."""
    out: dict[str, list[str]] = {}
    with path.open(encoding="utf-8") as fh:
        for row in csv.DictReader(fh, delimiter="\t"):
            inputs = row.get("input-file(s)") or ""
            out[row["output_file"]] = [i for i in inputs.split(",") if i and i != "-"]
    return out


def load_run(run: Path, log: Path, summary: Path) -> dict[int, Job]:
    """The run's jobs with their cost and their dependencies on each other."""
    jobs = parse_log(log)
    inputs = read_summary(summary)
    writer = {o: j.jobid for j in jobs.values() for o in j.outputs}
    for j in jobs.values():
        if j.benchmark and (run / j.benchmark).is_file():
            j.cpu_s, j.wall_s = read_benchmark(run / j.benchmark)
        j.inputs = sorted({i for o in j.outputs for i in inputs.get(o, [])})
        j.deps = {writer[i] for i in j.inputs if i in writer and writer[i] != j.jobid}
    return jobs


@dataclass(frozen=True)
class Machine:
    """The machine the run is projected onto."""

    cores: int
    speed: float = 1.0
    workers: int = 1
    parallel: frozenset[str] = frozenset(EVAL_RULES)
    fixed: Mapping[str, float] = field(default_factory=dict)

    def threads(self, job: Job) -> int:
        return min(self.cores, self.workers) if job.rule in self.parallel else 1

    def duration(self, job: Job) -> float:
        if job.rule in self.fixed:
            return float(self.fixed[job.rule])
        return job.cpu_s / self.speed / self.threads(job)


def critical_path(jobs: Mapping[int, Job], machine: Machine) -> tuple[float, list[int]]:
    """The longest chain of dependent jobs (its seconds and jobids): the run's floor."""
    memo: dict[int, tuple[float, list[int]]] = {}

    def longest(jid: int) -> tuple[float, list[int]]:
        if jid not in memo:
            best: tuple[float, list[int]] = (0.0, [])
            for d in jobs[jid].deps:
                best = max(best, longest(d), key=lambda x: x[0])
            memo[jid] = (best[0] + machine.duration(jobs[jid]), best[1] + [jid])
        return memo[jid]

    sys.setrecursionlimit(max(1000, 4 * len(jobs)))
    return max((longest(j) for j in jobs), key=lambda x: x[0], default=(0.0, []))


def schedule(jobs: Mapping[int, Job], machine: Machine) -> dict[int, tuple[float, float]]:
    """List scheduling: each job's (start, end) seconds on ``machine``."""
    waiting = {j: set(job.deps) for j, job in jobs.items()}
    dependents: dict[int, list[int]] = {j: [] for j in jobs}
    for j, job in jobs.items():
        for d in job.deps:
            dependents[d].append(j)
    ready = [(-jobs[j].priority, j) for j, deps in waiting.items() if not deps]
    heapq.heapify(ready)
    running: list[tuple[float, int]] = []
    free, now = machine.cores, 0.0
    times: dict[int, tuple[float, float]] = {}
    while ready or running:
        held: list[tuple[int, int]] = []
        while ready:  # start every ready job that fits, best priority first
            item = heapq.heappop(ready)
            need = machine.threads(jobs[item[1]])
            if need <= free:
                free -= need
                end = now + machine.duration(jobs[item[1]])
                times[item[1]] = (now, end)
                heapq.heappush(running, (end, item[1]))
            else:
                held.append(item)
        for item in held:
            heapq.heappush(ready, item)
        if not running:
            raise ValueError(f"jobs {sorted(j for _, j in ready)} can never start on "
                             f"{machine.cores} cores")
        now, done = heapq.heappop(running)
        free += machine.threads(jobs[done])
        for nxt in dependents[done]:
            waiting[nxt].discard(done)
            if not waiting[nxt]:
                heapq.heappush(ready, (-jobs[nxt].priority, nxt))
    if len(times) != len(jobs):
        raise ValueError("a dependency cycle: some jobs never became ready")
    return times


def project(jobs: Mapping[int, Job], machine: Machine) -> dict[str, Any]:
    """Makespan, critical path and a per-rule breakdown of ``jobs`` on ``machine``."""
    times = schedule(jobs, machine)
    cp_s, cp_jobs = critical_path(jobs, machine)
    rules: dict[str, dict[str, Any]] = {}
    for j, job in sorted(jobs.items()):
        r = rules.setdefault(job.rule, {"rule": job.rule, "jobs": 0, "cpu_s": 0.0,
                                        "threads": machine.threads(job), "busy_s": 0.0,
                                        "first_start_s": None, "last_end_s": 0.0})
        start, end = times[j]
        r["jobs"] += 1
        r["cpu_s"] += job.cpu_s
        r["busy_s"] += end - start
        r["first_start_s"] = start if r["first_start_s"] is None else min(r["first_start_s"],
                                                                          start)
        r["last_end_s"] = max(r["last_end_s"], end)
    makespan = max((e for _, e in times.values()), default=0.0)
    core_s = sum((e - s) * machine.threads(jobs[j]) for j, (s, e) in times.items())
    return {
        "cores": machine.cores, "speed": machine.speed, "workers": machine.workers,
        "parallel": sorted(machine.parallel), "fixed": dict(machine.fixed),
        "jobs": len(jobs), "cpu_s": round(sum(j.cpu_s for j in jobs.values()), 1),
        "makespan_s": round(makespan, 1),
        "critical_path_s": round(cp_s, 1),
        "critical_path": [f"{jobs[j].rule}:{jobs[j].outputs[0]}" for j in cp_jobs],
        "core_utilisation": round(core_s / (makespan * machine.cores), 3) if makespan else 0.0,
        "rules": sorted(({k: round(v, 1) if isinstance(v, float) else v for k, v in r.items()}
                         for r in rules.values()),
                        key=lambda r: (r["first_start_s"], r["rule"])),
    }


def markdown(p: Mapping[str, Any]) -> str:
    lines = [
        f"Projected onto {p['cores']} cores (speed x{p['speed']}, {p['workers']} workers per "
        f"evaluation job, fixed: {p['fixed'] or 'none'}): **{p['makespan_s'] / 60:.1f} min** "
        f"({p['makespan_s']:.0f} s) for {p['jobs']} jobs and {p['cpu_s']:.0f} CPU-s measured; "
        f"critical path {p['critical_path_s']:.0f} s; cores busy "
        f"{100 * p['core_utilisation']:.0f} %.",
        "",
        "| rule | jobs | CPU-s (measured) | threads | busy s (projected) | first start s | "
        "last end s |",
        "|---|---|---|---|---|---|---|",
    ]
    for r in p["rules"]:
        lines.append(f"| {r['rule']} | {r['jobs']} | {r['cpu_s']:.0f} | {r['threads']} | "
                     f"{r['busy_s']:.0f} | {r['first_start_s']:.0f} | {r['last_end_s']:.0f} |")
    return "\n".join(lines) + "\n"


def _fixed(values: Iterable[str]) -> dict[str, float]:
    out = {}
    for v in values:
        rule, sep, secs = v.partition("=")
        if not sep:
            raise SystemExit(f"--fixed {v!r}: expected RULE=SECONDS")
        out[rule] = float(secs)
    return out


def _priorities(values: Iterable[str]) -> dict[str, int]:
    out = {}
    for v in values:
        rule, sep, prio = v.partition("=")
        if not sep or not prio.lstrip("-").isdigit():
            raise SystemExit(f"--priority {v!r}: expected RULE=INTEGER")
        out[rule] = int(prio)
    return out


def reprioritise(jobs: Mapping[int, Job], priorities: Mapping[str, int]) -> None:
    """Give every job of a rule named in ``priorities`` that priority instead of the one the
    run logged: what would the same jobs have done under another ordering?"""
    for j in jobs.values():
        if j.rule in priorities:
            j.priority = priorities[j.rule]


def newest_log(run: Path) -> Path:
    """The newest Snakemake log that ran jobs (``--detailed-summary`` and dry runs write logs
    too)."""
    for log in sorted((run / ".snakemake" / "log").glob("*.snakemake.log"), reverse=True):
        if parse_log(log):
            return log
    raise SystemExit(f"{run}: no .snakemake/log/*.snakemake.log ran a job (give --log)")


def main(argv: Sequence[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("run", type=Path, help="the run's directory (benchmarks/, .snakemake/log/)")
    ap.add_argument("--summary", type=Path, required=True,
                    help="snakemake --detailed-summary of the run (TSV)")
    ap.add_argument("--log", type=Path, help="the run's Snakemake log (default: the newest)")
    ap.add_argument("--cores", type=int, default=16)
    ap.add_argument("--speed", type=float, default=1.0,
                    help="a core of the projected machine against one of the measured run's")
    ap.add_argument("--workers", type=int,
                    help="threads of an evaluation job (default: (cores - 1) // 3, at least 1)")
    ap.add_argument("--parallel", default=",".join(EVAL_RULES),
                    help="rules that divide their CPU over --workers threads (comma-separated)")
    ap.add_argument("--fixed", action="append", default=[], metavar="RULE=SECONDS",
                    help="a rule's jobs take this long each (e.g. training on a GPU)")
    ap.add_argument("--priority", action="append", default=[], metavar="RULE=N",
                    help="schedule a rule's jobs at this priority instead of the logged one "
                         "(e.g. eval_keys=0: the ordering before KEYS_PRIORITY)")
    ap.add_argument("--json", type=Path, help="write the projection as JSON here")
    args = ap.parse_args(argv)
    workers = args.workers or max(1, (args.cores - 1) // 3)
    machine = Machine(args.cores, args.speed, workers,
                      frozenset(r for r in args.parallel.split(",") if r), _fixed(args.fixed))
    jobs = load_run(args.run, args.log or newest_log(args.run), args.summary)
    if not jobs:
        raise SystemExit("no jobs in the log")
    reprioritise(jobs, _priorities(args.priority))
    p = project(jobs, machine)
    if args.json:
        args.json.write_text(json.dumps(p, indent=1) + "\n", encoding="utf-8")
    sys.stdout.write(markdown(p))


if __name__ == "__main__":
    main()
