"""One tiny pipeline run shared by every end-to-end test that only reads its outputs.

Before, each game's end-to-end module ran its own ``snakemake`` (and the sweep test ran Reversi's
tiny chain a second time). Here one ``snakemake -j2`` call builds, at ``scale=tiny``, the union of
what those modules read, for every game, so two cores stay busy across games and nothing is built
twice. A test that writes into a run (forced re-runs, a sweep, stacked training) works on a copy
(``workflow_helpers.copy_run``), so the shared outputs stay exactly what the one run wrote.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from workflow_helpers import ROOT, TINY, snakemake, tiny_targets


@pytest.fixture(scope="session")
def tiny_run(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The directory of the shared tiny run (the repository's Snakefile, outputs here).

    ``IME_TINY_RUN=<dir>`` (for development) runs it in that directory instead, kept between
    sessions: Snakemake then redoes only what a change of code or config made stale.
    """
    keep = os.environ.get("IME_TINY_RUN")
    work = Path(keep) if keep else tmp_path_factory.mktemp("ime_tiny")
    work.mkdir(parents=True, exist_ok=True)
    proc = snakemake(work, "-j2", *tiny_targets(), "--config", TINY, timeout=2400,
                     snakefile=ROOT / "Snakefile")
    assert proc.returncode == 0, (proc.stdout[-4000:], proc.stderr[-4000:])
    return work


@pytest.hookimpl(tryfirst=True)  # before pytest-xdist reads the groups off the markers
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Every test of the shared run goes to one pytest-xdist worker (so the run is built once,
    there), and the first of them also waits for it (about 10 minutes on two idle cores): they
    get 40 minutes before pytest-timeout fails them, not 15."""
    for item in items:
        if "tiny_run" in getattr(item, "fixturenames", ()):
            item.add_marker(pytest.mark.xdist_group("tiny_run"))
            item.add_marker(pytest.mark.timeout(2400))
