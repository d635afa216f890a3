"""The SLURM profile on a real cluster: ``scripts/slurm-local.sh`` brings up munge, MariaDB +
slurmdbd, slurmctld and slurmd on this box; ``snakemake --profile profiles/slurm`` runs the tiny
chain to Table 4.5 through it, with one running job cancelled (``scancel``) on the way.

Asserts: the cancelled job is reported (with its SLURM log) and rerun by the profile's retry; the
results equal a local ``-j2`` run's byte for byte (timing files and fields aside); and a cluster
this test started leaves no daemon behind. Needs root, Linux and either the SLURM packages or
apt-get (the script installs them), and the executor plugin (Python 3.11+); skipped otherwise.

Opt-in, since it changes the machine: ``python3 -m pytest -q`` skips it ("opt-in: run with -m
slurm", ``tests/conftest.py``); ``pip install -e '.[slurm]' && python3 -m pytest -q -m slurm``
runs it (``.ci/run`` does, as its second step).
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
from workflow_helpers import ROOT, copy_workflow, overrides_arg, snakemake

pytestmark = [pytest.mark.slurm, pytest.mark.slow]

SCRIPT = ROOT / "scripts" / "slurm-local.sh"
PROFILE = ROOT / "profiles" / "slurm"
DAEMONS = ("munged", "mariadbd", "slurmdbd", "slurmctld", "slurmd")
TARGET = "results/reversi/tiny/table4_5.csv"
CONFIG = overrides_arg(["scale=tiny"])


def _why_not() -> str | None:
    if not sys.platform.startswith("linux"):
        return "SLURM test: Linux only"
    if os.geteuid() != 0:
        return "SLURM test: needs root (scripts/slurm-local.sh installs packages, starts daemons)"
    if not (shutil.which("slurmctld") or Path("/usr/sbin/slurmctld").exists()
            or shutil.which("apt-get")):
        return "SLURM test: no SLURM packages and no apt-get to install them"
    try:
        import snakemake_executor_plugin_slurm  # noqa: F401
    except ImportError:
        return "SLURM test: no snakemake-executor-plugin-slurm (pip install -e '.[slurm]')"
    return None


if (_reason := _why_not()) is not None:
    pytest.skip(_reason, allow_module_level=True)


def _daemon_pids() -> dict[int, str]:
    found = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                comm = Path(f"/proc/{entry}/comm").read_text().strip()
                state = Path(f"/proc/{entry}/stat").read_text().rsplit(")", 1)[1].split()[0]
            except (OSError, IndexError):
                continue
            if comm in DAEMONS and state not in ("Z", "X"):  # a zombie has stopped
                found[int(entry)] = comm
    return found


def _script(action: str) -> subprocess.CompletedProcess:
    return subprocess.run(["bash", str(SCRIPT), action], capture_output=True, text=True,
                          timeout=600)


def _queued_jobs() -> list[str]:
    return subprocess.run(["squeue", "-h", "-o", "%i"], capture_output=True,
                          text=True).stdout.split()


def _cancel_leftover_jobs() -> None:
    """Cancel the jobs slurmctld restored from its state directory: an earlier run that was
    killed mid-way (its Snakemake gone) leaves them queued, and they would hold the node."""
    if leftover := _queued_jobs():
        subprocess.run(["scancel", *leftover], check=False)
        deadline = time.monotonic() + 60
        while _queued_jobs() and time.monotonic() < deadline:
            time.sleep(0.5)
        assert _queued_jobs() == [], f"leftover jobs not cancelled: {_queued_jobs()}"


@pytest.fixture(scope="module")
def cluster():
    was_up = _script("status").returncode == 0
    up = _script("up")
    assert up.returncode == 0, up.stdout + up.stderr
    if not was_up:  # a cluster we started: nothing of ours can be queued yet
        _cancel_leftover_jobs()
    yield up.stdout
    if not was_up:  # ours: stop every daemon, and prove it
        down = _script("down")
        assert down.returncode == 0, down.stdout + down.stderr
        assert _daemon_pids() == {}, f"daemons left behind: {_daemon_pids()}"


def _cancel_first_running_job(stop: threading.Event, cancelled: list[str],
                              before: set[str]) -> None:
    """scancel the first job seen RUNNING (any rule) that was not queued before the run, once."""
    while not stop.is_set() and not cancelled:
        out = subprocess.run(["squeue", "-h", "-t", "RUNNING", "-o", "%i"],
                             capture_output=True, text=True).stdout.split()
        if ours := [job for job in out if job not in before]:
            subprocess.run(["scancel", ours[0]], check=False)
            cancelled.append(ours[0])
            return
        time.sleep(0.2)


def _files(root: Path) -> dict[str, Path]:
    return {str(p.relative_to(root)): p for d in ("results", "data") for p in (root / d).rglob("*")
            if p.is_file()}


def _comparable(path: Path) -> bytes | dict:
    """The bytes, or for a model's metrics JSON its content without the timing block."""
    if path.suffix == ".json" and "/models/" in str(path):
        doc = json.loads(path.read_text())
        doc.pop("timing", None)
        return doc
    return path.read_bytes()


def test_profile_runs_the_tiny_chain_like_a_local_run(cluster, tmp_path, monkeypatch):
    # sinfo: the default partition, its node up (mix or alloc while someone else's job runs)
    assert "cpu*" in cluster and re.search(r"\b(idle|mix|alloc)\b", cluster), cluster
    # The local reference run goes side by side with the SLURM run: that one mostly waits on
    # submissions and status checks, so the two together take little more than it alone.
    monkeypatch.setenv("IME_SLURM_ACCOUNT", "ime")  # read by the profile only
    local = copy_workflow(tmp_path / "local")
    local_runs: list[subprocess.CompletedProcess] = []
    t0 = time.monotonic()
    local_thread = threading.Thread(target=lambda: local_runs.append(
        snakemake(local, "-j2", TARGET, "--config", CONFIG, timeout=900)))
    local_thread.start()

    remote = copy_workflow(tmp_path / "slurm")
    stop, cancelled = threading.Event(), []
    killer = threading.Thread(target=_cancel_first_running_job,
                              args=(stop, cancelled, set(_queued_jobs())))
    killer.start()
    try:
        run = snakemake(remote, "--profile", str(PROFILE), "--seconds-between-status-checks", "2",
                        "--slurm-init-seconds-before-status-checks", "2", TARGET,
                        "--config", CONFIG, timeout=1500)
    finally:
        stop.set()
        killer.join()
        local_thread.join()
    both_s = time.monotonic() - t0
    assert local_runs and local_runs[0].returncode == 0, (local_runs[0].stderr[-3000:]
                                                          if local_runs else "no local run")
    text = run.stdout + run.stderr
    assert run.returncode == 0, text[-4000:]
    print(f"\nlocal -j2 and the SLURM profile, side by side: {both_s:.0f} s")

    # the cancelled job: reported with its state and its SLURM log, then submitted again
    assert cancelled, "no job was seen running"
    job = cancelled[0]
    assert re.search(rf"SLURM-job '{job}' failed.*CANCELLED", text), text[-4000:]
    assert re.search(r"\.snakemake/slurm_logs/rule_\w+/.*" + job + r"\.log", text)
    assert text.count("has been submitted with SLURM jobid") >= 23  # 22 jobs, one twice

    ours, theirs = _files(local), _files(remote)
    assert sorted(ours) == sorted(theirs)
    compared = [f for f in ours if not f.endswith(".timing.json")]
    assert TARGET in compared
    different = [f for f in compared if _comparable(ours[f]) != _comparable(theirs[f])]
    assert different == []
