"""Each bot's imitation accuracy beside its random baseline (thesis Fig 2.7's shape).

One bar per bot: the validation accuracy averaged over the trained nets, coloured by the bot's
cluster (:func:`ime.evaluate.clustering.accuracy_clusters`), with each net's own mean as a
marker (side by side on the bar, one position per net), and the random baseline (the mean over
decisions of 1 / legal moves) as a black tick. The legend stands beside the axes, off the data.
The bots stay in the configured order (Snake's is the ladder's), so the thesis's "higher-ranked
bots are harder to imitate" reads left to right.
"""

from __future__ import annotations

from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import pandas as pd  # noqa: E402
from matplotlib.patches import Patch  # noqa: E402

from ime.report.figures import save_figure  # noqa: E402

NET_MARKERS = "os^Dv<>Px*"
NET_MARKER_SIZE = 4.0
"""The nets' markers' size in points (:func:`net_offset` keeps them apart at this size)."""
MARKER_GAP = 0.75
"""Points of white between two nets' markers on one bar."""
AXES_SHARE = 0.7
"""Inches of axes per inch of figure, less the x margins: matplotlib's default subplot spans
0.125 to 0.9 of the width, and 5 % of the bars' span is added at either end."""


def plot_accuracy(clusters: pd.DataFrame, table: pd.DataFrame, title: str,
                  png: str | Path, pdf: str | Path) -> None:
    """Draw ``clusters`` (``accuracy_clusters.csv``) with the per-net points of ``table``
    (``imitation_accuracy.csv``) to ``png`` and ``pdf``."""
    bots = list(clusters["bot"])
    x = range(len(bots))
    n_nets = table["net"].nunique()
    fig, ax = plt.subplots(figsize=(figure_width(len(bots), n_nets), 3.8))
    palette = plt.get_cmap("tab10")
    colours = [palette((int(c) - 1) % 10) for c in clusters["cluster"]]
    ax.bar(x, clusters["val_acc"], color=colours, alpha=0.55, width=0.75)
    patches = [Patch(color=palette((int(c) - 1) % 10), alpha=0.55, label=f"cluster {c}")
               for c in sorted(set(clusters["cluster"]))]
    for j, (net, sub) in enumerate(table.groupby("net", sort=False)):
        acc = sub.set_index("bot")["val_acc_mean"].reindex(bots)
        ax.plot([i + net_offset(j, n_nets) for i in x], acc.to_numpy(), linestyle="none",
                marker=NET_MARKERS[j % 10], markersize=NET_MARKER_SIZE, color="0.25",
                label=str(net))
    ax.scatter(list(x), clusters["baseline"], marker="_", s=260, color="black", linewidths=2,
               label="random baseline", zorder=3)
    ax.set_xticks(list(x), bots, rotation=60 if len(bots) > 8 else 0, ha="right"
                  if len(bots) > 8 else "center", fontsize=8)
    ax.set_ylabel("validation accuracy (%)")
    ax.set_ylim(0, 100)
    ax.set_title(title, fontsize=10)
    ax.grid(axis="y", alpha=0.3)
    handles, _ = ax.get_legend_handles_labels()
    # beside the axes, not on them: inside, it covered the first bots' baselines and bars
    ax.legend(handles=[*patches, *handles], fontsize=7, loc="upper left",
              bbox_to_anchor=(1.01, 1.0), borderaxespad=0.0, frameon=False)
    save_figure(fig, png, pdf)


def net_step(n: int) -> float:
    """How far apart (in bar positions) the markers of ``n`` nets stand on one bar: 0.2, or
    closer for many nets so that they stay within about one bar position (Snake's five)."""
    return min(0.2, 0.8 / max(n, 1))


def net_offset(j: int, n: int) -> float:
    """Net ``j`` of ``n``'s marker, left or right of its bar's centre (in bar positions): the
    nets' accuracies are often within a point of each other, and markers drawn on one vertical
    line hid each other."""
    return (j - (n - 1) / 2) * net_step(n)


def figure_width(n_bots: int, n_nets: int) -> float:
    """Inches: at least 0.45 a bot, and enough that :func:`net_step` is a marker and a little
    more (:data:`MARKER_GAP`) at this size; the axes take about :data:`AXES_SHARE` of it."""
    per_bot = (NET_MARKER_SIZE + MARKER_GAP) / 72 / net_step(n_nets) / AXES_SHARE
    return max(5.0, max(0.45, per_bot) * n_bots + 2.0)
