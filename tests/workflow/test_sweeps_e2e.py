"""Sweeps through the real ``snakemake`` CLI: variant isolation, the figure, the report.

The default target's results come from the shared tiny run (a copy of it), then a dataset-size
sweep runs in that copy. The sweep must write
only under its own results directory and its points' data directories: afterwards a dry run of
the default has nothing to do and none of the default's files changed; running the sweep again
is a no-op and still leaves the default alone. The sweep's figure is in ``snakemake --report``.
"""

from __future__ import annotations

import hashlib
from pathlib import Path

import pandas as pd
import pytest
from workflow_helpers import copy_run, smk

pytestmark = pytest.mark.slow

DEFAULT = "overrides=[scale=tiny]"
SWEEP = 'overrides=[scale=tiny,sweep.key=dataset.matches,"sweep.values=[4,8]"]'
SWEEP_DIR = "results/reversi/tiny__sweep_dataset.matches-4-8"
NOTHING = "Nothing to be done"


def _hashes(root: Path) -> dict[str, str]:
    return {str(p.relative_to(root)): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(root.rglob("*")) if p.is_file()}


@pytest.fixture(scope="module")
def work(tiny_run: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A copy of the shared tiny run (its default Reversi results are built), to sweep in."""
    return copy_run(tiny_run, tmp_path_factory.mktemp("ime_sweep") / "run")


def test_sweep_leaves_the_default_alone(work: Path) -> None:
    default_files = _hashes(work / "results/reversi/tiny")
    models = _hashes(work / "data/reversi/models/tiny")
    smk(work, "-j2", "--config", SWEEP)
    assert NOTHING in smk(work, "-n", "--config", DEFAULT).stdout
    assert _hashes(work / "results/reversi/tiny") == default_files
    assert _hashes(work / "data/reversi/models/tiny") == models

    # the sweep's own files, and nothing else, in its results directory
    out = sorted(p.name for p in (work / SWEEP_DIR).iterdir())
    assert out == ["fig_sweep_dataset.matches.pdf", "fig_sweep_dataset.matches.png",
                   "fit_sweep_dataset.matches.csv", "index.md", "sweep_dataset.matches.csv"]
    table = pd.read_csv(work / SWEEP_DIR / "sweep_dataset.matches.csv")
    assert list(table.columns[:3]) == ["dataset.matches", "bot", "baseline"]
    assert sorted(set(table["dataset.matches"])) == [4, 8]
    assert set(table.net) == {"conv"} and len(table) == 2 * 2
    assert (table.val_acc_unseen_std >= 0).all()
    assert (table.folds == 2).all()
    fit = pd.read_csv(work / SWEEP_DIR / "fit_sweep_dataset.matches.csv")
    assert set(fit.bot) == set(table.bot) and (fit.points == 2).all()
    assert fit.x_at_target.isna().all()  # no sweep.fit_target: fitted, not extrapolated

    # again: the sweep is a no-op, and the default still is
    assert NOTHING in smk(work, "-n", "--config", SWEEP).stdout
    smk(work, "-j2", "--config", SWEEP)
    assert NOTHING in smk(work, "-n", "--config", DEFAULT).stdout
    assert _hashes(work / "results/reversi/tiny") == default_files


def test_sweep_figure_is_in_the_report(work: Path) -> None:
    if not (work / SWEEP_DIR / "sweep_dataset.matches.csv").exists():
        smk(work, "-j2", "--config", SWEEP)
    png = (work / SWEEP_DIR / "fig_sweep_dataset.matches.png").read_bytes()
    assert png.startswith(b"\x89PNG") and len(png) > 10_000
    report = work / "report.html"
    smk(work, "--report", str(report), "--config", SWEEP)
    html = report.read_text()
    assert "fig_sweep_dataset.matches.png" in html
    assert "Fig 2.6" in html  # the caption names the thesis's figure
