"""A DMC run's learning curve on the seed's metric, from its kept snapshots, with a fit and what
the rest would cost (issue 33).

The trainer's own evaluation (``--eval-every``) plays a few deals at long intervals, inside the
learner's loop. This module evaluates every kept bot checkpoint of a run
(``--keep-snapshots true``: ``OUT/snapshots/agent_<samples>.pt``) after the fact, or beside the
training, with :func:`~ime.games.gongzhu.agents.evaluate.rotated_match`: the same seat-rotated
deals for every snapshot, against three copies of the shipped CNN and against the rule styles.
It is resumable: rows already in the CSV are kept and only new snapshots are played.

The fit is a weighted least-squares line of the seed's metric (relative score > 0), and of the
mean relative score, against log10(samples), each point weighted by 1 / CI^2. It gives the slope
per tenfold of samples with a 95% CI and, where the slope is significantly positive, the samples
at which the line reaches a target (the issue's 70% on the seed's metric; the seed's +67
relative points a game) and the hours that takes at a measured rate. A line in log samples is a
model, not a law: it is reported with its inputs, and no projection is made when the slope is not
significantly positive.

Command::

    python -m ime.games.gongzhu.agents.learning_curve --snapshots runs/gz_seed/snapshots \\
        --out curve_eval.csv --deals 100 [--opponents cnn,rules] [--target 0.70] \\
        [--samples-per-s 14900] [--png curve_eval.png]
"""

from __future__ import annotations

import argparse
import csv
import math
import re
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from ime.games.gongzhu.agents.evaluate import (
    RULE_SETS,
    make_opponents,
    make_player,
    rotated_match,
)

SNAPSHOT = re.compile(r"agent_(\d+)\.pt$")
FIELDS = ["samples", "opponents", "deals", "seed", "rules", "rel_win", "rel_win_ci", "mean_rel",
          "mean_rel_ci", "win_share", "win_share_ci", "snapshot"]
H200_SAMPLES_PER_S = 14_900.0
"""The seed preset's self-play rate on one H200 machine with 16 actors (docs/games/gongzhu.md,
"Speed on a GPU machine": 1,026,720 samples in 68.9 s, before that run's stall)."""


def snapshots(folder: str | Path) -> list[tuple[int, Path]]:
    """(samples, path) of every ``agent_<samples>.pt`` in ``folder``, by samples."""
    found = []
    for p in Path(folder).iterdir():
        m = SNAPSHOT.search(p.name)
        if m:
            found.append((int(m.group(1)), p))
    return sorted(found)


def read_rows(path: Path) -> list[dict]:
    if not path.exists():
        return []
    with path.open() as f:
        rows = list(csv.DictReader(f))
    if rows and list(rows[0]) != FIELDS:
        raise ValueError(f"{path}: columns {list(rows[0])} are not {FIELDS}; write to a new file")
    return rows


def evaluate_snapshots(folder: str | Path, out: str | Path, opponents: list[str], deals: int,
                       seed: int = 0, rules: str = "default", log=print) -> list[dict]:
    """Play every snapshot of ``folder`` not yet in ``out`` against each of ``opponents``
    (``cnn``, ``rules`` or any spec of evaluate.py) and append its rows; all rows, by samples."""
    out = Path(out)
    rows = read_rows(out)
    done = {(int(r["samples"]), r["opponents"], int(r["deals"]), int(r["seed"]), r["rules"])
            for r in rows}
    snaps = snapshots(folder)
    if not snaps:
        raise FileNotFoundError(f"no agent_<samples>.pt in {folder} (train with "
                                f"--keep-snapshots true)")
    new = not out.exists()
    with out.open("a", newline="") as f:
        w = csv.DictWriter(f, fieldnames=FIELDS)
        if new:
            w.writeheader()
        for samples, path in snaps:
            agent = None
            for opp in opponents:
                if (samples, opp, deals, seed, rules) in done:
                    continue
                agent = agent or make_player(f"dmc={path}")
                r = rotated_match(agent, make_opponents(opp), deals, seed, RULE_SETS[rules])
                row = {"samples": samples, "opponents": opp, "deals": deals, "seed": seed,
                       "rules": rules, "rel_win": round(r.rel_win_rate, 5),
                       "rel_win_ci": round(r.rel_win_ci, 5), "mean_rel": round(r.mean_rel, 2),
                       "mean_rel_ci": round(r.rel_ci, 2), "win_share": round(r.win_rate, 5),
                       "win_share_ci": round(r.win_ci, 5), "snapshot": path.name}
                w.writerow(row)
                f.flush()
                rows.append({k: str(v) for k, v in row.items()})
                log(f"{path.name} vs {opp}: seed's metric {100 * r.rel_win_rate:.1f}% +- "
                    f"{100 * r.rel_win_ci:.1f}, mean relative {r.mean_rel:.1f} "
                    f"({4 * deals} games, {r.seconds:.0f} s)")
    return sorted(rows, key=lambda r: (int(r["samples"]), r["opponents"]))


METRICS = {"rel_win": ("rel_win_ci", 0.70), "mean_rel": ("mean_rel_ci", 67.0)}
"""What can be fitted, with its CI column and default target: the seed's metric (the issue's 70%)
and the mean relative score a game (the seed's agent averaged +67 against its CNNs)."""


@dataclass
class Fit:
    """metric = intercept + slope * log10(samples), weighted by 1 / CI^2."""

    opponents: str
    metric: str
    points: int
    first_samples: int
    last_samples: int
    slope: float  # per tenfold of samples
    slope_ci: float  # 95%
    intercept: float
    target: float
    target_samples: float | None  # None: no projection (slope not significantly positive)
    samples_per_s: float
    target_hours: float | None

    def line(self) -> str:
        pct = self.metric == "rel_win"
        scale = 100 if pct else 1
        head = (f"{self.metric} vs {self.opponents}: {self.points} snapshots, "
                f"{self.first_samples:,}-{self.last_samples:,} samples; slope "
                f"{scale * self.slope:+.1f} +- {scale * self.slope_ci:.1f} per tenfold of samples")
        target = f"{100 * self.target:.0f}%" if pct else f"{self.target:+.0f}"
        if self.target_samples is None:
            return head + f"; no projection to {target}: the slope is not significantly positive"
        return (head + f"; the line reaches {target} at about "
                f"{self.target_samples:.3g} samples, {self.target_hours:.3g} h at "
                f"{self.samples_per_s:,.0f} samples/s")


def fit(rows: list[dict], opponents: str, target: float | None = None,
        samples_per_s: float = H200_SAMPLES_PER_S, metric: str = "rel_win") -> Fit:
    """The weighted line of ``metric`` (:data:`METRICS`) in log10(samples) for one opponent set,
    and the samples (and hours at ``samples_per_s``) at which it reaches ``target`` (default:
    the metric's own)."""
    if metric not in METRICS:
        raise ValueError(f"metric {metric!r}: one of {sorted(METRICS)}")
    ci_col, default_target = METRICS[metric]
    target = default_target if target is None else target
    pts = [r for r in rows if r["opponents"] == opponents]
    if len(pts) < 3:
        raise ValueError(f"fit vs {opponents}: {len(pts)} snapshot(s), need at least 3")
    x = np.log10([float(r["samples"]) for r in pts])
    y = np.array([float(r[metric]) for r in pts])
    ci = np.array([max(float(r[ci_col]), 1e-3) for r in pts])
    w = 1.0 / (ci / 1.96) ** 2
    a = np.vstack([np.ones_like(x), x]).T
    cov = np.linalg.inv(a.T @ (a * w[:, None]))
    intercept, slope = cov @ (a.T @ (w * y))
    slope_ci = 1.96 * math.sqrt(cov[1, 1])
    reach = None
    hours = None
    if slope - slope_ci > 0:
        reach = float(10 ** ((target - intercept) / slope))
        hours = reach / samples_per_s / 3600
    return Fit(opponents, metric, len(pts), int(min(float(r["samples"]) for r in pts)),
               int(max(float(r["samples"]) for r in pts)), float(slope), slope_ci,
               float(intercept), target, reach, samples_per_s, hours)


def plot(rows: list[dict], png: str | Path, fits: list[Fit], reference: dict[str, float]) -> None:
    """The seed's metric with its CIs against samples (log axis), each fit's line, and the
    reference levels (e.g. the shipped agent, the equal-player baseline)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(8, 4.5))
    for opp in sorted({r["opponents"] for r in rows}):
        pts = [r for r in rows if r["opponents"] == opp]
        xs = [int(r["samples"]) for r in pts]
        ax.errorbar(xs, [float(r["rel_win"]) for r in pts],
                    yerr=[float(r["rel_win_ci"]) for r in pts], marker="o", ms=3, capsize=2,
                    label=f"vs {'3 x CNN' if opp == 'cnn' else opp}")
    for f in (f for f in fits if f.metric == "rel_win"):
        xs = np.geomspace(f.first_samples, f.last_samples, 20)
        ax.plot(xs, f.intercept + f.slope * np.log10(xs), ls="--", lw=1,
                label=f"fit vs {f.opponents}: {100 * f.slope:+.1f} pts / 10x")
    for name, level in reference.items():
        ax.axhline(level, ls=":", lw=1, color="grey")
        ax.annotate(name, xy=(0.01, level), xycoords=("axes fraction", "data"), fontsize=7,
                    va="bottom", color="grey")
    ax.set_xscale("log")
    ax.set_xlabel("samples (learner)")
    ax.set_ylabel("seed's metric: relative score > 0 (95% CI)")
    ax.set_title("Gongzhu DMC, seed preset: greedy evaluation of kept snapshots")
    ax.legend(fontsize=7)
    fig.tight_layout()
    fig.savefig(png, dpi=100)
    plt.close(fig)


def main(argv: list[str] | None = None) -> None:
    p = argparse.ArgumentParser(prog="python -m ime.games.gongzhu.agents.learning_curve",
                                description=__doc__.split("\n\n")[0])
    p.add_argument("--snapshots", required=True, help="a run's snapshots/ folder")
    p.add_argument("--out", required=True, help="the curve's CSV (appended to, resumable)")
    p.add_argument("--opponents", default="cnn,rules",
                   help="comma-separated: cnn (3 x the shipped CNN), rules (duck/shoot/low)")
    p.add_argument("--deals", type=int, default=100, help="deals per snapshot (x 4 seats)")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--rules", choices=sorted(RULE_SETS), default="default")
    p.add_argument("--target", type=float, default=None,
                   help="the seed's-metric level to project to (default: METRICS's 0.70; the "
                        "mean relative score is projected to the seed's +67)")
    p.add_argument("--samples-per-s", type=float, default=H200_SAMPLES_PER_S,
                   help="the rate the projection's hours assume (default: the H200's)")
    p.add_argument("--reference", action="append", default=[], metavar="NAME=LEVEL",
                   help="a horizontal line on the figure, e.g. 'shipped gz_dmc=0.44'")
    p.add_argument("--png", help="the figure (default: beside --out)")
    a = p.parse_args(argv)
    opponents = [o.strip() for o in a.opponents.split(",") if o.strip()]
    reference = {}
    for item in a.reference:
        name, sep, level = item.rpartition("=")
        if not sep or not name:
            p.error(f"--reference {item!r}: expected NAME=LEVEL")
        reference[name] = float(level)
    import torch

    torch.set_num_threads(1)
    rows = evaluate_snapshots(a.snapshots, a.out, opponents, a.deals, a.seed, a.rules)
    rows = [r for r in rows if int(r["deals"]) == a.deals and int(r["seed"]) == a.seed
            and r["rules"] == a.rules]
    fits = []
    for opp in opponents:
        for metric in METRICS:
            try:
                fits.append(fit(rows, opp, a.target if metric == "rel_win" else None,
                                a.samples_per_s, metric))
                print(fits[-1].line())
            except ValueError as e:
                print(f"no fit: {e}")
    plot(rows, a.png or Path(a.out).with_suffix(".png"), fits, reference)


if __name__ == "__main__":
    main()
