"""Which conclusions change verdict between two archived reports (issue 46, Deliver 6)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pandas as pd

from ime.paths import repo_root
from ime.thesis.verdict_changes import main, verdict_changes

ARCHIVE = repo_root() / "reproduction" / "quick"


def test_a_flipped_verdict_is_listed_with_both_numbers(tmp_path: Path) -> None:
    base = tmp_path / "base"
    other = tmp_path / "other"
    base.mkdir()
    other.mkdir()
    shutil.copy(ARCHIVE / "conclusions.csv", base / "conclusions.csv")
    (base / "provenance.json").write_text(json.dumps({"git": {"commit": "a" * 40}}))
    table = pd.read_csv(ARCHIVE / "conclusions.csv", keep_default_na=False)
    flipped = table[table.id.str.startswith("rev")].head(1).copy()  # Reversi's first one
    assert len(flipped) == 1
    cid = flipped.id.iloc[0]
    new = "does not hold" if flipped.verdict.iloc[0] != "does not hold" else "holds"
    mine = table[table.id.str.startswith("rev") | (table.id == cid)].copy()
    mine.loc[mine.id == cid, "verdict"] = new
    mine.loc[mine.id == cid, "numbers"] = "S1 99 against 1"
    mine.to_csv(other / "conclusions.csv", index=False)

    gone = mine[mine.id != cid].id.iloc[0]  # untestable in one report: no change of verdict
    mine.loc[mine.id == gone, "verdict"] = "cannot be tested"
    mine.to_csv(other / "conclusions.csv", index=False)
    changes = verdict_changes(table, mine)
    assert list(changes.id) == [cid]  # the others agree; conclusions of one report only: left
    assert main([str(base), str(other)]) == 0
    md = (other / "verdict_changes.md").read_text()
    assert f"`{cid}`" in md and "S1 99 against 1" in md and flipped.numbers.iloc[0][:40] in md
    assert "the verdict differs for **1**" in md and "aaaaaaaaaaaa" in md
    assert pd.read_csv(other / "verdict_changes.csv").id.tolist() == [cid]
