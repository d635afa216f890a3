"""``ime solve reversi --board ... --to-move X|O``: exact endgame solve of one position.

stdout is exactly two lines, so that scripts (and the thesis's tables) can parse it::

    score <final disc difference for the side to move, empties counted for nobody>
    best <all optimal squares, e.g. "G3 C7" | "pass" for a forced pass | "-" if the game is over>

``nodes <n> time <s>`` goes to stderr. Bad input exits with code 2 and a message on stderr.
"""

from __future__ import annotations

import argparse
import sys

BOARD_HELP = "64 chars, A1..H8 row by row (A1 B1 ... H1 A2 ...): X black, O white, - empty"


def register(subparsers: argparse._SubParsersAction) -> argparse.ArgumentParser:
    """Add the ``solve`` sub-command; ``main`` then calls ``args.func(args)``."""
    p = subparsers.add_parser(
        "solve",
        help="exact endgame solve of a position (Reversi)",
        description="Exact endgame solver: final disc difference under perfect play and every "
        "optimal move. Botzone counts discs only: empties at the end go to nobody.",
    )
    p.add_argument("game", choices=["reversi"], help="game to solve")
    p.add_argument("--board", required=True, help=BOARD_HELP)
    p.add_argument("--to-move", required=True, dest="to_move", help="side to move: X or O")
    p.set_defaults(func=run)
    return p


def _parse(board: str, to_move: str) -> tuple[int, int]:
    """(P, O) for the side to move; raises ValueError with a message fit for the user."""
    board = board.strip()
    if len(board) != 64:
        raise ValueError(f"--board must have 64 characters (A1..H8 row by row), got {len(board)}")
    bad = sorted(set(board) - set("XO-"))
    if bad:
        raise ValueError(f"--board may only contain X, O, -; found {''.join(bad)!r}")
    side = to_move.strip().upper()
    if side not in ("X", "O"):
        raise ValueError(f"--to-move must be X or O, got {to_move!r}")
    black = sum(1 << i for i, c in enumerate(board) if c == "X")
    white = sum(1 << i for i, c in enumerate(board) if c == "O")
    return (black, white) if side == "X" else (white, black)


def run(args: argparse.Namespace) -> int:
    """Solve and print; returns the process exit code (2 on bad input)."""
    try:
        P, O = _parse(args.board, args.to_move)
    except ValueError as e:
        print(f"ime solve: error: {e}", file=sys.stderr)
        return 2
    # imported late so that `ime --help` does not pay for numba
    from ime.games.reversi.bitboard import PASS
    from ime.games.reversi.game import square_name
    from ime.games.reversi.solver import solve

    r = solve(P, O)
    if not r.best_moves:
        best = "-"
    elif r.best_moves == [PASS]:
        best = "pass"
    else:
        best = " ".join(square_name(sq) for sq in r.best_moves)
    print(f"score {r.score}")
    print(f"best {best}")
    sys.stdout.flush()
    print(f"nodes {r.nodes} time {r.seconds:.3f}", file=sys.stderr)
    return 0


def main(argv: list[str] | None = None) -> int:
    """Stand-alone entry (``python -m ime.cli.solve solve reversi --board ...``) for use before the
    lead's ``ime`` wiring lands."""
    parser = argparse.ArgumentParser(prog="ime")
    register(parser.add_subparsers(dest="command", required=True))
    args = parser.parse_args(argv)
    return int(args.func(args))


if __name__ == "__main__":
    sys.exit(main())
