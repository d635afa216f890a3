"""Each bot's imitation accuracy beside its random baseline (thesis Fig 2.7's shape).

One bar per bot: the validation accuracy averaged over the trained nets, coloured by the bot's
cluster (:func:`ime.evaluate.clustering.accuracy_clusters`), with each net's own mean as a
marker, and the random baseline (the mean over decisions of 1 / legal moves) as a black tick. The
bots stay in the configured order (Snake's is the ladder's), so the thesis's "higher-ranked bots
are harder to imitate" reads left to right.
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


def plot_accuracy(clusters: pd.DataFrame, table: pd.DataFrame, title: str,
                  png: str | Path, pdf: str | Path) -> None:
    """Draw ``clusters`` (``accuracy_clusters.csv``) with the per-net points of ``table``
    (``imitation_accuracy.csv``) to ``png`` and ``pdf``."""
    bots = list(clusters["bot"])
    x = range(len(bots))
    fig, ax = plt.subplots(figsize=(max(5.0, 0.45 * len(bots) + 2.0), 3.8))
    palette = plt.get_cmap("tab10")
    colours = [palette((int(c) - 1) % 10) for c in clusters["cluster"]]
    ax.bar(x, clusters["val_acc"], color=colours, alpha=0.55, width=0.75)
    patches = [Patch(color=palette((int(c) - 1) % 10), alpha=0.55, label=f"cluster {c}")
               for c in sorted(set(clusters["cluster"]))]
    for j, (net, sub) in enumerate(table.groupby("net", sort=False)):
        acc = sub.set_index("bot")["val_acc_mean"].reindex(bots)
        ax.plot(list(x), acc.to_numpy(), linestyle="none", marker=NET_MARKERS[j % 10],
                markersize=4, color="0.25", label=str(net))
    ax.scatter(list(x), clusters["baseline"], marker="_", s=260, color="black", linewidths=2,
               label="random baseline", zorder=3)
    ax.set_xticks(list(x), bots, rotation=60 if len(bots) > 8 else 0, ha="right"
                  if len(bots) > 8 else "center", fontsize=8)
    ax.set_ylabel("validation accuracy (%)")
    ax.set_ylim(0, 100)
    ax.set_title(title, fontsize=10)
    ax.grid(axis="y", alpha=0.3)
    handles, _ = ax.get_legend_handles_labels()
    ax.legend(handles=[*patches, *handles], fontsize=7, ncol=2, loc="lower left",
              framealpha=0.85)
    save_figure(fig, png, pdf)
