"""``ime bench reversi``: this machine's engine, solver, bot and judge throughput.

Every figure is measured in this run (nothing is remembered): numba perft against the pure-Python
reference kernel on the same tree, the exact solver's nodes/s on seeded 20-empty positions, each
zoo bot's decisions/s at its configured budget on seeded mid-game positions, and the judge's
matches/s for a cheap pairing and for a target pairing.
"""

from __future__ import annotations

import argparse
import json
import time


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("bench", help="measure engine / solver / bot / judge speed on this machine")
    p.add_argument("game", choices=["reversi"])
    p.add_argument("--quick", action="store_true", help="smaller samples (a rough figure)")
    p.add_argument("--only", choices=list(SECTIONS),
                   action="append", help="run only these sections (repeatable)")
    p.add_argument("--json", help="also write the figures to this JSON file")
    p.add_argument("--device", default="cpu",
                   help="train section: cpu | cuda | auto (default cpu)")
    p.add_argument("--threads", type=int, default=1,
                   help="train section: torch threads (default 1, as one train job uses)")
    p.set_defaults(func=run)


def _perft(args: argparse.Namespace) -> dict:
    import numpy as np

    from ime.games.reversi.bitboard import BLACK_START, WHITE_START, perft, perft_python

    P, O = np.uint64(BLACK_START), np.uint64(WHITE_START)
    perft(P, O, 3)  # compile / load the cache outside the timing
    depth = 9 if args.quick else 11
    t = time.perf_counter()
    n = int(perft(P, O, depth))
    dt = time.perf_counter() - t
    py_depth = 6 if args.quick else 7
    t = time.perf_counter()
    n_py = perft_python(int(BLACK_START), int(WHITE_START), py_depth)
    dt_py = time.perf_counter() - t
    fast, slow = n / dt, n_py / dt_py
    return {"depth": depth, "leaves": n, "seconds": dt, "leaves_per_s": fast,
            "python_depth": py_depth, "python_leaves_per_s": slow, "speedup": fast / slow}


def _solver(args: argparse.Namespace) -> dict:
    from ime.games.reversi.solver import bench_solver

    return bench_solver(n_positions=3 if args.quick else 5, empties=18 if args.quick else 20,
                        seed=0)


def _bots(args: argparse.Namespace) -> dict:
    from ime.core.bot import DecisionContext
    from ime.bots.registry import load_bot_specs, make_bot
    from ime.games.reversi.bots.analysis import random_midgame_positions

    positions = random_midgame_positions(8 if args.quick else 40, seed=1)
    out = {}
    for bot_id in load_bot_specs("reversi"):
        bot = make_bot("reversi", bot_id)
        st = positions[0]
        bot.act(st.clone(), DecisionContext(0, "warm", st.ply, st.to_move))
        t = time.perf_counter()
        for i, st in enumerate(positions):
            bot.act(st.clone(), DecisionContext(0, f"bench{i}", st.ply, st.to_move))
        dt = time.perf_counter() - t
        out[bot_id] = {"decisions": len(positions), "seconds": dt,
                       "decisions_per_s": len(positions) / dt, "ms_per_decision": 1e3 * dt /
                       len(positions)}
    return out


def _judge(args: argparse.Namespace) -> dict:
    from ime.bots.registry import load_bot_specs, make_bot
    from ime.games.reversi import GAME
    from ime.matches.judge import run_match

    specs = load_bot_specs("reversi")
    opps = [b for b in specs if not b.startswith("rev")]
    out = {}
    pairings = {"cheap": (opps[0], opps[-1]), "target": ("rev1", opps[0])}
    for name, (a, b) in pairings.items():
        bots = [make_bot("reversi", a), make_bot("reversi", b)]
        run_match(GAME, bots, match_id="warm", seed=0)
        n = (10 if args.quick else 40) if name == "cheap" else (2 if args.quick else 6)
        t = time.perf_counter()
        for i in range(n):
            run_match(GAME, bots, match_id=f"bench{i}", seed=0)
        dt = time.perf_counter() - t
        out[name] = {"pairing": f"{a} vs {b}", "matches": n, "seconds": dt,
                     "matches_per_s": n / dt}
    return out


def _external(args: argparse.Namespace) -> dict:
    from ime.bots.external import bench_external

    return bench_external()


def _train(args: argparse.Namespace) -> dict:
    from ime.train.bench import bench_training

    return bench_training(rows=4000 if args.quick else 20000, epochs=1 if args.quick else 2,
                          device=args.device, threads=args.threads)


SECTIONS = {"perft": _perft, "solver": _solver, "bots": _bots, "judge": _judge,
            "external": _external, "train": _train}


def run(args: argparse.Namespace) -> int:
    import os
    import platform

    results: dict = {"machine": {"cpus": os.cpu_count(), "python": platform.python_version(),
                                 "processor": platform.processor() or platform.machine()}}
    for name in args.only or list(SECTIONS):
        try:
            results[name] = SECTIONS[name](args)
        except ImportError as e:
            results[name] = {"unavailable": str(e)}
        _print_section(name, results[name])
    if args.json:
        with open(args.json, "w") as f:
            json.dump(results, f, indent=2)
    return 0


def _print_section(name: str, r: dict) -> None:
    print(f"== {name}")
    if "unavailable" in r:
        print(f"  unavailable: {r['unavailable']}")
        return
    if name == "perft":
        print(f"  perft({r['depth']}) = {r['leaves']} in {r['seconds']:.3f} s: "
              f"{r['leaves_per_s'] / 1e6:.1f} M leaves/s")
        print(f"  pure-Python perft({r['python_depth']}): "
              f"{r['python_leaves_per_s'] / 1e6:.3f} M leaves/s -> speedup {r['speedup']:.0f}x")
    elif name == "bots":
        for bot, b in r.items():
            print(f"  {bot:16s} {b['decisions_per_s']:9.1f} decisions/s "
                  f"({b['ms_per_decision']:.2f} ms/decision)")
    elif name == "train":
        print(f"  device {r['device']}{' (' + r['gpu'] + ')' if 'gpu' in r else ''}, "
              f"{r['threads']} thread(s), batch {r['batch_size']}, {r['rows']} rows")
        for net, b in r["nets"].items():
            print(f"  {net:8s} {b['params']:7d} params {b['samples_per_s']:10.0f} samples/s")
    elif name == "judge":
        for k, b in r.items():
            print(f"  {k:8s} {b['pairing']:28s} {b['matches_per_s']:8.2f} matches/s")
    else:
        for k, v in r.items():
            print(f"  {k}: {v:.4g}" if isinstance(v, float) else f"  {k}: {v}")
