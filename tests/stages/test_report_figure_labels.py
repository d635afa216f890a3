"""What a newcomer reads off the figures (issue 45): the similarity heat maps in the CSVs' percent,
the accuracy figure's legend off the data with the nets' markers apart, the ratings' "pts" said.

Each figure is drawn from small hand-made tables and inspected as matplotlib drew it (the
:func:`ime.report.figures.save_figure` call is wrapped to keep the figure), then written, so the
PNG a person would open is the one the assertions describe.
"""

from __future__ import annotations

from pathlib import Path

import matplotlib.pyplot as plt
import pandas as pd
import pytest

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
