#!/usr/bin/env python
"""How often the opponent model predicts the original bot where opponent-model search asks it.

A thin command line over :mod:`ime.evaluate.om_accuracy` (issue 49, docs/opponent_model.md,
"Why the imitators lose"), for a model the pipeline does not name: any imitator's checkpoint
files, any settings. The experiment's model cells record the same measurement themselves
(``om_search_model_accuracy.csv``). This plays cell (c)'s games (our ``om_search`` player with
the model at the target's nodes, against the target from seeded balanced openings, both seats),
keeps a seeded sample of the positions the model is asked about and of those where the target
moved, and prints the model's top-1 agreement with the target on both (the truth: the target's
decision, asked now, and its move), and on the search positions by their plies below the root.

Example (the quick run's rev4 CONV ensemble, the experiment's settings)::

    python scripts/om_model_accuracy.py reversi rev4 \\
        data/reversi/models/quick/conv/rev4/fold0.pt data/reversi/models/quick/conv/rev4/fold1.pt \\
        --evaluation rev1 --depth 4 --rounds 10 --opening-plies 4
"""

from __future__ import annotations

import argparse
import json

from ime.bots.om_search import resolve_specs
from ime.bots.registry import load_bot_specs
from ime.evaluate.agents import ProviderFactory
from ime.evaluate.om_accuracy import AccuracySample, measure_cell
from ime.evaluate.om_experiment import PLAYER, cell_spec, play_cell


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("game")
    ap.add_argument("target", help="the original bot (deterministic; its zoo id)")
    ap.add_argument("checkpoints", nargs="+", help="the model: an imitator's checkpoint files")
    ap.add_argument("--evaluation", required=True, help="our evaluation's zoo search bot")
    ap.add_argument("--mode", default="policy", choices=["policy", "search", "prom"])
    ap.add_argument("--depth", type=int, default=4)
    ap.add_argument("--nodes", type=int, default=20000)
    ap.add_argument("--batch", type=int, default=64)
    ap.add_argument("--rounds", type=int, default=10, help="openings, each in both seats")
    ap.add_argument("--opening-plies", type=int, default=4)
    ap.add_argument("--openings", default="{}", help="game.openings as JSON")
    ap.add_argument("--game-params", default="{}", help="game.params as JSON")
    ap.add_argument("--sample", type=int, default=2000,
                    help="positions of each kind sampled (the target is asked at each)")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--workers", type=int, default=1)
    a = ap.parse_args(argv)
    params = json.loads(a.game_params) or None
    settings = {"evaluation": a.evaluation, "depth": a.depth, "nodes": a.nodes,
                "plain_nodes": a.nodes, "mode": a.mode, "mix": 1.0, "min_prob": 0.0,
                "batch": a.batch}
    spec = cell_spec("om", a.target, settings, model_bot=a.target, net="cli")
    if params:
        spec["params"]["opponent"]["game_params"] = params
    spec = resolve_specs({PLAYER: spec}, lambda ref: list(a.checkpoints))[PLAYER]
    factory = ProviderFactory(a.game, {PLAYER: spec, a.target: load_bot_specs(a.game)[a.target]})
    sample = AccuracySample(a.sample, a.seed)
    play_cell(a.game, a.target, factory, rounds=a.rounds, opening_plies=a.opening_plies,
              seed=a.seed, openings=json.loads(a.openings), game_params=params,
              workers=a.workers, progress=False, tag="om-accuracy", accuracy=sample)
    acc = measure_cell(sample, factory(), PLAYER, a.target, spec)
    s, g = acc["search"], acc["games"]
    out = {"game": a.game, "target": a.target, "checkpoints": a.checkpoints,
           "games_played": 2 * a.rounds, **acc,
           "top1_search_positions": s["agree"] / s["n"] if s["n"] else None,
           "top1_game_positions": g["agree"] / g["n"] if g["n"] else None}
    print(json.dumps(out, indent=2))


if __name__ == "__main__":
    main()
