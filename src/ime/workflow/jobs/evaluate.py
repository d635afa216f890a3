"""Stage 4: key endgames, S1/S2 scores, held-out scores, tournament pairs, similarities."""

from __future__ import annotations

import json
import logging
import time
from typing import Any

import pandas as pd

from ime.workflow.jobs.logging import job_logging, write_csv

log = logging.getLogger("ime.evaluate")
FLOATS = "%.6g"


def _factory(p: dict) -> Any:
    from ime.evaluate.agents import ProviderFactory

    return ProviderFactory(p["game"], p["bot_specs"])


def job_keys(smk: Any) -> None:
    """Mine one target's key endgames from its logged matches."""
    from ime.core.registry import get_game
    from ime.evaluate.keys import mine_keys
    from ime.evaluate.keyset import write_keyset

    p = smk.params.spec
    with job_logging(smk):
        log.info("%s: references %s, %d key(s) wanted, %d worker(s)", p["target"],
                 p["references"], p["n_keys"], smk.threads)
        res = mine_keys(get_game(p["game"], p["game_params"]), p["target"], p["references"],
                        list(smk.input.logs), _factory(p), n_keys=int(p["n_keys"]),
                        max_candidates=p["max_candidates"], min_legal=int(p["min_legal"]),
                        seed=int(p["seed"]), match_seed=int(p["match_seed"]),
                        workers=int(smk.threads), progress=True, game_params=p["game_params"])
        write_keyset(res, smk.output.keyset, smk.output.candidates, smk.output.stats,
                     smk.output.timing)
        s = res.stats
        log.info("%s: %d keys from %d candidates (key rate %.3f) in %d matches; self-fork "
                 "reproduced %d/%d; %d forks in %.1f s (%.1f forks/s)", s.target, s.n_keys,
                 s.candidates_forked, s.key_rate, s.matches_with_keys, s.self_fork_reproduced,
                 s.self_fork_checked, s.forks, s.seconds, s.forks_per_s)
        if s.n_keys < s.n_keys_wanted:
            log.warning("%s: only %d of %d keys found (%d candidates available): use more "
                        "matches or fewer keys", s.target, s.n_keys, s.n_keys_wanted,
                        s.candidates_available)
        if s.self_fork_failed:
            log.warning("%s: %d self-fork(s) did NOT reproduce the logged game: the bot is not "
                        "a pure function of (config, seed, match, ply, history), or the match "
                        "seed is wrong", s.target, s.self_fork_failed)


def job_score(smk: Any) -> None:
    """Score one agent on one target's key set (forks, or stored reference columns)."""
    from ime.evaluate.keyset import read_keyset
    from ime.evaluate.scoring import score_agent, write_scores

    p = smk.params.spec
    with job_logging(smk):
        ks = read_keyset(smk.input.keyset)
        df, info = score_agent(ks, p["agent"], _factory(p), workers=int(smk.threads),
                               progress=True)
        write_scores(df, info, smk.output.scores, smk.output.timing)
        log.info("%s on %s: %d keys (%s), %.1f s", p["agent"], p["target"], len(df),
                 info["source"], info.get("seconds", 0.0))


def job_heldout(smk: Any) -> None:
    """The imitator on its own target's keys, each key played by the fold that held it out."""
    from ime.evaluate.heldout import dataset_match_folds, heldout_agents
    from ime.evaluate.keyset import read_keyset
    from ime.evaluate.scoring import score_per_key, write_scores

    p = smk.params.spec
    with job_logging(smk):
        ks = read_keyset(smk.input.keyset)
        fold_of = dataset_match_folds(smk.input.dataset, int(p["folds"]), int(p["train_seed"]),
                                      holdout=p.get("holdout"))
        agents = heldout_agents(ks.df, fold_of, p["trained"], p["imitator"])
        df, info = score_per_key(ks, agents, _factory(p), workers=int(smk.threads),
                                 progress=True,
                                 desc=f"{p['imitator']} held out on {p['target']}")
        info.update(agent=f"{p['imitator']}@heldout", target=p["target"], source="held-out fork",
                    keys_total=len(ks.df))
        write_scores(df, info, smk.output.scores, smk.output.timing)
        log.info("%s held out on %s: %d of %d keys playable by a fold that did not train on "
                 "them", p["imitator"], p["target"], len(df), len(ks.df))


def job_tournament_pair(smk: Any) -> None:
    """All rounds of one pair of the round-robin (every seat rotation per opening)."""
    from ime.core.registry import get_game
    from ime.evaluate.tournament import pair_schedule, play_games, write_games

    p = smk.params.spec
    with job_logging(smk):
        t0 = time.perf_counter()
        game = get_game(p["game"], p["game_params"])
        seats = game.num_players
        teams = game.game_type.teams if p.get("lineups", "rotations") == "sides" else None
        games = pair_schedule(p["a"], p["b"], int(p["rounds"]), seats=seats, teams=teams)
        res, logs = play_games(p["game"], games, _factory(p), rounds=int(p["rounds"]),
                               opening_plies=int(p["opening_plies"]), seed=int(p["seed"]),
                               openings=p["openings"], game_params=p["game_params"],
                               workers=int(smk.threads), progress=True,
                               desc=f"{p['a']} vs {p['b']}")
        write_games(res, logs, smk.output.results, smk.output.logs)
        seconds = time.perf_counter() - t0
        with open(smk.output.timing, "w", encoding="utf-8") as f:
            json.dump({"a": p["a"], "b": p["b"], "games": len(res),
                       "plies": int(res["plies"].sum()), "seconds": round(seconds, 3),
                       "workers": int(smk.threads)}, f, indent=2)
        log.info("%s vs %s: %d games in %.1f s", p["a"], p["b"], len(res), seconds)


def job_similarity(smk: Any) -> None:
    """Every (agent, target) S1/S2 with CIs, and the pairwise table among the originals."""
    from ime.evaluate.keyset import read_keyset
    from ime.evaluate.scoring import read_scores, stored_scores
    from ime.evaluate.similarity import (
        Similarity,
        heldout_similarity,
        pairwise_similarity,
        similarity,
    )
    from ime.report.columns import SIMILARITY_PERCENT, to_percent

    p = smk.params.spec
    boot = {"n_boot": int(p["bootstrap"]), "level": float(p["ci"]), "seed": int(p["seed"])}
    with job_logging(smk):
        keysets = {t: read_keyset(path) for t, path in p["keys"].items()}
        keys = {t: ks.df for t, ks in keysets.items()}
        scores = {}
        for key, path in p["scores"].items():
            agent, target = key.split("|")
            scores[(agent, target)] = read_scores(path)[0]
        for key in p.get("stored", []):  # references: their forks are stored in the key set
            agent, target = key.split("|")
            scores[(agent, target)] = stored_scores(keysets[target], agent)
        rows = []
        for (agent, target), df in scores.items():
            if not len(keys[target]):
                log.warning("%s has no key endgames: no similarity on its set", target)
                continue
            rows.append(similarity(keys[target], df, agent=agent, target=target,
                                   **boot).to_row())
        for target, path in p.get("heldout", {}).items():
            df, info = read_scores(path)
            held = heldout_similarity(keys[target], df, agent=info["agent"], target=target,
                                      **boot)
            if held is None:
                log.warning("%s: no key is held out by a trained fold", target)
                continue
            rows.append(held.to_row())
        sims = pd.DataFrame(rows, columns=list(Similarity.__dataclass_fields__))
        write_csv(to_percent(sims, SIMILARITY_PERCENT), smk.output.similarity,
                  float_format=FLOATS)
        pairs = pairwise_similarity({t: k for t, k in keys.items() if len(k)}, scores,
                                    p["targets"], **boot)
        write_csv(to_percent(pairs, SIMILARITY_PERCENT[:2]), smk.output.pairwise,
                  float_format=FLOATS)
        log.info("similarities of %d (agent, target) pairs; %d pairs of originals", len(sims),
                 len(pairs))
