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


def _curve_row(agent: str, sims: int, lo: float, hi: float) -> dict:
    return {"opponent": "solver", "agent": agent, "simulations": sims, "score": (lo + hi) / 2,
            "score_lo": lo, "score_hi": hi}


def test_saturation_finds_where_the_rollout_rules_stop_lifting_the_score():
    from ime.games.connect4.study import saturation

    h, p = "uct_heuristic", "uct_plain_rollouts"
    # apart at 1k and 3k, overlapping from 10k on: saturates at 10k
    rows = [_curve_row(h, 1000, 0.20, 0.30), _curve_row(p, 1000, 0.05, 0.12),
            _curve_row(h, 3000, 0.25, 0.35), _curve_row(p, 3000, 0.10, 0.20),
            _curve_row(h, 10000, 0.20, 0.30), _curve_row(p, 10000, 0.18, 0.28),
            _curve_row(h, 30000, 0.20, 0.30), _curve_row(p, 30000, 0.19, 0.29)]
    assert saturation(rows) == [{"opponent": "solver", "budgets": [1000, 3000, 10000, 30000],
                                 "lifted_at": [1000, 3000], "saturates_at": 10000,
                                 "reversed_at": []}]
    # plain rollouts ahead with intervals apart: reported as reversed, not as lifted
    flipped = rows[:6] + [_curve_row(h, 30000, 0.20, 0.30), _curve_row(p, 30000, 0.35, 0.45)]
    assert saturation(flipped)[0]["reversed_at"] == [30000]
    assert saturation(flipped)[0]["saturates_at"] == 10000
    # still apart at the largest budget: not saturated
    assert saturation(rows[:4])[0]["saturates_at"] is None
    # never apart: no lift anywhere, "saturated" from the smallest budget
    flat = [_curve_row(h, 1000, 0.1, 0.3), _curve_row(p, 1000, 0.2, 0.4)]
    assert saturation(flat)[0] == {"opponent": "solver", "budgets": [1000], "lifted_at": [],
                                   "saturates_at": 1000, "reversed_at": []}


def test_curve_cli_writes_rows_figure_and_saturation(tmp_path, capsys):
    from ime.games.connect4.study import main

    out = tmp_path / "curve.csv"
    spec = ('{"params": {"width": 6, "height": 5}, "opponents": ["random"], '
            '"budgets": [20, 40], "games_per_colour": 1}')
    main(["--curve", spec, "--workers", "1", "--out", str(out)])
    rows = list(csv.DictReader(out.open()))
    assert list(rows[0]) == COLUMNS
    assert [(r["comparison"], r["agent"], r["simulations"], r["games"]) for r in rows] == [
        ("curve", "uct_heuristic", "20", "2"), ("curve", "uct_plain_rollouts", "20", "2"),
        ("curve", "uct_heuristic", "40", "2"), ("curve", "uct_plain_rollouts", "40", "2")]
    assert out.with_suffix(".png").stat().st_size > 0
    printed = [x for x in capsys.readouterr().out.splitlines() if x.startswith("saturation")]
    assert printed and printed[0].startswith(
        'saturation: {"opponent": "random", "budgets": [20, 40]')
    main(["--saturation", str(out)])  # the same verdict from the CSV alone
    assert [x for x in capsys.readouterr().out.splitlines()] == printed
    with pytest.raises(ValueError, match="variant 'nope' is not one of"):
        main(["--curve", spec.replace('"games_per_colour"', '"variants": ["nope"], '
                                      '"games_per_colour"'), "--out", str(out)])


@pytest.mark.parametrize("spec, says", [
    ("{not json", "not JSON"),
    ('{"opponents": ["random"], "budgets": [20]}', "missing ['games_per_colour']"),
    ('{"opponents": ["random"], "budgets": [0], "games_per_colour": 1}', "budgets must be"),
    ('{"opponents": ["random"], "budgets": 20, "games_per_colour": 1}', "budgets must be"),
    ('{"opponents": ["random"], "budgets": [20], "games_per_colour": 0}', "games_per_colour"),
])
def test_curve_cli_refuses_a_bad_spec_naming_what_is_wrong(spec, says, tmp_path, capsys):
    from ime.games.connect4.study import main

    with pytest.raises(SystemExit) as e:
        main(["--curve", spec, "--out", str(tmp_path / "x.csv")])
    assert e.value.code == 2
    assert says in capsys.readouterr().err
    assert not (tmp_path / "x.csv").exists()


def test_pilot_cli_uses_the_study_settings_and_refuses_unknown_names(tmp_path, capsys,
                                                                     monkeypatch):
    """--pilot plays each variant at its own budget against an opponent of the --config study
    (the study's solver and c, as --curve's), and names a mistyped opponent or variant."""
    from ime.games.connect4.study import main, opponents, run_pilot

    out = tmp_path / "pilot.csv"
    spec = ('{"params": {"width": 6, "height": 5}, "opponent": "uct_plain", '
            '"budgets": {"uct_heuristic": 30, "uct_plain_rollouts": 20}, "games_per_colour": 1}')
    main(["--pilot", spec, "--workers", "1", "--out", str(out)])
    rows = list(csv.DictReader(out.open()))
    assert [(r["comparison"], r["agent"], r["simulations"], r["opponent"], r["games"])
            for r in rows] == [("pilot", "uct_heuristic", "30", "uct_plain", "2"),
                               ("pilot", "uct_plain_rollouts", "20", "uct_plain", "2")]
    # the opponent and the agents' c are the study's (here a plain UCT of 7 simulations, c 0.5)
    import ime.games.connect4.study as st

    met = []
    monkeypatch.setattr(st, "_play_point", lambda pool, comparison, a, name, opp, *rest: (
        met.append((a, opp)) or ({}, 0.0)))
    run_pilot({"width": 6, "height": 5}, "uct_plain", {"uct_heuristic": 10}, 1, workers=1,
              log=lambda *_: None, study={"simulations": 7, "c": 0.5})
    assert met == [(st.agent("uct_heuristic", 10, 0.5),
                    opponents({"simulations": 7, "c": 0.5})["uct_plain"])]
    with pytest.raises(ValueError, match="opponent 'alphabeta_d9' is not one of"):
        run_pilot({}, "alphabeta_d9", {"uct_heuristic": 10}, 1)
    with pytest.raises(ValueError, match="variant 'nope' is not one of"):
        run_pilot({}, "random", {"nope": 10}, 1)
    with pytest.raises(SystemExit):
        main(["--pilot", spec.replace("uct_plain\"", "nobody\""), "--out", str(out)])
    assert "--pilot: pilot: opponent 'nobody'" in capsys.readouterr().err


def test_a_pilot_on_two_worker_processes_plays_the_same_games_as_one():
    """The pool path (ime.core.pools.process_pool): the worker count changes no row."""
    from ime.games.connect4.study import run_pilot

    def rows(workers):
        return run_pilot({"width": 6, "height": 5}, "uct_plain", {"uct_heuristic": 12}, 2,
                         workers=workers, log=lambda *_: None, study={"simulations": 7})

    one = rows(1)
    assert one and one[0]["games"] == 4
    assert rows(2) == one
