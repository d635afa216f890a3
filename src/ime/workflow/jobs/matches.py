"""Stage 1: play one shard of one target's match schedule into a Botzone JSON-lines file."""

from __future__ import annotations

import logging
from typing import Any

from ime.workflow.jobs.logging import job_logging

log = logging.getLogger("ime.pipeline")


def job_matches(smk: Any) -> None:
    """Play one shard of one target's match schedule."""
    from ime.core.registry import get_game
    from ime.matches.runner import build_target_schedule, play_schedule, shard

    p = smk.params.spec
    with job_logging(smk):
        game = get_game(p["game"], p["game_params"])
        # matches.team_seats=all: the target fills every seat of its side (the game's teams)
        teams = game.game_type.teams if p.get("team_seats") == "all" else ()
        specs = build_target_schedule(p["game"], p["target"], p["opponents"], p["sparring"],
                                      int(p["per_target"]), int(p["seed"]),
                                      vs_targets=float(p["vs_targets"]),
                                      seats=game.num_players, teams=teams)
        mine = shard(specs, int(p["shard"]), int(p["shards"]))
        log.info("%s shard %d/%d: %d of %d scheduled matches (sparring partners %s), "
                 "%d worker(s)", p["target"], p["shard"], p["shards"], len(mine), len(specs),
                 p["sparring"], smk.threads)
        n = play_schedule(p["game"], mine, p["bot_specs"], smk.output[0], seed=int(p["seed"]),
                          workers=int(smk.threads), progress=True,
                          desc=f"{p['target']} shard {p['shard']}",
                          game_params=p["game_params"], journal=True)
        log.info("wrote %d matches to %s", n, smk.output[0])
