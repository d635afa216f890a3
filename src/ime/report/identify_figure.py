"""Which bot played this? Identification accuracy against k and against the pool's size.

Two panels of ``identification.csv`` (:mod:`ime.evaluate.identify`): left, top-1 and top-3
accuracy of the whole pool against the number of matches k (log scale), with their CIs as
error bars and the chance levels dashed, and method (b)'s few-shot top-1 (the GE2E embedding,
:mod:`ime.evaluate.stylometry`) beside method (a)'s; right, the same at one k against the
pool's size (random sub-pools). Chance is drawn because a small pool's accuracy means little
without it.
"""

from __future__ import annotations

from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402

from ime.report.figures import save_figure  # noqa: E402

SERIES = (("top1", "top-1", "o", "C0"), ("top3", "top-3", "s", "C1"))


def _panel(ax: plt.Axes, rows: pd.DataFrame, x: str) -> None:
    xs = rows[x].to_numpy(dtype=float)
    for col, label, marker, colour in SERIES:
        y = rows[col].to_numpy(dtype=float)
        err = np.vstack([y - rows[f"{col}_lo"].to_numpy(dtype=float),
                         rows[f"{col}_hi"].to_numpy(dtype=float) - y])
        err = np.clip(np.nan_to_num(err), 0.0, None)  # a CI end at 100 % rounds past it
        ax.errorbar(xs, y, yerr=err, marker=marker, color=colour, capsize=3, label=label,
                    linewidth=1.2, markersize=4)
        ax.plot(xs, rows[f"chance_{col}"].to_numpy(dtype=float), linestyle="--", color=colour,
                alpha=0.6, linewidth=1, label=f"{label} by chance")
    ax.set_ylim(0, 102)
    ax.grid(alpha=0.3)
    ax.set_ylabel("identified (%)")


def plot_identification(table: pd.DataFrame, title: str, png: str | Path,
                        pdf: str | Path) -> None:
    """Draw ``table`` (``identification.csv``, shares in percent) to ``png`` and ``pdf``."""
    method = table["method"] if "method" in table else pd.Series("likelihood", table.index)
    emb = table[(method == "embedding") & (table["curve"] == "k")].sort_values("k")
    table = table[method != "embedding"]
    by_k = table[table["curve"] == "k"].sort_values("k")
    by_pool = table[table["curve"] == "pool_size"].sort_values("pool_size")
    fig, (left, right) = plt.subplots(1, 2, figsize=(9.5, 3.6))
    if len(by_k):
        _panel(left, by_k, "k")
        left.set_xscale("log")
        left.set_xticks(by_k["k"].tolist(), [str(int(k)) for k in by_k["k"]])
        left.minorticks_off()
        left.set_xlabel(f"matches of the player (k); pool of {int(by_k['pool_size'].iloc[0])}")
    if len(emb):  # method (b): few-shot, bots unseen by their encoder
        y = emb["top1"].to_numpy(dtype=float)
        err = np.clip(np.nan_to_num(np.vstack([y - emb["top1_lo"].to_numpy(dtype=float),
                                               emb["top1_hi"].to_numpy(dtype=float) - y])),
                      0.0, None)
        refs = int(emb["references"].iloc[0]) if "references" in emb else 0
        left.errorbar(emb["k"].to_numpy(dtype=float), y, yerr=err, marker="^", color="C2",
                      capsize=3, linewidth=1.2, markersize=4,
                      label=f"top-1, embedding (few-shot, {refs} refs)")
    if not len(by_k):
        left.text(0.5, 0.5, "no k with held-out matches", ha="center", transform=left.transAxes)
    left.set_title("against the number of matches", fontsize=9)
    if len(by_pool):
        _panel(right, by_pool, "pool_size")
        right.set_xticks(by_pool["pool_size"].tolist(),
                         [str(int(s)) for s in by_pool["pool_size"]])
        right.set_xlabel(f"bots in the pool (random sub-pools), k = {int(by_pool['k'].iloc[0])}")
    right.set_title("against the pool's size", fontsize=9)
    handles, labels = left.get_legend_handles_labels()
    fig.legend(handles, labels, loc="lower center", ncol=4, fontsize=8, frameon=False,
               bbox_to_anchor=(0.5, -0.06))
    fig.suptitle(title, fontsize=10)
    fig.tight_layout(rect=(0, 0.05, 1, 1))
    save_figure(fig, png, pdf)
