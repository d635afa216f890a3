"""Shares of 0 or 100 % in result tables written before their CIs were exact: the
Clopper-Pearson interval over the key matches, in place of a bootstrap's collapsed one.

Why: a bootstrap over key matches that all agree resamples 100 % every time, and the tables
then carry ``[100, 100]``. The checks read a zero-width CI as an unknown spread, so a bot whose
imitator matched all of its 128 held-out keys decided nothing (``ddz_rule_bot_easiest`` in
``reproduction/thesis_lookahead+doudizhu``). The scoring stage now writes the exact interval
itself (:func:`ime.evaluate.similarity.cluster_bootstrap_ci`); this module gives an archived
run's tables the same interval from the counts they carry, so that the report, rewritten from
the archive (:func:`ime.thesis.archive.rereport`), decides as a fresh run would.
"""

from __future__ import annotations

from collections.abc import Mapping

import pandas as pd

from ime.core.intervals import clopper_pearson

LEVEL = 0.95
"""The level of every CI in the result tables (``evaluate.ci``'s default)."""


def _exact(share: float, lo: float, hi: float, clusters: float) -> tuple[float, float] | None:
    """The exact interval (in %) of a ``share`` of 0 or 100 % whose CI collapsed to a point
    over ``clusters`` key matches; None where it did not collapse or nothing bounds it (a
    missing CI with one match stays missing: one match is one observation)."""
    if pd.isna(share) or pd.isna(lo) or pd.isna(hi) or pd.isna(clusters):
        return None
    if not (float(lo) == float(hi) == float(share)) or float(share) not in (0.0, 100.0):
        return None
    m = int(clusters)
    if m < 2:
        return None
    a, b = clopper_pearson(m if float(share) == 100.0 else 0, m, LEVEL)
    return 100.0 * a, 100.0 * b


def _fill(t: pd.DataFrame, share: str, clusters: pd.Series) -> pd.DataFrame:
    """``t`` (changed in place) with the column ``share``'s collapsed CIs made exact, row by
    row over ``clusters`` (one count a row, in ``t``'s order); a table without the share's CI
    columns as it is."""
    lo, hi = f"{share}_lo", f"{share}_hi"
    if not {share, lo, hi} <= set(t.columns):
        return t
    t[lo], t[hi] = t[lo].astype(float), t[hi].astype(float)
    for i, (s, a, b, c) in enumerate(zip(t[share], t[lo], t[hi], clusters, strict=True)):
        got = _exact(s, a, b, c)
        if got is not None:
            t.iloc[i, t.columns.get_loc(lo)], t.iloc[i, t.columns.get_loc(hi)] = got
    return t


def exact_boundary_cis(tables: Mapping[str, pd.DataFrame]) -> dict[str, pd.DataFrame]:
    """``tables`` with every collapsed CI of a 0 or 100 % share made exact:
    ``similarity.csv``'s ``s1``/``s2`` over ``n_matches``; ``s1s2_imitator.csv``'s S1/S2 over
    ``key_matches`` and their held-out figures over ``key_matches_heldout`` (or, in a table
    older than that column, the ``<imitator>@heldout`` row of ``similarity.csv``);
    ``difficulty_by_class.csv``'s S2 as the bot's in ``s1s2_imitator.csv``. Other tables, and
    every CI that did not collapse, are returned as they are."""
    out = dict(tables)
    sim = out.get("similarity.csv")
    if sim is not None and "n_matches" in sim.columns:
        sim = sim.copy()
        for m in ("s1", "s2"):
            sim = _fill(sim, m, sim["n_matches"])
        out["similarity.csv"] = sim
    t = out.get("s1s2_imitator.csv")
    if t is not None and {"bot", "imitator"} <= set(t.columns):
        t = t.copy()
        held = (t["key_matches_heldout"] if "key_matches_heldout" in t.columns
                else _matches(sim, t, "@heldout"))
        inside = t["key_matches"] if "key_matches" in t.columns else _matches(sim, t, "")
        for m in ("S1", "S2"):
            t = _fill(t, m, inside)
            t = _fill(t, f"{m}_heldout", held)
        out["s1s2_imitator.csv"] = t
        d = out.get("difficulty_by_class.csv")
        if d is not None and {"bot", "S2", "S2_lo", "S2_hi"} <= set(d.columns):
            d = d.copy()
            of_bot = {b: (s2, c) for b, s2, c in zip(t["bot"], t["S2"], inside, strict=True)}
            # a bot's count where its S2 is the in-sample one of s1s2_imitator.csv
            clusters = pd.Series([of_bot[b][1] if b in of_bot and of_bot[b][0] == s else
                                  float("nan") for b, s in zip(d["bot"], d["S2"], strict=True)],
                                 index=d.index, dtype=float)
            out["difficulty_by_class.csv"] = _fill(d, "S2", clusters)
    return out


def _matches(sim: pd.DataFrame | None, t: pd.DataFrame, suffix: str) -> pd.Series:
    """Each row's key matches, from ``similarity.csv``'s row of its imitator (``suffix``
    "@heldout": on its held-out keys) against its bot; NaN where there is none."""
    if sim is None or not {"agent", "target", "n_matches"} <= set(sim.columns):
        return pd.Series([float("nan")] * len(t), index=t.index)
    by = {(a, b): n for a, b, n in zip(sim["agent"], sim["target"], sim["n_matches"],
                                        strict=True)}
    return pd.Series([by.get((f"{i}{suffix}", b), float("nan"))
                      for i, b in zip(t["imitator"], t["bot"], strict=True)], index=t.index,
                     dtype=float)
