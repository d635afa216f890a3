"""Issue 48's goal check over identification tables (ime.report.identify_goals)."""

from __future__ import annotations

from pathlib import Path

import pandas as pd
import pytest

from ime.core.intervals import wilson
from ime.report.identify_goals import goal_rows, goals_table, main, verdict


def _write(tmp: Path, hits: dict[tuple[str, int], tuple[int, int]]) -> Path:
    """An identification.csv with Wilson CIs from ``(method, k) -> (hits, trials)`` and a
    confusion table whose misses of bot a all name bot b."""
    rows, conf = [], []
    for (method, k), (h, n) in hits.items():
        lo, hi = wilson(h, n)
        rows.append({"method": method, "curve": "k", "k": k, "pool_size": 4, "trials": n,
                     "top1": 100 * h / n, "top1_lo": 100 * lo, "top1_hi": 100 * hi,
                     "chance_top1": 25.0})
        conf += [{"method": method, "k": k, "bot": "a", "named": "a", "trials": h,
                  "share": 100 * h / n},
                 {"method": method, "k": k, "bot": "a", "named": "b", "trials": n - h,
                  "share": 100 * (n - h) / n}]
    pd.DataFrame(rows).to_csv(tmp / "identification.csv", index=False)
    pd.DataFrame(conf).to_csv(tmp / "identification_confusion.csv", index=False)
    return tmp


def test_verdict_reads_the_interval() -> None:
    assert verdict(95.0, 99.0, 95.0) == "met"
    assert verdict(80.0, 94.9, 95.0) == "not met"
    assert verdict(90.0, 97.0, 95.0) == "inconclusive"


def test_the_smallest_k_that_meets_the_goal_is_taken(tmp_path: Path) -> None:
    # k=2 clears 95 % (lower bound of 400/400 is 99.0 %); k=20 is past the goal's 10 matches
    d = _write(tmp_path, {("likelihood", 1): (300, 400), ("likelihood", 2): (400, 400),
                          ("likelihood", 20): (10, 10), ("embedding", 5): (50, 100),
                          ("embedding", 10): (85, 100)})
    t = goal_rows(d, "g").set_index("method")
    assert (t.loc["likelihood", "k"], t.loc["likelihood", "verdict"]) == (2, "met")
    assert t.loc["likelihood", "confused"] == "-"
    # no k <= 10 meets 90 %: k = 10 is reported, inconclusive (85/100: CI [76.7, 90.7])
    assert (t.loc["embedding", "k"], t.loc["embedding", "verdict"]) == (10, "inconclusive")
    assert t.loc["embedding", "confused"] == "a->b 15.0%"


def test_a_missing_table_is_named(tmp_path: Path) -> None:
    with pytest.raises(FileNotFoundError, match="identification.csv"):
        goals_table([tmp_path])


def test_the_cli_writes_markdown_and_csv(tmp_path: Path) -> None:
    d = _write(tmp_path, {("likelihood", 10): (30, 100)})
    main([str(d), "--labels", "pool x", "--out", str(tmp_path / "g.md"),
          "--csv", str(tmp_path / "g.csv")])
    md = (tmp_path / "g.md").read_text()
    assert "| pool x | likelihood | 4 | 10 | 100 | 30.0 [" in md and "not met" in md
    assert pd.read_csv(tmp_path / "g.csv")["verdict"].tolist() == ["not met"]


def test_the_archive_keeps_tables_goals_and_provenance(tmp_path: Path) -> None:
    (tmp_path / "run").mkdir()
    d = _write(tmp_path / "run", {("likelihood", 5): (200, 200)})
    main([str(d), "--labels", "game a", "--archive", str(tmp_path / "arch")])
    arch = tmp_path / "arch"
    assert (arch / "game_a" / "identification.csv").read_bytes() == \
        (d / "identification.csv").read_bytes()
    assert pd.read_csv(arch / "goals.csv")["verdict"].tolist() == ["met"]
    assert "commit" in (arch / "provenance.json").read_text()
