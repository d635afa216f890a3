"""Seed 004's agent measured: its win rate against the baselines, and the exact solver's effort.

Two result files of the plug-in (``game.extra.study`` of ``config/game/big2.yaml``), each also a
command:

* ``results/big2/agent_strength.csv`` (:func:`strength_rows`): the agent (``study.agent``, a zoo
  id, default ``b2_negamax``) against each of ``study.baselines`` on ``games_per_seat`` seeded
  deals, each deal played twice, the agent in seat 0 (it leads) and in seat 1. Columns: games,
  wins, ``win_rate`` (a fraction of games) with its 95% Wilson interval
  (``win_rate_lo``/``win_rate_hi``), the win rate per seat, and the mean score in cards (the
  game's zero-sum score, ``+n`` for a win by ``n`` cards) with a 95% normal interval
  (``mean_score_lo``/``mean_score_hi``). Deal ``i`` is the same for every baseline (paired).
* ``results/big2/solver_effort.csv`` (:func:`solver_rows`): for each size ``n`` of
  ``study.solver.sizes``, ``positions`` seeded ``n + n`` deals from the 52-card deck; seat 0's
  first play is solved exactly by the agent's search (alpha-beta, memo cache, the seed's
  ordering; :func:`ime.games.big2.search.decide` with the exact threshold at ``n``) within
  ``max_nodes`` nodes. Columns: solved, nodes (median, mean, 90th percentile, max), seconds
  (mean, max; wall time of this machine, the only non-deterministic numbers here) and nodes/s.

Match ids name (agent, baseline, seat, deal) and the config's seed, so the strength table is a
pure function of the config, whatever the number of worker processes.

Standalone: ``python -m ime.games.big2.study strength|solver --out FILE [--games N]``.
"""

from __future__ import annotations

import argparse
import csv
import json
import math
import multiprocessing as mp
import time
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import numpy as np

from ime.core.seeding import derive_seed

STRENGTH_COLUMNS = ["agent", "baseline", "games", "wins", "losses", "win_rate", "win_rate_lo",
                    "win_rate_hi", "win_rate_seat0", "win_rate_seat1", "mean_score",
                    "mean_score_lo", "mean_score_hi"]
SOLVER_COLUMNS = ["cards", "positions", "solved", "nodes_median", "nodes_mean", "nodes_p90",
                  "nodes_max", "seconds_mean", "seconds_max", "nodes_per_s"]
Z95 = 1.959964


def wilson(successes: float, n: int, z: float = Z95) -> tuple[float, float]:
    """Wilson score interval of a proportion (95% by default)."""
    if n == 0:
        return 0.0, 1.0
    p = successes / n
    den = 1 + z * z / n
    mid = (p + z * z / (2 * n)) / den
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / den
    return max(0.0, mid - half), min(1.0, mid + half)


def study_settings(game: Mapping[str, Any]) -> dict[str, Any]:
    """``game.extra.study`` of a game config (plain dict)."""
    return dict((game.get("extra") or {}).get("study") or {})


# --- the agent against the baselines -----------------------------------------------------------
_BOTS: dict[str, Any] = {}


def _bot(spec: tuple[str, str, str]):
    """A bot from ``(id, kind, params JSON)``, built once per worker."""
    if spec[0] not in _BOTS:
        from ime.games.big2.bots import BOT_KINDS

        _BOTS[spec[0]] = BOT_KINDS[spec[1]]("big2", spec[0], json.loads(spec[2]))
    return _BOTS[spec[0]]


def _play(task: tuple) -> float:
    """The agent's score (cards) in one game."""
    from ime.core.registry import get_game
    from ime.matches.judge import run_match

    agent, baseline, seat, index, seed, params = task
    game = get_game("big2", json.loads(params))
    seats = [agent, baseline] if seat == 0 else [baseline, agent]
    deal_seed = derive_seed(seed, "big2-strength-deal", index)
    initdata = game.new_initial_state(seed=deal_seed).initdata()
    mid = f"big2-strength-s{seed}-{agent[0]}-{baseline[0]}-seat{seat}-{index:05d}"
    res = run_match(game, [_bot(s) for s in seats], match_id=mid, seed=seed, initdata=initdata,
                    player_ids=[s[0] for s in seats])
    if res.fault is not None:
        raise RuntimeError(f"{mid}: fault {res.fault}")
    return float(res.scores[seat])


def _spec(bot_id: str, specs: Mapping[str, Mapping[str, Any]]) -> tuple[str, str, str]:
    if bot_id not in specs:
        raise ValueError(f"game.extra.study: unknown bot {bot_id!r}; known: {sorted(specs)}")
    s = specs[bot_id]
    return (bot_id, str(s["kind"]), json.dumps(dict(s.get("params") or {}), sort_keys=True))


def strength_rows(study: Mapping[str, Any], specs: Mapping[str, Mapping[str, Any]],
                  game_params: Mapping[str, Any] | None = None, seed: int = 0,
                  workers: int = 1, log: Any = print) -> list[dict[str, Any]]:
    """The agent-strength table (see the module doc)."""
    from ime.core.pools import process_pool

    agent = _spec(str(study.get("agent", "b2_negamax")), specs)
    per = int(study.get("games_per_seat", 100))
    params = json.dumps(dict(game_params or {}), sort_keys=True)
    rows = []
    for b in study.get("baselines", ["b2_random", "b2_smallest"]):
        base = _spec(str(b), specs)
        tasks = [(agent, base, seat, i, seed, params) for seat in (0, 1) for i in range(per)]
        t = time.perf_counter()
        if workers > 1:
            # fork where there is one: a spawned worker re-runs the parent's __main__, which
            # under Snakemake's script directive is the job script (it has no `snakemake`)
            method = "fork" if "fork" in mp.get_all_start_methods() else "spawn"
            with process_pool(mp.get_context(method), workers) as pool:
                scores = pool.map(_play, tasks, chunksize=4)
        else:
            scores = [_play(x) for x in tasks]
        rows.append(_strength_row(agent[0], base[0], scores, per))
        log(f"{agent[0]} vs {base[0]}: win rate {rows[-1]['win_rate']:.3f} "
            f"({time.perf_counter() - t:.1f} s)")
    return rows


def _strength_row(agent: str, baseline: str, scores: Sequence[float], per: int
                  ) -> dict[str, Any]:
    s = np.asarray(scores, dtype=np.float64)
    n = len(s)
    wins = int((s > 0).sum())
    lo, hi = wilson(wins, n)
    half = Z95 * float(s.std(ddof=1)) / math.sqrt(n) if n > 1 else float("nan")
    return {"agent": agent, "baseline": baseline, "games": n, "wins": wins,
            "losses": n - wins, "win_rate": round(wins / n, 4), "win_rate_lo": round(lo, 4),
            "win_rate_hi": round(hi, 4), "win_rate_seat0": round(float((s[:per] > 0).mean()), 4),
            "win_rate_seat1": round(float((s[per:] > 0).mean()), 4),
            "mean_score": round(float(s.mean()), 3),
            "mean_score_lo": round(float(s.mean()) - half, 3),
            "mean_score_hi": round(float(s.mean()) + half, 3)}


# --- the exact solver's effort -----------------------------------------------------------------
def solve_first_play(hands: Sequence[Sequence[int]], max_nodes: int) -> tuple[bool, int, float]:
    """Solve seat 0's first play of a deal exactly: ``(solved, nodes, seconds)``."""
    from ime.games.big2.cards import counts_of
    from ime.games.big2.movegen import pack
    from ime.games.big2.search import SOLVE_DEPTH, SearchParams, decide

    a, b = counts_of(hands[0]), counts_of(hands[1])
    n = int(max(a.sum(), b.sum()))
    params = SearchParams(exact_threshold=n, exact_nodes=int(max_nodes), start_depth=1,
                          first_nodes=0, nodes=0)
    t = time.perf_counter()
    r = decide(pack(a), pack(b), int(a.sum()), int(b.sum()), None, params)
    dt = time.perf_counter() - t
    return r.depth == SOLVE_DEPTH, min(r.nodes, int(max_nodes)), dt


def _solve_task(task: tuple) -> tuple[bool, int, float]:
    from ime.games.big2.cards import deal

    size, j, seed, max_nodes = task
    return solve_first_play(deal(derive_seed(seed, "big2-solver", size, j), size), max_nodes)


def solver_rows(solver: Mapping[str, Any], seed: int = 0, workers: int = 1,
                log: Any = print) -> list[dict[str, Any]]:
    """The solver-effort table (see the module doc); one worker keeps the timings clean."""
    from ime.games.big2.search import SearchParams, decide

    decide(1, 1, 1, 1, None, SearchParams())  # a 3 against a 3: load the compiled search first
    sizes = [int(x) for x in solver.get("sizes", [2, 4, 6, 8, 10])]
    per = int(solver.get("positions", 50))
    max_nodes = int(solver.get("max_nodes", 50_000_000))
    rows = []
    for size in sizes:
        out = [_solve_task((size, j, seed, max_nodes)) for j in range(per)]
        ok = [o for o in out if o[0]]
        nodes = np.array([o[1] for o in ok], dtype=np.float64)
        secs = np.array([o[2] for o in ok], dtype=np.float64)
        has = len(ok) > 0
        rows.append({"cards": f"{size}+{size}", "positions": per, "solved": len(ok),
                     "nodes_median": int(np.median(nodes)) if has else "",
                     "nodes_mean": int(nodes.mean()) if has else "",
                     "nodes_p90": int(np.percentile(nodes, 90)) if has else "",
                     "nodes_max": int(nodes.max()) if has else "",
                     "seconds_mean": round(float(secs.mean()), 4) if has else "",
                     "seconds_max": round(float(secs.max()), 4) if has else "",
                     "nodes_per_s": int(nodes.sum() / max(secs.sum(), 1e-9)) if has else ""})
        log(f"{size}+{size}: {len(ok)}/{per} solved, median {rows[-1]['nodes_median']} nodes")
    return rows


def write_rows(rows: Sequence[Mapping[str, Any]], columns: Sequence[str],
               out_path: str | Path) -> None:
    out = Path(out_path)
    out.parent.mkdir(parents=True, exist_ok=True)
    tmp = out.with_name(out.name + ".tmp")
    with tmp.open("w", newline="", encoding="utf-8") as fh:
        w = csv.DictWriter(fh, fieldnames=list(columns), lineterminator="\n")
        w.writeheader()
        w.writerows(rows)
    tmp.replace(out)


def _workers(plain_cfg: Mapping[str, Any]) -> int:
    """The study's processes: the job's threads, which the workflow hands over as
    ``evaluate.workers`` (a runtime setting, :mod:`ime.core.workers`: no ``study.workers`` key,
    which would name a results directory)."""
    from ime.core.workers import job_workers

    return job_workers((plain_cfg.get("evaluate") or {}).get("workers", 1))


def strength_hook(plain_cfg: Mapping[str, Any], out_path: str) -> None:
    """``results/big2/agent_strength.csv`` from the composed config."""
    from ime.bots.registry import load_bot_specs

    game = plain_cfg["game"]
    study = study_settings(game)
    rows = strength_rows(study, load_bot_specs("big2"), game.get("params"),
                         seed=int(plain_cfg.get("seed", 0)), workers=_workers(plain_cfg))
    write_rows(rows, STRENGTH_COLUMNS, out_path)


def solver_hook(plain_cfg: Mapping[str, Any], out_path: str) -> None:
    """``results/big2/solver_effort.csv`` from the composed config."""
    study = study_settings(plain_cfg["game"])
    rows = solver_rows(study.get("solver") or {}, seed=int(plain_cfg.get("seed", 0)))
    write_rows(rows, SOLVER_COLUMNS, out_path)


def main(argv: list[str] | None = None) -> None:
    import yaml

    from ime.bots.registry import load_bot_specs
    from ime.paths import config_dir

    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("table", choices=["strength", "solver"])
    ap.add_argument("--out", help="CSV to write (default results/big2/<table file>)")
    ap.add_argument("--config", default=str(config_dir() / "game" / "big2.yaml"))
    ap.add_argument("--games", type=int, help="strength: deals per baseline (x 2 seats)")
    ap.add_argument("--positions", type=int, help="solver: deals per size")
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--seed", type=int, default=0)
    a = ap.parse_args(argv)
    cfg = yaml.safe_load(Path(a.config).read_text(encoding="utf-8"))
    study = study_settings(cfg)
    t = time.perf_counter()
    if a.table == "strength":
        if a.games:
            study["games_per_seat"] = a.games
        rows = strength_rows(study, load_bot_specs("big2"), cfg.get("params"), seed=a.seed,
                             workers=a.workers)
        out = a.out or "results/big2/agent_strength.csv"
        write_rows(rows, STRENGTH_COLUMNS, out)
    else:
        solver = dict(study.get("solver") or {})
        if a.positions:
            solver["positions"] = a.positions
        rows = solver_rows(solver, seed=a.seed)
        out = a.out or "results/big2/solver_effort.csv"
        write_rows(rows, SOLVER_COLUMNS, out)
    for r in rows:
        print(r)
    print(f"wrote {out} in {time.perf_counter() - t:.1f} s")


if __name__ == "__main__":
    main()
