"""One figure per game: the targets' dendrograms under each distance, leaves coloured by the
bot's algorithm class (Table 6.1), so that whether a metric's tree recovers the classes shows at
a glance (issue 48, Deliver 6; the numbers are ``cluster_purity.csv``'s).

Why a figure of its own beside ``figures/dendrogram.png``: that one has the thesis's two views
(imitation similarity, 1 - S between originals) without the classes; this one puts every
metric's tree (1 - S1, 1 - S2, 1 - kappa, JSD) side by side with the same leaf colours.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path

import numpy as np

from ime.report.figures import plt, save_figure

PALETTE = ("#1b9e77", "#d95f02", "#7570b3", "#e7298a", "#66a61e", "#e6ab02", "#a6761d",
           "#666666")


def class_colours(classes: Mapping[str, str]) -> dict[str, str]:
    """A colour per class, in sorted class order (the same class, the same colour, every
    game)."""
    return {c: PALETTE[i % len(PALETTE)] for i, c in enumerate(sorted(set(classes.values())))}


def plot_class_dendrograms(trees: Sequence[tuple[str, np.ndarray, Sequence[str]]],
                           classes: Mapping[str, str], png: str | Path,
                           pdf: str | Path | None = None, *, title: str = "") -> None:
    """Side-by-side dendrograms (``(panel title, linkage, leaf labels)``), leaf labels coloured
    by ``classes`` (bot -> class) with one legend."""
    from matplotlib.patches import Patch
    from scipy.cluster.hierarchy import dendrogram

    colours = class_colours(classes)
    n = max(1, len(trees))
    fig, axes = plt.subplots(1, n, figsize=(4.2 * n, 3.8), squeeze=False)
    for ax, (name, z, labels) in zip(axes.flat, trees, strict=False):
        if len(labels) > 1 and len(z):
            dendrogram(z, labels=list(labels), ax=ax, color_threshold=0,
                       above_threshold_color="#444444", leaf_rotation=60)
            for tick in ax.get_xmajorticklabels():
                tick.set_color(colours.get(classes.get(tick.get_text(), ""), "#000000"))
            ax.set_ylabel("distance")
        else:
            ax.text(0.5, 0.5, "fewer than two bots", ha="center", va="center")
            ax.set_xticks([])
        ax.set_title(name, fontsize=10)
    if not trees:
        axes.flat[0].text(0.5, 0.5, "no distance with every pair", ha="center", va="center")
    handles = [Patch(color=c, label=k) for k, c in colours.items()]
    if handles:
        fig.legend(handles=handles, loc="lower center", ncol=min(4, len(handles)),
                   fontsize=8, frameon=False, bbox_to_anchor=(0.5, -0.22))
    fig.suptitle(title or "The targets clustered by each metric (average linkage); leaves "
                 "coloured by algorithm class", fontsize=11, y=1.03)
    save_figure(fig, png, pdf)
