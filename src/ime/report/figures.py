"""Figures: per-square move-choice heat maps (thesis Fig 4.2), similarity matrices, dendrograms.

Every figure is written as PNG (for the HTML report) and PDF (for papers), with the Agg backend
(no display needed). Heat maps show the *share of a bot's moves* played on each square, so bots
with different numbers of decisions are comparable; squares are laid out as on Botzone (columns
A-H = x, rows 1-8 = y, row 1 at the top).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402

if TYPE_CHECKING:
    from ime.matches.logs import BadMatch, RawMatch

FILES = "ABCDEFGH"


def _save(fig: plt.Figure, png: str | Path, pdf: str | Path | None = None) -> None:
    png = Path(png)
    png.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(png, dpi=150, bbox_inches="tight", metadata={"Software": None})
    if pdf is not None:
        fig.savefig(pdf, bbox_inches="tight", metadata={"Creator": None, "Producer": None,
                                                         "CreationDate": None})
    plt.close(fig)


# --- data -----------------------------------------------------------------------------------------
def move_counts_from_datasets(paths: Mapping[str, str | Path], num_squares: int = 64
                              ) -> dict[str, np.ndarray]:
    """Per-square counts of each bot's chosen actions, from its decisions dataset (Parquet)."""
    import pyarrow.parquet as pq

    out = {}
    for bot, path in paths.items():
        actions = pq.read_table(path, columns=["action"]).column("action").to_numpy()
        actions = actions[(actions >= 0) & (actions < num_squares)]
        out[bot] = np.bincount(actions, minlength=num_squares).astype(np.int64)
    return out


def move_counts_from_logs(paths: Iterable[str | Path], bots: Sequence[str], *,
                          mode: str = "strict", rejected: list[BadMatch] | None = None
                          ) -> dict[str, np.ndarray]:
    """Per-square counts of each bot's Reversi moves read straight from Botzone JSON-lines logs.

    Each file goes through :func:`ime.matches.logs.read_matches` (structure checks, no replay),
    so a line that is not a match (malformed or truncated JSON, wrong encoding, an empty file, a
    log of another game) and a match whose responses cannot be read are each a
    :class:`~ime.matches.logs.BadMatch` naming the file, the line and the match id.
    ``mode="strict"`` (default) raises :class:`~ime.matches.logs.LogFormatError` listing a file's
    first problems and how many of its lines were bad; ``mode="lenient"`` skips them (a bad match
    counts nothing), appends them to ``rejected`` when given and logs how many were skipped per
    file. Moves are counted as logged, without replaying the match (faulted turns are left out).
    """
    import logging

    from ime.core.registry import get_game
    from ime.matches.logs import BadMatch, LogFormatError, read_matches

    if mode not in ("strict", "lenient"):
        raise ValueError(f"mode must be 'strict' or 'lenient', got {mode!r}")
    game = get_game("reversi")
    counts = {b: np.zeros(64, dtype=np.int64) for b in bots}
    for path in paths:
        report = read_matches(path, game, mode="lenient", replay=False)
        bad = list(report.rejected)
        for m in report.accepted:
            try:
                _count_moves(m, counts)
            except _UnreadableMatch as e:
                bad.append(BadMatch(m.path, m.line, m.match_id, str(e), "structure"))
        if bad and mode == "strict":
            bad.sort(key=lambda b: b.line)
            raise LogFormatError(str(path), bad, len(bad), report.total)
        if bad:
            logging.getLogger("ime.report").warning(
                "%s: skipped %d of %d bad match line(s) (lenient), first: %s", path, len(bad),
                report.total, bad[0])
            if rejected is not None:
                rejected.extend(bad)
    return counts


class _UnreadableMatch(ValueError):
    """A match line whose moves cannot be read (the message says why)."""


def _count_moves(m: RawMatch, counts: Mapping[str, np.ndarray]) -> None:
    """Add one match's moves to ``counts``; all or nothing (raises before adding any)."""
    import json

    from ime.matches.logs import player_entries

    data = m.data  # read_matches has checked the players / log structure
    ids = m.bot_ids()
    add: list[tuple[str, int]] = []
    for turn, entry in enumerate(player_entries(data)):
        if not isinstance(entry, Mapping):
            raise _UnreadableMatch(f"player entry {turn} is not an object")
        for seat, item in entry.items():
            if not (isinstance(item, Mapping) and str(seat).isdigit() and int(seat) < len(ids)):
                raise _UnreadableMatch(f"player entry {turn}: bad seat {seat!r}")
            bot = ids[int(seat)]
            if bot not in counts or item.get("verdict", "OK") != "OK":
                continue
            r = item.get("response")
            try:
                if isinstance(r, str):
                    r = json.loads(r)
                if isinstance(r, Mapping) and 0 <= int(r.get("x", -1)) < 8:
                    x, y = int(r["x"]), int(r["y"])
                    if not 0 <= y < 8:
                        raise ValueError(f"y={y} is off the board")
                    add.append((bot, y * 8 + x))
            except (ValueError, TypeError, KeyError) as e:
                raise _UnreadableMatch(f"player entry {turn}, seat {seat}: unreadable "
                                       f"response {item.get('response')!r} ({e})") from None
    for bot, square in add:
        counts[bot][square] += 1


def shares(counts: np.ndarray) -> np.ndarray:
    """Counts -> 8x8 shares of all moves (zeros if the bot never moved)."""
    c = np.asarray(counts, dtype=float)
    total = c.sum()
    return (c / total if total else c).reshape(8, 8)


# --- plots ----------------------------------------------------------------------------------------
def _board_axes(ax: plt.Axes) -> None:
    ax.set_xticks(range(8), list(FILES))
    ax.set_yticks(range(8), [str(i + 1) for i in range(8)])
    ax.tick_params(length=0, labelsize=8)


START = [(3, 3), (3, 4), (4, 3), (4, 4)]  # (y, x) of the four initial discs: never a move


def _mark_start(ax: plt.Axes) -> None:
    """Grey out the four centre squares (occupied from the start, so nobody can move there)."""
    for y, x in START:
        ax.add_patch(plt.Rectangle((x - 0.5, y - 0.5), 1, 1, facecolor="0.85", edgecolor="0.6",
                                   hatch="//", lw=0.5))


def _heat(ax: plt.Axes, grid: np.ndarray, vmax: float, title: str, annotate: bool) -> Any:
    im = ax.imshow(grid * 100, cmap="viridis", vmin=0, vmax=vmax * 100)
    ax.set_title(title, fontsize=10)
    _board_axes(ax)
    _mark_start(ax)
    if annotate:
        for y in range(8):
            for x in range(8):
                v = grid[y, x] * 100
                if v >= 0.05 and (y, x) not in START:
                    ax.text(x, y, f"{v:.1f}", ha="center", va="center", fontsize=6,
                            color="white" if v < 0.6 * vmax * 100 else "black")
    return im


def plot_move_heatmaps(counts: Mapping[str, np.ndarray], png: str | Path,
                       pdf: str | Path | None = None, *, title: str | None = None,
                       annotate: bool = True) -> None:
    """One 8x8 heat map per bot (shared colour scale, % of that bot's moves per square)."""
    bots = list(counts)
    n = len(bots)
    cols = min(n, 5) if n else 1
    rows = max(1, int(np.ceil(n / cols)))
    grids = {b: shares(counts[b]) for b in bots}
    vmax = max((g.max() for g in grids.values()), default=1.0) or 1.0
    fig, axes = plt.subplots(rows, cols, figsize=(3.0 * cols + 0.8, 3.0 * rows + 0.6),
                             squeeze=False)
    im = None
    for i, ax in enumerate(axes.flat):
        if i >= n:
            ax.axis("off")
            continue
        b = bots[i]
        im = _heat(ax, grids[b], vmax, f"{b} ({int(np.sum(counts[b])):,} moves)", annotate)
    if im is not None:
        cb = fig.colorbar(im, ax=axes.ravel().tolist(), shrink=0.8)
        cb.set_label("% of the bot's moves on the square")
    fig.suptitle(title or "Move choice per square", fontsize=12)
    _save(fig, png, pdf)


def plot_fig4_2(counts: Mapping[str, np.ndarray], left: str, right: str, png: str | Path,
                pdf: str | Path | None = None) -> None:
    """Thesis Fig 4.2: two bots' move-choice maps side by side, plus their difference."""
    a, b = shares(counts[left]), shares(counts[right])
    vmax = max(a.max(), b.max()) or 1.0
    fig, axes = plt.subplots(1, 3, figsize=(13, 4.2))
    im = _heat(axes[0], a, vmax, f"{left}: % of moves per square", True)
    _heat(axes[1], b, vmax, f"{right}: % of moves per square", True)
    fig.colorbar(im, ax=axes[:2].tolist(), shrink=0.85, label="% of the bot's moves")
    d = (b - a) * 100
    lim = max(abs(d).max(), 1e-9)
    im2 = axes[2].imshow(d, cmap="RdBu_r", vmin=-lim, vmax=lim)
    axes[2].set_title(f"{right} minus {left} (percentage points)", fontsize=10)
    _board_axes(axes[2])
    _mark_start(axes[2])
    for y in range(8):
        for x in range(8):
            if abs(d[y, x]) >= 0.05 and (y, x) not in START:
                axes[2].text(x, y, f"{d[y, x]:+.1f}", ha="center", va="center", fontsize=6)
    fig.colorbar(im2, ax=axes[2], shrink=0.85, label="difference (pp)")
    fig.suptitle(f"Where {left} and {right} move (Fig 4.2)", fontsize=12)
    _save(fig, png, pdf)


def plot_similarity_matrix(mat: pd.DataFrame, png: str | Path, pdf: str | Path | None = None,
                           *, title: str = "Similarity", label: str = "similarity") -> None:
    """Annotated heat map of a (bots x bots [+ IMBOT]) similarity table with values in [0, 1]."""
    values = mat.to_numpy(dtype=float)
    fig, ax = plt.subplots(figsize=(1.0 * values.shape[1] + 2.2, 0.8 * values.shape[0] + 1.6))
    im = ax.imshow(values, cmap="magma", vmin=0.0, vmax=1.0)
    ax.set_xticks(range(values.shape[1]), list(mat.columns), rotation=45, ha="right")
    ax.set_yticks(range(values.shape[0]), list(mat.index))
    for i in range(values.shape[0]):
        for j in range(values.shape[1]):
            v = values[i, j]
            if np.isfinite(v):
                ax.text(j, i, f"{v:.2f}", ha="center", va="center", fontsize=8,
                        color="white" if v < 0.6 else "black")
    fig.colorbar(im, ax=ax, shrink=0.8, label=label)
    ax.set_title(title, fontsize=11)
    _save(fig, png, pdf)


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
    _save(fig, png, pdf)


def plot_similarity_panels(mats: Sequence[pd.DataFrame], titles: Sequence[str],
                           png: str | Path, pdf: str | Path | None = None, *,
                           xlabel: str = "", ylabel: str = "") -> None:
    """Several annotated [0, 1] matrices side by side (e.g. S1 and S2 of agents x targets)."""
    n = len(mats)
    rows, cols = mats[0].shape if n else (1, 1)
    fig, axes = plt.subplots(1, n, figsize=(n * (0.9 * cols + 2.6), 0.55 * rows + 1.8),
                             squeeze=False, layout="constrained")
    im = None
    for k, (ax, mat, title) in enumerate(zip(axes.flat, mats, titles, strict=True)):
        v = mat.to_numpy(dtype=float)
        im = ax.imshow(v, cmap="magma", vmin=0.0, vmax=1.0, aspect="auto")
        ax.set_xticks(range(v.shape[1]), list(mat.columns), rotation=45, ha="right")
        ax.set_yticks(range(v.shape[0]), list(mat.index))
        for i in range(v.shape[0]):
            for j in range(v.shape[1]):
                if np.isfinite(v[i, j]):
                    ax.text(j, i, f"{v[i, j]:.2f}", ha="center", va="center", fontsize=7,
                            color="white" if v[i, j] < 0.6 else "black")
        ax.set_title(title, fontsize=10)
        ax.set_xlabel(xlabel)
        if k == 0:
            ax.set_ylabel(ylabel)
    if im is not None:
        fig.colorbar(im, ax=axes.ravel().tolist(), shrink=0.8, label="similarity")
    _save(fig, png, pdf)


def plot_ratings(table: pd.DataFrame, png: str | Path, pdf: str | Path | None = None) -> None:
    """Bradley-Terry Elo with 95% CIs, originals and imitators coloured apart (Table 4.8)."""
    df = table.sort_values("elo", ascending=True)
    fig, ax = plt.subplots(figsize=(6.5, 0.38 * len(df) + 1.2))
    colours = {"original": "tab:blue", "imitator": "tab:orange"}
    y = np.arange(len(df))
    for k, r in enumerate(df.itertuples(index=False)):
        c = colours.get(r.type, "tab:gray")
        ax.errorbar(r.elo, k, xerr=[[r.elo - r.elo_lo], [r.elo_hi - r.elo]], fmt="o", color=c,
                    capsize=3)
        ax.text(r.elo_hi + 15, k, f"{int(r.points)} pts", va="center", fontsize=7)
    ax.set_yticks(y, list(df["bot"]))
    lo, hi = float(df["elo_lo"].min()), float(df["elo_hi"].max())
    pad = max(60.0, 0.12 * (hi - lo))
    ax.set_xlim(lo - pad, hi + 2 * pad)
    ax.set_ylim(-0.7, len(df) - 0.3)
    ax.set_xlabel("Bradley-Terry rating (Elo scale, mean 1500) with 95% CI")
    for t, c in colours.items():
        ax.plot([], [], "o", color=c, label=t)
    ax.legend(loc="lower right", fontsize=8)
    ax.set_title("Round-robin strength of originals and imitators", fontsize=11)
    _save(fig, png, pdf)
