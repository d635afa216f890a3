"""Helpers shared by the end-to-end tests that run the real ``snakemake`` CLI.

Imported by the test modules (``tests/`` is on ``sys.path`` under pytest's default import mode):
a throw-away copy of the workflow, the ``--config overrides=[...]`` argument, one ``snakemake``
call, the results directory a composition writes to, the jobs a dry run plans, and a check for
leftover bot processes.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

from ime.paths import repo_root

ROOT = repo_root()
COPY = ["Snakefile", "rules", "config", "workflow_scripts", "report", "envs"]


def copy_workflow(dst: Path) -> Path:
    """Copy the workflow (Snakefile, rules, config, scripts, report captions) into ``dst``."""
    dst.mkdir(parents=True, exist_ok=True)
    for name in COPY:
        src = ROOT / name
        if src.is_dir():
            shutil.copytree(src, dst / name)
        elif src.is_file():
            shutil.copy(src, dst / name)
    return dst


def overrides_arg(items: list[str] | tuple[str, ...]) -> str:
    """The single ``--config`` entry holding Hydra override strings, each quoted."""
    return "overrides=[" + ",".join(f'"{o}"' for o in items) + "]"


def snakemake(workdir: Path, *args: str, timeout: int = 400) -> subprocess.CompletedProcess:
    """``snakemake`` on ``workdir``'s own Snakefile (a copy), outputs under ``workdir``.

    ``IME_CONFIG_DIR`` is dropped so the copy's ``config/`` (bots included) is what is read.
    Targets go before ``--config`` (which takes every following word as a config entry).
    """
    cmd = [sys.executable, "-m", "snakemake", "-s", str(workdir / "Snakefile"), "-d",
           str(workdir), *args]
    env = dict(os.environ, PYTHONHASHSEED="0")
    env.pop("IME_CONFIG_DIR", None)
    return subprocess.run(cmd, cwd=workdir, capture_output=True, text=True, timeout=timeout,
                          env=env)


def results_dir(workdir: Path, config_arg: str, table: str = "table4_5.csv") -> str:
    """The results directory (relative to ``workdir``) of a composition, from a dry run."""
    dry = snakemake(workdir, "-n", "--config", config_arg)
    text = dry.stdout + dry.stderr
    assert dry.returncode == 0, text[-3000:]
    found = re.search(rf"(results/[a-z]+/[^/\s]+)/{re.escape(table)}", text)
    assert found, text[-3000:]
    return found.group(1)


def leftovers(marker: str) -> list[int]:
    """Live processes whose command line mentions ``marker`` (a unique path)."""
    out = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                cmd = Path(f"/proc/{entry}/cmdline").read_bytes().decode(errors="replace")
                state = Path(f"/proc/{entry}/stat").read_text().rsplit(")", 1)[1].split()[0]
            except (OSError, IndexError):
                continue
            if marker in cmd and state not in ("Z", "X"):
                out.append(int(entry))
    return out


def job_counts(dry_run_output: str) -> dict[str, int]:
    """``rule -> jobs`` of a ``snakemake -n`` run (its job stats table)."""
    counts: dict[str, int] = {}
    for rule, _ in planned_jobs(dry_run_output):
        counts[rule] = counts.get(rule, 0) + 1
    return counts


def planned_jobs(dry_run_output: str) -> list[tuple[str, list[str]]]:
    """``(rule, output files)`` of every job a ``snakemake -n`` run lists (its job blocks)."""
    jobs: list[tuple[str, list[str]]] = []
    for line in dry_run_output.splitlines():
        head = re.match(r"^(?:local)?rule (\w+):\s*$", line)
        if head:
            jobs.append((head.group(1), []))
            continue
        out = re.match(r"^\s+output: (.*)$", line)
        if out and jobs:
            jobs[-1][1].extend(x.strip() for x in out.group(1).split(",") if x.strip())
    return jobs
