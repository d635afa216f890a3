"""Figures: move-choice heat maps (thesis Fig 4.2), similarity matrices, dendrograms, ratings.

Every figure is written as PNG (for the HTML report) and PDF (for papers), with the Agg backend
(no display needed). Move-choice maps show the *share of a bot's moves* played on each code, so
bots with different numbers of decisions are comparable. A game with a board
(``FigureHooks.grid``) gets one heat map per bot, cell ``(y, x)`` = code ``y * width + x`` with
row 0 at the top (as on Botzone), its never-playable cells greyed out and its axes named after
its code labels; a game without one gets bar charts of the most played codes
(:mod:`ime.report.moves`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402

from ime.report.moves import (  # noqa: E402
    CodeLayout,
    MoveCounts,
    code_layout,
    layout_for,
    move_counts_from_datasets,
    move_counts_from_logs,
    shares,
)

__all__ = ["CodeLayout", "MoveCounts", "code_layout", "move_counts_from_datasets",
           "move_counts_from_logs", "plot_dendrograms", "plot_fig4_2", "plot_move_heatmaps",
           "plot_ratings", "plot_similarity_matrix", "plot_similarity_panels", "shares"]

TOP_CODES = 20
"""Bars per bot in the move-choice charts of a game without a board."""


def save_figure(fig: plt.Figure, png: str | Path, pdf: str | Path | None = None) -> None:
    """Write ``fig`` as PNG (and PDF) with no timestamps or versions in the files, so the same
    data gives the same bytes, then close it."""
    png = Path(png)
    png.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(png, dpi=150, bbox_inches="tight", metadata={"Software": None})
    if pdf is not None:
        fig.savefig(pdf, bbox_inches="tight", metadata={"Creator": None, "Producer": None,
                                                         "CreationDate": None})
    plt.close(fig)


# --- move choice ----------------------------------------------------------------------------------
def _board_axes(ax: plt.Axes, layout: CodeLayout) -> None:
    h, w = layout.grid or (1, 1)
    ax.set_xticks(range(w), layout.col_labels())
    ax.set_yticks(range(h), layout.row_labels() if h > 1 else [])
    ax.tick_params(length=0, labelsize=8)


def _mark_fixed(ax: plt.Axes, layout: CodeLayout) -> None:
    """Grey out the cells nobody can play (occupied from the start, say)."""
    for y, x in layout.fixed_cells:
        ax.add_patch(plt.Rectangle((x - 0.5, y - 0.5), 1, 1, facecolor="0.85", edgecolor="0.6",
                                   hatch="//", lw=0.5))


def _heat(ax: plt.Axes, grid: np.ndarray, vmax: float, title: str, annotate: bool,
          layout: CodeLayout) -> Any:
    im = ax.imshow(grid * 100, cmap="viridis", vmin=0, vmax=vmax * 100)
    ax.set_title(title, fontsize=10)
    _board_axes(ax, layout)
    _mark_fixed(ax, layout)
    if annotate:
        fixed = set(layout.fixed_cells)
        for y in range(grid.shape[0]):
            for x in range(grid.shape[1]):
                v = grid[y, x] * 100
                if v >= 0.05 and (y, x) not in fixed:
                    ax.text(x, y, f"{v:.1f}", ha="center", va="center", fontsize=6,
                            color="white" if v < 0.6 * vmax * 100 else "black")
    return im


def _top_codes(values: Sequence[np.ndarray], k: int = TOP_CODES) -> np.ndarray:
    """The ``k`` codes with the largest total share (ties: lower code first), in code order."""
    total = np.sum([np.asarray(v, dtype=float) for v in values], axis=0)
    order = np.lexsort((np.arange(len(total)), -total))
    return np.sort(order[:k])


def _bars(ax: plt.Axes, codes: np.ndarray, values: np.ndarray, title: str,
          layout: CodeLayout, color: str = "tab:blue") -> None:
    ax.bar(range(len(codes)), values[codes] * 100, color=color)
    ax.set_xticks(range(len(codes)), [layout.label(int(c)) for c in codes], rotation=60,
                  ha="right", fontsize=7)
    ax.set_title(title, fontsize=10)


def plot_move_heatmaps(counts: Mapping[str, np.ndarray], png: str | Path,
                       pdf: str | Path | None = None, *, title: str | None = None,
                       annotate: bool = True, game: str | None = None,
                       game_params: Mapping[str, Any] | None = None) -> None:
    """One heat map per bot (shared colour scale, % of that bot's moves per cell), or one bar
    chart per bot for a game without a board. ``game``: whose layout (default: the game the
    counts carry, see :class:`MoveCounts`)."""
    layout = layout_for(counts, game, game_params)
    bots = list(counts)
    n = len(bots)
    cols = min(n, 5) if n else 1
    rows = max(1, int(np.ceil(n / cols)))
    if layout.grid is None:
        flat = {b: shares(counts[b]) for b in bots}
        codes = _top_codes(list(flat.values()))
        fig, axes = plt.subplots(rows, cols, figsize=(4.0 * cols + 0.8, 3.0 * rows + 0.6),
                                 squeeze=False, sharey=True)
        for i, ax in enumerate(axes.flat):
            if i >= n:
                ax.axis("off")
                continue
            b = bots[i]
            _bars(ax, codes, flat[b], f"{b} ({int(np.sum(counts[b])):,} moves)", layout)
            ax.set_ylabel("% of the bot's moves")
        fig.suptitle(title or "Move choice per action code", fontsize=12)
        save_figure(fig, png, pdf)
        return
    grids = {b: shares(counts[b], layout.grid) for b in bots}
    vmax = max((g.max() for g in grids.values()), default=1.0) or 1.0
    fig, axes = plt.subplots(rows, cols, figsize=(3.0 * cols + 0.8, 3.0 * rows + 0.6),
                             squeeze=False)
    im = None
    for i, ax in enumerate(axes.flat):
        if i >= n:
            ax.axis("off")
            continue
        b = bots[i]
        im = _heat(ax, grids[b], vmax, f"{b} ({int(np.sum(counts[b])):,} moves)", annotate,
                   layout)
    if im is not None:
        cb = fig.colorbar(im, ax=axes.ravel().tolist(), shrink=0.8)
        cb.set_label("% of the bot's moves on the square")
    fig.suptitle(title or "Move choice per square", fontsize=12)
    save_figure(fig, png, pdf)


def plot_fig4_2(counts: Mapping[str, np.ndarray], left: str, right: str, png: str | Path,
                pdf: str | Path | None = None, *, game: str | None = None,
                game_params: Mapping[str, Any] | None = None) -> None:
    """Thesis Fig 4.2: two bots' move-choice maps side by side, plus their difference."""
    layout = layout_for(counts, game, game_params)
    if layout.grid is None:
        a, b = shares(counts[left]), shares(counts[right])
        codes = _top_codes([a, b])
        fig, axes = plt.subplots(1, 3, figsize=(15, 4.2), sharey=False)
        _bars(axes[0], codes, a, f"{left}: % of moves per code", layout)
        _bars(axes[1], codes, b, f"{right}: % of moves per code", layout)
        _bars(axes[2], codes, b - a, f"{right} minus {left} (percentage points)", layout,
              color="tab:red")
        fig.suptitle(f"Where {left} and {right} move (Fig 4.2)", fontsize=12)
        save_figure(fig, png, pdf)
        return
    a, b = shares(counts[left], layout.grid), shares(counts[right], layout.grid)
    vmax = max(a.max(), b.max()) or 1.0
    fig, axes = plt.subplots(1, 3, figsize=(13, 4.2))
    im = _heat(axes[0], a, vmax, f"{left}: % of moves per square", True, layout)
    _heat(axes[1], b, vmax, f"{right}: % of moves per square", True, layout)
    fig.colorbar(im, ax=axes[:2].tolist(), shrink=0.85, label="% of the bot's moves")
    d = (b - a) * 100
    lim = max(abs(d).max(), 1e-9)
    im2 = axes[2].imshow(d, cmap="RdBu_r", vmin=-lim, vmax=lim)
    axes[2].set_title(f"{right} minus {left} (percentage points)", fontsize=10)
    _board_axes(axes[2], layout)
    _mark_fixed(axes[2], layout)
    fixed = set(layout.fixed_cells)
    for y in range(d.shape[0]):
        for x in range(d.shape[1]):
            if abs(d[y, x]) >= 0.05 and (y, x) not in fixed:
                axes[2].text(x, y, f"{d[y, x]:+.1f}", ha="center", va="center", fontsize=6)
    fig.colorbar(im2, ax=axes[2], shrink=0.85, label="difference (pp)")
    fig.suptitle(f"Where {left} and {right} move (Fig 4.2)", fontsize=12)
    save_figure(fig, png, pdf)


SIMILARITY_LABEL = "similarity (%)"
"""The colour bar's label of every similarity figure: percent, the unit of the CSVs it shows."""


def _percent_heat(ax: plt.Axes, mat: pd.DataFrame, fontsize: float, aspect: str = "equal") -> Any:
    """An annotated heat map of ``mat`` in percent on a fixed 0-100 scale (so two figures'
    colours compare), each finite cell written with one decimal as the CSVs' readers see it."""
    v = mat.to_numpy(dtype=float)
    im = ax.imshow(v, cmap="magma", vmin=0.0, vmax=100.0, aspect=aspect)
    ax.set_xticks(range(v.shape[1]), list(mat.columns), rotation=45, ha="right")
    ax.set_yticks(range(v.shape[0]), list(mat.index))
    for i in range(v.shape[0]):
        for j in range(v.shape[1]):
            if np.isfinite(v[i, j]):
                ax.text(j, i, f"{v[i, j]:.1f}", ha="center", va="center", fontsize=fontsize,
                        color="white" if v[i, j] < 60.0 else "black")
    return im


def plot_similarity_matrix(mat: pd.DataFrame, png: str | Path, pdf: str | Path | None = None,
                           *, title: str = "Similarity", label: str = SIMILARITY_LABEL) -> None:
    """Annotated heat map of a (bots x bots [+ IMBOT]) similarity table in percent (0-100), as
    ``s1_pairwise.csv`` / ``s2_pairwise.csv`` hold it."""
    fig, ax = plt.subplots(figsize=(1.0 * mat.shape[1] + 2.2, 0.8 * mat.shape[0] + 1.6))
    im = _percent_heat(ax, mat, fontsize=8)
    fig.colorbar(im, ax=ax, shrink=0.8, label=label)
    ax.set_title(title, fontsize=11)
    save_figure(fig, png, pdf)


def plot_dendrograms(trees: Sequence[tuple[str, np.ndarray, Sequence[str]]], png: str | Path,
                     pdf: str | Path | None = None) -> None:
    """Side-by-side dendrograms: ``(title, linkage matrix, labels)`` per panel."""
    from scipy.cluster.hierarchy import dendrogram

    n = max(1, len(trees))
    fig, axes = plt.subplots(1, n, figsize=(4.5 * n, 3.6), squeeze=False)
    for ax, (title, z, labels) in zip(axes.flat, trees, strict=False):
        if len(labels) > 1 and len(z):
            dendrogram(z, labels=list(labels), ax=ax, color_threshold=None,
                       leaf_rotation=45)
            ax.set_ylabel("distance")
        else:
            ax.text(0.5, 0.5, "fewer than two bots", ha="center", va="center")
            ax.set_xticks([])
        ax.set_title(title, fontsize=10)
    fig.suptitle("Hierarchical clustering of the bots (average linkage)", fontsize=12, y=1.04)
    save_figure(fig, png, pdf)


def plot_similarity_panels(mats: Sequence[pd.DataFrame], titles: Sequence[str],
                           png: str | Path, pdf: str | Path | None = None, *,
                           xlabel: str = "", ylabel: str = "") -> None:
    """Several annotated matrices in percent (0-100) side by side (e.g. S1 and S2 of agents x
    targets), on one 0-100 colour bar: the unit of ``similarity.csv``, so a cell reads as the
    table's value."""
    n = len(mats)
    rows, cols = mats[0].shape if n else (1, 1)
    fig, axes = plt.subplots(1, n, figsize=(n * (0.9 * cols + 2.6), 0.55 * rows + 1.8),
                             squeeze=False, layout="constrained")
    im = None
    for k, (ax, mat, title) in enumerate(zip(axes.flat, mats, titles, strict=True)):
        im = _percent_heat(ax, mat, fontsize=7, aspect="auto")
        ax.set_title(title, fontsize=10)
        ax.set_xlabel(xlabel)
        if k == 0:
            ax.set_ylabel(ylabel)
    if im is not None:
        fig.colorbar(im, ax=axes.ravel().tolist(), shrink=0.8, label=SIMILARITY_LABEL)
    save_figure(fig, png, pdf)


def points_note(points: Sequence[float] = (3, 1, 0)) -> str:
    """What "pts" beside a rating means: the bot's round-robin points (``points`` in
    ``tournament.csv``, ``evaluate.tournament.points`` a game), not rating points."""
    w, d, lo = (f"{float(p):g}" for p in points)
    return f"pts: tournament points, summed over the bot's games (win {w} / draw {d} / loss {lo})"


def plot_ratings(table: pd.DataFrame, png: str | Path, pdf: str | Path | None = None, *,
                 points: Sequence[float] = (3, 1, 0)) -> None:
    """Bradley-Terry Elo with 95% CIs, originals and imitators coloured apart (Table 4.8), each
    bot's tournament points beside its interval; ``points``: the win / draw / loss scoring
    (``evaluate.tournament.points``) that the axis label states."""
    df = table.sort_values("elo", ascending=True)
    fig, ax = plt.subplots(figsize=(6.5, 0.38 * len(df) + 1.2))
    colours = {"original": "tab:blue", "imitator": "tab:orange"}
    y = np.arange(len(df))
    for k, r in enumerate(df.itertuples(index=False)):
        c = colours.get(r.type, "tab:gray")
        ax.errorbar(r.elo, k, xerr=[[r.elo - r.elo_lo], [r.elo_hi - r.elo]], fmt="o", color=c,
                    capsize=3)
        ax.text(r.elo_hi + 15, k, f"{float(r.points):g} pts", va="center", fontsize=7)
    ax.set_yticks(y, list(df["bot"]))
    lo, hi = float(df["elo_lo"].min()), float(df["elo_hi"].max())
    pad = max(60.0, 0.12 * (hi - lo))
    ax.set_xlim(lo - pad, hi + 2 * pad)
    ax.set_ylim(-0.7, len(df) - 0.3)
    ax.set_xlabel("Bradley-Terry rating (Elo scale, mean 1500) with 95% CI\n"
                  + points_note(points), fontsize=9)
    for t, c in colours.items():
        ax.plot([], [], "o", color=c, label=t)
    ax.legend(loc="lower right", fontsize=8)
    ax.set_title("Round-robin strength of originals and imitators", fontsize=11)
    save_figure(fig, png, pdf)
