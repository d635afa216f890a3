"""A sweep's figure: validation accuracy against the swept key (thesis Fig 2.6's shape).

One panel per bot (small multiples). A numeric key is a curve over its values (a log x-axis for
dataset sizes, and when the values span a factor of 8 or more, as learning rates do);
categorical keys give grouped bars, one group per value. Each series (a net, and the values of
any further keys of a grid) shows ``val_acc`` (solid) and ``val_acc_unseen`` (dashed, or
hatched bars), each the mean over folds with the sample std as error bars, and the random
baseline (the mean over decisions of 1 / legal moves, which moves with the dataset) as a
dotted black line.

With a numeric x-axis, :func:`unseen_fit` fits ``val_acc_unseen = a + b * log2(x)`` per bot and
series (``b``: points per doubling of the x value, e.g. of the matches), the shape learning
curves take over a few doublings. With a target accuracy the fitted line is drawn (thin,
dash-dotted, in the series' colour) out to where it reaches the target, which is the
extrapolation the study asks for ("how many matches for 80 % on unseen positions"); a line
through two points, or a flat or falling one, says so in the table (``points``,
``x_at_target`` empty) rather than guessing.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402

from ime.report.figures import save_figure  # noqa: E402

LOG_SPAN = 8.0
"""A numeric axis whose largest / smallest value is at least this is drawn in log scale."""
SIZE_KEYS = ("dataset.matches", "matches.per_target")
"""Dataset sizes: always a log axis (the thesis's Fig 2.6 question is "how many times more
data"), whatever their span."""

METRICS = (("val_acc", "-", None, "val_acc"), ("val_acc_unseen", "--", "//", "val_acc unseen"))
"""(column stem, line style, bar hatch, legend label)."""


FIT_COLUMNS = ["bot", "series", "points", "x_min", "x_max", "a", "per_doubling", "r2",
               "target", "x_at_target"]
EXTRAPOLATE_MAX = 1000.0
"""The fitted line is drawn, and the target's x reported, up to this many times the largest x."""


def unseen_fit(table: pd.DataFrame, xkey: str, others: Sequence[str] = (),
               target: float | None = None) -> pd.DataFrame:
    """Per (bot, series): the least-squares line ``val_acc_unseen_mean = a + b * log2(x)``.

    ``per_doubling`` is ``b``; ``r2`` the share of the variance it explains (empty with two
    points); ``x_at_target`` the x where the line reaches ``target`` (%), empty when there is no
    target, the line does not rise, or that x is beyond ``EXTRAPOLATE_MAX`` times the largest
    measured x. Series with fewer than two distinct x values are left out.
    """
    table = table.assign(_series=[_series_label(r, others) for _, r in table.iterrows()])
    rows = []
    for (bot, series), sub in table.groupby(["bot", "_series"], sort=False):
        sub = sub.dropna(subset=["val_acc_unseen_mean"])
        x = sub[xkey].astype(float).to_numpy()
        y = sub["val_acc_unseen_mean"].astype(float).to_numpy()
        if len(np.unique(x)) < 2 or (x <= 0).any():
            continue
        lx = np.log2(x)
        b, a = np.polyfit(lx, y, 1)
        resid = y - (a + b * lx)
        ss = float(((y - y.mean()) ** 2).sum())
        r2 = 1.0 - float((resid ** 2).sum()) / ss if len(x) > 2 and ss > 0 else np.nan
        at = np.nan
        if target is not None and b > 0:
            at = float(2.0 ** ((target - a) / b))
            if at > EXTRAPOLATE_MAX * x.max():
                at = np.nan
        rows.append({"bot": bot, "series": series, "points": len(x), "x_min": x.min(),
                     "x_max": x.max(), "a": a, "per_doubling": b, "r2": r2,
                     "target": target if target is not None else np.nan, "x_at_target": at})
    return pd.DataFrame(rows, columns=FIT_COLUMNS)


def _series_label(row: Mapping[str, object], keys: Sequence[str]) -> str:
    parts = [str(row["net"])] + [f"{k}={row[k]}" for k in keys]
    return ", ".join(parts)


def _panels(bots: Sequence[str]) -> tuple[plt.Figure, list[plt.Axes]]:
    ncols = min(len(bots), 3)
    nrows = -(-len(bots) // ncols)
    fig, axes = plt.subplots(nrows, ncols, figsize=(4.2 * ncols, 3.4 * nrows), squeeze=False,
                             sharey=True)
    flat = list(axes.ravel())
    for ax in flat[len(bots):]:
        ax.set_visible(False)
    return fig, flat[:len(bots)]


def sweep_figure(table: pd.DataFrame, keys: Sequence[str], numeric: Mapping[str, bool],
                 title: str, png: str | Path, pdf: str | Path,
                 fit_target: float | None = None) -> pd.DataFrame:
    """Draw the sweep's table (``sweep_<keys>.csv``) to ``png`` and ``pdf``; returns the
    :func:`unseen_fit` of a numeric x-axis (no rows for bars).

    ``net`` is always a series (a swept ``net`` is the table's net column); the first numeric
    key is the x-axis; the remaining keys split the series (curves) or name the groups (bars).
    ``fit_target``: draw the fitted unseen-accuracy lines out to this accuracy (%).
    """
    if table.empty:
        raise ValueError("the sweep's table has no rows")
    keys = [k for k in keys if k != "net"]
    xkey = next((k for k in keys if numeric.get(k)), None)
    bots = list(dict.fromkeys(table["bot"]))
    fig, axes = _panels(bots)
    fit = pd.DataFrame(columns=FIT_COLUMNS)
    if xkey is not None:
        others = [k for k in keys if k != xkey]
        fit = unseen_fit(table, xkey, others, fit_target)
        handles = _curves(table, axes, bots, xkey, others,
                          fit if fit_target is not None else None)
    else:
        handles = _bars(table, axes, bots, keys)
    axes[0].set_ylabel("validation accuracy (%)")
    fig.suptitle(title, fontsize=10)
    fig.legend(handles=handles, loc="lower center", ncol=min(len(handles), 4), fontsize=8,
               frameon=False, bbox_to_anchor=(0.5, -0.02))
    fig.tight_layout(rect=(0, 0.08, 1, 0.95))
    save_figure(fig, png, pdf)
    return fit


def _curves(table: pd.DataFrame, axes: list[plt.Axes], bots: Sequence[str], xkey: str,
            others: Sequence[str], fit: pd.DataFrame | None = None) -> list:
    xs_all = np.asarray(sorted(set(table[xkey].astype(float))))
    log = bool(xs_all.min() > 0 and (xkey in SIZE_KEYS
                                     or xs_all.max() / xs_all.min() >= LOG_SPAN))
    table = table.assign(_series=[_series_label(r, others) for _, r in table.iterrows()])
    series = list(dict.fromkeys(table["_series"]))
    colors = {s: plt.cm.tab10(i % 10) for i, s in enumerate(series)}
    handles: dict[str, object] = {}
    for ax, bot in zip(axes, bots, strict=True):
        sub = table[table["bot"] == bot]
        for s in series:
            rows = sub[sub["_series"] == s].sort_values(xkey)
            x = rows[xkey].astype(float).to_numpy()
            for stem, style, _, label in METRICS:
                h = ax.errorbar(x, rows[f"{stem}_mean"], yerr=rows[f"{stem}_std"].fillna(0),
                                color=colors[s], linestyle=style, marker="o", markersize=3,
                                capsize=2, linewidth=1.2)
                handles.setdefault(f"{s}: {label}", h)
        base = sub.groupby(xkey)["baseline"].mean().sort_index()
        (h,) = ax.plot(base.index.astype(float), base.to_numpy(), color="black", linestyle=":",
                       linewidth=1.2)
        handles.setdefault("random baseline", h)
        ticks = xs_all
        if fit is not None:
            ticks = _draw_fit(ax, fit[fit["bot"] == bot], colors, xs_all, handles)
        if log:
            ax.set_xscale("log")
            srt = sorted(ticks)
            ratios = [b / a for a, b in zip(srt, srt[1:], strict=False) if a > 0]
            crowded = bool(ratios) and min(ratios) < 1.5  # 1000, 1300, 1600 overlap flat
            ax.set_xticks(ticks, [f"{v:g}" for v in ticks], rotation=45 if crowded else 0,
                          ha="right" if crowded else "center")
            ax.minorticks_off()
        ax.set_xlabel(xkey)
        ax.set_title(bot, fontsize=9)
        ax.grid(alpha=0.3)
    return [_labelled(h, label) for label, h in handles.items()]


def _draw_fit(ax: plt.Axes, fit: pd.DataFrame, colors: Mapping[str, object],
              ticks: np.ndarray, handles: dict[str, object]) -> np.ndarray:
    """The fitted unseen-accuracy lines of one panel, out to the target where it is reached
    within reach; returns the x ticks with each reached target's x added."""
    for _, f in fit.iterrows():
        end = f["x_at_target"] if np.isfinite(f["x_at_target"]) else f["x_max"]
        x = np.geomspace(f["x_min"], max(end, f["x_max"]), 50)
        (h,) = ax.plot(x, f["a"] + f["per_doubling"] * np.log2(x), color=colors[f["series"]],
                       linestyle="-.", linewidth=0.8, alpha=0.7)
        handles.setdefault("fit of unseen: a + b log2(x)", h)
        if np.isfinite(f["x_at_target"]):
            ax.axhline(f["target"], color="grey", linewidth=0.6, linestyle=":")
            ax.annotate(f"{f['x_at_target']:,.0f}", (f["x_at_target"], f["target"]),
                        fontsize=7, xytext=(0, 3), textcoords="offset points", ha="center")
            ticks = np.union1d(ticks, [round(float(f["x_at_target"]))])
    return ticks


def _bars(table: pd.DataFrame, axes: list[plt.Axes], bots: Sequence[str],
          keys: Sequence[str]) -> list:
    """Groups: the values of ``keys`` (bars per net and metric), or the nets themselves when
    only ``net`` is swept (bars per metric)."""
    nets = list(dict.fromkeys(table["net"]))
    if keys:
        group = table[list(keys)].astype(str).agg(", ".join, axis=1)
        series: list[str | None] = list(nets)
        xlabel = " x ".join(keys)
    else:
        group = table["net"].astype(str)
        series = [None]
        xlabel = "net"
    table = table.assign(_group=group)
    groups = list(dict.fromkeys(table["_group"]))
    bars = [(n, m) for n in series for m in METRICS]
    width = 0.8 / len(bars)
    colors = {n: plt.cm.tab10(i % 10) for i, n in enumerate(nets)}
    handles: dict[str, object] = {}
    for ax, bot in zip(axes, bots, strict=True):
        sub = table[table["bot"] == bot]
        for j, (net, (stem, _, hatch, label)) in enumerate(bars):
            for i, g in enumerate(groups):
                rows = sub[(sub["_group"] == g) & ((sub["net"] == net) if net else True)]
                if rows.empty:
                    continue
                color = colors[rows["net"].iloc[0]]
                h = ax.bar(i - 0.4 + width * (j + 0.5), float(rows[f"{stem}_mean"].iloc[0]),
                           width, yerr=float(np.nan_to_num(rows[f"{stem}_std"].iloc[0])),
                           capsize=2, color=color, hatch=hatch,
                           edgecolor="white" if hatch else color, alpha=0.9)
                handles.setdefault(f"{net}: {label}" if net else label, h)
        base = [float(sub[sub["_group"] == g]["baseline"].mean()) for g in groups]
        h = ax.hlines(base, np.arange(len(groups)) - 0.45, np.arange(len(groups)) + 0.45,
                      colors="black", linestyles=":", linewidth=1.2)
        handles.setdefault("random baseline", h)
        ax.set_xticks(range(len(groups)), groups, rotation=20 if len(groups) > 3 else 0,
                      fontsize=8)
        ax.set_xlabel(xlabel)
        ax.set_title(bot, fontsize=9)
        ax.grid(axis="y", alpha=0.3)
    return [_labelled(h, label) for label, h in handles.items()]


def _labelled(handle: object, label: str) -> object:
    handle.set_label(label)  # type: ignore[attr-defined]
    return handle
