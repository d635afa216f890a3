"""Issue 49's goal check and archive over om_search tables (ime.report.om_goals): the verdicts
come from the table's gains and their Newcombe CIs, as om_table computes them from the games."""

from __future__ import annotations

import json
from pathlib import Path

import pandas as pd
import pytest

from ime.evaluate.om_experiment import GAME_COLUMNS, cell_spec, om_table
from ime.report.om_goals import archive, goals_table, main

SETTINGS = {"evaluation": "rev1", "depth": 4, "nodes": 20000, "plain_nodes": 10**8,
            "mode": "policy", "mix": 1.0, "min_prob": 0.0, "batch": 64}


def _games(wins: int, n: int) -> pd.DataFrame:
    """``n`` games of which our player wins the first ``wins`` and loses the rest."""
    rows = [{c: 0 for c in GAME_COLUMNS} | {"round": i, "match_id": f"m{i}", "seat": i % 2,
                                             "points": 1.0 if i < wins else 0.0, "decisions": 30,
                                             "searched": 28, "nodes": 28 * 600, "depth": 112}
            for i in range(n)]
    return pd.DataFrame(rows, columns=GAME_COLUMNS)


def _table(where: Path, shares: dict[str, tuple[int, int]]) -> Path:
    cells = []
    for cell, (w, n) in shares.items():
        model = {"om": "tgt", "om_wrong": "other"}.get(cell)
        spec = cell_spec(cell, "tgt", SETTINGS, model_bot=model, net="search",
                         nodes=500 if cell == "plain_nodes" else None)
        cells.append({"target": "tgt", "cell": cell, "spec": spec, "games": _games(w, n)})
    where.mkdir(parents=True, exist_ok=True)
    om_table(cells).to_csv(where / "om_search.csv", index=False)
    return where


def test_verdicts_read_the_gain_and_its_interval(tmp_path: Path) -> None:
    # (a) 200/400; (c) 320/400: +30 points, CI well above +10 -> met; (d) 204/400: about 0 ->
    # not met; the true model 250/400: +12.5, CI spans +10 -> inconclusive
    d = _table(tmp_path / "r", {"plain_depth": (200, 400), "om": (320, 400),
                                "om_wrong": (204, 400), "om_true": (250, 400)})
    t = goals_table([d], ["pool"]).set_index("cell")
    assert t.loc["plain_depth", "verdict"] == "-"
    assert t.loc["om", "verdict"] == "met"
    assert t.loc["om_wrong", "verdict"].startswith("not met: 9.0 points short")
    assert t.loc["om_true", "verdict"].startswith("inconclusive")
    assert t.loc["om", "gain"] == pytest.approx(0.30)


def test_a_folder_without_a_table_is_named(tmp_path: Path) -> None:
    with pytest.raises(FileNotFoundError, match="om_search.csv"):
        goals_table([tmp_path])


def test_the_archive_keeps_tables_goals_and_provenance(tmp_path: Path, capsys) -> None:
    d = _table(tmp_path / "r", {"plain_depth": (20, 40), "om": (30, 40)})
    out = tmp_path / "arch"
    main([str(d), "--labels", "rev", "--archive", str(out), "--command", "snakemake x"])
    assert (out / "rev" / "om_search.csv").read_bytes() == (d / "om_search.csv").read_bytes()
    prov = json.loads((out / "provenance.json").read_text())
    assert prov["command"] == "snakemake x" and prov["folders"] == {"rev": str(d)}
    assert "| rev | tgt | (c) om |" in (out / "goals.md").read_text()
    assert "| rev | tgt | (c) om |" in capsys.readouterr().out
    with pytest.raises(ValueError, match="distinct labels"):
        archive([d, d], ["x", "x"], out)
