"""``ime solve <game> --board ... --to-move SIDE``: exact solve of one position.

stdout is exactly two lines, so that scripts (and the thesis's tables) can parse it::

    score <game-theoretic score for the side to move, in the game's unit>
    best <all optimal moves by name, e.g. "G3 C7" | "pass" for a forced pass | "-" if over>

``nodes <n> time <seconds> s`` (e.g. ``nodes 1234 time 0.120 s``) goes to stderr. Bad input exits
with code 2 and a message on stderr. A board may start with ``-`` (an empty first square):
``--board -OO...`` is read as the value.
"""

from __future__ import annotations

import argparse
import sys

from ime.cli.games import add_game_argument, game_tool

EXAMPLE_BOARD = "O--OOOOX-OOOOOOXOOXXOOOXOOXOOOXXOOOOOOXX---OOOOX----O--X--------"
"""FFO endgame #40 (20 empties, X to move; FFO's answer: +38 by A2): a real position that solves
in about two seconds, so ``ime solve --help`` shows a command a newcomer can paste."""

EPILOG = f"""\
example (FFO endgame #40, 20 empties, X to move; about 2 s once the solver is compiled, which
the first run after installing does, ~30 s):
  ime solve reversi --board {EXAMPLE_BOARD} --to-move X
prints
  score 38
  best A2
The board lists A1..H8 row by row (A1 B1 ... H1, then A2 ...). Connect Four and Big-2 read
their own notation: docs/games/connect4.md, docs/games/big2.md.
"""
"""``ime solve --help``'s runnable example with its exact output (tests run it)."""


def register(subparsers: argparse._SubParsersAction) -> argparse.ArgumentParser:
    """Add the ``solve`` sub-command; ``main`` then calls ``args.func(args)``."""
    p = subparsers.add_parser(
        "solve",
        help="exact solve of a position",
        description="Exact solver: the score under perfect play and every optimal move\n"
        "(Reversi: final disc difference; Botzone counts discs only, empties go to nobody).",
        epilog=EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    add_game_argument(p, "game to solve")
    p.add_argument("--board", required=True,
                   help="the position, as the game's solver reads it (Reversi: 64 chars A1..H8 "
                        "row by row, X black, O white, - empty)")
    p.add_argument("--to-move", required=True, dest="to_move", help="side to move (Reversi: X/O)")
    p.set_defaults(func=run)
    return p


def run(args: argparse.Namespace) -> int:
    """Solve and print; returns the process exit code (2 on bad input)."""
    try:
        solve = game_tool(args.game, "solve")
        r = solve(args.board, args.to_move)
    except ValueError as e:
        print(f"ime solve: error: {e}", file=sys.stderr)
        return 2
    print(f"score {r.score}")
    print(f"best {' '.join(r.best) if r.best else '-'}")
    sys.stdout.flush()
    print(f"nodes {r.nodes} time {r.seconds:.3f} s", file=sys.stderr)
    return 0
