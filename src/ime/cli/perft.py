"""``ime perft <game> --depth N``: leaf count of the game tree (engine check; BOTZONE.md)."""

from __future__ import annotations

import argparse
import sys
import time

from ime.cli.games import add_game_argument, game_tool


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("perft", help="count leaves of the game tree (engine check)")
    add_game_argument(p)
    p.add_argument("--depth", type=int, required=True, help="plies (a forced pass is one ply)")
    p.add_argument("--python", action="store_true", help="use the pure-Python reference kernel")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    if args.depth < 1:
        raise ValueError("--depth must be >= 1")
    perft = game_tool(args.game, "perft")
    t0 = time.perf_counter()
    n = perft(args.depth, args.python)
    dt = time.perf_counter() - t0
    print(n)
    print(f"{dt:.3f} s, {n / max(dt, 1e-9) / 1e6:.1f} M leaves/s", file=sys.stderr)
    return 0
