"""The ``provenance.json`` a real run writes beside its ``run_report.json``, on the shared tiny
run (``tests/workflow/conftest.py``): every key, and a forced re-run of the report that rewrites
provenance.json, now with the stage times of every job of the run, but not one byte of
run_report.json (which must keep the same bytes for the same config). The shared run's own
provenance.json holds the jobs done when its report job ran: jobs the report does not read (the
self-agreement ceilings) may end after it."""

from __future__ import annotations

import json
import os
import re
import shutil
from pathlib import Path

import numpy as np
import pytest
from workflow_helpers import ROOT, TINY, copy_run, smk

from ime.core import provenance as prov

RES = "results/reversi/tiny"

pytestmark = pytest.mark.slow


def test_a_real_run_writes_provenance_apart_from_its_report(tiny_run: Path,
                                                            tmp_path: Path) -> None:
    run = copy_run(tiny_run, tmp_path / "run")  # the forced re-run below writes into it
    rdir = run / RES
    p = json.loads((rdir / "provenance.json").read_text())
    assert {"timestamp_utc", "git", "packages", "machine", "stage_times", "results_dir",
            "variant", "game", "tags"} <= set(p)
    assert p["game"] == "reversi" and p["results_dir"] == RES
    assert p["packages"]["numpy"] == np.__version__
    assert p["machine"]["logical_cores"] == os.cpu_count()
    if shutil.which("git") and (ROOT / ".git").exists():
        assert re.fullmatch(r"[0-9a-f]{40}", p["git"]["commit"]), p["git"]
        assert isinstance(p["git"]["dirty"], bool)
    else:
        assert p["git"]["commit"] is None and p["git"]["reason"]
    assert p["stage_times"]  # the benchmarks written before the report job (the figures: below)

    report = (rdir / "run_report.json").read_bytes()
    assert json.loads(report)["provenance_file"] == "provenance.json"
    assert "git" not in json.loads(report) and "machine" not in json.loads(report)
    smk(run, "-j1", "--forcerun", "run_report", f"{RES}/run_report.json", "--config", TINY)
    assert (rdir / "run_report.json").read_bytes() == report
    again = json.loads((rdir / "provenance.json").read_text())
    assert again["timestamp_utc"] >= p["timestamp_utc"]
    # every job of the run is done now: the same figures as reading the run's benchmarks
    assert again["stage_times"] == prov.stage_times(run / "benchmarks", "reversi", {"tiny"}, RES)
    stages = {s["stage"]: s for s in again["stage_times"]}
    # the tiny scale: 2 targets x 2 shards of matches and decisions, a dataset per target
    assert stages["matches"]["jobs"] == 4 and stages["decisions"]["jobs"] == 4
    assert stages["dataset"]["jobs"] == 2
    assert {"train", "eval_keys", "eval_score", "eval_tournament"} <= set(stages)
    assert all(s["wall_s"] > 0 for s in stages.values())
