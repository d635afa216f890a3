"""``ime perft reversi --depth N``: leaf count under the classic convention (see BOTZONE.md)."""

from __future__ import annotations

import argparse
import time


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("perft", help="count leaves of the game tree (engine check)")
    p.add_argument("game", choices=["reversi"])
    p.add_argument("--depth", type=int, required=True, help="plies (a forced pass is one ply)")
    p.add_argument("--python", action="store_true", help="use the pure-Python reference kernel")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    import sys

    import numpy as np

    from ime.games.reversi.bitboard import BLACK_START, WHITE_START, perft, perft_python

    if args.depth < 1:
        raise ValueError("--depth must be >= 1")
    t0 = time.perf_counter()
    if args.python:
        n = perft_python(int(BLACK_START), int(WHITE_START), args.depth)
    else:
        n = int(perft(np.uint64(BLACK_START), np.uint64(WHITE_START), args.depth))
    dt = time.perf_counter() - t0
    print(n)
    print(f"{dt:.3f} s, {n / max(dt, 1e-9) / 1e6:.1f} M leaves/s", file=sys.stderr)
    return 0
