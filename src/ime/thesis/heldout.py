"""Held-out first: the imitators' S1/S2 on keys from matches no training fold saw, in place
of the in-sample figures, for every table a conclusion reads them from.

Why a module of its own: the report decides each conclusion on this view where it changes the
numbers, with the in-sample verdict beside (:func:`ime.thesis.report.verdicts`); which tables
repeat the imitators' S1/S2, and so must follow them, is one decision kept in one place.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace

import numpy as np
import pandas as pd

from ime.thesis.results import GameResults

HELDOUT_TABLES = ("s1s2_imitator.csv", "difficulty_by_class.csv")
"""The tables whose imitators' S1/S2 have held-out figures (``<col>_heldout``)."""


def heldout_view(results: Mapping[str, GameResults]) -> dict[str, GameResults]:
    """``results`` with the imitators' S1 and S2 (and their CIs) on held-out keys in place of
    the in-sample ones, wherever a game's ``s1s2_imitator.csv`` has them (keys from matches no
    training fold saw: in-sample figures can reflect memorised positions);
    ``difficulty_by_class.csv``'s S2 follows the same bots, and ``clusters.csv``'s clusters by
    imitation similarity are drawn again from the held-out (S1, S2) by the pipeline's own
    clustering, with as many clusters; the pairwise tables' IMBOT columns (the imitator beside
    the other originals, ``s1_pairwise.csv``/``s2_pairwise.csv``), which repeat the same
    S1/S2, take the held-out figure too, so that "each bot is closest to its own imitator" is
    decided on held-out keys like the rest. A game without held-out figures is left as it
    is."""
    out = dict(results)
    for game, g in results.items():
        t = g.get("s1s2_imitator.csv")
        if t is None or "S2_heldout" not in t.columns or t["S2_heldout"].isna().all():
            continue
        t = t.copy()
        for m in ("S1", "S2"):
            for suf in ("", "_lo", "_hi"):
                if f"{m}_heldout{suf}" in t.columns:
                    t[f"{m}{suf}"] = t[f"{m}_heldout{suf}"]
        tables = {**g.tables, "s1s2_imitator.csv": t}
        by_bot = t.set_index("bot")
        for m in ("S1", "S2"):  # the pairwise tables' IMBOT column repeats the same S1/S2
            pw = g.get(f"{m.lower()}_pairwise.csv")
            if pw is not None and "IMBOT" in pw.columns:
                tables[f"{m.lower()}_pairwise.csv"] = pw.assign(IMBOT=[
                    by_bot[m].get(b, x) if pd.notna(by_bot[m].get(b, np.nan)) else x
                    for b, x in zip(pw["bot"], pw["IMBOT"], strict=True)])
        d = g.get("difficulty_by_class.csv")
        if d is not None and "S2" in d.columns:
            by = t.set_index("bot")
            d = d.copy()
            for suf in ("", "_lo", "_hi"):
                if f"S2{suf}" in d.columns and f"S2{suf}" in by.columns:
                    d[f"S2{suf}"] = [by[f"S2{suf}"].get(b, x)
                                     for b, x in zip(d["bot"], d[f"S2{suf}"], strict=True)]
            tables["difficulty_by_class.csv"] = d
        cl = g.get("clusters.csv")
        if cl is not None and "cluster_imitation" in cl.columns and set(cl["bot"]) <= set(t["bot"]):
            from ime.evaluate.clustering import cluster_points

            pts = t.set_index("bot").loc[list(cl["bot"]), ["S1", "S2"]].astype(float)
            if not pts.isna().to_numpy().any():
                labels, _ = cluster_points(pts, int(cl["cluster_imitation"].nunique()))
                tables["clusters.csv"] = cl.assign(cluster_imitation=list(labels["cluster"]))
        out[game] = replace(g, tables=tables)
    return out
