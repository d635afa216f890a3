"""Report jobs: the thesis's evaluation tables, clustering and figures from the stage outputs.

Called by the one-line ``workflow_scripts/report_*.py``; params are plain values made by
:mod:`ime.evaluate.workflow`.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

log = logging.getLogger("ime.report")


def _logging(smk: Any):
    from ime.cli.pipeline import job_logging

    return job_logging(str(smk.log[0]) if len(smk.log) else None)


def _csv(df: pd.DataFrame, path: str) -> None:
    Path(path).parent.mkdir(parents=True, exist_ok=True)
    df.to_csv(path, index=False, float_format="%.6g")


def _sims(path: str) -> list:
    from ime.evaluate.similarity import Similarity

    df = pd.read_csv(path)
    return [Similarity(**{k: r[k] for k in Similarity.__dataclass_fields__})
            for r in df.to_dict("records")]


def job_similarity_tables(smk: Any) -> None:
    """Tables 4.5-4.7 and 6.1, the clusters, the dendrograms and the similarity heat maps."""
    from ime.evaluate.clustering import (
        algorithm_class,
        cluster_matrix,
        cluster_points,
        clusters_table,
    )
    from ime.evaluate.similarity import to_matrix
    from ime.report import figures, tables

    p = smk.params.spec
    o = smk.output
    with _logging(smk):
        targets: list[str] = p["targets"]
        specs = p["specs"]
        sims = _sims(smk.input.similarity)
        pairs = pd.read_csv(smk.input.pairwise)
        t45 = tables.table4_5(sims, specs, targets)
        _csv(t45, o.table4_5)
        _csv(tables.pairwise_table(pairs, targets, "s1", tables.imbot_values(sims, "s1")),
             o.table4_6)
        _csv(tables.pairwise_table(pairs, targets, "s2", tables.imbot_values(sims, "s2")),
             o.table4_7)
        _csv(tables.table6_1(t45, specs), o.table6_1)

        k = int(p["clusters"])
        classes = {b: algorithm_class(specs.get(b, {})) for b in targets}
        pts = t45.set_index("bot")[["S1", "S2"]] if len(t45) else pd.DataFrame(
            columns=["S1", "S2"])
        lab_imit, z_imit = cluster_points(pts, k)
        trees = [("by imitation similarity (S1, S2 of the imitator)", z_imit, list(pts.index))]
        by_distance = {}
        for col in ("s1", "s2"):
            mat = to_matrix(pairs, targets, col)
            if mat.isna().to_numpy().any():
                log.warning("pairwise %s has missing pairs; no distance clustering", col)
                continue
            lab, z = cluster_matrix(mat, k)
            by_distance[f"distance_{col}"] = lab
            trees.append((f"by distance 1 - {col.upper()} between originals", z, targets))
        _csv(clusters_table(lab_imit, by_distance, classes), o.clusters)
        figures.plot_dendrograms(trees, o.dendrogram_png, o.dendrogram_pdf)

        # heat map: every agent (rows) on every target's key set (columns), S1 and S2
        sim_df = pd.DataFrame([s.to_row() for s in sims])
        agents = list(dict.fromkeys([*targets, *sim_df["agent"].tolist()])) if len(
            sim_df) else list(targets)
        panels = []
        for col in ("s1", "s2"):
            m = pd.DataFrame(np.nan, index=agents, columns=targets)
            for t in targets:
                m.loc[t, t] = 1.0
            for r in sim_df.itertuples(index=False):
                m.loc[r.agent, r.target] = getattr(r, col)
            panels.append(m)
        figures.plot_similarity_panels(
            panels, ["S1: single-step action similarity", "S2: endgame win/loss similarity"],
            o.heatmap_png, o.heatmap_pdf,
            xlabel="target bot (its key endgames)", ylabel="agent")
        log.info("tables 4.5-4.7, 6.1, clusters and figures for %d targets", len(targets))


def job_table4_8(smk: Any) -> None:
    """Round-robin standings + Bradley-Terry ratings from every pair's games."""
    from ime.evaluate.ratings import bradley_terry
    from ime.evaluate.tournament import standings
    from ime.report import figures, tables

    p = smk.params.spec
    with _logging(smk):
        games = pd.concat([pd.read_csv(f) for f in smk.input.pairs], ignore_index=True)
        st = standings(games, p["players"], points=p["points"])
        bt = bradley_terry(games, p["players"], n_boot=int(p["bootstrap"]),
                           level=float(p["ci"]), seed=int(p["seed"]))
        t48 = tables.table4_8(st, bt, p["targets"])
        _csv(t48, smk.output.table)
        _csv(games, smk.output.games)
        figures.plot_ratings(t48, smk.output.png, smk.output.pdf)
        log.info("table 4.8: %d players, %d games", len(t48), len(games))


def job_moves(smk: Any) -> None:
    """Fig 4.2 (two bots side by side) and every bot's move-choice heat map."""
    from ime.report import figures

    p = smk.params.spec
    with _logging(smk):
        bots: Sequence[str] = p["bots"]
        counts = figures.move_counts_from_datasets(dict(zip(bots, smk.input, strict=True)))
        figures.plot_move_heatmaps(counts, smk.output.all_png, smk.output.all_pdf,
                                   title="Move choice per square (% of each bot's moves)")
        left, right = p["pair"]
        figures.plot_fig4_2(counts, left, right, smk.output.png, smk.output.pdf)
        rows = [{"bot": b, "square": i, "count": int(c[i])} for b, c in counts.items()
                for i in range(64)]
        _csv(pd.DataFrame(rows), smk.output.counts)


def job_eval_timing(smk: Any) -> None:
    """How long mining, scoring and the tournament took (the measurements of the report)."""
    with _logging(smk):
        rows = []
        for path in smk.input.keysets:
            t = json.loads(Path(path).read_text())
            rows.append({"stage": "key mining", "what": t["target"], "items": t["forks"],
                         "unit": "forks", "candidates": t["candidates_forked"],
                         "seconds": t["seconds"], "workers": t["workers"]})
        for path in smk.input.scores:
            t = json.loads(Path(path).read_text())
            if t.get("forks"):
                rows.append({"stage": "scoring", "what": f"{t['agent']} on {t['target']}",
                             "items": t["forks"], "unit": "forks", "candidates": None,
                             "seconds": t["seconds"], "workers": None})
        for path in smk.input.pairs:
            t = json.loads(Path(path).read_text())
            rows.append({"stage": "tournament", "what": f"{t['a']} vs {t['b']}",
                         "items": t["games"], "unit": "games", "candidates": None,
                         "seconds": t["seconds"], "workers": t["workers"]})
        df = pd.DataFrame(rows)
        if len(df):
            df["per_s"] = df["items"] / df["seconds"].where(df["seconds"] > 0)
            tot = df.groupby("stage", sort=False).agg(items=("items", "sum"),
                                                      seconds=("seconds", "sum"))
            tot = tot.reset_index().assign(what="TOTAL", unit=None, candidates=None,
                                           workers=None)
            tot["per_s"] = tot["items"] / tot["seconds"].where(tot["seconds"] > 0)
            df = pd.concat([df, tot[df.columns]], ignore_index=True)
        _csv(df, smk.output[0])
