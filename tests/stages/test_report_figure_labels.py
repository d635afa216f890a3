"""What a newcomer reads off the figures (issue 45): the similarity heat maps in the CSVs' percent,
the accuracy figure's legend off the data with the nets' markers apart, the ratings' "pts" said.

Each figure is drawn from small hand-made tables and inspected as matplotlib drew it (the
:func:`ime.report.figures.save_figure` call is wrapped to keep the figure), then written, so the
PNG a person would open is the one the assertions describe.
"""

from __future__ import annotations

from pathlib import Path

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
import pytest

from ime.evaluate.clustering import accuracy_clusters
from ime.evaluate.similarity import Similarity
from ime.report import accuracy_figure, figures
from ime.workflow.jobs.report import _heatmaps


@pytest.fixture
def drawn(monkeypatch: pytest.MonkeyPatch) -> list[plt.Figure]:
    """Every figure the plotting functions save, in order (still saved as usual)."""
    out: list[plt.Figure] = []
    real = figures.save_figure

    def keep(fig: plt.Figure, png: str | Path, pdf: str | Path | None = None) -> None:
        fig.canvas.draw()  # lay out (constrained layout, tight bbox) before anyone measures
        out.append(fig)
        real(fig, png, pdf)

    monkeypatch.setattr(figures, "save_figure", keep)
    monkeypatch.setattr(accuracy_figure, "save_figure", keep)
    return out


def _texts(ax: plt.Axes) -> list[str]:
    return [t.get_text() for t in ax.texts]


# --- 1. similarity.png: the CSVs' percent ------------------------------------------------------
def test_the_similarity_heat_maps_are_in_percent_like_the_csvs(drawn, tmp_path) -> None:
    """``similarity.csv`` says S1 = 62.9 (%); the figure's cell says 62.9 on a 0-100 bar."""
    sims = [Similarity("imit_rev1", "rev1", 100, 10, 0.629, 0.6, 0.65, 0.415, 0.4, 0.43, 0.2),
            Similarity("rev2", "rev1", 100, 10, 0.05, 0.04, 0.06, 1.0, 1.0, 1.0, 0.2)]
    _heatmaps(sims, ["rev1", "rev2"], str(tmp_path / "s.png"), str(tmp_path / "s.pdf"))
    fig = drawn[-1]
    s1, s2, bar = fig.axes
    assert s1.images[0].get_clim() == (0.0, 100.0)
    assert bar.get_ylim() == (0.0, 100.0)
    assert "%" in bar.get_ylabel()
    assert {"100.0", "62.9", "5.0"} <= set(_texts(s1)), _texts(s1)  # diagonal, imitator, rev2
    assert {"100.0", "41.5"} <= set(_texts(s2)), _texts(s2)
    assert (tmp_path / "s.png").stat().st_size > 1000


def test_a_pairwise_matrix_figure_reads_the_pairwise_csvs_percent(drawn, tmp_path) -> None:
    mat = pd.DataFrame([[100.0, 52.94], [52.94, 100.0]], index=["rev1", "rev2"],
                       columns=["rev1", "rev2"])
    figures.plot_similarity_matrix(mat, tmp_path / "m.png")
    ax, bar = drawn[-1].axes
    assert ax.images[0].get_clim() == (0.0, 100.0) and "%" in bar.get_ylabel()
    assert sorted(_texts(ax)) == ["100.0", "100.0", "52.9", "52.9"]


# --- 2. accuracy.png: the legend beside the data, the nets' markers apart -----------------------
def _accuracy_tables(bots: list[str], nets: list[str]) -> tuple[pd.DataFrame, pd.DataFrame]:
    """Every net within half a point of the others on each bot (the hard case for markers)."""
    rows = [{"bot": b, "baseline": 20.0 + k % 3, "net": n, "val_acc_mean": 40.0 + k + 0.2 * j}
            for k, b in enumerate(bots) for j, n in enumerate(nets)]
    table = pd.DataFrame(rows)
    return accuracy_clusters(table, bots, k=2), table


@pytest.mark.parametrize("n_bots,nets", [(5, ["mlp1", "mlp2", "conv"]),
                                          (22, [f"snake_{n}" for n in ("mlp1", "mlp2", "conv1",
                                                                        "conv2", "conv3")])])
def test_the_accuracy_legend_is_off_the_data_and_no_two_markers_overlap(
        drawn, tmp_path, n_bots, nets) -> None:
    bots = [f"b{k}" for k in range(n_bots)]
    clusters, table = _accuracy_tables(bots, nets)
    accuracy_figure.plot_accuracy(clusters, table, "demo", tmp_path / "a.png", tmp_path / "a.pdf")
    fig = drawn[-1]
    (ax,) = fig.axes
    legend = ax.get_legend()
    assert not legend.get_window_extent().overlaps(ax.get_window_extent())
    assert [t.get_text() for t in legend.get_texts()] == [
        "cluster 1", "cluster 2", *nets, "random baseline"]
    lines = [ln for ln in ax.get_lines() if ln.get_label() in nets]
    assert [ln.get_label() for ln in lines] == nets
    # on screen: each bot's markers side by side, centres a marker's width apart or more
    size_px = max(ln.get_markersize() for ln in lines) * fig.dpi / 72
    xs = np.array([ax.transData.transform(np.column_stack([ln.get_xdata(), ln.get_ydata()]))[:, 0]
                   for ln in lines])  # nets x bots, pixels
    gaps = np.diff(xs, axis=0)
    assert gaps.min() >= size_px, (gaps.min(), size_px)
    # and every marker stays over its own bar (within +-0.375 of the bot's position)
    offsets = np.array([np.asarray(ln.get_xdata()) - np.arange(n_bots) for ln in lines])
    assert np.abs(offsets).max() < 0.375


# --- 3. ratings.png: what "pts" is ---------------------------------------------------------------
T48 = pd.DataFrame({"bot": ["rev1", "imit_rev1"], "type": ["original", "imitator"],
                    "points": [7.0, 2.5], "elo": [1600.0, 1400.0], "elo_lo": [1500.0, 1300.0],
                    "elo_hi": [1700.0, 1500.0]})


@pytest.mark.parametrize("points,words", [((3, 1, 0), "win 3 / draw 1 / loss 0"),
                                          ((1, 0.5, 0), "win 1 / draw 0.5 / loss 0")])
def test_the_ratings_say_what_pts_are(drawn, tmp_path, points, words) -> None:
    figures.plot_ratings(T48, tmp_path / "r.png", tmp_path / "r.pdf", points=points)
    (ax,) = drawn[-1].axes
    assert sorted(_texts(ax)) == ["2.5 pts", "7 pts"]  # the table's points, not truncated
    label = ax.get_xlabel()
    assert "pts: tournament points, summed over the bot's games" in label, label
    assert words in label, label
    assert "Elo scale" in label
