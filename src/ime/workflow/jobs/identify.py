"""Stage 5, identification (issue 48): which bot played this, on matches no model trained on.

Scores every target's held-out matches under every target's imitator (the fold that validated
on each match; :func:`ime.evaluate.identify.heldout_scores`) and writes
``identification.csv`` (top-1 / top-3 accuracy against k and against the pool's size, with
CIs, and the open-set threshold per k; method (a), ``likelihood``, then method (b),
``embedding``: few-shot identification of bots held out of a GE2E encoder's training,
:mod:`ime.evaluate.stylometry`, when ``identify.embedding.enabled``),
``identification_confusion.csv`` (who is named for whom, per k) and
``figures/identification.png`` (and PDF). Shares are written in percent (:mod:`ime.report.columns`).
"""

from __future__ import annotations

import logging
from typing import Any

from ime.workflow.jobs.logging import job_logging, write_csv

log = logging.getLogger("ime.identify")
FLOATS = "%.6g"


def job_identify(smk: Any) -> None:
    import pandas as pd

    from ime.evaluate.identify import PERCENT_COLUMNS, heldout_scores, identification_table
    from ime.evaluate.stylometry import embedding_table
    from ime.report.columns import to_percent
    from ime.report.identify_figure import plot_identification
    from ime.train.folds import Split

    p = smk.params.spec
    o = smk.output
    with job_logging(smk):
        cfg = p["identify"]
        sp = p["split"]
        split = Split(sp["kind"], int(sp["folds"]), float(sp["holdout"]), int(sp["seed"]))
        scores = heldout_scores(p["datasets"], p["checkpoints"], split, game=p["game"],
                                game_params=p["game_params"] or None,
                                epsilon=float(cfg["epsilon"]))
        log.info("held-out matches per bot left out (trained on by every model): %s",
                 scores.skipped)
        table, confusion = identification_table(
            scores, ks=[int(k) for k in cfg["ks"]], pool_k=int(cfg["pool_k"]),
            pool_sizes=cfg["pool_sizes"], pool_draws=int(cfg["pool_draws"]),
            quantile=float(cfg["open_set_quantile"]), seed=int(cfg["seed"]),
            level=float(p["ci"]), bootstrap=int(p["bootstrap"]))
        emb = cfg.get("embedding") or {}
        if emb.get("enabled"):
            heldout = {b: scores.match_id[scores.matches_of(i)].astype(str).tolist()
                       for i, b in enumerate(scores.bots)}
            t_emb, c_emb, fs = embedding_table(
                p["datasets"], heldout, cfg=emb, ks=[int(k) for k in cfg["ks"]],
                seed=int(cfg["seed"]), level=float(p["ci"]))
            if fs is not None:
                log.info("embedding: GE2E loss per encoder, first -> last 20 steps' mean: %s",
                         {f: f"{v[0]:.3f} -> {sum(v[-20:]) / len(v[-20:]):.3f}"
                          for f, v in fs.losses.items()})
            table = pd.concat([table, t_emb], ignore_index=True)
            confusion = pd.concat([confusion, c_emb], ignore_index=True)
        table = to_percent(table, PERCENT_COLUMNS)
        confusion = to_percent(confusion, ["share"])
        write_csv(table, o.table, float_format=FLOATS, echo=True)
        write_csv(confusion, o.confusion, float_format=FLOATS)
        plot_identification(table, f"{p['game']}: which bot played this? ({len(p['bots'])} "
                            f"bots, {p['net']} imitators, held-out matches)", o.png, o.pdf)
