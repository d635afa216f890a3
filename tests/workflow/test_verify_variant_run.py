"""Issue 45, item 2, on the real pipeline: after a variant's run failed on a damaged dataset and
the dataset was rebuilt, ``ime verify`` comes clean, and the commands it prints work as printed.

The smallest chain that shows it (``scale=tiny``): Reversi's two datasets, their
``dataset_stats.csv`` (a file of the tiny variant's results directory, which no other
composition may ask for) and one model of ``rev1``. A byte of ``rev1``'s dataset is flipped;
the ``train.lr=0.002`` variant's training reads it and fails ("cannot read ... rebuild it"),
leaving the record of its deleted outputs. Before, ``ime verify`` named those outputs and printed
commands with the variant's config, which fail ("not a results directory of this
composition"); after the dataset alone was rebuilt (same sha256), it called the tiny files stale
"(the next snakemake run rebuilds it)" while Snakemake had nothing to do. The toy version, which
runs in seconds: ``tests/reliability/test_verify_converges.py``.
"""

from __future__ import annotations

import hashlib
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from workflow_helpers import TINY, copy_workflow, overrides_arg, snakemake

pytestmark = pytest.mark.slow

DATASET = "data/reversi/datasets/tiny/rev1.parquet"
MODEL = "data/reversi/models/tiny/mlp1/rev1/fold0.json"
STATS = "results/reversi/tiny/dataset_stats.csv"
VARIANT = overrides_arg(["scale=tiny", "train.lr=0.002"])
VARIANT_MODEL = "data/reversi/models/tiny__train.lr-0.002/mlp1/rev1/fold0.json"


def ok(run: subprocess.CompletedProcess) -> subprocess.CompletedProcess:
    assert run.returncode == 0, (run.stdout[-3000:], run.stderr[-3000:])
    return run


def verify(wf: Path) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "ime.cli.verify"], cwd=wf, capture_output=True,
                          text=True, timeout=300)


def verify_clean(wf: Path) -> None:
    run = verify(wf)
    assert run.returncode == 0 and run.stdout == "", run.stdout + run.stderr


def sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def test_verify_converges_after_a_variant_run_fails_on_a_damaged_dataset(tmp_path):
    wf = copy_workflow(tmp_path / "wf")
    ok(snakemake(wf, "-j2", MODEL, STATS, "--config", TINY))
    verify_clean(wf)
    dataset = wf / DATASET
    good = sha256(dataset)
    blob = bytearray(dataset.read_bytes())
    blob[len(blob) // 3] ^= 0x40  # a bad copy: the bytes change, and the mtime
    dataset.write_bytes(bytes(blob))

    failed = snakemake(wf, "-j2", VARIANT_MODEL, "--config", VARIANT)
    assert failed.returncode != 0
    said = failed.stdout + failed.stderr + "".join(  # the job's error, wherever it is shown
        log.read_text(errors="replace") for log in (wf / "logs").rglob("*.log"))
    assert f"{DATASET}: cannot read" in said, (failed.stdout[-3000:], failed.stderr[-3000:])

    run = verify(wf)
    assert run.returncode == 1, run.stdout + run.stderr
    assert f"BAD     {DATASET}: cannot read" in run.stdout, run.stdout
    assert "tiny__train.lr-0.002" not in run.stdout, run.stdout  # the failed job's record
    lines = [x.strip() for x in run.stdout.splitlines() if x.strip().startswith(("rebuild:",
                                                                                  "then:"))]
    assert len(lines) == 1, run.stdout
    argv = shlex.split(lines[0].partition(":")[2])
    assert argv[:2] == ["snakemake", "-j8"] and STATS in argv, argv
    forced, config = argv.index("--forcerun"), argv.index("--config")
    assert argv[forced + 1] == DATASET and argv[config + 1:] == [TINY], argv  # the tiny run's

    # the user's way: the dataset alone, from the variant's command line; the same bytes
    alone = tmp_path / "alone"
    shutil.copytree(wf, alone, symlinks=True)
    ok(snakemake(alone, "-j2", DATASET, "--forcerun", DATASET, "--config", VARIANT))
    assert sha256(alone / DATASET) == good
    dry = ok(snakemake(alone, "-n", MODEL, STATS, "--config", TINY))
    assert "Nothing to be done" in dry.stdout + dry.stderr
    verify_clean(alone)

    # the printed command, as printed (two jobs at a time here); the variant's run after it,
    # which then succeeds, is left to the toy version (it adds nothing but minutes here)
    ok(snakemake(wf, "-j2", *argv[2:]))
    assert sha256(dataset) == good
    verify_clean(wf)
