"""Measure the Snake zoo: a seat-swapped round robin, the many-games legality check, and the
cost of a decision. ``docs/games/snake_zoo.md`` quotes its output.

    python -m ime.games.snake.bots.ladder robin --games 20 --workers 2 --out robin.csv
    python -m ime.games.snake.bots.ladder check --games 10000 --workers 2
    python -m ime.games.snake.bots.ladder cost --games 10 --against snk04 --workers 1

Matches are played directly on :class:`SnakeState` (no log is written): each turn both bots
answer with a :class:`DecisionContext` keyed by ``(seed, match_id, ply, player)``, exactly the
context the judge gives, and every answer is checked against the engine's valid directions
(legal means valid whenever the snake has a valid direction). Boards are the judge's draws for
seeds derived from the match id, so every game is reproducible.
"""

from __future__ import annotations

import argparse
import contextlib
import csv
import itertools
import sys
import time
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ime.core.bot import Bot, DecisionContext
from ime.core.pools import fork_or_spawn, process_pool
from ime.core.seeding import derive_seed
from ime.games.snake.game import GAME

ZOO = [f"snk{i:02d}" for i in range(1, 23)]


def build(bot_id: str, specs: Mapping[str, Mapping[str, Any]]) -> Bot:
    """Bot ``bot_id`` of ``specs`` from the zoo's kinds or the plug-in's basic ones."""
    from ime.games.snake.bots import BOT_KINDS
    from ime.games.snake.bots.zoo import ZOO_KINDS

    spec = specs[bot_id]
    factory = ZOO_KINDS.get(spec["kind"]) or BOT_KINDS[spec["kind"]]
    return factory("snake", bot_id, dict(spec.get("params") or {}))


def zoo_specs() -> dict[str, dict[str, Any]]:
    """``config/bots/snake.yaml``."""
    from ime.bots.registry import load_bot_specs

    return load_bot_specs("snake")


@dataclass
class Game:
    """One played game: the two bot ids by seat, scores, turns, CPU seconds spent and
    decisions made per seat, the joint moves, and the illegal answers ``(ply, seat, answer)``.
    CPU time (``time.process_time``), not wall time, so other jobs on the machine do not
    inflate a bot's cost."""

    players: tuple[str, str]
    scores: tuple[float, float]
    turns: int
    seconds: tuple[float, float]
    decisions: tuple[int, int]
    moves: list[tuple[int, int]] = field(default_factory=list)
    illegal: list[tuple[int, int, int]] = field(default_factory=list)


def play(bots: Sequence[Bot], match_id: str, seed: int = 0, board_seed: int | None = None,
         moves: Sequence[tuple[int, int]] = ()) -> Game:
    """Play one game (after the joint ``moves`` given, if any); an illegal answer is recorded
    and replaced by the lowest legal direction so the game goes on."""
    bseed = derive_seed("snake-board", match_id) if board_seed is None else board_seed
    st = GAME.new_initial_state(seed=bseed % (1 << 32))
    for d0, d1 in moves:
        st.apply_actions({0: d0, 1: d1})
    secs = [0.0, 0.0]
    n = [0, 0]
    illegal: list[tuple[int, int, int]] = []
    while not st.is_terminal():
        acts = {}
        for p in (0, 1):
            ctx = DecisionContext(seed=seed, match_id=match_id, ply=st.ply, player=p)
            t = time.process_time()
            a = int(bots[p].act(st, ctx))
            secs[p] += time.process_time() - t
            n[p] += 1
            allowed = st.valid_actions(p) or st.legal_actions(p)
            if a not in allowed:
                illegal.append((st.ply, p, a))
                a = allowed[0]
            acts[p] = a
        st.apply_actions(acts)
    r = st.returns()
    return Game((bots[0].bot_id, bots[1].bot_id), (r[0], r[1]), st.ply, (secs[0], secs[1]),
                (n[0], n[1]), [(int(a), int(b)) for a, b in st.history], illegal)


_BOTS: dict[str, Bot] = {}


def _worker_init(specs: Mapping[str, Mapping[str, Any]]) -> None:
    _BOTS.clear()
    for b in specs:
        _BOTS[b] = build(b, specs)


def _play_job(job: tuple[str, str, str, int]) -> Game:
    a, b, match_id, seed = job
    return play([_BOTS[a], _BOTS[b]], match_id, seed)


def run_jobs(jobs: list[tuple[str, str, str, int]], specs: Mapping[str, Mapping[str, Any]],
             workers: int, progress: bool = True) -> list[Game]:
    """Play ``jobs`` (bot in seat 0, bot in seat 1, match id, seed) on ``workers`` processes."""
    out: list[Game] = []
    t0 = time.perf_counter()
    with contextlib.ExitStack() as stack:
        if workers <= 1:
            _worker_init(specs)
            it: Iterator[Game] = map(_play_job, jobs)
        else:  # process_pool: Ctrl-C reaches this thread, and a finished pool closes unsignalled
            pool = stack.enter_context(
                process_pool(fork_or_spawn(), workers, _worker_init, (dict(specs),)))
            it = pool.imap(_play_job, jobs, chunksize=4)
        for k, g in enumerate(it, 1):
            out.append(g)
            if progress and k % 200 == 0:
                print(f"  {k}/{len(jobs)} games, {time.perf_counter() - t0:.0f} s",
                      file=sys.stderr, flush=True)
    return out


def robin_jobs(bots: Sequence[str], games: int, seed: int) -> list[tuple[str, str, str, int]]:
    """Every pair ``games`` times, seats alternating, one board per pair of seat-swapped games."""
    jobs = []
    for a, b in itertools.combinations(bots, 2):
        for k in range(games):
            pair = (a, b) if k % 2 == 0 else (b, a)
            jobs.append((*pair, f"robin-{a}-{b}-{k // 2}", seed))
    return jobs


def random_jobs(bots: Sequence[str], games: int, seed: int) -> list[tuple[str, str, str, int]]:
    """``games`` games between seeded random pairs of ``bots`` (a bot may meet itself)."""
    rng = np.random.default_rng(derive_seed(seed, "snake-zoo-check"))
    pairs = rng.integers(len(bots), size=(games, 2))
    return [(bots[i], bots[j], f"check-{k}", seed) for k, (i, j) in enumerate(pairs)]


def cost_jobs(bots: Sequence[str], games: int, seed: int, against: str
              ) -> list[tuple[str, str, str, int]]:
    """Every bot ``games`` times against ``against``, seats alternating (the cost survey)."""
    jobs = []
    for b in bots:
        for k in range(games):
            pair = (b, against) if k % 2 == 0 else (against, b)
            jobs.append((*pair, f"cost-{k // 2}", seed))
    return jobs


def summarise(games: Sequence[Game], bots: Sequence[str]) -> list[dict[str, Any]]:
    """Per bot: games, score share (points / 2 per game), wins/draws/losses, mean turns and
    ms per decision, sorted by score share."""
    rows = {b: {"bot": b, "games": 0, "points": 0.0, "wins": 0, "draws": 0, "losses": 0,
                "turns": 0, "seconds": 0.0, "decisions": 0} for b in bots}
    for g in games:
        for p in (0, 1):
            r = rows[g.players[p]]
            r["games"] += 1
            r["points"] += g.scores[p]
            r["wins" if g.scores[p] == 2 else "draws" if g.scores[p] == 1 else "losses"] += 1
            r["turns"] += g.turns
            r["seconds"] += g.seconds[p]
            r["decisions"] += g.decisions[p]
    out = []
    for r in rows.values():
        n = max(r["games"], 1)
        out.append({"bot": r["bot"], "games": r["games"], "share": r["points"] / (2 * n),
                    "wins": r["wins"], "draws": r["draws"], "losses": r["losses"],
                    "mean_turns": r["turns"] / n,
                    "ms_per_decision": 1e3 * r["seconds"] / max(r["decisions"], 1)})
    return sorted(out, key=lambda r: -r["share"])


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m ime.games.snake.bots.ladder")
    ap.add_argument("what", choices=("robin", "check", "cost"))
    ap.add_argument("--games", type=int, default=20,
                    help="robin: games per pair; check: games in all; cost: games per bot")
    ap.add_argument("--against", default="snk04", help="cost: the opponent of every bot")
    ap.add_argument("--bots", nargs="*", default=ZOO)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--out", help="CSV of the per-bot summary")
    args = ap.parse_args(argv)
    wanted = set(args.bots) | ({args.against} if args.what == "cost" else set())
    specs = {b: s for b, s in zoo_specs().items() if b in wanted}
    if args.what == "cost":
        jobs = cost_jobs(args.bots, args.games, args.seed, args.against)
    else:
        jobs = (robin_jobs if args.what == "robin" else random_jobs)(args.bots, args.games,
                                                                     args.seed)
    t = time.perf_counter()
    games = run_jobs(jobs, specs, args.workers)
    dt = time.perf_counter() - t
    rows = summarise(games, sorted(wanted) if args.what == "cost" else args.bots)
    illegal = [(g.players, i) for g in games for i in g.illegal]
    print(f"{len(games)} games in {dt:.0f} s, {sum(g.turns for g in games)} turns, "
          f"{len(illegal)} illegal answers")
    for p, i in illegal[:20]:
        print("  illegal:", p, i)
    print(f"{'bot':8} {'share':>6} {'W':>5} {'D':>5} {'L':>5} {'turns':>6} {'ms/dec':>7}")
    for r in rows:
        print(f"{r['bot']:8} {r['share']:6.3f} {r['wins']:5d} {r['draws']:5d} {r['losses']:5d} "
              f"{r['mean_turns']:6.1f} {r['ms_per_decision']:7.2f}")
    if args.out:
        with open(args.out, "w", newline="") as fh:
            w = csv.DictWriter(fh, fieldnames=list(rows[0]))
            w.writeheader()
            w.writerows(rows)
    return 1 if illegal else 0


if __name__ == "__main__":
    raise SystemExit(main())
