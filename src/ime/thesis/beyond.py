"""The reproduction report's part beyond the thesis: the metrics issue 48 adds beside S1/S2,
per game, read from each game's result tables (docs/similarity_metrics.md).

Why here and not in :mod:`ime.thesis.report`: that module is the thesis's numbers and
conclusions; these metrics have no thesis number to compare with, so they are listed, not
judged. A game whose run lacks a table shows a dash for it.
"""

from __future__ import annotations

from collections.abc import Mapping

import pandas as pd

from ime.evaluate.agents import imitator_id
from ime.thesis.results import GameResults
from ime.thesis.summary import _table_md

METRIC_TABLES = ("agreement.csv", "clones.csv", "tournament_cycles.csv", "cluster_purity.csv",
                 "identification.csv")
"""The tables this part reads (the report job's inputs, :data:`ime.thesis.names.TABLES`)."""


def _f(x: object, nd: int = 2) -> str:
    try:
        v = float(x)  # type: ignore[arg-type]
    except (TypeError, ValueError):
        return "-"
    return "-" if pd.isna(v) else f"{v:.{nd}f}"


def _row(game: str, r: GameResults) -> dict[str, str]:
    out = {"game": game, "kappa": "-", "clones": "-", "transitive": "-", "purity": "-",
           "identified": "-"}
    agree = r.get("agreement.csv")
    if agree is not None:
        imit = agree[agree["agent"] == agree["target"].astype(str).map(imitator_id)]
        out["kappa"] = ", ".join(f"{t} {_f(k)} [{_f(lo)}, {_f(hi)}]" for t, k, lo, hi in zip(
            imit["target"], imit["kappa"], imit["kappa_lo"], imit["kappa_hi"], strict=True))
    clones = r.get("clones.csv")
    if clones is not None:
        orig = clones[clones["kind"] == "originals"]
        imit = clones[clones["kind"] == "imitator"]
        flagged = [f"{a}-{b}" for a, b in zip(orig[orig["clone"].astype(bool)]["a"],
                                              orig[orig["clone"].astype(bool)]["b"],
                                              strict=True)]
        out["clones"] = (f"{', '.join(flagged) or 'none'} of {len(orig)} pairs; imitators "
                         f"flagged {int(imit['clone'].astype(bool).sum())} of {len(imit)}")
    cyc = r.get("tournament_cycles.csv")
    if cyc is not None:
        out["transitive"] = ", ".join(
            f"{m} {_f(t)} [{_f(lo)}, {_f(hi)}]" for m, t, lo, hi in zip(
                cyc["matrix"], cyc["transitive_share"], cyc["transitive_share_lo"],
                cyc["transitive_share_hi"], strict=True))
    pur = r.get("cluster_purity.csv")
    if pur is not None:
        out["purity"] = ", ".join(f"{c} {_f(p, 0)} (floor {_f(fl, 0)})" for c, p, fl in zip(
            pur["clustering"], pur["purity"], pur["purity_floor"], strict=True))
    ident = r.get("identification.csv")
    if ident is not None:  # docs/identify.md: top-1 of the whole pool against k
        by_k = ident[ident["curve"] == "k"]
        if "method" in by_k:  # method (a), the imitators' likelihood
            by_k = by_k[by_k["method"] == "likelihood"]
        if len(by_k):
            out["identified"] = (f"of {int(by_k['pool_size'].iloc[0])}: " + ", ".join(
                f"k={int(k)} {_f(t, 0)} [{_f(lo, 0)}, {_f(hi, 0)}]" for k, t, lo, hi in zip(
                    by_k["k"], by_k["top1"], by_k["top1_lo"], by_k["top1_hi"], strict=True)))
    return out


def metrics_section(results: Mapping[str, GameResults]) -> list[str]:
    """The report's lines for this part (empty when no game has any of its tables)."""
    rows = [_row(g, r) for g, r in results.items()
            if any(r.get(t) is not None for t in METRIC_TABLES)]
    if not rows:
        return []
    lines = ["## Beyond the thesis: metrics beside S1/S2", "",
             "Not in the thesis (its outlook, 6.2, asks for more similarity measures); no "
             "thesis number to compare with. Per game: Cohen's kappa of each imitator against "
             "its original (S1 corrected for uniform chance on each key's legal moves; 95 % "
             "CI), the clone test's flagged pairs of originals (S1 more than "
             "`evaluate.agreement.clone_sigma` sds above the other pairs) and how many imitators "
             "it flags as clones of their originals, the tournament's transitive share (the "
             "rest is cyclic), and each clustering's purity against the algorithm classes (%, "
             "with the one-cluster floor), and which bot played this: top-1 accuracy (%, "
             "Wilson CI) of naming a target among the pool from k of its held-out matches. "
             "Tables: `agreement.csv`, `clones.csv`, `tournament_cycles.csv`, "
             "`cluster_purity.csv`, `jsd_pairs.csv` (docs/similarity_metrics.md), "
             "`identification.csv` (docs/identify.md).", ""]
    lines += _table_md(pd.DataFrame(rows), ["game", "kappa", "clones", "transitive", "purity",
                                            "identified"],
                       ["game", "imitator kappa [CI]", "clone test", "transitive share [CI]",
                        "purity by clustering", "identified top-1 [CI]"])
    return [*lines, ""]
