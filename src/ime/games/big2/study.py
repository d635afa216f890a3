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
    from ime.core.pools import fork_or_spawn, process_pool

    agent = _spec(str(study.get("agent", "b2_negamax")), specs)
    per = int(study.get("games_per_seat", 100))
    params = json.dumps(dict(game_params or {}), sort_keys=True)
    rows = []
    for b in study.get("baselines", ["b2_random", "b2_smallest"]):
        base = _spec(str(b), specs)
        tasks = [(agent, base, seat, i, seed, params) for seat in (0, 1) for i in range(per)]
        t = time.perf_counter()
        if workers > 1:
            with process_pool(fork_or_spawn(), workers) as pool:
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


# --- the search's speed: nodes per CPU second ------------------------------------------------
RATE_COLUMNS = ["cards", "positions", "budget", "nodes", "cpu_seconds", "nodes_per_s",
                "nodes_per_s_min", "nodes_per_s_max"]


def rate_rows(rate: Mapping[str, Any], seed: int = 0, log: Any = print) -> list[dict[str, Any]]:
    """Nodes per CPU second of the seed's (10, 8) search: seat 0's first decision of
    ``positions`` seeded ``n + n`` deals per size in ``sizes``, each with one budget of
    ``budget`` nodes (exact solve, first and deeper iterations alike, as the time-equivalent
    mode spends it). CPU time of this process (``time.process_time``), so other jobs on the
    machine slow it less than wall time would; still a property of the machine, not of the
    config: the one number here that is measured, then written into ``config/bots/big2.yaml``."""
    from ime.games.big2.cards import counts_of, deal
    from ime.games.big2.movegen import pack
    from ime.games.big2.search import SearchParams, decide

    budget = int(rate.get("budget", 2_000_000))
    per = int(rate.get("positions", 10))
    params = SearchParams(exact_threshold=10, exact_nodes=budget, start_depth=8,
                          first_nodes=budget, nodes=budget)
    decide(1, 1, 1, 1, None, params)  # load the compiled search first
    rows = []
    for size in [int(x) for x in rate.get("sizes", [26])]:
        nodes, secs = [], []
        for j in range(per):
            a, b = (counts_of(h) for h in deal(derive_seed(seed, "big2-rate", size, j), size))
            t = time.process_time()
            r = decide(pack(a), pack(b), int(a.sum()), int(b.sum()), None, params)
            secs.append(time.process_time() - t)
            nodes.append(r.nodes)
        each = [n / max(s, 1e-9) for n, s in zip(nodes, secs, strict=True)]
        rows.append({"cards": f"{size}+{size}", "positions": per, "budget": budget,
                     "nodes": int(sum(nodes)), "cpu_seconds": round(sum(secs), 3),
                     "nodes_per_s": int(sum(nodes) / max(sum(secs), 1e-9)),
                     "nodes_per_s_min": int(min(each)), "nodes_per_s_max": int(max(each))})
        log(f"{size}+{size}: {rows[-1]['nodes_per_s']:,} nodes/s "
            f"({rows[-1]['nodes']:,} nodes in {rows[-1]['cpu_seconds']} CPU-s)")
    return rows


# --- the seed's Fig. 3: Shen Suan Zi (10, 8) against the heuristic agent, 2..26 cards --------
HEURISTIC_COLUMNS = ["agent", "opponent", "cards", "deals", "games", "wins", "win_rate",
                     "win_rate_lo", "win_rate_hi", "win_rate_seat0", "win_rate_seat1",
                     "net_score", "net_score_lo", "net_score_hi", "mean_score", "mean_score_lo",
                     "mean_score_hi", "searches", "deepening", "mean_depth", "depth_gt_start",
                     "mean_nodes"]


class _Recorder:
    """Plays as ``inner`` and keeps the :class:`SearchResult` of each of its searches (a
    decision with one legal action searches nothing)."""

    def __init__(self, inner: Any):
        self.inner, self.bot_id, self.results = inner, inner.bot_id, []

    def act(self, state, ctx):
        self.inner.last_result = None
        a = self.inner.act(state, ctx)
        if self.inner.last_result is not None:
            self.results.append(self.inner.last_result)
        return a


def _heuristic_game(task: tuple) -> tuple[float, list[tuple[int, int]], float]:
    """One game: the agent's score (cards), ``(depth, nodes)`` of each of its searches, and
    the CPU seconds of the game."""
    from ime.games.big2 import Big2Game
    from ime.matches.judge import run_match

    agent, opponent, size, seat, index, seed = task
    t = time.process_time()
    game = Big2Game(size)
    initdata = game.new_initial_state(
        seed=derive_seed(seed, "big2-heuristic-deal", size, index)).initdata()
    rec = _Recorder(_bot(agent))
    seats = [rec, _bot(opponent)] if seat == 0 else [_bot(opponent), rec]
    mid = f"big2-heuristic-s{seed}-{agent[0]}-{opponent[0]}-n{size}-seat{seat}-{index:05d}"
    res = run_match(game, seats, match_id=mid, seed=seed, initdata=initdata,
                    player_ids=[s.bot_id for s in seats])
    if res.fault is not None:
        raise RuntimeError(f"{mid}: fault {res.fault}")
    return (float(res.scores[seat]), [(r.depth, r.nodes) for r in rec.results],
            time.process_time() - t)


def _deals_for(deals: Any, size: int) -> int:
    """``deals``: one count for every size, or a mapping size -> count (missing: 0)."""
    if isinstance(deals, Mapping):
        return int(deals.get(size, deals.get(str(size), 0)))
    return int(deals)


def heuristic_rows(heur: Mapping[str, Any], specs: Mapping[str, Mapping[str, Any]],
                   seed: int = 0, workers: int = 1, log: Any = print) -> list[dict[str, Any]]:
    """The seed's Fig. 3 as a table: for each run of ``heur.runs`` (an agent id and its deals
    per size) and each size ``n`` of ``heur.sizes``, that many seeded ``n + n`` deals, each
    played twice (the agent in seat 0, where it leads, and in seat 1) against ``heur.opponent``.
    Deal ``i`` of size ``n`` is the same for every run (paired). ``heur.agent_params`` are
    merged into each agent's params (``oracle: true``: the seed's agent knows both hands)."""
    from ime.core.pools import fork_or_spawn, process_pool
    from ime.games.big2.search import SOLVE_DEPTH

    opponent = _spec(str(heur.get("opponent", "b2_heuristic")), specs)
    extra = dict(heur.get("agent_params") or {})
    sizes = [int(x) for x in heur.get("sizes", list(range(2, 27, 2)))]
    rows = []
    for run in heur.get("runs") or []:
        base = dict(specs[str(run["agent"])]) if str(run["agent"]) in specs else None
        if base is None:
            raise ValueError(f"game.extra.study.heuristic: unknown bot {run['agent']!r}")
        merged = {str(run["agent"]): {**base, "params": {**(base.get("params") or {}),
                                                          **extra}}}
        agent = _spec(str(run["agent"]), merged)
        for size in sizes:
            per = _deals_for(run.get("deals", 100), size)
            if per <= 0:
                continue
            tasks = [(agent, opponent, size, seat, i, seed) for seat in (0, 1)
                     for i in range(per)]
            t = time.perf_counter()
            if workers > 1:
                with process_pool(fork_or_spawn(), workers) as pool:
                    out = pool.map(_heuristic_game, tasks, chunksize=2)
            else:
                out = [_heuristic_game(x) for x in tasks]
            s = np.array([o[0] for o in out], dtype=np.float64)
            searches = [r for o in out for r in o[1]]
            deep = [d for d, _ in searches if d != SOLVE_DEPTH]
            start = int(json.loads(agent[2]).get("start_depth", 8))
            row = _strength_row(agent[0], opponent[0], list(s), per)
            row.pop("baseline")
            row.pop("losses")
            # a deal's two games are paired: the score's interval is over the deals' means
            pair = (s[:per] + s[per:]) / 2
            half = Z95 * float(pair.std(ddof=1)) / math.sqrt(per) if per > 1 else float("nan")
            row.update({
                "opponent": opponent[0], "cards": size, "deals": per,
                "net_score": round(float(s.sum()), 1),
                "net_score_lo": round((float(pair.mean()) - half) * len(s), 1),
                "net_score_hi": round((float(pair.mean()) + half) * len(s), 1),
                "mean_score_lo": round(float(pair.mean()) - half, 3),
                "mean_score_hi": round(float(pair.mean()) + half, 3),
                "searches": len(searches), "deepening": len(deep),
                "mean_depth": round(float(np.mean(deep)), 2) if deep else "",
                "depth_gt_start": round(float(np.mean([d > start for d in deep])), 3)
                if deep else "",
                "mean_nodes": int(np.mean([n for _, n in searches])) if searches else 0})
            rows.append({c: row[c] for c in HEURISTIC_COLUMNS})
            log(f"{agent[0]} vs {opponent[0]} at {size}+{size}: win rate {row['win_rate']:.3f},"
                f" {row['mean_score']:+.2f} cards/game ({time.perf_counter() - t:.1f} s wall, "
                f"{np.mean([o[2] for o in out]):.3f} CPU-s a game)")
    return rows


def heuristic_figure(rows: Sequence[Mapping[str, Any]], out_path: str | Path) -> None:
    """The seed's Fig. 3 from :func:`heuristic_rows`: the net score (the sum over a size's
    games, 95% interval) and the win rate against the initial cards per hand, one line per
    agent."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, axes = plt.subplots(1, 2, figsize=(10, 4))
    for k, agent in enumerate(dict.fromkeys(str(r["agent"]) for r in rows)):
        rs = [r for r in rows if r["agent"] == agent]
        x = np.array([int(r["cards"]) for r in rs]) + 0.2 * k
        for ax, col, lo, hi in ((axes[0], "mean_score", "mean_score_lo", "mean_score_hi"),
                                (axes[1], "win_rate", "win_rate_lo", "win_rate_hi")):
            y = np.array([float(r[col]) for r in rs])
            err = np.array([[y[i] - float(r[lo]), float(r[hi]) - y[i]]
                            for i, r in enumerate(rs)]).T
            ax.errorbar(x, y, yerr=err, marker="o", capsize=3, label=agent)
    axes[0].set_ylabel("agent's mean score, cards per game (95% CI)")
    axes[1].set_ylabel("agent's win rate (95% Wilson CI)")
    axes[1].axhline(0.5, color="grey", lw=0.8)
    axes[0].axhline(0.0, color="grey", lw=0.8)
    for ax in axes:
        ax.set_xlabel("initial cards per hand")
        ax.set_xticks(range(2, 27, 2))
        ax.legend(fontsize=8)
    fig.suptitle("Shen Suan Zi (10, 8) against the seed's heuristic agent (seed 004, Fig. 3)")
    fig.tight_layout()
    out = Path(out_path)
    out.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(out, dpi=100, metadata={"Software": None})
    plt.close(fig)


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
    ap.add_argument("table", choices=["strength", "solver", "rate", "heuristic"])
    ap.add_argument("--out", help="CSV to write (default results/big2/<table file>)")
    ap.add_argument("--config", default=str(config_dir() / "game" / "big2.yaml"))
    ap.add_argument("--games", type=int, help="strength: deals per baseline (x 2 seats)")
    ap.add_argument("--positions", type=int, help="solver: deals per size")
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--figure", help="heuristic: the PNG (default: the CSV's name, .png)")
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
    elif a.table == "rate":
        rows = rate_rows(dict(study.get("rate") or {}), seed=a.seed)
        out = a.out or "docs/games/big2/search_rate.csv"
        write_rows(rows, RATE_COLUMNS, out)
    elif a.table == "heuristic":
        rows = heuristic_rows(dict(study.get("heuristic") or {}), load_bot_specs("big2"),
                              seed=a.seed, workers=a.workers)
        out = a.out or "docs/games/big2/heuristic_comparison.csv"
        write_rows(rows, HEURISTIC_COLUMNS, out)
        fig = a.figure or str(Path(out).with_suffix(".png"))
        heuristic_figure(rows, fig)
        print(f"wrote {fig}")
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
