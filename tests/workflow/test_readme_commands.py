"""The README's two commands, exactly as written, under an externally managed Python (issue 45).

A new user on Debian or Ubuntu has a ``python3`` that refuses ``pip install`` (PEP 668). This test
gives a copy of the repository (its tracked and untracked, not ignored, files: what a fresh clone
has plus the working tree's changes) a ``python3`` like that, first on a PATH with no other Python
environment on it, and runs both lines of the README's "Two commands" block word for word with
``bash``:

* command 1, with Snakemake's profile set by ``SNAKEMAKE_PROFILE`` to a dry run, so that the
  main job is planned (every job of the default target) but nothing is built;
* command 2, with ``PYTEST_ADDOPTS`` set to collect the tests only (run, they would recurse).

Neither variable is in the line: the lines are the README's. Setup makes ``.venv`` from that
Python and installs into it (the first time, a real install: about 1.5 minutes on 2 cores),
then reuses it; ``snakemake`` and ``python3`` must come from ``.venv``, which only the lines'
own ``source .venv/bin/activate`` puts on the PATH.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from workflow_helpers import ROOT, fake_python

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(not sys.platform.startswith("linux"), reason="Linux layout"),
]


def readme_commands() -> list[str]:
    """The command lines of the README's "Two commands" code block, comments left out."""
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    block = text.split("## Two commands", 1)[1].split("```bash\n", 1)[1].split("```", 1)[0]
    return [line for line in block.splitlines() if line.strip() and not line.startswith("#")]


def copy_checkout(dst: Path) -> Path:
    """The files ``git`` would put in a fresh clone, plus the working tree's uncommitted ones."""
    listed = subprocess.run(["git", "-C", str(ROOT), "ls-files", "-z", "--cached", "--others",
                             "--exclude-standard"], capture_output=True, check=True).stdout
    for name in filter(None, listed.decode().split("\0")):
        src = ROOT / name
        if src.is_file():
            (dst / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(src, dst / name)
    return dst


def test_readme_commands_run_as_written_under_an_externally_managed_python(tmp_path) -> None:
    if shutil.which("git") is None or not (ROOT / ".git").exists():
        pytest.skip("needs git and a checkout")
    commands = readme_commands()
    assert len(commands) == 2 and "snakemake" in commands[0] and "pytest" in commands[1]

    python = fake_python(tmp_path, externally_managed=True)
    repo = copy_checkout(tmp_path / "repo")
    profile = tmp_path / "dry-run-profile"
    profile.mkdir()
    (profile / "config.yaml").write_text("dryrun: true\n")
    drop = ("VIRTUAL_ENV", "PYTHONHOME", "PYTHONPATH", "CONDA_PREFIX", "IME_TORCH",
            "IME_TORCH_INDEX", "IME_VENV_SYSTEM_SITE", "PYTEST_ADDOPTS", "SNAKEMAKE_PROFILE",
            "IME_CONFIG_DIR", "PYTEST_XDIST_WORKER", "PYTEST_CURRENT_TEST")
    env = {k: v for k, v in os.environ.items() if k not in drop}
    # only the externally managed python3 and the system's tools: no venv, no pyenv shim
    env["PATH"] = os.pathsep.join([str(python.parent), "/usr/bin", "/bin"])

    def run(line: str, **extra: str) -> subprocess.CompletedProcess:
        return subprocess.run(["bash", "-c", line], cwd=repo, env=dict(env, **extra),
                              capture_output=True, text=True, timeout=1200)

    # PYTHONDONTWRITEBYTECODE (set in many images): setup still leaves IME's bytecode in src/
    main = run(commands[0], SNAKEMAKE_PROFILE=str(profile), PYTHONDONTWRITEBYTECODE="1")
    out = main.stdout + main.stderr
    assert main.returncode == 0, out[-4000:]
    assert list((repo / "src" / "ime" / "workflow" / "__pycache__").glob("setup.*.pyc"))
    assert "externally managed (PEP 668:" in out and "making" in out
    assert f"installed into {repo / '.venv'}" in out
    assert "This was a dry-run" in out and "train_reversi" in out, out[-4000:]
    assert not (repo / "data").exists() and not (repo / "results").exists()

    tests = run(commands[1], PYTEST_ADDOPTS="--collect-only -q -n 0 -p no:cacheprovider")
    out = tests.stdout + tests.stderr
    assert tests.returncode == 0, out[-4000:]
    assert "exists: reusing it" in out
    # pytest -q -q --collect-only: one "tests/<file>.py: <count>" line a test file
    collected = sum(int(n) for n in re.findall(r"^tests/\S+\.py: (\d+)$", out, flags=re.M))
    assert collected > 1000, out[-2000:]
    assert (repo / ".venv" / "bin" / "snakemake").is_file()
