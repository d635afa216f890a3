"""``--dist loadgroup`` really groups: every test marked ``xdist_group`` runs on one worker.

The suite relies on it: the tests of the shared tiny pipeline run (``tests/workflow/conftest.py``
marks them) must share one worker, or each worker builds the run itself, ten CPU-minutes more
(found in session 23: pytest 9.2.0 with pytest-xdist 3.8.0 split the group, and CI's suite took
42 minutes). This runs a toy suite of two modules the same way, marker added the same way.
"""

from __future__ import annotations

import re
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest


def test_an_xdist_group_runs_on_one_worker(tmp_path: Path) -> None:
    pytest.importorskip("xdist")
    (tmp_path / "conftest.py").write_text(textwrap.dedent("""
        import pytest

        @pytest.fixture(scope="session")
        def shared():
            return 1

        @pytest.hookimpl(tryfirst=True)
        def pytest_collection_modifyitems(config, items):
            for item in items:
                if "shared" in item.fixturenames:
                    item.add_marker(pytest.mark.xdist_group("shared"))
    """))
    for m in range(6):
        (tmp_path / f"test_m{m}.py").write_text(
            f"def test_grouped_{m}(shared):\n    pass\n\n\ndef test_free_{m}():\n    pass\n")
    run = subprocess.run([sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-n", "2",
                          "--dist", "loadgroup", "-v", str(tmp_path)], cwd=tmp_path,
                         capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stdout[-3000:] + run.stderr[-3000:]
    workers = set(re.findall(r"^\[(gw\d+)\] .*PASSED .*test_grouped_", run.stdout, flags=re.M))
    assert len(re.findall(r"PASSED .*test_grouped_", run.stdout)) == 6, run.stdout[-3000:]
    assert len(workers) == 1, f"the group ran on {sorted(workers)}:\n{run.stdout[-3000:]}"
