"""Provenance of a run: which code, which library versions, which machine, how long each stage
took.

A reproduced table is only as trustworthy as what is known about the run that made it: the git
commit (and whether the tree had uncommitted edits), the versions of the numeric libraries whose
changes move results, and the machine whose speed the timings reflect. Everything here describes
the run and never feeds back into it, and none of it is deterministic (timestamps, machines), so
the workflow writes it to its own file (``provenance.json``, beside ``run_report.json``) and never
into a file whose bytes a test or a re-run compares.

Every function degrades instead of failing: no ``git`` on the PATH, a tree that is not a clone,
a package that is not installed, no ``/proc`` -> the field is ``None`` (with a reason where one
helps). Only :func:`stage_times` raises, on a benchmark file that Snakemake cannot have written
(the error names the file and line).
"""

from __future__ import annotations

import csv
import importlib.metadata
import importlib.util
import math
import os
import platform
import shutil
import subprocess
from collections.abc import Collection
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

PACKAGES = ("torch", "numpy", "numba", "pandas", "pyarrow", "snakemake", "hydra-core", "ime")
"""Distributions whose versions can change results or timings (``python`` is added apart)."""

_GIT_ENV = ("GIT_DIR", "GIT_WORK_TREE", "GIT_INDEX_FILE", "GIT_OBJECT_DIRECTORY")
"""Variables that would point git at another repository than the ``root`` asked about."""

TABLES = "tables"
"""The ``benchmarks/`` folder of results-directory jobs (``paths.RESULT_BENCHMARK``)."""


def _git(root: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k not in _GIT_ENV}
    env["LC_ALL"] = "C"  # messages in English: they become the reason
    return subprocess.run(["git", "-C", str(root), *args], capture_output=True, text=True,
                          timeout=60, env=env, check=False)


def git_state(root: str | Path) -> dict[str, Any]:
    """The commit checked out at ``root`` and whether the tree differs from it.

    ``dirty``: a tracked file differs from the commit (staged or not); ``untracked``: how many
    files git neither tracks nor ignores (a new module would change what ran, so it is counted,
    but apart). Without git, or outside a clone, every field is ``None`` and ``reason`` says why;
    this never raises, since a run from an unpacked archive is still a valid run.
    """
    root = Path(root)
    none: dict[str, Any] = {"commit": None, "branch": None, "dirty": None, "untracked": None}
    if shutil.which("git") is None:
        return {**none, "reason": "git is not installed (not on PATH)"}
    if not root.is_dir():
        return {**none, "reason": f"{root} is not a directory"}
    try:
        head = _git(root, "rev-parse", "--verify", "HEAD")
        if head.returncode != 0:
            msg = (head.stderr.strip().splitlines() or ["git rev-parse failed"])[-1]
            return {**none, "reason": f"{root}: {msg}"}
        status = _git(root, "status", "--porcelain", "--untracked-files=all")
        branch = _git(root, "symbolic-ref", "--short", "-q", "HEAD")
    except (OSError, subprocess.TimeoutExpired) as e:
        return {**none, "reason": f"{root}: git failed ({e})"}
    if status.returncode != 0:
        msg = (status.stderr.strip().splitlines() or ["git status failed"])[-1]
        return {**none, "commit": head.stdout.strip(), "reason": f"{root}: {msg}"}
    lines = [ln for ln in status.stdout.splitlines() if ln]
    untracked = sum(ln.startswith("??") for ln in lines)
    return {"commit": head.stdout.strip(),
            "branch": branch.stdout.strip() or None,  # None: a detached HEAD
            "dirty": len(lines) > untracked, "untracked": untracked, "reason": None}


def package_versions(packages: Collection[str] = PACKAGES) -> dict[str, str | None]:
    """``python`` and each distribution's installed version (``None``: not installed), from the
    installed metadata (``importlib.metadata``), without importing the packages."""
    out: dict[str, str | None] = {"python": platform.python_version()}
    for name in packages:
        try:
            out[name] = importlib.metadata.version(name)
        except importlib.metadata.PackageNotFoundError:
            out[name] = None
    return out


def _cpu_model() -> str | None:
    """The CPU's name: ``/proc/cpuinfo`` (x86's ``model name``, ARM's ``Hardware`` or ``CPU
    part``), else what :mod:`platform` knows."""
    try:
        text = Path("/proc/cpuinfo").read_text(encoding="utf-8", errors="replace")
    except OSError:
        text = ""
    for key in ("model name", "Hardware", "Processor", "cpu model"):
        for line in text.splitlines():
            name, _, value = line.partition(":")
            if name.strip() == key and value.strip():
                return value.strip()
    return platform.processor() or platform.machine() or None


def _memory_bytes() -> int | None:
    """Physical memory: ``/proc/meminfo``'s MemTotal, else ``sysconf``."""
    try:
        for line in Path("/proc/meminfo").read_text(encoding="utf-8").splitlines():
            if line.startswith("MemTotal:"):
                return int(line.split()[1]) * 1024  # the kernel writes kB
    except (OSError, ValueError, IndexError):
        pass
    try:
        return int(os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES"))
    except (AttributeError, ValueError, OSError):
        return None


def _gpus() -> dict[str, Any]:
    """CUDA devices as torch sees them (count 0 and no names without torch or CUDA)."""
    if importlib.util.find_spec("torch") is None:
        return {"gpu_count": 0, "gpus": [], "cuda": None}
    try:
        import torch

        if not torch.cuda.is_available():
            return {"gpu_count": 0, "gpus": [], "cuda": torch.version.cuda}
        n = torch.cuda.device_count()
        return {"gpu_count": n, "gpus": [torch.cuda.get_device_name(i) for i in range(n)],
                "cuda": torch.version.cuda}
    except Exception as e:  # noqa: BLE001 - a broken driver must not fail the run it describes
        return {"gpu_count": 0, "gpus": [], "cuda": None, "gpu_error": f"{type(e).__name__}: {e}"}


def machine() -> dict[str, Any]:
    """The machine: CPU model, logical cores (and those this process may use), memory, GPUs,
    operating system. What the timings of :func:`stage_times` were measured on."""
    try:
        usable: int | None = len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        usable = None
    mem = _memory_bytes()
    return {
        "cpu_model": _cpu_model(),
        "arch": platform.machine() or None,
        "logical_cores": os.cpu_count(),
        "usable_cores": usable,
        "memory_gib": round(mem / 2**30, 2) if mem else None,
        **_gpus(),
        "os": platform.platform(),
        "system": platform.system(),
        "release": platform.release(),
    }


def collect(root: str | Path) -> dict[str, Any]:
    """Everything about the run but its timings: UTC time, :func:`git_state` of ``root`` (the
    code's repository), :func:`package_versions`, :func:`machine`."""
    return {
        "timestamp_utc": datetime.now(timezone.utc).isoformat(timespec="seconds"),
        "git": git_state(root),
        "packages": package_versions(),
        "machine": machine(),
    }


def _number(text: str, path: Path, line: int, column: str) -> float | None:
    """A benchmark value; Snakemake writes ``NA`` (or nothing) where it could not measure."""
    if text is None or text.strip() in ("", "NA", "nan", "-"):
        return None
    try:
        x = float(text)
    except ValueError:
        raise ValueError(f"{path}:{line}: column {column!r} is {text!r}, not a number") from None
    return None if math.isnan(x) else x


def _read_benchmark(path: Path) -> list[tuple[float, float | None]]:
    """``(wall s, cpu s or None)`` of every row of one Snakemake ``benchmark:`` TSV (one row per
    repeat of the job)."""
    with open(path, encoding="utf-8", newline="") as fh:
        rows = list(csv.reader(fh, delimiter="\t"))
    if not rows or "s" not in rows[0]:
        raise ValueError(f"{path}:1: not a Snakemake benchmark file (no column 's' in its "
                         f"header {rows[0] if rows else '(empty file)'})")
    head = rows[0]
    i_s = head.index("s")
    i_cpu = head.index("cpu_time") if "cpu_time" in head else None
    out = []
    for n, row in enumerate(rows[1:], start=2):
        if not row:
            continue
        if len(row) != len(head):
            raise ValueError(f"{path}:{n}: {len(row)} fields, the header has {len(head)}")
        wall = _number(row[i_s], path, n, "s")
        if wall is None:
            raise ValueError(f"{path}:{n}: no wall time (column 's')")
        cpu = _number(row[i_cpu], path, n, "cpu_time") if i_cpu is not None else None
        out.append((wall, cpu))
    return out


def stage_times(benchmarks_root: str | Path, game: str | None = None,
                tags: Collection[str] | None = None,
                results_dir: str | None = None) -> list[dict[str, Any]]:
    """Per stage, the jobs and their summed wall and CPU seconds, from Snakemake's benchmark
    files (``benchmarks/<game>/<stage>/<tag>/...tsv``, ``paths.JOB_BENCHMARK``; results-directory
    jobs: ``benchmarks/tables/<results dir>/<stage>/...tsv``, ``paths.RESULT_BENCHMARK``).

    ``game``: only that game's jobs (``None``: every game; a game's stage is then
    ``<game>/<stage>``). ``tags``: only per-item jobs whose first folder under the stage is one
    of these data tags (a variant's logs, dataset and train tags), so another variant's jobs are
    left out. Results-directory jobs are stage ``tables/<folder>`` (``tables/game_result``);
    ``results_dir`` (``results/<game>[/<variant>]``) keeps only that directory's (else every
    results directory of ``game``).

    Rows are sorted by stage; ``jobs`` counts benchmark files, ``wall_s`` and ``cpu_s`` sum every
    row (a job run with ``repeat(n)`` counts n times). ``cpu_s`` is ``None`` where no job of the
    stage had a CPU time; ``cpu_missing`` counts the rows without one. A missing
    ``benchmarks_root`` gives ``[]`` (nothing was benchmarked yet).
    """
    root = Path(benchmarks_root)
    if not root.is_dir():
        return []
    acc: dict[str, dict[str, Any]] = {}

    def add(stage: str, path: Path) -> None:
        s = acc.setdefault(stage, {"stage": stage, "jobs": 0, "wall_s": 0.0, "cpu_s": None,
                                   "cpu_missing": 0})
        s["jobs"] += 1
        for wall, cpu in _read_benchmark(path):
            s["wall_s"] += wall
            if cpu is None:
                s["cpu_missing"] += 1
            else:
                s["cpu_s"] = (s["cpu_s"] or 0.0) + cpu

    for path in sorted(root.rglob("*.tsv")):
        parts = path.relative_to(root).parts
        if parts[0] == TABLES:
            # tables/results/<game>[/<variant>]/<stage>/<result>.tsv: the rules name a table
            # job's benchmark "<stage>/<result>" (a result is one file), so its folder is the stage
            if len(parts) < 5 or parts[1] != "results":
                continue
            if game is not None and parts[2] != game:
                continue
            if results_dir is not None and path.parent.parent != root / TABLES / results_dir:
                continue
            stage = f"{TABLES}/{path.parent.name}"
            add(stage if game else f"{parts[2]}/{stage}", path)
            continue
        if len(parts) < 3:
            continue
        g, stage = parts[0], parts[1]
        if game is not None and g != game:
            continue
        if tags is not None and (len(parts) < 4 or parts[2] not in tags):
            continue
        add(stage if game else f"{g}/{stage}", path)
    out = []
    for stage in sorted(acc):
        s = acc[stage]
        out.append({**s, "wall_s": round(s["wall_s"], 3),
                    "cpu_s": None if s["cpu_s"] is None else round(s["cpu_s"], 3)})
    return out
