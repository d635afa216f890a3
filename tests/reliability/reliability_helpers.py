"""Shared pieces of the reliability suite (issue 13): small real files, byte flips, commands.

Every test here must fail on the code before issue 13 (``PYTHONPATH=/tmp/base/src``) and pass
after, so the helpers use only APIs both have, and commands run as subprocesses (as a user runs
them) with the environment's ``PYTHONPATH`` passed on.
"""

from __future__ import annotations

import os
import random
import subprocess
import sys
from pathlib import Path

import numpy as np

REPO = Path(__file__).resolve().parents[2]
PROGRAMS = Path(__file__).resolve().parent / "programs"
PACK = REPO / "tests" / "data" / "reversi_pack.matches"


def ime(*args: str, cwd: Path = REPO, timeout: float = 120) -> subprocess.CompletedProcess:
    """``python -m ime ARGS`` as a user runs it."""
    return subprocess.run([sys.executable, "-m", "ime", *args], cwd=cwd, capture_output=True,
                          text=True, timeout=timeout)


def ime_verify(*args: str, cwd: Path = REPO, timeout: float = 120) -> subprocess.CompletedProcess:
    """``ime verify ARGS`` (through its module, which works before the command is
    registered in ``ime.cli.main`` and after)."""
    return subprocess.run([sys.executable, "-m", "ime.cli.verify", *args], cwd=cwd,
                          capture_output=True, text=True, timeout=timeout)


def decisions_columns(n: int, seed: int = 0) -> dict:
    """``n`` decisions shaped like Reversi's (2 planes of 8x8, 64 actions): sparse 0/1 planes,
    a few legal squares, a legal action, as the extractor writes them."""
    rng = np.random.default_rng(seed)
    state = (rng.random((n, 128)) < 0.2).astype(np.uint8)
    mask = np.zeros((n, 64), np.uint8)
    action = np.zeros(n, np.int64)
    for i in range(n):
        legal = rng.choice(64, size=int(rng.integers(1, 12)), replace=False)
        mask[i, legal] = 1
        action[i] = legal[int(rng.integers(len(legal)))]
    ids = [f"m{i // 30:04d}" for i in range(n)]
    return {"bot": ["rev1"] * n, "match_id": ids, "ply": [i % 30 for i in range(n)],
            "seat": [i % 2 for i in range(n)], "players": [["rev1", "opp"]] * n,
            "state": state, "mask": mask, "action": action,
            "response": ['{"x":1,"y":2}'] * n}


def write_decisions(path: Path, n: int = 240, seed: int = 0) -> Path:
    """A decisions file written by the project's own writer."""
    from ime.datasets.schema import make_table, write_table

    table = make_table(decisions_columns(n, seed), 128, 64)
    write_table(table, path, {"schema_version": "ime-decisions-v1", "game": "reversi",
                              "bot": "rev1", "encoder_version": "reversi-planes-v1",
                              "state_shape": [2, 8, 8], "num_actions": 64})
    return path


def flip(blob: bytes, rng: random.Random) -> tuple[bytes, int]:
    """``blob`` with one byte XOR-ed with a random non-zero value; returns the position."""
    b = bytearray(blob)
    pos = rng.randrange(len(b))
    b[pos] ^= rng.randrange(1, 256)
    return bytes(b), pos


def write_keeping_mtime(path: Path, blob: bytes) -> None:
    """Overwrite ``path`` with ``blob`` and put its size-independent mtime back (what silent
    damage looks like to ``make``-style tools)."""
    st = path.stat()
    path.write_bytes(blob)
    os.utime(path, ns=(st.st_atime_ns, st.st_mtime_ns))


def toy_snakemake(wf: Path, *args: str, check: bool = True) -> subprocess.CompletedProcess:
    """``snakemake -j1 ARGS`` in a toy workflow's folder (its own ``Snakefile``); with
    ``check``, it must succeed."""
    run = subprocess.run([sys.executable, "-m", "snakemake", "-j1", *args], cwd=wf,
                         capture_output=True, text=True, timeout=120)
    assert not check or run.returncode == 0, run.stdout + run.stderr
    return run


def toy_built(wf: Path, snakefile: str, *args: str) -> Path:
    """A toy workflow written to ``wf`` and run once with ``args``; ``ime verify`` is clean."""
    (wf / "Snakefile").write_text(snakefile)
    toy_snakemake(wf, *args)
    clean = ime_verify(cwd=wf)
    assert clean.returncode == 0 and clean.stdout == "", clean.stdout + clean.stderr
    return wf


def rebuild_commands(stdout: str) -> list[list[str]]:
    """The commands ``ime verify`` printed (``rebuild:`` and ``then:`` lines, in order), each as
    the arguments after ``snakemake -j8``, to run as printed with the caller's own ``-j``."""
    import shlex

    out = []
    for line in stdout.splitlines():
        head, _, cmd = line.strip().partition(" ")
        if head in ("rebuild:", "then:") and cmd.strip().startswith("snakemake "):
            out.append([a for a in shlex.split(cmd)[1:] if a != "-j8"])
    return out


def rebuild_as_printed(wf: Path, stdout: str) -> None:
    """Run every command ``ime verify`` printed, in order, as printed (one job at a time)."""
    commands = rebuild_commands(stdout)
    assert commands, stdout
    for argv in commands:
        toy_snakemake(wf, *argv)
