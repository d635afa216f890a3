"""Helpers shared by the end-to-end tests that run the real ``snakemake`` CLI.

Imported by the test modules (``tests/`` is on ``sys.path`` under pytest's default import mode):
a throw-away copy of the workflow, the ``--config overrides=[...]`` argument, one ``snakemake``
call, the results directory a composition writes to, the jobs a dry run plans, and a check for
leftover bot processes.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pandas as pd
import pytest
from learning_checks import head_scores

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


def fake_python(tmp_path: Path, *, externally_managed: bool, ensurepip: bool = True) -> Path:
    """A real interpreter whose standard library directory is ours (symlinks to the real one's
    entries), so that it can hold an EXTERNALLY-MANAGED file, or lack ensurepip (Debian without
    python3-venv)."""
    ver = f"{sys.version_info.major}.{sys.version_info.minor}"
    real = Path(sys.base_prefix) / "bin" / f"python{ver}"
    stdlib = Path(sys.base_prefix) / "lib" / f"python{ver}"
    if not real.is_file() or not (stdlib / "os.py").is_file():
        pytest.skip(f"no POSIX Python layout at {sys.base_prefix}")
    home = tmp_path / "home"
    lib = home / "lib" / f"python{ver}"
    lib.mkdir(parents=True)
    for entry in stdlib.iterdir():
        if entry.name in ("site-packages", "dist-packages", "EXTERNALLY-MANAGED") or (
                entry.name == "ensurepip" and not ensurepip):
            continue
        (lib / entry.name).symlink_to(entry)
    (lib / "site-packages").mkdir()
    if externally_managed:
        (lib / "EXTERNALLY-MANAGED").write_text("[externally-managed]\nError=use a venv\n")
    exe = tmp_path / "bin" / "python3"
    exe.parent.mkdir()
    exe.write_text(f'#!/bin/sh\nPYTHONHOME="{home}" exec "{real}" "$@"\n')
    exe.chmod(0o755)
    return exe


def overrides_arg(items: list[str] | tuple[str, ...]) -> str:
    """The single ``--config`` entry holding Hydra override strings, each quoted."""
    return "overrides=[" + ",".join(f'"{o}"' for o in items) + "]"


def snakemake(workdir: Path, *args: str, timeout: int = 400,
              snakefile: Path | None = None) -> subprocess.CompletedProcess:
    """``snakemake`` (this Python's: ``python -m snakemake``) on ``workdir``'s own Snakefile (a
    copy), or on ``snakefile``, with outputs under ``workdir``.

    ``IME_CONFIG_DIR`` is dropped so the Snakefile's own ``config/`` (bots included) is read.
    Targets go before ``--config`` (which takes every following word as a config entry).
    """
    cmd = [sys.executable, "-m", "snakemake", "-s", str(snakefile or workdir / "Snakefile"),
           "-d", str(workdir), *args]
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


def smk(workdir: Path, *args: str, check: bool = True,
        timeout: int = 600) -> subprocess.CompletedProcess:
    """:func:`snakemake` on the repository's Snakefile with outputs under ``workdir``; with
    ``check``, a failure raises with the tail of its output."""
    proc = snakemake(workdir, *args, timeout=timeout, snakefile=ROOT / "Snakefile")
    if check and proc.returncode != 0:
        raise AssertionError(f"snakemake {' '.join(args)} failed ({proc.returncode}):\n"
                             f"{proc.stdout[-4000:]}\n{proc.stderr[-4000:]}")
    return proc


#: The shared tiny run's ``--config`` (``tests/workflow/conftest.py``).
TINY = overrides_arg(["scale=tiny"])

#: What the end-to-end modules read, per game (``results/<game>/tiny/<file>``). Reversi: every
#: result of rule ``all`` at the tiny scale (the sweep test compares against them).
TINY_RESULTS: dict[str, tuple[str, ...]] = {
    "reversi": ("index.md", "table4_2.csv", "table4_3.csv", "table4_4.csv", "table4_5.csv",
                "run_report.json"),
    "doudizhu": ("table5_4.csv", "table5_5.csv", "table5_6.csv", "table5_7.csv",
                 "table5_10.csv", "table5_11.csv", "figures/fig5_4.png", "agreement.csv",
                 "jsd_pairs.csv"),
    "snake": ("imitation_accuracy.csv", "s1s2_imitator.csv", "table2_2.csv", "fig2_7.png",
              "fig2_7.pdf", "split_vs_thesis.csv"),
    "big2": ("dataset_stats.csv", "net_architectures.csv", "imitation_accuracy.csv",
             "s1s2_imitator.csv", "tournament.csv"),
    "gongzhu": ("dataset_stats.csv", "imitation_accuracy.csv", "s1s2_imitator.csv",
                "tournament.csv"),
}


THESIS_REPORT = "results/thesis/tiny/reproduction.md"
"""The reproduction report of the tiny scale (Reversi, Doudizhu and Snake; test_thesis_e2e)."""


def tiny_targets() -> list[str]:
    """Every file of :data:`TINY_RESULTS`, rule ``all`` (Reversi's whole tiny chapter) and the
    tiny reproduction report."""
    return ["all", *(f"results/{g}/tiny/{f}" for g, files in TINY_RESULTS.items()
                     for f in files), THESIS_REPORT]


def copy_run(run: Path, dst: Path) -> Path:
    """A copy of a run to write into (data, results, logs and Snakemake's metadata)."""
    shutil.copytree(run, dst, symlinks=True)
    return dst


def learning_margins(run: Path, game: str, bot: str, net: str | None = None) -> tuple[float,
                                                                                      float]:
    """(val_acc_mean - baseline, S1 - baseline_S1), in points, of ``bot``'s imitators in the
    tiny results of ``game``: one net's row of ``imitation_accuracy.csv``, or with ``net=None``
    the mean over the nets; S1 of the evaluated imitator from ``s1s2_imitator.csv``."""
    rdir = run / "results" / game / "tiny"
    acc = pd.read_csv(rdir / "imitation_accuracy.csv")
    rows = acc[(acc.bot == bot) & ((acc.net == net) if net else True)]
    assert len(rows) >= 1, (bot, net, acc[["bot", "net"]].to_dict("records"))
    s = pd.read_csv(rdir / "s1s2_imitator.csv").set_index("bot").loc[bot]
    return (float(rows.val_acc_mean.mean() - rows.baseline.mean()),
            float(s.S1 - s.baseline_S1))


def first_head_margins(run: Path, game: str, bot: str, net: str) -> list[tuple[float, float]]:
    """Per fold of ``bot``'s ``net`` in the tiny run: (major head's held-out accuracy, its
    chance), both in %, after checking that ``val_acc_major`` in the fold's metrics is that
    head's accuracy and that the fold holds at least 20 held-out rows."""
    ds = run / f"data/{game}/datasets/tiny/{bot}.parquet"
    out = []
    for ckpt in sorted((run / f"data/{game}/models/tiny/{net}/{bot}").glob("fold*.pt")):
        major = head_scores(ds, ckpt)[0]
        assert major.head == "major" and major.rows >= 20, (ckpt, major)
        metrics = json.loads(ckpt.with_suffix(".json").read_text())
        assert metrics["val_acc_major"] == pytest.approx(major.accuracy), ckpt
        out.append((major.accuracy, major.chance))
    assert len(out) == 2, out  # the tiny scale's 2 folds
    return out
