"""``scripts/device_dmc.sh``, the prepared GPU-machine call for the DMC slowdown (issue 33),
rehearsed on this box with tiny nets: it must bring back the trainer's log with its rc, the
curve, and the sampler's rows, whose columns tell a slower machine from slower self-play."""

from __future__ import annotations

import csv
import os
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[4]
TINY = ["--width", "16", "--depth", "1", "--lstm-hidden", "8", "--show-width", "8",
        "--show-depth", "1", "--unroll", "13", "--batch", "2", "--show-unroll", "1",
        "--show-batch", "2", "--num-buffers", "4", "--log-every", "1000"]


@pytest.mark.slow
def test_rehearsal_brings_back_log_curve_and_samples(tmp_path):
    out = tmp_path / "out"
    env = {**os.environ, "OUT": str(out), "DMC_OUT": str(tmp_path / "dmc")}
    proc = subprocess.run(
        ["bash", "scripts/device_dmc.sh", "--deadline", "14", "--device", "cpu", "--actors", "1",
         "--frames", "100000000", "--", *TINY],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    log = (out / "dmc.log").read_text()
    assert "DMC: 1 actor(s), learner on cpu" in log
    assert log.rstrip().endswith("rc=124"), log[-500:]  # cut by its deadline, as planned
    assert (out / "dmc_curve.csv").read_text().startswith("frames,")
    rows = list(csv.DictReader((out / "sampler.csv").open()))
    assert list(rows[0]) == ["t_s", "cpu_busy_pct", "steal_pct", "load1", "load5", "load15",
                             "probe_ms", "gpu_util_pct", "gpu_mem_mib"]
    assert len(rows) >= 3
    later = rows[1:]
    assert all(0 <= int(r["cpu_busy_pct"]) <= 100 and 0 <= int(r["steal_pct"]) <= 100
               for r in later)
    assert all(int(r["probe_ms"]) > 0 for r in rows)
    assert "cgroup cpu.max:" in proc.stdout


def test_bad_arguments_exit_2_before_anything_runs(tmp_path):
    env = {**os.environ, "OUT": str(tmp_path / "out")}
    for args in (["--deadline", "soon"], ["--nope"]):
        proc = subprocess.run(["bash", "scripts/device_dmc.sh", *args], cwd=ROOT, env=env,
                              capture_output=True, text=True, timeout=30)
        assert proc.returncode == 2, args
        assert "device_dmc.sh:" in proc.stderr
    assert not (tmp_path / "out").exists()
