"""``ime zoo agreement|roundrobin [--game G]``: how distinct and how strong a game's bots are."""

from __future__ import annotations

import argparse
from collections.abc import Sequence

DEFAULT_GAME = "reversi"
"""The config's default game (config/config.yaml)."""


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("zoo", help="bot-zoo checks: pairwise agreement and a round-robin")
    zsub = p.add_subparsers(dest="zoo_command", metavar="CHECK")
    zsub.required = True
    a = zsub.add_parser("agreement", help="pairwise move agreement on seeded mid-game positions")
    a.add_argument("--game", default=DEFAULT_GAME, help="game (default %(default)s)")
    a.add_argument("--bots", nargs="+", help="bot ids (default: the game's targets)")
    a.add_argument("--positions", type=int, default=1000)
    a.add_argument("--seed", type=int, default=0)
    a.set_defaults(func=run_agreement)
    r = zsub.add_parser("roundrobin", help="double round-robin from varied openings")
    r.add_argument("--game", default=DEFAULT_GAME, help="game (default %(default)s)")
    r.add_argument("--bots", nargs="+", help="bot ids (default: the game's targets)")
    r.add_argument("--rounds", type=int, default=10,
                   help="double round-robins (each pair plays 2 matches per round)")
    r.add_argument("--seed", type=int, default=0)
    r.set_defaults(func=run_roundrobin)


def run_agreement(args: argparse.Namespace) -> int:
    res = _check(args, "agreement")(_bots(args), args.positions, args.seed)
    print(f"pairwise move agreement on {res['n_positions']} seeded mid-game positions "
          f"(seed {res['seed']})")
    print(_table(res["bots"], res["matrix"], "{:.1%}"))
    worst = max(res["matrix"][i][j] for i in range(len(res["bots"]))
                for j in range(len(res["bots"])) if i != j)
    print(f"highest off-diagonal agreement: {worst:.1%}")
    return 0


def run_roundrobin(args: argparse.Namespace) -> int:
    res = _check(args, "roundrobin")(_bots(args), args.rounds, args.seed)
    print(f"{res['matches']} matches ({res['rounds']} double round-robins, seeded openings); "
          "win 3 / draw 1 / loss 0")
    order = sorted(res["bots"], key=lambda b: -res["points"][b])
    for b in order:
        print(f"  {b:10s} {res['points'][b]:5d} points  "
              f"{res['wins'][b]}-{res['draws'][b]}-{res['losses'][b]}")
    print("order:", " > ".join(order))
    return 0


def _table(names: Sequence[str], m: Sequence[Sequence[float]], fmt: str) -> str:
    """``m`` as a text matrix with ``names`` on both axes. Each column is as wide as its widest
    entry (name or value) and columns are two spaces apart, so that the widest values
    (``100.0%`` beside four-letter bot ids) never run together."""
    cells = [[fmt.format(v) for v in row] for row in m]
    first = max(len(n) for n in names)
    widths = [max(len(names[j]), *(len(row[j]) for row in cells)) for j in range(len(names))]
    sep = "  "
    lines = [sep.join([" " * first, *(f"{n:>{w}}" for n, w in zip(names, widths, strict=True))])]
    for a, row in zip(names, cells, strict=True):
        lines.append(sep.join([f"{a:<{first}}",
                               *(f"{c:>{w}}" for c, w in zip(row, widths, strict=True))]))
    return "\n".join(lines)


def _check(args: argparse.Namespace, name: str):
    from ime.core.registry import get_plugin

    fn = get_plugin(args.game).tools.zoo.get(name)
    if fn is None:
        raise ValueError(f"game {args.game!r} has no zoo check {name!r}")
    return fn


def _bots(args: argparse.Namespace) -> list[str]:
    from ime.core.registry import get_plugin

    return list(args.bots or get_plugin(args.game).tools.default_bots)
