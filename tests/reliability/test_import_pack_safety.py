"""Issue 13, failures 6 and 7: ``ime import-pack --out`` equal to the pack overwrote the pack
(its 7 rejected matches lost, exit 0), and a strict failure wrote no ``report.json``, leaving a
stale one from an earlier import beside the new rejects.

Fails on the old package: the pack is overwritten and the stale report stays.
"""

from __future__ import annotations

import json
import os
import shutil

import pytest
from reliability_helpers import PACK, ime

A = "5f1a2b3c4d5e6f708192a3b4"  # the bot tests/data/reversi_pack.matches is about
B = "60aa11bb22cc33dd44ee55ff"


@pytest.mark.parametrize("spelling", ["same", "dot", "symlink", "hardlink"])
@pytest.mark.slow
def test_out_equal_to_the_pack_is_refused_and_the_pack_kept(tmp_path, spelling):
    pack = tmp_path / "my.matches"
    shutil.copy(PACK, pack)
    before = pack.read_bytes()
    out = {"same": str(pack), "dot": str(tmp_path / "." / "sub" / ".." / "my.matches")}.get(
        spelling)
    if spelling == "symlink":
        (tmp_path / "link.jsonl").symlink_to(pack)
        out = str(tmp_path / "link.jsonl")
    elif spelling == "hardlink":
        os.link(pack, tmp_path / "hard.jsonl")
        out = str(tmp_path / "hard.jsonl")
    (tmp_path / "sub").mkdir()
    run = ime("import-pack", "reversi", str(pack), "--bot", A, "--map", f"{A}=alice",
              "--mode", "lenient", "--out", out)
    assert run.returncode != 0, run.stderr
    assert "would destroy an input" in run.stderr and "--out" in run.stderr, run.stderr
    assert pack.read_bytes() == before
    assert not (tmp_path / "import").exists()  # nothing written at all


@pytest.mark.slow
def test_a_strict_failure_writes_its_report(tmp_path):
    """A lenient import, then a strict one of the same pack that fails: the report says the
    strict import failed (not the lenient one's success), next to its rejects."""
    out = tmp_path / "alice.jsonl"
    report = tmp_path / "import" / "alice.report.json"
    ok = ime("import-pack", "reversi", str(PACK), "--bot", A, "--map", f"{A}=alice",
             "--map", f"{B}=bob", "--mode", "lenient", "--out", str(out))
    assert ok.returncode == 0, ok.stderr
    lenient = json.loads(report.read_text())
    assert lenient["accepted"] == 4
    strict = ime("import-pack", "reversi", str(PACK), "--bot", A, "--map", f"{A}=alice",
                 "--out", str(out))
    assert strict.returncode == 2, strict.stderr
    doc = json.loads(report.read_text())
    assert doc["status"] == "failed" and doc["matches_written"] is None, doc
    assert "12 of 17 matches are bad" in doc["error"]
    assert doc["rejected"] == 12 and doc["selected"] == 13 and doc["lines"] == 17, doc
    rejects = (tmp_path / "import" / "alice.rejects.jsonl").read_text().splitlines()
    assert len(rejects) == doc["rejected"]
    assert not [p for p in tmp_path.rglob("*") if p.name.endswith((".part", ".tmp"))]
