"""``ime bench reversi|connect4|snake --only search_imitator``: the fit's and the decisions'
costs are measured, and the fitted imitator beats chance on its synthetic target (so the timings
are of a real fit)."""

from __future__ import annotations

import pytest

from ime.cli.main import main


@pytest.mark.slow
def test_the_search_imitator_benchmark_runs(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["bench", "reversi", "--only", "search_imitator", "--quick"]) == 0
    out = capsys.readouterr().out
    assert "fit_s_per_1000_positions_by_depth" in out and "decision_ms_by_depth" in out
    agreement = float(out.split("synthetic_target_agreement_pct:")[1].split()[0])
    assert agreement >= 70.0  # chance is about 12 % (8-9 legal moves)
    assert "threads_same_moves: True" in out  # the searches split over threads agree


@pytest.mark.slow
def test_connect4s_search_imitator_benchmark_runs(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["bench", "connect4", "--only", "search_imitator", "--quick"]) == 0
    out = capsys.readouterr().out
    assert "fit_s_per_1000_positions_by_depth" in out and "decision_ms_by_depth" in out
    agreement = float(out.split("synthetic_target_agreement_pct:")[1].split()[0])
    assert agreement >= 70.0  # chance is about 16 % (6-7 legal columns)
    assert "uct_decision_ms_by_sims" in out  # the Monte-Carlo mode's decisions are timed


@pytest.mark.slow
def test_snakes_search_imitator_benchmark_runs(capsys: pytest.CaptureFixture[str]) -> None:
    """Snake's section times fixed depths and budgets; a budget's mean nodes stay near it (the
    count may pass it by the leaves of the last turn a step opened)."""
    assert main(["bench", "snake", "--only", "search_imitator", "--quick"]) == 0
    out = capsys.readouterr().out
    assert "depth 6 ms/decision" in out and "budget 400 exits ms/decision" in out
    nodes = float(out.split("budget 100 natural mean nodes:")[1].split()[0])
    assert 20 < nodes < 200
