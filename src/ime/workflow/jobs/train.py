"""Stage 3: train the folds of one (bot, net), or of every bot (``train.stack_bots``); the nets'
and the accuracies' tables; sweeps."""

from __future__ import annotations

import logging
from typing import Any

from ime.workflow.jobs.datasets import read_json
from ime.workflow.jobs.logging import job_logging, write_csv

log = logging.getLogger("ime.pipeline")


def job_train(smk: Any) -> None:
    """Train every fold of one (bot, net) together: one process, one load of the dataset. With
    ``train.stack_bots`` the spec names ``bots``: every bot's folds of the net at once, the
    outputs bot by bot (:func:`ime.train.ensemble.train_bots`)."""
    from ime.train.ensemble import Member, train_bots

    p = smk.params.spec
    bots = list(p["bots"]) if "bots" in p else [p["bot"]]
    folds = list(p["folds"])
    datasets = list(smk.input)
    if len(datasets) != len(bots) or len(smk.output.ckpts) != len(bots) * len(folds):
        raise ValueError(f"train job: {len(datasets)} datasets and {len(smk.output.ckpts)} "
                         f"checkpoints for bots {bots} x folds {folds}")
    outputs = list(zip(smk.output.ckpts, smk.output.metrics, strict=True))
    with job_logging(smk):
        jobs = {}
        for i, (bot, path) in enumerate(zip(bots, datasets, strict=True)):
            mine = outputs[i * len(folds):(i + 1) * len(folds)]
            jobs[bot] = (path, [Member(p["net"], int(k), ckpt, metrics)
                                for k, (ckpt, metrics) in zip(folds, mine, strict=True)])
        train_bots(jobs, p["train"], threads=int(smk.threads), progress=True)


def job_self_agreement(smk: Any) -> None:
    """Re-ask one target at a seeded sample of its dataset's decisions (Table 4.4's ceiling)."""
    import json
    from pathlib import Path

    from ime.bots.registry import make_bot
    from ime.core.registry import get_game
    from ime.datasets.integrity import read_parquet
    from ime.evaluate.ceiling import sample_decisions, self_agreement

    p = smk.params.spec
    with job_logging(smk):
        game = get_game(p["game"], p["game_params"])
        table = read_parquet(smk.input.dataset, columns=["match_id", "ply", "seat"])
        rows = sample_decisions(table["match_id"].to_pylist(), table["ply"].to_pylist(),
                                table["seat"].to_pylist(), int(p["decisions"]), int(p["seed"]),
                                p["bot"])
        bot = None
        if p["bot_spec"] is not None:
            bot = make_bot(p["game"], p["bot"], {p["bot"]: p["bot_spec"]})
        try:
            res = self_agreement(game, p["bot"], bot, list(smk.input.logs), rows,
                                 default_seed=int(p["default_seed"]),
                                 repeats=int(p.get("repeats", 1)))
        finally:
            if bot is not None:
                bot.close()
        Path(smk.output[0]).parent.mkdir(parents=True, exist_ok=True)
        Path(smk.output[0]).write_text(json.dumps(res, sort_keys=True) + "\n")
        log.info("%s: self-agreement %s%%, top-1 ceiling %s-%s%% (%s re-asks) on %d decisions "
                 "of %s matches", p["bot"], res["self_agreement"], res.get("top1_mode"),
                 res.get("top1_max"), res.get("repeats"), res["decisions"],
                 res.get("matches", 0))


def job_net_architectures(smk: Any) -> None:
    """The nets' layers and parameter counts (thesis Table 4.3)."""
    from ime.train.tables import table4_3

    p = smk.params.spec
    with job_logging(smk):
        write_csv(table4_3(p["nets"], p["in_shape"], p["num_actions"]), smk.output[0],
                  echo=True)


def job_imitation_accuracy(smk: Any) -> None:
    """Train / val accuracy per bot and net over the folds (thesis Table 4.4)."""
    from ime.evaluate.ceiling import unseen_decisions
    from ime.train.folds import Split
    from ime.train.tables import table4_4

    p = smk.params.spec
    with job_logging(smk):
        stats = {s["bot"]: s for s in read_json(list(smk.input.stats))}
        ceilings = {c["bot"]: c for c in read_json(list(smk.input.ceilings))}
        # the ceiling on unseen positions: the split training used, applied to each dataset
        split = Split.of(p["split"])
        unseen = ({bot: unseen_decisions(path, split)
                   for bot, path in zip(p["bots"], smk.input.datasets, strict=True)}
                  if ceilings else None)
        df = table4_4(read_json(list(smk.input.metrics)), stats, p["bots"], p["nets"],
                      ceilings=ceilings, unseen=unseen, bootstrap=p["bootstrap"], ci=p["ci"],
                      seed=p["seed"])
        write_csv(df, smk.output[0], echo=True)


def job_accuracy_clusters(smk: Any) -> None:
    """Bots clustered by imitation accuracy, and the figure of accuracy vs baseline."""
    import pandas as pd

    from ime.evaluate.clustering import accuracy_clusters
    from ime.report.accuracy_figure import plot_accuracy

    p = smk.params.spec
    with job_logging(smk):
        table = pd.read_csv(smk.input[0])
        clusters = accuracy_clusters(table, list(p["bots"]), k=int(p["k"]))
        write_csv(clusters, smk.output.csv, echo=True)
        plot_accuracy(clusters, table, p["title"], smk.output.png, smk.output.pdf)


def job_sweep(smk: Any) -> None:
    """Table 4.4's columns for every point of the sweep (``sweep_<keys>.csv``)."""
    from ime.train.tables import sweep_table

    p = smk.params.spec
    with job_logging(smk):
        points = []
        for pt in p["points"]:
            stats = {s["bot"]: s for s in read_json(pt["stats"])}
            points.append((pt["labels"], read_json(pt["metrics"]), stats, pt["nets"]))
        write_csv(sweep_table(points, p["keys"], p["bots"]), smk.output[0], echo=True)


def job_sweep_figure(smk: Any) -> None:
    """The sweep's figure (``fig_sweep_<keys>.png/.pdf``) from its table."""
    import pandas as pd

    from ime.report.sweep_figure import sweep_figure

    p = smk.params.spec
    with job_logging(smk):
        table = pd.read_csv(smk.input[0])
        fit = sweep_figure(table, p["keys"], p["numeric"], p["title"], smk.output.png,
                           smk.output.pdf, p["fit_target"])
        write_csv(fit, smk.output.fit, echo=True)
