"""The test command leaves nothing behind: the composition cache that ``tests/conftest.py``
makes in the temporary directory is removed when pytest exits."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


@pytest.mark.parametrize("workers", [["-n", "0"], ["-n", "2"]], ids=["serial", "xdist"])
@pytest.mark.slow
def test_pytest_removes_its_compose_cache(tmp_path: Path, workers: list[str]) -> None:
    tmpdir = tmp_path / "tmp"
    tmpdir.mkdir()
    env = {k: v for k, v in os.environ.items() if k != "IME_COMPOSE_CACHE"}
    env["TMPDIR"] = str(tmpdir)
    proc = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", *workers,
         f"--basetemp={tmp_path / 'basetemp'}", "--collect-only",
         "tests/workflow/test_alternatives.py"],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stdout[-2000:] + proc.stderr[-2000:]
    left = sorted(p.name for p in tmpdir.iterdir() if p.name.startswith("ime-compose-tests-"))
    assert left == [], f"the test run left {left} in {tmpdir}"
