"""Opponent-model search against the originals (issue 49): the points share of every cell.

One group of bars per target of ``om_search.csv`` (:mod:`ime.evaluate.om_experiment`), one bar
per cell in the table's order ((a) plain search to the depth cap, (b) plain at equal nodes, (c)
the target's own imitator as the model, (d) another target's, the true model), each with its CI;
the dotted line is an even score (0.5) and each group's (a) is extended as a dashed line across
its group, so a bar above it is a gain over plain search at equal depth.
"""

from __future__ import annotations

from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402

from ime.report.figures import save_figure  # noqa: E402

NAMES = {"plain_depth": "(a) plain, same depth", "plain_nodes": "(b) plain, equal nodes",
         "om": "(c) own imitator", "om_wrong": "(d) another's imitator",
         "om_true": "true model"}
COLOURS = {"plain_depth": "0.55", "plain_nodes": "0.8", "om": "C0", "om_wrong": "C3",
           "om_true": "C2"}


def plot_om_search(table: pd.DataFrame, title: str, png: str | Path,
                   pdf: str | Path | None = None) -> None:
    """Draw ``table`` (``om_search.csv``; points shares as fractions) to ``png`` (and ``pdf``)."""
    targets = list(dict.fromkeys(table["target"]))
    cells = [c for c in NAMES if c in set(table["cell"])]
    width = 0.8 / max(1, len(cells))
    fig, ax = plt.subplots(figsize=(max(5.0, 1.4 * len(targets) + 2.5), 3.6))
    for j, cell in enumerate(cells):
        rows = table[table["cell"] == cell].set_index("target")
        xs, ys, lo, hi = [], [], [], []
        for i, t in enumerate(targets):
            if t not in rows.index:
                continue
            r = rows.loc[t]
            xs.append(i - 0.4 + width * (j + 0.5))
            ys.append(float(r["points_share"]))
            lo.append(float(r["points_share_lo"]))
            hi.append(float(r["points_share_hi"]))
        y = np.asarray(ys)
        err = np.clip(np.nan_to_num(np.vstack([y - np.asarray(lo), np.asarray(hi) - y])), 0.0,
                      None)
        ax.bar(xs, ys, width=width * 0.92, color=COLOURS[cell], label=NAMES[cell],
               yerr=err, capsize=2, error_kw={"linewidth": 0.8})
    base = table[table["cell"] == "plain_depth"].set_index("target")["points_share"]
    for i, t in enumerate(targets):
        if t in base.index:
            ax.hlines(float(base.loc[t]), i - 0.42, i + 0.42, colors="0.3", linestyles="--",
                      linewidth=0.8)
    ax.axhline(0.5, color="0.5", linestyle=":", linewidth=0.8)
    ax.set_xticks(range(len(targets)), targets)
    ax.set_xlim(-0.6, len(targets) - 0.4)
    ax.set_ylim(0, 1.02)
    ax.set_ylabel("points share against the target")
    ax.set_xlabel("original bot played (both seats, seeded balanced openings)")
    ax.grid(axis="y", alpha=0.3)
    ax.legend(loc="upper center", bbox_to_anchor=(0.5, -0.2), ncol=min(3, len(cells)),
              fontsize=8, frameon=False)
    ax.set_title(title, fontsize=9)
    fig.tight_layout()
    save_figure(fig, png, pdf)
