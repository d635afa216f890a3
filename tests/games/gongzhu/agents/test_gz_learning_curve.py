"""The DMC learning curve from kept snapshots: snapshots written at each save, evaluated once each
(resumable), the log-samples fit and its projection, and the CLI."""

from __future__ import annotations

import csv
import math

import pytest

from ime.games.gongzhu.agents.agent import DMCAgent
from ime.games.gongzhu.agents.dmc import DMCConfig, load_preset, snapshot_path, train
from ime.games.gongzhu.agents.learning_curve import (
    FIELDS,
    evaluate_snapshots,
    fit,
    main,
    snapshots,
)

SMALL = dict(width=16, depth=1, lstm_hidden=8, show_width=8, show_depth=1, unroll=16, batch=2,
             show_unroll=4, show_batch=2, num_buffers=4)


@pytest.fixture(scope="module")
def run(tmp_path_factory):
    out = tmp_path_factory.mktemp("dmc")
    cfg = DMCConfig(**SMALL, out=str(out), frames=200, actors=1, log_every=10_000,
                    save_every=64, eval_every=0, keep_snapshots=True)
    prog = train(cfg, log=lambda s: None)
    return out, prog


@pytest.mark.slow
def test_keep_snapshots_keeps_each_saved_bot_checkpoint_named_by_samples(run):
    out, prog = run
    snaps = snapshots(out / "snapshots")
    assert len(snaps) >= 3 and snaps[-1][0] == prog.frames
    assert [s for s, _ in snaps] == sorted({s for s, _ in snaps})
    assert snaps[0][1] == snapshot_path(out, snaps[0][0])
    for _, path in snaps:
        DMCAgent.load(str(path))  # a whole, loadable bot checkpoint
    assert (out / "snapshots" / snaps[-1][1].name).read_bytes() == (out / "agent.pt").read_bytes()
    assert load_preset("seed")["keep_snapshots"] is True
    assert DMCConfig().keep_snapshots is False


def test_snapshots_are_evaluated_once_and_the_csv_resumes(run, tmp_path):
    out, _ = run
    csv_path = tmp_path / "curve.csv"
    said = []
    rows = evaluate_snapshots(out / "snapshots", csv_path, ["rules"], deals=1, log=said.append)
    n = len(snapshots(out / "snapshots"))
    assert len(rows) == len(said) == n
    with csv_path.open() as f:
        assert list(next(csv.reader(f))) == FIELDS
    for r in rows:
        assert 0.0 <= float(r["rel_win"]) <= 1.0 and r["opponents"] == "rules"
    before = csv_path.read_bytes()
    again = []
    assert len(evaluate_snapshots(out / "snapshots", csv_path, ["rules"], deals=1,
                                  log=again.append)) == n
    assert again == [] and csv_path.read_bytes() == before
    with pytest.raises(FileNotFoundError, match="keep-snapshots"):
        evaluate_snapshots(tmp_path, tmp_path / "x.csv", ["rules"], deals=1)


def _rows(points, opp="cnn"):
    return [{"samples": str(s), "opponents": opp, "rel_win": str(y), "rel_win_ci": str(ci)}
            for s, y, ci in points]


def test_fit_recovers_a_log_linear_curve_and_projects_the_target():
    pts = [(s, 0.3 + 0.1 * math.log10(s), 0.01) for s in (1e5, 3e5, 1e6, 3e6)]
    f = fit(_rows(pts), "cnn", target=0.7, samples_per_s=1000.0)
    assert f.slope == pytest.approx(0.1, abs=1e-9) and f.intercept == pytest.approx(0.3)
    assert f.target_samples == pytest.approx(1e4, rel=1e-6)  # 0.3 + 0.1 * log10(1e4) = 0.7
    assert f.target_hours == pytest.approx(1e4 / 1000 / 3600)
    assert "reaches 70%" in f.line()


def test_fit_makes_no_projection_without_a_significant_rise():
    flat = [(1e5, 0.47, 0.05), (1e6, 0.46, 0.05), (3e6, 0.48, 0.05)]
    f = fit(_rows(flat), "cnn")
    assert f.target_samples is None and f.target_hours is None
    assert "no projection" in f.line()
    with pytest.raises(ValueError, match="need at least 3"):
        fit(_rows(flat[:2]), "cnn")


def test_cli_writes_the_curve_the_figure_and_checks_references(run, tmp_path, capsys):
    out, _ = run
    csv_path = tmp_path / "c.csv"
    main(["--snapshots", str(out / "snapshots"), "--out", str(csv_path), "--opponents", "rules",
          "--deals", "1", "--reference", "shipped=0.44"])
    assert csv_path.with_suffix(".png").stat().st_size > 0
    printed = capsys.readouterr().out
    assert "rel_win vs rules:" in printed and "mean_rel vs rules:" in printed
    with pytest.raises(SystemExit) as e:
        main(["--snapshots", str(out / "snapshots"), "--out", str(csv_path), "--reference",
              "0.44"])
    assert e.value.code == 2


def test_fit_of_the_mean_relative_score_projects_to_the_seeds_plus_67():
    rows = [{"samples": str(s), "opponents": "cnn", "mean_rel": str(-100 + 20 * math.log10(s)),
             "mean_rel_ci": "5"} for s in (1e5, 1e6, 1e7)]
    f = fit(rows, "cnn", metric="mean_rel", samples_per_s=1e6)
    assert f.slope == pytest.approx(20.0) and f.target == 67.0
    assert f.target_samples == pytest.approx(10 ** (167 / 20), rel=1e-6)
    assert f.line().startswith("mean_rel vs cnn") and "+67" in f.line()
    with pytest.raises(ValueError, match="metric 'score'"):
        fit(rows, "cnn", metric="score")
