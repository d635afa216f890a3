"""The seed-002 study: its table's shape, determinism, and the Wilson interval."""

from __future__ import annotations

import csv

import pytest

from ime.core.registry import get_plugin
from ime.games.connect4.study import COLUMNS, wilson

STUDY = {"games_per_colour": 1, "simulations": 30, "depths": [1, 2],
         "solver": {"nodes": 20000, "solve_empties": 12, "fallback": {"depth": 2}},
         "rollouts": {"simulations": [20, 40], "games_per_colour": 2}, "workers": 1}


def test_wilson_interval():
    lo, hi = wilson(5, 10)
    assert lo == pytest.approx(0.2366, abs=1e-4) and hi == pytest.approx(0.7634, abs=1e-4)
    assert wilson(0, 10)[0] == 0.0 and wilson(10, 10)[1] == pytest.approx(1.0)
    assert wilson(10, 10)[0] == pytest.approx(0.7225, abs=1e-4)


def test_hook_writes_a_reproducible_table(tmp_path):
    hook = get_plugin("connect4").results["seed002.csv"]
    cfg = {"seed": 3, "game": {"name": "connect4", "params": {"width": 6, "height": 5},
                               "extra": {"study": STUDY}}}
    a, b = tmp_path / "a.csv", tmp_path / "b.csv"
    hook(cfg, str(a))
    hook(cfg, str(b))
    assert a.read_bytes() == b.read_bytes()
    rows = list(csv.DictReader(a.open()))
    assert list(rows[0]) == COLUMNS
    graded = [r["opponent"] for r in rows if r["comparison"] == "graded"]
    assert graded == ["random", "greedy", "alphabeta_d1", "alphabeta_d2", "uct_plain", "solver"]
    rollouts = [r for r in rows if r["comparison"] == "rollouts"]
    assert [(r["agent"], r["simulations"]) for r in rollouts] == [
        ("uct_heuristic", "20"), ("uct_plain_rollouts", "20"), ("uct_plain", "20"),
        ("uct_heuristic", "40"), ("uct_plain_rollouts", "40"), ("uct_plain", "40")]
    weakest = min((r for r in rows if r["comparison"] == "graded"), key=lambda r: float(r["score"]))
    assert {r["opponent"] for r in rollouts} == {weakest["opponent"]}
    for r in rows:
        n = int(r["games"])
        assert n == (2 if r["comparison"] == "graded" else 4)
        assert int(r["wins"]) + int(r["draws"]) + int(r["losses"]) == n
        assert float(r["score_lo"]) <= float(r["score"]) <= float(r["score_hi"])
    cfg["game"] = {**cfg["game"], "extra": {}, "study": {**STUDY, "strongest": "nobody"}}
    with pytest.raises(ValueError, match="nobody"):
        hook(cfg, str(a))
