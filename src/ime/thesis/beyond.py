"""The reproduction report's part beyond the thesis, per game, read from each game's result
tables: the metrics issue 48 adds beside S1/S2 (docs/similarity_metrics.md), and the
opponent-model search experiment of issue 49 (docs/opponent_model.md) where the game's run has
played it.

Why here and not in :mod:`ime.thesis.report`: that module is the thesis's numbers and
conclusions; these results have no thesis number to compare with, so they are listed, not
judged against the thesis. A game whose run lacks a table shows a dash for it. The one verdict
here is issue 49's own goal (opponent-model search with the target's imitator at least
:data:`OM_GOAL` above plain search at equal depth), read from the gain's CI.
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


# --- opponent-model search (issue 49) -------------------------------------------------------------
OM_GOAL = 0.10
"""Issue 49's goal: cell (c)'s points share at least 10 points above cell (a)'s."""


def _num(x: object) -> float:
    """``x`` as a float (nan when it is none)."""
    try:
        return float(x)  # type: ignore[arg-type]
    except (TypeError, ValueError):
        return float("nan")


def om_goal(gain: object, lo: object, hi: object, goal: float = OM_GOAL) -> str:
    """The goal's verdict from the gain (c) - (a) and its CI: ``met`` when the whole CI is at
    or above ``goal``, ``not met`` (and by how many points the gain falls short) when the
    whole CI is below it, ``inconclusive`` when the CI straddles it; a dash without a gain."""
    g, a, b = _num(gain), _num(lo), _num(hi)
    if pd.isna(g) or pd.isna(a) or pd.isna(b):
        return "-"
    if a >= goal:
        return "met"
    if b < goal:
        return f"not met: {100 * (goal - g):.1f} points short"
    return f"inconclusive (CI spans {100 * goal:+.0f})"


def _pct(x: object, lo: object, hi: object) -> str:
    """A share as ``75.0 % [60, 86]``."""
    v, a, b = _num(x), _num(lo), _num(hi)
    return "-" if pd.isna(v) else f"{100 * v:.1f} % [{_f(100 * a, 0)}, {_f(100 * b, 0)}]"


def _points(x: object, lo: object, hi: object) -> str:
    """A gain in points: ``-42.5 [-59, -21]``."""
    v, a, b = _num(x), _num(lo), _num(hi)
    return "-" if pd.isna(v) else f"{100 * v:+.1f} [{100 * a:+.0f}, {100 * b:+.0f}]"


def _om_rows(game: str, r: GameResults) -> list[dict[str, str]]:
    t = r.get("om_search.csv")
    if t is None:
        return []
    acc = r.get("om_search_model_accuracy.csv")
    rows = []
    for target in dict.fromkeys(t["target"]):
        by = t[t["target"] == target].set_index("cell")

        def cell(name: str, by: pd.DataFrame = by) -> pd.Series | None:
            return by.loc[name] if name in by.index else None

        a, c, true = cell("plain_depth"), cell("om"), cell("om_true")
        row = {"game": game, "target": str(target), "model": "-", "a": "-", "c": "-",
               "gain": "-", "goal": "-", "true": "-", "acc_search": "-", "acc_games": "-"}
        if a is not None:
            row["a"] = _pct(a.points_share, a.points_share_lo, a.points_share_hi)
        if c is not None:
            row["model"] = str(c.model) if isinstance(c.model, str) and c.model else "-"
            row["c"] = _pct(c.points_share, c.points_share_lo, c.points_share_hi)
            row["gain"] = _points(c.gain, c.gain_lo, c.gain_hi)
            row["goal"] = om_goal(c.gain, c.gain_lo, c.gain_hi)
        if true is not None:
            row["true"] = _points(true.gain, true.gain_lo, true.gain_hi)
        if acc is not None:
            m = acc[(acc["target"] == target) & (acc["cell"] == "om")]
            if len(m):
                x = m.iloc[0]
                stoch = "" if bool(x.target_deterministic) else " (one draw: stochastic target)"
                row["acc_search"] = (f"{_pct(x.search_top1, x.search_top1_lo, x.search_top1_hi)}"
                                     f" of {int(x.search_n)}{stoch}")
                row["acc_games"] = (f"{_pct(x.game_top1, x.game_top1_lo, x.game_top1_hi)} of "
                                    f"{int(x.game_n)}")
        rows.append(row)
    return rows


def om_search_section(results: Mapping[str, GameResults]) -> list[str]:
    """The report's lines for the opponent-model search experiment (empty when no game's run
    has played it: ``om_search.csv`` is a named target, not part of rule ``all``)."""
    rows = [row for g, r in results.items() for row in _om_rows(g, r)]
    if not rows:
        return []
    lines = ["## Beyond the thesis: opponent-model search (issue 49)", "",
             "Not in the thesis (its outlook, 6.2, proposes it): a search whose opponent nodes "
             "follow the opponent's imitator (M*, or PrOM as `om_search.mode` says), played "
             "against each original bot with one evaluation and depth cap throughout. Per "
             "target: our points share (Wilson CI) with plain alpha-beta to the depth cap (a) "
             "and with the target's own imitator as the model (c); the gain (c) - (a) in "
             "points (Newcombe CI); the issue's goal, a gain of at least "
             f"{100 * OM_GOAL:+.0f} points: met (the whole CI at or above it), not met (the "
             "whole CI below it; how far the gain falls short) or inconclusive; the true "
             "model's gain over (a) (the target itself at its nodes: what a right model is "
             "worth); and why, measured: the imitator's top-1 agreement with the target at a "
             "seeded sample of the positions the search asked it about and of the target's "
             "own moves in the same games (Wilson CI, sample size). Read only where a game's "
             "run has played the experiment (`snakemake results/<game>/om_search.csv`, not "
             "part of rule `all`). Tables: `om_search.csv`, `om_search_model_accuracy.csv` "
             "(docs/opponent_model.md).", ""]
    lines += _table_md(pd.DataFrame(rows),
                       ["game", "target", "model", "a", "c", "gain", "goal", "true",
                        "acc_search", "acc_games"],
                       ["game", "target", "model (c)", "(a) plain, depth cap", "(c) own imitator",
                        "gain (c) - (a), points", f"goal ({100 * OM_GOAL:+.0f} points)",
                        "true model's gain", "model top-1 at the search's positions",
                        "model top-1 at the target's moves"])
    return [*lines, ""]
