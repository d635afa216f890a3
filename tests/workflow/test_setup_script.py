"""Setting up and testing never surprise the machine: what can be checked without installing.

* ``python3 -m pytest -q`` skips the ``slurm`` test (it installs packages and starts daemons)
  unless ``-m slurm`` asks for it (``tests/conftest.py``);
* the SLURM executor plugin is only in the ``slurm`` extra (installed with SLURM's tools, it
  makes every local ``snakemake`` call wait on ``scontrol``);
* ``.ci/run`` installs bubblewrap before the README's test command, SLURM's packages in the
  background while it runs, then the opt-in SLURM test as a second step;
* ``scripts/setup.sh --check`` sees an externally managed Python (PEP 668) and would make
  ``.venv``; installs nothing;
* ``CITATION.cff`` and ``LICENSE`` say what ``pyproject.toml`` says.
"""

from __future__ import annotations

import importlib.util
import os
import re
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
import yaml
from workflow_helpers import fake_python

ROOT = Path(__file__).resolve().parents[2]
SETUP = ROOT / "scripts" / "setup.sh"
PLUGIN = "snakemake-executor-plugin-slurm"


def _pyproject() -> dict:
    tomllib = pytest.importorskip("tomllib")  # Python 3.11+
    return tomllib.loads((ROOT / "pyproject.toml").read_text())


def test_the_slurm_plugin_is_only_in_the_slurm_extra() -> None:
    extras = _pyproject()["project"]["optional-dependencies"]
    assert any(req.startswith(PLUGIN) for req in extras["slurm"])
    for name, reqs in extras.items():
        if name != "slurm":
            assert not any(PLUGIN in req for req in reqs), f"extra {name!r} pulls the plugin"


def test_the_slurm_marker_says_it_is_opt_in() -> None:
    markers = _pyproject()["tool"]["pytest"]["ini_options"]["markers"]
    slurm = [m for m in markers if m.startswith("slurm:")]
    assert len(slurm) == 1 and "opt-in" in slurm[0].lower() and "-m slurm" in slurm[0]


def _conftest():
    spec = importlib.util.spec_from_file_location("ime_tests_root_conftest",
                                                  ROOT / "tests" / "conftest.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.mark.parametrize(("markexpr", "runs"), [
    ("", False), ("slow", False), ("not gpu", False), ("not slurm", False),
    ("slurm", True), ("slurm or slow", True), ("(slurm) and not gpu", True)])
def test_which_mark_expressions_ask_for_slurm(markexpr: str, runs: bool) -> None:
    assert _conftest().asks_for(markexpr, "slurm") is runs


def test_a_slurm_test_is_skipped_unless_asked_for(tmp_path) -> None:
    (tmp_path / "conftest.py").write_text((ROOT / "tests" / "conftest.py").read_text())
    (tmp_path / "test_opt_in.py").write_text(textwrap.dedent("""
        import pytest

        @pytest.mark.slurm
        def test_changes_the_machine():
            pass

        def test_plain():
            pass
    """))

    def pytest_run(*args: str) -> str:
        out = subprocess.run([sys.executable, "-m", "pytest", "-q", "-rs", "-p",
                              "no:cacheprovider", "-W", "ignore::pytest.PytestUnknownMarkWarning",
                              *args, str(tmp_path)], capture_output=True, text=True,
                             cwd=tmp_path, timeout=120)
        assert out.returncode == 0, out.stdout + out.stderr
        return out.stdout

    default = pytest_run()
    assert "1 passed, 1 skipped" in default and "opt-in: run with -m slurm" in default
    assert "1 passed, 1 deselected" in pytest_run("-m", "slurm")


def _commands(path: Path) -> list[str]:
    """The script's lines without comments and blank lines."""
    return [line.strip() for line in path.read_text().splitlines()
            if line.strip() and not line.strip().startswith("#")]


def test_ci_installs_bubblewrap_then_runs_the_readme_command_then_the_slurm_step() -> None:
    lines = _commands(ROOT / ".ci" / "run")

    def first(pattern: str) -> int:
        hits = [i for i, line in enumerate(lines) if re.search(pattern, line)]
        assert hits, f"no line of .ci/run matches {pattern!r}"
        return hits[0]

    update = first(r"apt-get update")
    bwrap = first(r"apt-get install .*\bbubblewrap\b")
    # SLURM's packages go in while step 1 runs (no daemon starts), and step 2 waits for them
    install = first(r"^bash scripts/slurm-local\.sh install .*&$")
    read = first(r"README_TESTS=\$\(awk .*## Two commands")
    tests = first(r'^eval "\$README_TESTS"$')
    waited = first(r'^wait "\$SLURM_INSTALL_PID"')
    extra = first(r"^python3 -m pip install .*-e \"?'?\.\[slurm\]")
    slurm = first(r"^python3 -m pytest -q -m slurm$")
    assert update < bwrap < install < read < tests < waited < extra < slurm
    assert not any(re.search(r"^(bash scripts/setup\.sh|python3 -m pytest -q)$", line)
                   for line in lines), ".ci/run runs a copy of the README's command"


def test_ci_reads_the_readme_test_command_as_written(tmp_path) -> None:
    """The lines of .ci/run that pick the command, run on README.md: the second line of the
    "Two commands" block, word for word; a README whose second line is not the test command
    stops CI before anything runs."""
    lines = (ROOT / ".ci" / "run").read_text().splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith("README_TESTS="))
    end = next(i for i in range(start, len(lines)) if lines[i].startswith("step "))
    picker = "\n".join(["set -euo pipefail", *lines[start:end], 'printf "%s" "$README_TESTS"'])
    readme = (ROOT / "README.md").read_text()
    block = readme.split("## Two commands", 1)[1].split("```bash\n", 1)[1].split("```", 1)[0]
    written = [line for line in block.splitlines() if line.strip() and not line.startswith("#")]
    assert len(written) == 2
    run = subprocess.run(["bash", "-c", picker], cwd=ROOT, capture_output=True, text=True)
    assert run.returncode == 0, run.stderr
    assert run.stdout == written[1]
    (tmp_path / "README.md").write_text(readme.replace(written[1], "echo no tests here"))
    run = subprocess.run(["bash", "-c", picker], cwd=tmp_path, capture_output=True, text=True)
    assert run.returncode == 1 and "is not the test command" in run.stderr


def _check(tmp_path: Path, python: Path | str) -> subprocess.CompletedProcess:
    """``setup.sh --check`` from a copy of the script in an empty checkout."""
    repo = tmp_path / "repo"
    (repo / "scripts").mkdir(parents=True)
    (repo / "scripts" / "setup.sh").write_text(SETUP.read_text())
    env = {k: v for k, v in os.environ.items()
           if k not in ("VIRTUAL_ENV", "PYTHONHOME", "IME_TORCH", "IME_TORCH_INDEX")}
    run = subprocess.run(["bash", str(repo / "scripts" / "setup.sh"), "--check"],
                         env=dict(env, PYTHON=str(python)), capture_output=True, text=True,
                         timeout=120)
    assert not (repo / ".venv").exists(), "--check made .venv"
    return run


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="Linux layout")
def test_setup_check_sees_an_externally_managed_python(tmp_path) -> None:
    run = _check(tmp_path, fake_python(tmp_path, externally_managed=True))
    assert run.returncode == 0, run.stdout + run.stderr
    assert "externally managed (PEP 668:" in run.stdout
    assert f"would run: {tmp_path / 'bin' / 'python3'} -m venv .venv" in run.stdout
    assert f"{tmp_path / 'repo' / '.venv' / 'bin' / 'python'} -m pip install" in run.stdout
    assert "activate with: source .venv/bin/activate" in run.stdout
    assert "torch==2.13.0+cpu" in run.stdout and "download.pytorch.org/whl/cpu" in run.stdout
    assert "nothing was installed" in run.stdout


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="Linux layout")
def test_setup_check_without_venv_support_says_to_install_python3_venv(tmp_path) -> None:
    run = _check(tmp_path, fake_python(tmp_path, externally_managed=True, ensurepip=False))
    assert run.returncode == 1
    assert "install python3-venv" in run.stderr and "no venv/ensurepip" in run.stderr


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="Linux layout")
def test_setup_check_makes_the_same_venv_from_a_python_that_is_not_externally_managed(
        tmp_path) -> None:
    """.venv whatever the Python, so that the README's commands are the same everywhere."""
    python = fake_python(tmp_path, externally_managed=False)
    run = _check(tmp_path, python)
    assert run.returncode == 0, run.stdout + run.stderr
    assert "externally managed" not in run.stdout
    assert f"would run: {python} -m venv .venv" in run.stdout
    assert f"{tmp_path / 'repo' / '.venv' / 'bin' / 'python'} -m pip install" in run.stdout
    assert "activate with: source .venv/bin/activate" in run.stdout


def test_setup_refuses_an_unknown_argument() -> None:
    run = subprocess.run(["bash", str(SETUP), "--install-everything"], capture_output=True,
                         text=True, timeout=60)
    assert run.returncode == 2 and "unknown argument" in run.stderr


def test_citation_cites_the_software_and_the_thesis() -> None:
    cff = yaml.safe_load((ROOT / "CITATION.cff").read_text(encoding="utf-8"))
    for key in ("cff-version", "message", "title", "authors", "license", "version",
                "preferred-citation"):
        assert key in cff, key
    assert cff["type"] == "software"
    project = _pyproject()["project"]
    assert cff["version"] == project["version"]
    assert cff["license"] == project["license"]["text"] == "MIT"
    thesis = cff["preferred-citation"]
    assert thesis["type"] == "thesis" and thesis["year"] == 2021
    assert thesis["institution"]["name"] == "Peking University"
    assert thesis["title"].startswith("IME:")
    assert thesis["authors"] and all("family-names" in a for a in thesis["authors"])
    license_text = (ROOT / "LICENSE").read_text()
    assert license_text.startswith("MIT License") and "IME contributors" in license_text


def test_slurm_local_names_its_actions_and_refuses_an_unknown_one() -> None:
    """``install`` (what ``.ci/run`` runs in the background) is one of the script's actions; an
    unknown action changes nothing and exits 2 with the usage line."""
    run = subprocess.run(["bash", str(ROOT / "scripts" / "slurm-local.sh"), "instal"],
                         capture_output=True, text=True)
    assert run.returncode == 2
    assert "usage:" in run.stderr and "up|install|status|down|purge" in run.stderr
