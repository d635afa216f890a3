"""The thesis's evaluation tables (4.5-4.8, 6.1) as CSV-ready DataFrames.

Similarities here are fractions in [0, 1], as the computations keep them; the job writing a table
converts them to percent, the results tables' unit (:func:`ime.report.columns.to_percent`; the
thesis prints percentages too). Every estimate comes with its bootstrap CI columns (``*_lo``,
``*_hi``). Bot descriptions (thesis bot number, ladder rank,
algorithm) are read from the zoo's specs (``config/bots/<game>.yaml``): a spec's ``algorithm``
key if present, else the first clause of its ``description``, else its ``kind``.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence

import numpy as np
import pandas as pd

from ime.evaluate.agents import imitated_target, imitator_id
from ime.evaluate.clustering import algorithm_class
from ime.evaluate.similarity import Similarity
from ime.report.columns import TABLES

HELDOUT = "@heldout"


def algorithm_label(spec: Mapping) -> str:
    """A short algorithm name for a table cell."""
    if spec.get("algorithm"):
        return str(spec["algorithm"])
    desc = str(spec.get("description") or "").strip()
    if desc:
        return re.split(r"[,;]", desc, maxsplit=1)[0].strip()
    return str(spec.get("kind", "?"))


def bot_info(specs: Mapping[str, Mapping], bot: str) -> dict:
    """Thesis number, ladder rank, algorithm and class of a bot (blank when unknown)."""
    spec = specs.get(bot, {})
    thesis = spec.get("thesis") or {}
    return {"thesis_bot": thesis.get("bot"), "ladder_rank": thesis.get("ladder_rank"),
            "algorithm": algorithm_label(spec) if spec else "", "class": algorithm_class(spec)}


def table4_5(sims: Sequence[Similarity], specs: Mapping[str, Mapping],
             targets: Sequence[str]) -> pd.DataFrame:
    """Imitator vs its original on the original's key endgames: S1, S2 with CIs.

    ``rank`` is the original's ladder rank (Table 4.1 analogue, from the spec). ``baseline`` is the
    random-choice S1 on the same states (mean 1/#legal) that every imitator must beat.
    """
    by_target = {s.target: s for s in sims if s.agent == imitator_id(s.target)}
    held = {s.target: s for s in sims if s.agent == f"{imitator_id(s.target)}{HELDOUT}"}
    rows = []
    for t in targets:
        s = by_target.get(t)
        if s is None:
            continue
        info = bot_info(specs, t)
        row = {"rank": info["ladder_rank"], "bot": t, "thesis_bot": info["thesis_bot"],
               "algorithm": info["algorithm"], "imitator": s.agent,
               "S1": s.s1, "S1_lo": s.s1_lo, "S1_hi": s.s1_hi,
               "S2": s.s2, "S2_lo": s.s2_lo, "S2_hi": s.s2_hi,
               "baseline_S1": s.baseline, "keys": s.n, "key_matches": s.n_matches}
        h = held.get(t)
        for name, val in (("S1", "s1"), ("S2", "s2")):
            for suf, attr in (("", ""), ("_lo", "_lo"), ("_hi", "_hi")):
                row[f"{name}_heldout{suf}"] = getattr(h, val + attr) if h else np.nan
        row["baseline_S1_heldout"] = h.baseline if h else np.nan
        row["keys_heldout"] = h.n if h else 0
        row["key_matches_heldout"] = h.n_matches if h else 0
        rows.append(row)
    return pd.DataFrame(rows, columns=list(TABLES["s1s2_imitator.csv"]))


def pairwise_table(pairs: pd.DataFrame, bots: Sequence[str], column: str,
                   imbot: Mapping[str, float]) -> pd.DataFrame:
    """Tables 4.6/4.7: the symmetric matrix of ``column`` (s1 or s2) + an IMBOT column.

    Rows and columns are the originals; the diagonal is 1 (a bot is itself); ``IMBOT`` is the
    bot's imitator against it on its own key set (Table 4.5's value), as in the thesis.
    """
    from ime.evaluate.similarity import to_matrix

    mat = to_matrix(pairs, bots, column)
    mat["IMBOT"] = [imbot.get(b, np.nan) for b in bots]
    mat.index.name = "bot"
    return mat.reset_index()


def table4_8(standing: pd.DataFrame, ratings: pd.DataFrame,
             targets: Sequence[str]) -> pd.DataFrame:
    """Round-robin standings (win 3 / draw 1 / loss 0) joined with Bradley-Terry Elo and CIs."""
    out = standing.merge(ratings, on="bot", how="left")
    out.insert(1, "type", ["original" if b in targets else
                           "imitator" if imitated_target(b) else "other" for b in out["bot"]])
    out.insert(2, "imitates", [imitated_target(b) or "" for b in out["bot"]])
    cols = ["rank", "bot", "type", "imitates", "points", "games", "wins", "draws", "losses",
            "elo", "elo_lo", "elo_hi"]
    return out[cols]


def table6_1(t45: pd.DataFrame, specs: Mapping[str, Mapping], *, game: str) -> pd.DataFrame:
    """Table 6.1's rows of one game: algorithm class vs imitation difficulty (S2), hardest
    first; ``game`` is the game's name (the table's first column)."""
    rows = [{"game": game, "bot": r.bot, "class": algorithm_class(specs.get(r.bot, {})),
             "algorithm": r.algorithm, "S2": r.S2, "S2_lo": r.S2_lo, "S2_hi": r.S2_hi}
            for r in t45.itertuples(index=False)]
    out = pd.DataFrame(rows, columns=list(TABLES["difficulty_by_class.csv"]))
    return out.sort_values("S2", kind="stable").reset_index(drop=True)


def imbot_values(sims: Sequence[Similarity], column: str) -> dict[str, float]:
    """``target -> S`` of its own imitator (the IMBOT column)."""
    return {s.target: getattr(s, column) for s in sims if s.agent == imitator_id(s.target)}


def sims_frame(sims: Sequence[Similarity]) -> pd.DataFrame:
    """Every scored (agent, target) pair as one long table."""
    return pd.DataFrame([s.to_row() for s in sims])
