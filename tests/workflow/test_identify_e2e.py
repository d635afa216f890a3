"""Which bot played this, end to end (issue 48): the shared tiny run's identification table
(rule ``identify``, part of rule ``all``) names Reversi's targets from their held-out matches
well above chance, and ``ime identify`` names a target from its logs with the run's models.

Measured on the tiny run (rev1 and rev2, 12 matches each, 2 folds, CONV): top-1 79.2 % at k=1
(24 groups) and 100 % at k=2 (12) and k=5 (4 groups), against 50 % by chance. The test asserts
at least 3 of the 4 five-match groups, and a Wilson interval above chance at k=1.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pandas as pd
import pytest
from workflow_helpers import ROOT

RDIR = "results/reversi/tiny"


def ime(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "ime", *args], cwd=cwd, capture_output=True,
                          text=True, timeout=300)


@pytest.mark.slow
def test_identification_table_is_well_above_chance(tiny_run: Path) -> None:
    t = pd.read_csv(tiny_run / RDIR / "identification.csv")
    by_k = t[t.curve == "k"].set_index("k")
    assert list(by_k.index) == [1, 2, 5, 10]  # k=20: more than a target's 12 held-out matches
    assert (by_k.pool_size == 2).all() and (by_k.chance_top1 == 50).all()
    k5 = by_k.loc[5]
    assert k5.trials == 4  # 2 targets x floor(12 / 5) disjoint groups
    assert k5.top1 >= 75.0, k5.to_dict()
    k1 = by_k.loc[1]
    assert k1.trials == 24 and k1.top1_lo > k1.chance_top1, k1.to_dict()
    assert (by_k.top1_lo <= by_k.top1).all() and (by_k.top1 <= by_k.top1_hi).all()
    conf = pd.read_csv(tiny_run / RDIR / "identification_confusion.csv")
    assert set(conf.bot) == {"rev1", "rev2"}
    assert conf.groupby("k").trials.sum().loc[5] == 4
    assert (tiny_run / RDIR / "figures/identification.png").stat().st_size > 10_000
    index = (tiny_run / RDIR / "index.md").read_text()
    assert "`identification.csv`" in index and "`unknown_rejected`" in index


@pytest.mark.slow
def test_ime_identify_names_a_target_from_its_logs(tiny_run: Path, tmp_path: Path) -> None:
    log = tiny_run / "data/reversi/logs/tiny/rev2/shard000.jsonl"
    proc = ime("identify", "reversi", str(log), "--player", "rev2", "--max-matches", "5",
               "-o", "scale=tiny", "--root", str(tiny_run), "--json", cwd=ROOT)
    assert proc.returncode == 0, proc.stderr
    out = json.loads(proc.stdout)
    assert out["best"] == "rev2" and len(out["matches_used"]) == 5
    assert [r["bot"] for r in out["pool"]] == ["rev2", "rev1"]
    assert out["pool"][0]["probability"] > 0.9
    assert out["known"] is True and out["threshold_k"] == 5
    assert out["mean_loglik"] >= out["threshold"]
    # models without their datasets: the threshold cannot be set, and the error says so
    root = tmp_path / "run"
    shutil.copytree(tiny_run / "data/reversi/models/tiny/conv", root / "data/reversi/models/tiny"
                    / "conv")
    proc = ime("identify", "reversi", str(log), "--player", "rev2", "-o", "scale=tiny",
               "--root", str(root), cwd=ROOT)
    assert proc.returncode == 2
    assert "the open-set threshold is set on the pool's held-out matches, but their datasets " \
           "are missing: data/reversi/datasets/tiny/rev1.parquet" in proc.stderr
    proc = ime("identify", "reversi", str(log), "--player", "rev2", "-o", "scale=tiny",
               "--root", str(root), "--threshold", "-0.01", cwd=ROOT)
    assert proc.returncode == 0, proc.stderr
    assert "most likely: rev2" in proc.stdout
    assert "open set: none of them" in proc.stdout and "threshold -0.01, given" in proc.stdout
