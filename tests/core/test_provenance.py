"""Provenance of a run (``ime.core.provenance``): git state, package versions, machine, and
stage times from Snakemake's benchmark files. The ``provenance.json`` a real run writes beside
its ``run_report.json`` is checked on the shared tiny run
(``tests/workflow/test_provenance_run.py``)."""

from __future__ import annotations

import json
import os
import platform
import shutil
import subprocess
from datetime import datetime, timezone
from pathlib import Path

import numpy as np
import pytest
from workflow.workflow_helpers import ROOT

from ime.core import provenance as prov
from ime.workflow import artifacts as A

needs_git = pytest.mark.skipif(shutil.which("git") is None, reason="git is not installed")
HEADER = "s\th:m:s\tmax_rss\tmax_vms\tmax_uss\tmax_pss\tio_in\tio_out\tmean_load\tcpu_time\n"


def _git(repo: Path, *args: str) -> str:
    env = {k: v for k, v in os.environ.items() if not k.startswith("GIT_")}
    env.update(GIT_AUTHOR_NAME="t", GIT_AUTHOR_EMAIL="t@t", GIT_COMMITTER_NAME="t",
               GIT_COMMITTER_EMAIL="t@t")
    return subprocess.run(["git", "-C", str(repo), *args], check=True, capture_output=True,
                          text=True, env=env).stdout.strip()


@needs_git
def test_git_state_names_the_commit_and_sees_edits(tmp_path: Path) -> None:
    repo = tmp_path / "repo"
    repo.mkdir()
    _git(repo, "init", "-q", "-b", "main")
    (repo / "a.py").write_text("x = 1\n")
    _git(repo, "add", "a.py")
    _git(repo, "commit", "-q", "-m", "first")
    head = _git(repo, "rev-parse", "HEAD")

    clean = prov.git_state(repo)
    assert clean == {"commit": head, "branch": "main", "dirty": False, "untracked": 0,
                     "reason": None}
    (repo / "new.py").write_text("")  # untracked: counted apart, the tree is not dirty
    assert prov.git_state(repo)["dirty"] is False
    assert prov.git_state(repo)["untracked"] == 1
    (repo / "a.py").write_text("x = 2\n")  # an edit of a tracked file
    dirty = prov.git_state(repo)
    assert dirty["commit"] == head and dirty["dirty"] is True
    _git(repo, "add", "a.py")  # staged but not committed: still dirty
    assert prov.git_state(repo)["dirty"] is True
    _git(repo, "commit", "-q", "-m", "second")
    after = prov.git_state(repo)
    assert after["commit"] != head and after["dirty"] is False
    (repo / "sub").mkdir()
    assert prov.git_state(repo / "sub")["commit"] == after["commit"]  # a folder of the clone


@needs_git
def test_git_state_outside_a_clone_is_null_with_a_reason(tmp_path: Path,
                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("GIT_CEILING_DIRECTORIES", str(tmp_path.parent))
    state = prov.git_state(tmp_path)
    assert state["commit"] is None and state["dirty"] is None and state["untracked"] is None
    assert "not a git repository" in state["reason"] and str(tmp_path) in state["reason"]
    assert "is not a directory" in prov.git_state(tmp_path / "missing")["reason"]


def test_git_state_without_git_is_null_with_a_reason(tmp_path: Path,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PATH", str(tmp_path))  # no git on it
    state = prov.git_state(ROOT)
    assert state["commit"] is None and state["dirty"] is None
    assert state["reason"] == "git is not installed (not on PATH)"


def test_package_versions_are_the_installed_ones() -> None:
    v = prov.package_versions()
    assert v["numpy"] == np.__version__
    assert v["python"] == platform.python_version()
    assert set(v) == {"python", *prov.PACKAGES}
    assert {"torch", "numpy", "numba", "pandas", "pyarrow", "snakemake", "hydra-core"} <= set(v)
    assert prov.package_versions(["no-such-distribution-ime"]) == {
        "python": platform.python_version(), "no-such-distribution-ime": None}


def test_machine_describes_this_machine() -> None:
    m = prov.machine()
    assert m["logical_cores"] == os.cpu_count()
    assert m["memory_gib"] is None or m["memory_gib"] > 0
    assert m["cpu_model"] and m["os"] == platform.platform()
    assert m["gpu_count"] == len(m["gpus"])
    json.dumps(m)  # plain: it goes into provenance.json


def test_collect_combines_the_three_with_a_utc_time() -> None:
    c = prov.collect(ROOT)
    assert set(c) == {"timestamp_utc", "git", "packages", "machine"}
    t = datetime.fromisoformat(c["timestamp_utc"])
    assert t.utcoffset() is not None and t.utcoffset().total_seconds() == 0
    assert abs((datetime.now(timezone.utc) - t).total_seconds()) < 120
    assert c["packages"]["numpy"] == np.__version__


def _bench(root: Path, rel: str, *rows: tuple[str, str]) -> None:
    """A benchmark file as Snakemake writes it: one row per repeat, (s, cpu_time) given."""
    path = root / rel
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(HEADER + "".join(f"{s}\t0:00:01\t1\t1\t1\t1\t0\t0\t50\t{c}\n"
                                     for s, c in rows))


def test_stage_times_sums_a_benchmarks_tree(tmp_path: Path) -> None:
    b = tmp_path / "benchmarks"
    _bench(b, "reversi/matches/tiny/rev1/shard000.tsv", ("1.50", "1.25"))
    _bench(b, "reversi/matches/tiny/rev2/shard000.tsv", ("2.25", "0.50"))
    _bench(b, "reversi/matches/big/rev1/shard000.tsv", ("100", "100"))  # another variant
    _bench(b, "reversi/train/tiny/conv/rev1.tsv", ("10", "NA"), ("12", "NA"))  # repeat(2)
    _bench(b, "reversi/dataset/tiny/rev1.tsv", ("0.5", "0.25"))
    _bench(b, "reversi/dataset/tiny/rev2.tsv", ("0.5", "NA"))
    _bench(b, "snake/matches/tiny/snk04/shard000.tsv", ("7", "3"))  # another game
    _bench(b, "tables/results/reversi/tiny/game_result/x.csv.tsv", ("4", "2"))
    _bench(b, "tables/results/reversi/game_result/x.csv.tsv", ("8", "8"))  # default rdir

    got = prov.stage_times(b, "reversi", tags={"tiny"}, results_dir="results/reversi/tiny")
    assert got == [
        {"stage": "dataset", "jobs": 2, "wall_s": 1.0, "cpu_s": 0.25, "cpu_missing": 1},
        {"stage": "matches", "jobs": 2, "wall_s": 3.75, "cpu_s": 1.75, "cpu_missing": 0},
        {"stage": "tables/game_result", "jobs": 1, "wall_s": 4.0, "cpu_s": 2.0,
         "cpu_missing": 0},
        {"stage": "train", "jobs": 1, "wall_s": 22.0, "cpu_s": None, "cpu_missing": 2},
    ]
    every = {r["stage"]: r for r in prov.stage_times(b)}  # every game, tag and results dir
    assert every["reversi/matches"]["jobs"] == 3 and every["reversi/matches"]["wall_s"] == 103.75
    assert every["snake/matches"] == {"stage": "snake/matches", "jobs": 1, "wall_s": 7.0,
                                      "cpu_s": 3.0, "cpu_missing": 0}
    assert every["reversi/tables/game_result"]["jobs"] == 2
    assert prov.stage_times(b, "connect4") == []
    assert prov.stage_times(tmp_path / "nothing_yet") == []


def test_stage_times_names_a_broken_file_and_line(tmp_path: Path) -> None:
    b = tmp_path / "benchmarks"
    _bench(b, "reversi/matches/tiny/rev1/shard000.tsv", ("1.5", "1"), ("oops", "1"))
    with pytest.raises(ValueError, match=r"shard000\.tsv:3: column 's' is 'oops'"):
        prov.stage_times(b, "reversi")
    bad = b / "reversi/matches/tiny/rev1/shard000.tsv"
    bad.write_text("wall\n1\n")
    with pytest.raises(ValueError, match=r"shard000\.tsv:1: not a Snakemake benchmark file"):
        prov.stage_times(b)


def test_provenance_json_is_listed_in_index_md() -> None:
    rows = A.describe("reversi")
    assert any(r["files"] == ["provenance.json"] and "git commit" in r["what"] for r in rows)
