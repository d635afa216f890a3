"""``scripts/gpu_check.py``, the runner of the GPU measurements (BENCHMARKS.md, "GPU (H200)"),
on CPU: it must train exactly as the pipeline's train rule does, or its figures say nothing about
the pipeline."""

from __future__ import annotations

import json
import subprocess
import sys
import tarfile
from pathlib import Path

import pytest
from test_ensemble import _one_head

from ime.train.ensemble import Member, train_members

SCRIPT = Path(__file__).resolve().parents[2] / "scripts" / "gpu_check.py"


@pytest.mark.slow
def test_prepare_and_train_match_the_pipelines_training(tmp_path: Path) -> None:
    spec_dir, out, work, ds = tmp_path / "g", tmp_path / "out", tmp_path / "w", tmp_path / "d.pq"
    subprocess.run([sys.executable, str(SCRIPT), "prepare", "--dir", str(spec_dir),
                    "scale=tiny"], check=True, capture_output=True)
    spec = json.loads((spec_dir / "spec.json").read_text())
    assert spec["train"]["max_epochs"] == 10 and spec["train"]["folds"] == 2
    assert spec["train"]["augment"] == "none" and "mlp1" in spec["nets"]
    _one_head(ds)
    subprocess.run([sys.executable, str(SCRIPT), "train", "--dir", str(spec_dir), "--out",
                    str(out), "--device", "cpu", "--job", "j", "--bot", "b", "--dataset",
                    str(ds), "--nets", "mlp1", "--folds", "2", "--work", str(work)],
                   check=True, capture_output=True)
    got = json.loads((work / "j.json").read_text())
    assert [(m["net"], m["fold"]) for m in got["members"]] == [("mlp1", 0), ("mlp1", 1)]
    members = [Member(spec["nets"]["mlp1"], k, tmp_path / f"{k}.pt", tmp_path / f"{k}.json")
               for k in range(2)]
    direct = train_members(ds, members, {**spec["train"], "device": "cpu"}, bot="b",
                           progress=False)
    for a, b in zip(got["members"], direct, strict=True):
        assert (a["val_acc"], a["train_acc"], a["epochs"]) == (b["val_acc"], b["train_acc"],
                                                               b["epochs"])


@pytest.mark.slow
def test_all_packs_only_the_jobs_that_finished_in_parts(tmp_path: Path) -> None:
    """A job that did not finish (here: its dataset is missing; on the GPU box: killed at the
    deadline) may have written some members, the last cut short: none of its files may come
    back, or a truncated checkpoint would land in data/ as a finished train job's output."""
    spec_dir, out, stage = tmp_path / "g", tmp_path / "out", tmp_path / "stage"
    models, ds = tmp_path / "models", tmp_path / "d.pq"
    subprocess.run([sys.executable, str(SCRIPT), "prepare", "--dir", str(spec_dir),
                    "scale=tiny"], check=True, capture_output=True)
    _one_head(ds)
    (models / "mlp1" / "lost").mkdir(parents=True)
    (models / "mlp1" / "lost" / "fold0.pt").write_bytes(b"cut short")  # a killed job's
    subprocess.run([sys.executable, str(SCRIPT), "all", "--dir", str(spec_dir), "--out",
                    str(out), "--device", "cpu", "--rows", "0", "--work", str(tmp_path / "w"),
                    "--job", f"ok:b:{ds}:mlp1:2", "--job", f"bad:lost:{tmp_path}/none.pq:mlp1:1",
                    "--models-dir", str(models), "--pack-dir", str(stage), "--pack-mb", "1",
                    "--pack-first", "1"], check=True, capture_output=True)
    with tarfile.open(out / "metrics.tgz") as tar:
        assert sorted(tar.getnames()) == ["mlp1/b/fold0.json", "mlp1/b/fold1.json"]
    assert sorted(p.name for p in out.glob("models.tgz*")) == ["models.tgz.00"]
    again = tmp_path / "again"
    subprocess.run([sys.executable, str(SCRIPT), "parts", "--pack-dir", str(stage), "--out",
                    str(again), "--from", "0"], check=True, capture_output=True)
    assert (again / "models.tgz.00").read_bytes() == (out / "models.tgz.00").read_bytes()
    with tarfile.open(out / "models.tgz.00") as tar:
        names = sorted(tar.getnames())
    assert names == ["mlp1/b/fold0.json", "mlp1/b/fold0.pt", "mlp1/b/fold1.json",
                     "mlp1/b/fold1.pt"]
