"""Every number of the thesis beside ours: the rows of ``config/thesis/numbers.csv``
(:mod:`ime.thesis.reference`) looked up in a run's result tables.

Each thesis cell is found in the table of ours that measures the same thing (Table 4.4's
``val_acc`` of bot 1's CONV is ``imitation_accuracy.csv``'s ``val_acc_mean`` of rev1's ``conv``),
with our CI where we have one and, for S1/S2, our figure on held-out keys beside the in-sample
one. A number agrees when it is within its unit's tolerance (:data:`TOLERANCE`) or the thesis's
value lies inside our CI. Rows that describe the protocol (sizes, ladder ranks, classes) are not
compared here: :mod:`ime.thesis.protocol` and the conclusions cover them.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Mapping
from typing import Any

import numpy as np
import pandas as pd

from ime.thesis.checks.core import fmt
from ime.thesis.conclusions import Missing, accuracy_by_bot
from ime.thesis.results import GameResults

NETS: dict[str, dict[str, str]] = {
    "reversi": {"MLP-1": "mlp1", "MLP-2": "mlp2", "CONV": "conv"},
    "doudizhu": {"CONV-1": "ddz_conv1", "CONV-2": "ddz_conv2"},
    "snake": {"MLP-1": "snake_mlp1", "MLP-2": "snake_mlp2", "CONV-1": "snake_conv1",
              "CONV-2": "snake_conv2", "CONV-3": "snake_conv3"},
}
"""The thesis's net names -> ours (config/net/<name>.yaml)."""

TOLERANCE: dict[str, tuple[str, float]] = {
    "percent": ("abs", 5.0),
    "count": ("rel", 0.10),
    "params": ("rel", 0.01),
    "points": ("rel", 0.10),
    "rank": ("abs", 0.0),
}
"""Per unit: a number agrees when ``|ours - thesis|`` is within this (absolute points, or a
share of the thesis's value), or when the thesis's value is inside our CI."""

COLUMNS = ["table", "section", "game", "subject", "ours_subject", "net", "metric", "unit",
           "thesis", "ours", "diff", "ours_lo", "ours_hi", "heldout", "heldout_lo",
           "heldout_hi", "agrees", "note"]

Ours = dict[str, Any]
"""A looked-up value: ``ours`` and optionally ``ours_lo``/``ours_hi``, ``heldout``...,
``ours_subject`` and ``note``."""


def _bot(g: GameResults, subject: str) -> str:
    if not subject.isdigit() or (bot := g.bot_of(int(subject))) is None:
        raise Missing(f"no bot {subject} in this run")
    return bot


def _row(df: pd.DataFrame, **key: Any) -> pd.Series:
    m = np.ones(len(df), dtype=bool)
    for k, v in key.items():
        m &= (df[k].astype(str) == str(v)).to_numpy()
    if not m.any():
        raise Missing("not in this run: " + ", ".join(f"{k}={v}" for k, v in key.items()))
    return df[m].iloc[0]


def _table(g: GameResults, name: str) -> pd.DataFrame:
    df = g.get(name)
    if df is None:
        raise Missing(f"no {name}")
    return df


def _dataset(g: GameResults, r: pd.Series) -> Ours:
    bot = _bot(g, r["subject"])
    row = _row(_table(g, "dataset_stats.csv"), bot=bot)
    ours = float(row[r["metric"]])
    if r["metric"] != "pairs":
        return {"ours": ours, "ours_subject": bot}
    # decision pairs grow with the matches: ours scaled to the thesis's matches per bot
    theirs = _thesis_matches(r["game"])
    if not g.matches_per_target or theirs is None:
        raise Missing("the matches per target are not known")
    return {"ours": ours * theirs / g.matches_per_target, "ours_subject": bot,
            "note": f"our {int(ours)} pairs from {g.matches_per_target} matches, scaled to the "
                    f"thesis's {theirs:g}"}


def _thesis_matches(game: str) -> float | None:
    """The thesis's matches per bot (Sec 4.3.1 / 5.3.1 of numbers.csv)."""
    from ime.thesis.reference import numbers

    n = numbers()
    hit = n[(n["game"] == game) & (n["table"].str.startswith("Sec"))
            & (n["metric"] == "matches")]
    return float(hit["value"].iloc[0]) if len(hit) else None


def _accuracy(g: GameResults, r: pd.Series) -> Ours:
    bot = _bot(g, r["subject"])
    if r["metric"] == "baseline":
        return _dataset(g, r)
    net = NETS.get(g.game, {}).get(r["net"])
    if net is None:
        raise Missing(f"no net of ours for {r['net']}")
    row = _row(_table(g, "imitation_accuracy.csv"), bot=bot, net=net)
    out: Ours = {"ours": float(row[f"{r['metric']}_mean"]), "ours_subject": f"{bot} {net}"}
    if r["metric"] == "val_acc":
        acc = accuracy_by_bot(g, net).set_index("bot")
        out.update(ours_lo=float(acc.loc[bot, "val_acc_lo"]),
                   ours_hi=float(acc.loc[bot, "val_acc_hi"]))
        if "val_acc_unseen_mean" in row.index and pd.notna(row["val_acc_unseen_mean"]):
            out["note"] = f"on positions unseen in training: {fmt(row['val_acc_unseen_mean'])}"
    return out


def _params(g: GameResults, r: pd.Series) -> Ours:
    net = NETS.get(g.game, {}).get(r["subject"])
    if net is None:
        raise Missing(f"no net of ours for {r['subject']}")
    row = _row(_table(g, "net_architectures.csv"), net=net)
    if r["metric"] == "params":
        return {"ours": float(row["params"]), "ours_subject": net}
    branch = r["metric"].removeprefix("params_")
    m = re.search(rf"{branch}\b[^:|]*?(\d+):", str(row["layers"]))
    if m is None:
        raise Missing(f"{net}: no {branch} branch in net_architectures.csv")
    return {"ours": float(m.group(1)), "ours_subject": f"{net} {branch}"}


def _similarity(g: GameResults, r: pd.Series) -> Ours:
    bot = _bot(g, r["subject"])
    m = r["metric"]
    row = _row(_table(g, "s1s2_imitator.csv"), bot=bot)
    out: Ours = {"ours": float(row[m]), "ours_subject": f"imit_{bot} on {bot}"}
    for suffix in ("_lo", "_hi"):
        if f"{m}{suffix}" in row.index:
            out[f"ours{suffix}"] = float(row[f"{m}{suffix}"])
    if f"{m}_heldout" in row.index and pd.notna(row[f"{m}_heldout"]):
        out["heldout"] = float(row[f"{m}_heldout"])
        lo = float(row.get(f"{m}_heldout_lo", np.nan))
        hi = float(row.get(f"{m}_heldout_hi", np.nan))
        out["heldout_lo"], out["heldout_hi"] = (lo, hi) if hi > lo else (np.nan, np.nan)
    return out


def _pairwise(g: GameResults, r: pd.Series) -> Ours:
    a, _, b = r["subject"].partition("-")
    m = r["metric"]
    if b.startswith("imit"):
        bot = _bot(g, a)
        t = _table(g, f"{m.lower()}_pairwise.csv")
        return {"ours": float(_row(t, bot=bot)["IMBOT"]), "ours_subject": f"{bot} IMBOT"}
    ba, bb = _bot(g, a), _bot(g, b)
    t = _table(g, "similarity_pairs.csv")
    hit = t[((t["a"] == ba) & (t["b"] == bb)) | ((t["a"] == bb) & (t["b"] == ba))]
    if hit.empty:
        raise Missing(f"no pair {ba}-{bb}")
    row, col = hit.iloc[0], m.lower()
    return {"ours": float(row[col]), "ours_lo": float(row.get(f"{col}_lo", np.nan)),
            "ours_hi": float(row.get(f"{col}_hi", np.nan)), "ours_subject": f"{ba}-{bb}"}


def agents_per_game(game: str) -> int:
    """Agents per tournament game: one per side (:func:`ime.core.game.num_sides`)."""
    from ime.core.game import num_sides
    from ime.core.registry import get_plugin

    return num_sides(get_plugin(game).game_type)


def _tournament(g: GameResults, r: pd.Series, numbers: pd.DataFrame) -> Ours:
    """Points scaled to the thesis's games per agent (its matches x sides / agents: each game is
    between one agent per side, Doudizhu's ``(a, b, b)`` too, so Table 5.10's 18,000 games give
    each of its 10 agents 3,600), since our tournament may play fewer rounds; ranks as they
    are."""
    name, who = ("table5_10.csv", "agent") if g.game == "doudizhu" else ("tournament.csv", "bot")
    t = _table(g, name)
    subj = r["subject"]
    agent = f"imit_{_bot(g, subj[4:])}" if subj.startswith("imit") else _bot(g, subj)
    row = _row(t, **{who: agent})
    if r["metric"] == "rank":
        return {"ours": float(row["rank"]), "ours_subject": agent}
    tab = numbers[(numbers["table"] == r["table"]) & (numbers["game"] == r["game"])]
    matches = float(tab[(tab["subject"] == "all") & (tab["metric"] == "matches")]["value"].iloc[0])
    agents = int((tab["metric"] == "points").sum())
    per_agent = matches * agents_per_game(g.game) / agents
    games = float(row["games"])
    if games <= 0:
        raise Missing(f"{agent} played no tournament game")
    return {"ours": float(row["points"]) * per_agent / games, "ours_subject": agent,
            "note": f"our {int(row['points'])} points in {int(games)} games, scaled to the "
                    f"thesis's {per_agent:g} games"}


def _baseline_range(g: GameResults, r: pd.Series) -> Ours:
    t = _table(g, "dataset_stats.csv")
    t = t[t["bot"].map(lambda b: g.thesis_no(b) is not None)]
    if t.empty:
        raise Missing("no thesis bot in dataset_stats.csv")
    fn = min if r["metric"] == "baseline_min" else max
    return {"ours": float(fn(t["baseline"].astype(float))),
            "ours_subject": f"{fn.__name__} over {len(t)} bots"}


LOOKUP: dict[tuple[str, str], Callable[..., Ours]] = {
    ("Table 4.2", "pairs"): _dataset, ("Table 4.2", "baseline"): _dataset,
    ("Table 5.4", "pairs"): _dataset, ("Table 5.4", "baseline"): _dataset,
    ("Table 4.4", "baseline"): _accuracy, ("Table 4.4", "train_acc"): _accuracy,
    ("Table 4.4", "val_acc"): _accuracy,
    ("Table 5.6", "baseline"): _accuracy, ("Table 5.6", "train_acc"): _accuracy,
    ("Table 5.6", "val_acc"): _accuracy,
    ("Table 4.3", "params"): _params, ("Table 2.2", "params"): _params,
    ("Table 5.5", "params_major"): _params, ("Table 5.5", "params_minor"): _params,
    ("Table 4.5", "S1"): _similarity, ("Table 4.5", "S2"): _similarity,
    ("Table 5.7", "S1"): _similarity, ("Table 5.7", "S2"): _similarity,
    ("Table 4.6", "S1"): _pairwise, ("Table 4.7", "S2"): _pairwise,
    ("Table 5.8", "S1"): _pairwise, ("Table 5.9", "S2"): _pairwise,
    ("Table 4.8", "points"): _tournament, ("Table 4.8", "rank"): _tournament,
    ("Table 5.10", "points"): _tournament, ("Table 5.10", "rank"): _tournament,
    ("Fig 2.7", "baseline_min"): _baseline_range, ("Fig 2.7", "baseline_max"): _baseline_range,
}
"""(table, metric) -> how to find ours. Other rows of numbers.csv are protocol or repeats
(Table 6.1 repeats Tables 4.5/5.7's S2) and are not compared."""


def _compared(r: pd.Series) -> bool:
    if (r["table"], r["metric"]) not in LOOKUP:
        return False
    a, sep, b = str(r["subject"]).partition("-")
    # a symmetric pair once (1-2, not 2-1); an imitator column ("1-imit1") always
    return not (sep and a.isdigit() and b.isdigit() and int(a) > int(b))


def agrees(thesis: float, ours: float, unit: str, lo: float = math.nan,
           hi: float = math.nan) -> bool:
    """Within the unit's tolerance, or the thesis's value inside our CI."""
    kind, tol = TOLERANCE.get(unit, ("abs", 0.0))
    limit = tol if kind == "abs" else tol * abs(thesis)
    inside = not (math.isnan(lo) or math.isnan(hi)) and lo <= thesis <= hi
    return abs(ours - thesis) <= limit + 1e-9 or inside


def compare(numbers: pd.DataFrame, results: Mapping[str, GameResults]) -> pd.DataFrame:
    """One row per compared thesis number: ours, the difference, our CI, held-out S1/S2, and
    whether it agrees (NA where this run does not measure it, with the reason in ``note``)."""
    rows = []
    for _, r in numbers.iterrows():
        if not _compared(r):
            continue
        out: dict[str, Any] = {c: r.get(c, "") for c in ("table", "section", "game", "subject",
                                                          "net", "metric", "unit")}
        out["net"] = "" if pd.isna(out["net"]) else out["net"]
        thesis = float(r["value"])
        out["thesis"] = thesis
        g = results.get(r["game"])
        try:
            if g is None:
                raise Missing(f"no {r['game']} results")
            fn = LOOKUP[(r["table"], r["metric"])]
            got = fn(g, r, numbers) if fn is _tournament else fn(g, r)
        except Missing as e:
            rows.append({**out, "ours": np.nan, "agrees": pd.NA, "note": f"not measured: {e}"})
            continue
        ours = float(got["ours"])
        lo, hi = float(got.get("ours_lo", np.nan)), float(got.get("ours_hi", np.nan))
        if not hi > lo:  # a zero-width CI is an unknown spread: no CI, never a certain one
            lo = hi = np.nan
        rows.append({**out, **got, "ours": ours, "diff": ours - thesis, "ours_lo": lo,
                     "ours_hi": hi, "agrees": agrees(thesis, ours, str(r["unit"]), lo, hi)})
    df = pd.DataFrame(rows)
    for c in COLUMNS:
        if c not in df.columns:
            df[c] = np.nan if c not in ("note", "ours_subject") else ""
    df["note"] = df["note"].fillna("")
    df["ours_subject"] = df["ours_subject"].fillna("")
    return df[COLUMNS]
