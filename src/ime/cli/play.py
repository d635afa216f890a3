"""``ime play reversi --black ID --white ID --games N --seed S --out FILE``: logs from the judge."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("play", help="play bots against each other and write Botzone JSON lines")
    p.add_argument("game", choices=["reversi"])
    p.add_argument("--black", required=True, help="bot id in seat 0 (see config/bots/<game>.yaml)")
    p.add_argument("--white", required=True, help="bot id in seat 1")
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
    specs = load_specs(args.game, args.bots_file)
    args.black, args.white = (resolve_bot_id(b, specs) for b in (args.black, args.white))
    schedule = [
        MatchSpec(i, f"{args.game}-{args.black}-{args.white}-s{args.seed}-{i:06d}",
                  (args.black, args.white))
        for i in range(args.games)
    ]
    n = play_schedule(args.game, schedule, specs, args.out, seed=args.seed,
                      workers=args.workers, progress=not args.no_progress,
                      desc=f"{args.black} vs {args.white}")
    print(f"wrote {n} matches to {args.out}", file=sys.stderr)
    return 0
