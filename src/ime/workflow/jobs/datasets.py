"""Stage 2: log parts -> decisions -> one Parquet dataset per target; its table and run report."""

from __future__ import annotations

import json
import logging
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from ime.workflow.jobs.logging import job_logging, write_csv

log = logging.getLogger("ime.pipeline")


def read_json(paths: Sequence[str]) -> list[dict[str, Any]]:
    return [json.loads(Path(p).read_text()) for p in paths]


def job_decisions(smk: Any) -> None:
    """Replay one log part and keep its targets' decisions (a generated part: its own target's;
    a raw part: every target's)."""
    from ime.datasets.extract import extract_part

    p = smk.params.spec
    with job_logging(smk):
        rep = extract_part(smk.input[0], smk.output.parquet, smk.output.report, game=p["game"],
                           targets=p["targets"], num_actions=int(p["num_actions"]),
                           mode=p["mode"], rejects_path=smk.output.rejects,
                           game_params=p["game_params"],
                           keep_forced=bool(p.get("keep_forced", False)))
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
    with job_logging(smk):
        st = build_dataset(list(smk.input.parts), list(smk.input.reports), p["bot"],
                           smk.output.parquet, smk.output.stats, game=p["game"],
                           max_matches=p["max_matches"], dedup=p["dedup"], config=p["config"])
        log.info("%s: %d matches, %d pairs, baseline %.2f%%, %d repeated pairs (%.1f%%), "
                 "%d states with several actions", p["bot"], st["matches"], st["pairs"],
                 st["baseline"], st["duplicate_pairs"], 100 * st["duplicate_share"],
                 st["conflicting_states"])


def job_dataset_stats(smk: Any) -> None:
    """Decisions and random baseline per target (thesis Table 4.2)."""
    from ime.datasets.build import table4_2

    with job_logging(smk):
        write_csv(table4_2(read_json(list(smk.input))), smk.output[0], echo=True)


def job_run_report(smk: Any) -> None:
    """Log lines, accepted / rejected / faulted matches, per-bot counts, tags and config; and,
    apart, the run's provenance.

    ``run_report.json`` depends on the config and the logs only (a re-run writes the same
    bytes). ``provenance.json`` holds what differs between runs of one config: the code's git
    commit, package versions, the machine, a UTC time, and the variant's stage times from the
    benchmark files written so far (this job runs once the datasets exist, so its summary covers
    matches, decisions and datasets; :func:`ime.core.provenance.stage_times` gives the later
    stages' to whoever reads the benchmarks after the run).
    """
    from ime.core.provenance import collect, stage_times
    from ime.datasets.build import run_report
    from ime.paths import repo_root
    from ime.workflow.paths import JOB_BENCHMARK

    p = smk.params.spec
    out = Path(smk.output[0])
    prov_path = Path(smk.output.provenance)
    with job_logging(smk):
        rep = run_report(read_json(list(smk.input.reports)), read_json(list(smk.input.stats)),
                         extra={**p, "provenance_file": prov_path.name})
        out.parent.mkdir(parents=True, exist_ok=True)
        out.write_text(json.dumps(rep, indent=1, sort_keys=True) + "\n")
        log.info("%d log lines: %d matches accepted, %d rejected, %d faulted (excluded)",
                 rep["log_lines"], rep["matches_accepted"], rep["lines_rejected"],
                 rep["matches_faulted_excluded"])
        game = p["config"]["game"]["name"]
        bench = Path(JOB_BENCHMARK.split("/", 1)[0])  # relative to the workdir, as the rules
        prov = {"results_dir": p["results_dir"], "variant": p["variant"], "game": game,
                "tags": p["tags"], **collect(repo_root()),
                "stage_times": stage_times(bench, game, set(p["tags"].values()),
                                           p["results_dir"]),
                "stage_times_note": "summed from benchmarks/ when the run_report job ran: the "
                                    "stages it waits for (matches of generated logs, "
                                    "decisions, dataset)"}
        prov_path.write_text(json.dumps(prov, indent=1, sort_keys=True) + "\n")
        g = prov["git"]
        log.info("provenance: commit %s%s, %s", g["commit"] or f"unknown ({g['reason']})",
                 " (dirty)" if g["dirty"] else "", prov_path)
