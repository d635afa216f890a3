"""The sweep's figure and table from synthetic metrics (no training): curves, bars, grids."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from ime.report.sweep_figure import EXTRAPOLATE_MAX, sweep_figure, unseen_fit
from ime.train.tables import sweep_table
from ime.workflow import artifacts as A
from ime.workflow.sweeps import file_key, point_overrides, sweep_dir_name


def _metrics(bot: str, net: str, acc: float) -> list[dict]:
    return [{"bot": bot, "net": net, "fold": k, "train_acc": acc + 5, "val_acc": acc + k,
             "epochs": 3, "val_acc_unseen": acc - 2 + 2 * k, "val_seen_share": 10.0}
            for k in range(2)]


def _table(keys: list[str], points: list[dict]) -> pd.DataFrame:
    stats = {b: {"bot": b, "baseline": 12.5, "pairs": 100} for b in ("a", "b")}
    pts = []
    for labels in points:
        nets = [labels["net"]] if "net" in labels else ["conv", "mlp1"]
        size = float(labels.get("dataset.matches", 1))
        metrics = [m for b in stats for n in nets for m in _metrics(b, n, 20 + size / 10)]
        pts.append((labels, metrics, stats, nets))
    return sweep_table(pts, keys, ["a", "b"])


def test_sweep_table_puts_the_keys_first_and_a_swept_net_in_its_column() -> None:
    t = _table(["dataset.matches"], point_overrides([("dataset.matches", [25, 100])]))
    assert list(t.columns[:3]) == ["dataset.matches", "bot", "baseline"]
    assert len(t) == 2 * 2 * 2
    assert t.val_acc_unseen_std.iloc[0] == 1.41  # folds at x - 2 and x: sample std sqrt(2)
    g = _table(["dataset.matches", "net"],
               point_overrides([("dataset.matches", [25]), ("net", ["mlp1", "conv"])]))
    assert list(g.columns[:2]) == ["dataset.matches", "bot"] and set(g.net) == {"mlp1", "conv"}


@pytest.mark.parametrize("axes,numeric", [
    ([("dataset.matches", [25, 50, 100, 200])], {"dataset.matches": True}),
    ([("net", ["mlp1", "conv"])], {"net": False}),
    ([("dataset.matches", [25, 200]), ("net", ["mlp1", "conv"])],
     {"dataset.matches": True, "net": False}),
    ([("train.augment", ["none", "d4"]), ("net", ["mlp1", "conv"])],
     {"train.augment": False, "net": False}),
])
def test_figure_is_written_for_curves_bars_and_grids(tmp_path: Path, axes: list,
                                                     numeric: dict) -> None:
    keys = [k for k, _ in axes]
    table = _table(keys, point_overrides(axes))
    png, pdf = tmp_path / "f.png", tmp_path / "f.pdf"
    sweep_figure(table, keys, numeric, "t", png, pdf)
    assert png.read_bytes().startswith(b"\x89PNG") and png.stat().st_size > 5000
    assert pdf.read_bytes().startswith(b"%PDF")
    png2 = tmp_path / "g.png"
    sweep_figure(table, keys, numeric, "t", png2, tmp_path / "g.pdf")
    assert png2.read_bytes() == png.read_bytes()  # same table, same bytes


def _curve(xs: list[float], a: float, b: float, bot: str = "a") -> pd.DataFrame:
    return pd.DataFrame({"dataset.matches": xs, "bot": bot, "net": "conv",
                         "val_acc_unseen_mean": [a + b * np.log2(x) for x in xs]})


def test_unseen_fit_recovers_a_log_linear_curve_and_its_target() -> None:
    """Points on 30 + 4 log2(x): 4 points per doubling, and 80 % at 2 ** 12.5."""
    fit = unseen_fit(_curve([1000, 2000, 5800, 20000], 30.0, 4.0), "dataset.matches",
                     target=80.0)
    row = fit.iloc[0]
    assert (row.bot, row.series, row.points) == ("a", "conv", 4)
    assert row.a == pytest.approx(30.0) and row.per_doubling == pytest.approx(4.0)
    assert row.r2 == pytest.approx(1.0)
    assert row.x_at_target == pytest.approx(2 ** 12.5)


def test_unseen_fit_says_when_it_cannot_extrapolate() -> None:
    """A falling line, a target out of reach, one point, two points (no r2): no invented x."""
    t = pd.concat([_curve([100, 400, 1600], 70.0, -1.0, "falls"),
                   _curve([100, 400, 1600], 10.0, 0.5, "far"),
                   _curve([100], 50.0, 1.0, "one"),
                   _curve([100, 200], -40.0, 10.0, "two")])
    fit = unseen_fit(t, "dataset.matches", target=80.0).set_index("bot")
    assert "one" not in fit.index
    assert np.isnan(fit.loc["falls", "x_at_target"])
    assert 2 ** ((80 - 10) / 0.5) > EXTRAPOLATE_MAX * 1600 and np.isnan(fit.loc["far",
                                                                              "x_at_target"])
    assert fit.loc["two", "x_at_target"] == pytest.approx(4096)  # -40 + 10 log2(x) = 80
    assert np.isnan(fit.loc["two", "r2"])
    assert unseen_fit(t, "dataset.matches").x_at_target.isna().all()  # no target


def test_figure_with_a_fit_target_draws_the_fit_and_returns_it(tmp_path: Path) -> None:
    axes = [("dataset.matches", [25, 50, 100, 200]), ("net", ["mlp1", "conv"])]
    keys = [k for k, _ in axes]
    table = _table(keys, point_overrides(axes))
    plain = sweep_figure(table, keys, {"dataset.matches": True, "net": False}, "t",
                         tmp_path / "a.png", tmp_path / "a.pdf")
    fitted = sweep_figure(table, keys, {"dataset.matches": True, "net": False}, "t",
                          tmp_path / "b.png", tmp_path / "b.pdf", fit_target=60.0)
    assert len(fitted) == 4 and set(fitted.series) == {"mlp1", "conv"}  # 2 bots x 2 nets
    assert plain.x_at_target.isna().all() and fitted.x_at_target.notna().all()
    assert (tmp_path / "a.png").read_bytes() != (tmp_path / "b.png").read_bytes()
    bars = sweep_figure(table[table["dataset.matches"] == 25], ["net"], {"net": False}, "t",
                        tmp_path / "c.png", tmp_path / "c.pdf", fit_target=60.0)
    assert bars.empty and "x_at_target" in bars.columns


def test_sweep_names() -> None:
    axes = [("dataset.matches", [25, 50]), ("net.channels", [[32, 16], [58, 16]])]
    assert file_key(axes) == "dataset.matches+net.channels"
    assert sweep_dir_name("", axes, None) == \
        "sweep_dataset.matches-25-50__net.channels-32x16-58x16"
    assert sweep_dir_name("quick__x-1", axes[:1], ["conv"]) == \
        "quick__x-1__sweep_dataset.matches-25-50__nets-conv"
    long = [("train.lr", [i / 7 for i in range(1, 30)])]
    assert sweep_dir_name("", long, None).startswith("sweep_train.lr__h")


def test_a_game_names_its_sweep_figure(monkeypatch: pytest.MonkeyPatch) -> None:
    """A plug-in mapping the generic sweep figure to its thesis name (Snake's Fig 2.6) gets the
    copy, and its PDF twin, among the sweep's results."""
    monkeypatch.setattr(A, "game_names", lambda game: {
        "fig_sweep_dataset.matches.png": "fig2_6.png",
        "fig_sweep_dataset.matches.pdf": "fig2_6.pdf"})
    files = ["sweep_dataset.matches.csv", "fig_sweep_dataset.matches.png",
             "fig_sweep_dataset.matches.pdf"]
    assert A.sweep_results("snake", files) == [*files, "fig2_6.png", "fig2_6.pdf", "index.md"]
