"""Opponent-model search against the original bots (issue 49, Deliver 3): one cell's games, and
the table, its cost table and its figure (:mod:`ime.evaluate.om_experiment` has the method).

A cell job writes the games (``<cell>.csv``: outcomes and our decisions' counts, the same bytes
for the same config and any worker count), ``<cell>.json`` (our player's spec as played, the
cell's summary and, for a model cell, its model's accuracy record:
:mod:`ime.evaluate.om_accuracy`) and ``<cell>.timing.json`` (wall times, which vary). The table
job writes ``om_search.csv`` (points shares, gains, mean counts; byte-stable),
``om_search_cost.csv`` (ms per decision beside the counts), ``om_search_model_accuracy.csv``
(the model cells' top-1 against the target, with CIs) and ``figures/om_search.png`` (and PDF).
"""

from __future__ import annotations

import json
import logging
import time
from typing import Any

from ime.workflow.jobs.logging import job_logging, write_csv

log = logging.getLogger("ime.om_search")
FLOATS = "%.6g"


def job_om_cell(smk: Any) -> None:
    """Play one cell's games against its target."""
    import pandas as pd

    from ime.evaluate.agents import ProviderFactory
    from ime.evaluate.om_accuracy import AccuracySample, measure_cell
    from ime.evaluate.om_experiment import PLAYER, cell_spec, mean_nodes, play_cell, summary

    p = smk.params.spec
    o = smk.output
    with job_logging(smk):
        t0 = time.perf_counter()
        spec = p["spec"]
        if spec is None:  # cell (b) at the nodes that cell (c) used (equal_nodes: measured)
            (path,) = smk.input.budget
            budget = mean_nodes(pd.read_csv(path))
            log.info("%s: cell plain_nodes at %d nodes a decision, as cell om used (%s)",
                     p["target"], budget, path)
            spec = cell_spec("plain_nodes", p["target"], p["settings"], nodes=budget)
        factory = ProviderFactory(p["game"], {PLAYER: spec, **p["bot_specs"]})
        k = int(p.get("accuracy_sample") or 0)
        sample = AccuracySample(k, int(p["seed"])) if k > 0 else None
        games, decision_seconds = play_cell(
            p["game"], p["target"], factory, rounds=int(p["rounds"]),
            opening_plies=int(p["opening_plies"]), seed=int(p["seed"]),
            openings=p["openings"], game_params=p["game_params"] or None,
            workers=int(smk.threads), progress=True, tag=p["cell"], accuracy=sample)
        accuracy = None
        if sample is not None:  # a model cell: its model's top-1 against the target
            t1 = time.perf_counter()
            accuracy = measure_cell(sample, factory(), PLAYER, p["target"], spec)
            a, g = accuracy["search"], accuracy["games"]
            log.info("%s vs %s: the model names the target's move at %d of %d sampled search "
                     "positions (of %d) and %d of %d of its moves (of %d), %.1f s", p["cell"],
                     p["target"], a["agree"], a["n"], a["positions"], g["agree"], g["n"],
                     g["positions"], time.perf_counter() - t1)
        faults = games[games["fault"] != ""]
        if len(faults):
            log.warning("%d game(s) ended on a fault: %s", len(faults),
                        faults[["match_id", "fault"]].to_dict("records"))
        games.to_csv(o.games, index=False, lineterminator="\n")
        s = summary(games)
        with open(o.cell, "w", encoding="utf-8") as f:
            json.dump({"target": p["target"], "cell": p["cell"], "spec": spec, "summary": s,
                       "model_accuracy": accuracy}, f, indent=2, sort_keys=True)
            f.write("\n")
        seconds = time.perf_counter() - t0
        with open(o.timing, "w", encoding="utf-8") as f:
            json.dump({"target": p["target"], "cell": p["cell"], "games": len(games),
                       "decisions": s["decisions"], "searched": s["searched"],
                       "decision_seconds": round(decision_seconds, 3),
                       "seconds": round(seconds, 3), "workers": int(smk.threads)}, f, indent=2)
            f.write("\n")
        log.info("%s vs %s: %d games, points share %.3f, %.1f nodes and %.1f ms a searched "
                 "decision, %.1f s", p["cell"], p["target"], s["games"],
                 s["points"] / max(1, s["games"]), s["nodes_mean"],
                 1000.0 * decision_seconds / max(1, s["searched"]), seconds)


def job_om_table(smk: Any) -> None:
    """``om_search.csv``, ``om_search_cost.csv``, ``om_search_model_accuracy.csv`` and the
    figure from every cell's files."""
    import pandas as pd

    from ime.evaluate.om_accuracy import accuracy_table
    from ime.evaluate.om_experiment import LABELS, cell_mode, cost_table, model_label, om_table
    from ime.report.om_search_figure import plot_om_search

    p = smk.params.spec
    o = smk.output
    with job_logging(smk):
        cells = []
        for c in p["cells"]:
            with open(c["cell_file"], encoding="utf-8") as f:
                played = json.load(f)
            with open(c["timing"], encoding="utf-8") as f:
                timing = json.load(f)
            cells.append({"target": c["target"], "cell": c["cell"], "spec": played["spec"],
                          "games": pd.read_csv(c["games"], keep_default_na=False),
                          "timing": timing, "label": LABELS[c["cell"]],
                          "model": model_label(played["spec"]),
                          "mode": cell_mode(played["spec"]),
                          "accuracy": played.get("model_accuracy")})
        table = om_table(cells, level=float(p["ci"]))
        write_csv(table, o.table, float_format=FLOATS, echo=True)
        write_csv(cost_table(cells), o.cost, float_format=FLOATS, echo=True)
        write_csv(accuracy_table(cells, level=float(p["ci"])), o.accuracy, float_format=FLOATS,
                  echo=True)
        how = f"{p['player']} player" if p.get("player") else f"depth {p['depth']}"
        plot_om_search(table, f"{p['game']}: opponent-model search against the originals "
                              f"({p['net']} imitators, {how}, {p['games']} games "
                              f"a cell)", o.png, o.pdf)
