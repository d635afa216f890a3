"""``ime play <game> --seats ID ID [ID ...] --games N --seed S --out FILE``: logs from the judge.

``--black``/``--white`` name seats 0 and 1 of a two-player game (Reversi's colours).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from ime.cli.games import add_game_argument


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("play", help="play bots against each other and write Botzone JSON lines")
    add_game_argument(p)
    p.add_argument("--seats", nargs="+", metavar="ID",
                   help="bot ids in seat order (see config/bots/<game>.yaml)")
    p.add_argument("--black", help="two-player games: bot id in seat 0 (same as --seats A B)")
    p.add_argument("--white", help="two-player games: bot id in seat 1")
    p.add_argument("--games", type=int, default=1, help="number of matches (default 1)")
    p.add_argument("--seed", type=int, default=0, help="run seed; match ids derive from it")
    p.add_argument("--out", required=True, help="output file (JSON lines, one match per line)")
    p.add_argument("--bots-file", action="append", default=[],
                   help="extra YAML of bot specs (id -> spec), e.g. an external program")
    p.add_argument("--workers", type=int, default=0, help="processes (0 = all cores)")
    p.add_argument("--no-progress", action="store_true", help="hide the progress bar")
    p.set_defaults(func=run)


def load_specs(game: str, extra_files: list[str]) -> dict:
    """Zoo specs from config/bots/<game>.yaml, updated by each ``--bots-file``."""
    from omegaconf import OmegaConf

    from ime.bots.registry import load_bot_specs

    specs = dict(load_bot_specs(game))
    for f in extra_files:
        if not Path(f).exists():
            raise FileNotFoundError(f"--bots-file {f}: no such file")
        extra = OmegaConf.to_container(OmegaConf.load(f), resolve=True)
        if not isinstance(extra, dict):
            raise ValueError(f"--bots-file {f}: expected a mapping of bot id -> spec")
        specs.update(extra)
    return specs


def resolve_bot_id(bot: str, specs: dict) -> str:
    """A zoo id, or the short name of an opponent (``greedy`` -> ``opp_greedy``)."""
    if bot in specs:
        return bot
    if f"opp_{bot}" in specs:
        return f"opp_{bot}"
    raise KeyError(f"unknown bot {bot!r}; known: {', '.join(sorted(specs))}")


def run(args: argparse.Namespace) -> int:
    from ime.matches.runner import MatchSpec, play_schedule

    if args.games < 1:
        raise ValueError("--games must be >= 1")
    from ime.core.registry import get_game

    specs = load_specs(args.game, args.bots_file)
    seats = seat_ids(args, get_game(args.game).num_players)
    seats = [resolve_bot_id(b, specs) for b in seats]
    names = "-".join(seats)
    schedule = [MatchSpec(i, f"{args.game}-{names}-s{args.seed}-{i:06d}", tuple(seats))
                for i in range(args.games)]
    n = play_schedule(args.game, schedule, specs, args.out, seed=args.seed,
                      workers=args.workers, progress=not args.no_progress,
                      desc=" vs ".join(seats))
    print(f"wrote {n} matches to {args.out}", file=sys.stderr)
    return 0


def seat_ids(args: argparse.Namespace, num_players: int) -> list[str]:
    """The bot of every seat, from ``--seats`` or ``--black``/``--white``."""
    if args.seats and (args.black or args.white):
        raise ValueError("give either --seats or --black/--white, not both")
    seats = list(args.seats or [b for b in (args.black, args.white) if b])
    if len(seats) != num_players:
        raise ValueError(f"{args.game} has {num_players} seats; got {len(seats)} bot(s): {seats} "
                         "(--seats A B ..., or --black A --white B for two players)")
    return seats
