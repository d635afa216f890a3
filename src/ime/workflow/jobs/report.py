"""Stage 5: the evaluation's tables, clustering and figures, under their generic names."""

from __future__ import annotations

import json
import logging
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from ime.workflow.jobs.logging import job_logging, write_csv

log = logging.getLogger("ime.report")
FLOATS = "%.6g"


def _sims(path: str) -> list:
    """``similarity.csv`` back as fractions (the table is in percent)."""
    from ime.evaluate.similarity import Similarity
    from ime.report.columns import SIMILARITY_PERCENT, from_percent

    df = from_percent(pd.read_csv(path), SIMILARITY_PERCENT)
    return [Similarity(**{k: r[k] for k in Similarity.__dataclass_fields__})
            for r in df.to_dict("records")]


def job_similarity_tables(smk: Any) -> None:
    """S1/S2 of the imitators (Table 4.5), the pairwise tables (4.6, 4.7), difficulty by class
    (6.1), the clusters, the dendrograms and the similarity heat maps."""
    from ime.evaluate.clustering import (
        algorithm_class,
        cluster_matrix,
        cluster_points,
        clusters_table,
    )
    from ime.evaluate.similarity import to_matrix
    from ime.report import figures, tables
    from ime.report.columns import SIMILARITY_PERCENT, TABLE4_5_PERCENT, from_percent, to_percent

    p = smk.params.spec
    o = smk.output
    with job_logging(smk):
        targets: list[str] = p["targets"]
        specs = p["specs"]
        sims = _sims(smk.input.similarity)
        pairs = from_percent(pd.read_csv(smk.input.pairwise), SIMILARITY_PERCENT[:2])
        t45 = tables.table4_5(sims, specs, targets)
        write_csv(to_percent(t45, TABLE4_5_PERCENT), o.s1s2_imitator, float_format=FLOATS)
        matrix_cols = [*targets, "IMBOT"]
        for col, out in (("s1", o.s1_pairwise), ("s2", o.s2_pairwise)):
            mat = tables.pairwise_table(pairs, targets, col, tables.imbot_values(sims, col))
            write_csv(to_percent(mat, matrix_cols), out, float_format=FLOATS)
        write_csv(to_percent(tables.table6_1(t45, specs, game=p["game"]), ["S2"]),
                  o.difficulty_by_class, float_format=FLOATS)

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
        write_csv(clusters_table(lab_imit, by_distance, classes), o.clusters,
                  float_format=FLOATS)
        figures.plot_dendrograms(trees, o.dendrogram_png, o.dendrogram_pdf)
        _heatmaps(sims, targets, o.heatmap_png, o.heatmap_pdf)
        log.info("similarity tables, clusters and figures for %d targets", len(targets))


def _heatmaps(sims: list, targets: list[str], png: str, pdf: str) -> None:
    """Every agent (rows) on every target's key set (columns), S1 and S2, in percent as
    ``similarity.csv`` holds them (``sims`` are fractions, :func:`_sims`)."""
    from ime.report import figures
    from ime.report.columns import to_percent

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
        panels.append(to_percent(m, targets))
    figures.plot_similarity_panels(
        panels, ["S1: single-step action similarity", "S2: endgame win/loss similarity"],
        png, pdf, xlabel="target bot (its key endgames)", ylabel="agent")


def job_tournament(smk: Any) -> None:
    """Round-robin standings + Bradley-Terry ratings from every pair's games (Table 4.8)."""
    from ime.evaluate.ratings import bradley_terry
    from ime.evaluate.tournament import standings
    from ime.report import figures, tables

    p = smk.params.spec
    with job_logging(smk):
        games = pd.concat([pd.read_csv(f) for f in smk.input.pairs], ignore_index=True)
        st = standings(games, p["players"], points=p["points"])
        bt = bradley_terry(games, p["players"], n_boot=int(p["bootstrap"]),
                           level=float(p["ci"]), seed=int(p["seed"]))
        t48 = tables.table4_8(st, bt, p["targets"])
        write_csv(t48, smk.output.table, float_format=FLOATS)
        write_csv(games, smk.output.games, float_format=FLOATS)
        figures.plot_ratings(t48, smk.output.png, smk.output.pdf, points=p["points"])
        log.info("tournament: %d players, %d games", len(t48), len(games))


def job_moves(smk: Any) -> None:
    """Two bots' move-choice maps side by side (Fig 4.2) and every bot's map."""
    from ime.report import figures

    p = smk.params.spec
    with job_logging(smk):
        bots: Sequence[str] = p["bots"]
        counts = figures.move_counts_from_datasets(dict(zip(bots, smk.input, strict=True)))
        game = {"game": p["game"], "game_params": p["game_params"]}
        figures.plot_move_heatmaps(counts, smk.output.all_png, smk.output.all_pdf,
                                   title="Move choice per square (% of each bot's moves)", **game)
        left, right = p["pair"]
        figures.plot_fig4_2(counts, left, right, smk.output.png, smk.output.pdf, **game)
        rows = [{"bot": b, "square": i, "count": int(c[i])} for b, c in counts.items()
                for i in range(len(c))]
        write_csv(pd.DataFrame(rows), smk.output.counts, float_format=FLOATS)


def job_eval_timing(smk: Any) -> None:
    """How long mining, scoring and the tournament took (the measurements of the report)."""
    with job_logging(smk):
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
        write_csv(df, smk.output[0], float_format=FLOATS)
