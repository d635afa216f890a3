"""``ime play <game> --seats ID ID [ID ...] --games N --seed S --out FILE``: logs from the judge.

``--black``/``--white`` name seats 0 and 1 of a two-player game (Reversi's colours).

External bots are checked before the first match (a missing program, script or working
directory is an error naming the path, exit 2). While playing, SIGTERM, SIGINT and SIGHUP kill
every bot program and its descendants, then exit with 128 + the signal number
(:func:`ime.bots.external.signals.exit_on_signals`). After playing, a fault summary (matches
ended by a fault, verdict counts per bot) goes to stderr; ``--strict`` exits 1 if there was any.
Then the win/draw/loss tally per bot and seat goes to stdout (:func:`tally`), so a quick
``ime play`` answers who won without reading the log.

Durable: each finished match is appended to ``--out`` as it completes (schedule order, one
flushed line). Run the same command again after an interruption (a signal, a crash, a full
disk) and it resumes: the matches already in ``--out`` are kept, a torn last line is dropped,
and the file ends byte-identical to an uninterrupted run. ``--out`` holding other matches (a
different seed, seats or ``--games``) is an error, never overwritten; ``--restart`` replays
from scratch.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from ime.cli.games import add_game_argument, positive_int


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("play", help="play bots against each other and write Botzone JSON lines")
    add_game_argument(p)
    p.add_argument("--seats", nargs="+", metavar="ID",
                   help="bot ids in seat order (see config/bots/<game>.yaml)")
    p.add_argument("--black", help="two-player games: bot id in seat 0 (same as --seats A B)")
    p.add_argument("--white", help="two-player games: bot id in seat 1")
    p.add_argument("--games", type=positive_int, default=1,
                   help="number of matches (default 1)")
    p.add_argument("--seed", type=int, default=0, help="run seed; match ids derive from it")
    p.add_argument("--out", required=True, help="output file (JSON lines, one match per line)")
    p.add_argument("--bots-file", action="append", default=[],
                   help="extra YAML of bot specs (id -> spec), e.g. an external program")
    p.add_argument("--workers", type=positive_int, default=None,
                   help="processes, >= 1 (default: every core)")
    p.add_argument("--no-progress", action="store_true", help="hide the progress bar")
    p.add_argument("--restart", action="store_true",
                   help="delete --out first and play every match again (default: resume an "
                        "interrupted run from the matches already in --out)")
    p.add_argument("--strict", action="store_true",
                   help="exit 1 if any match ended by a fault (TLE, RE, MLE, OLE, NJ, illegal "
                        "move...)")
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
    from ime.bots.external.signals import exit_on_signals
    from ime.core.registry import get_game
    from ime.matches.runner import ForeignOutputError, MatchSpec, play_schedule, resume_point

    specs = load_specs(args.game, args.bots_file)
    seats = seat_ids(args, get_game(args.game).num_players)
    seats = [resolve_bot_id(b, specs) for b in seats]
    check_external_bots(args.game, seats, specs)
    names = "-".join(seats)
    schedule = [MatchSpec(i, f"{args.game}-{names}-s{args.seed}-{i:06d}", tuple(seats))
                for i in range(args.games)]
    if args.restart:
        Path(args.out).unlink(missing_ok=True)
    try:
        done = resume_point(args.out, schedule, seed=args.seed)
    except ForeignOutputError as e:
        raise ForeignOutputError(f"{e}; choose another --out, or give --restart to replay "
                                 "every match into it") from None
    if done:
        print(f"resuming: {done} of {len(schedule)} matches already in {args.out}",
              file=sys.stderr)
    try:
        with exit_on_signals():
            n = play_schedule(args.game, schedule, specs, args.out, seed=args.seed,
                              workers=args.workers or 0, progress=not args.no_progress,
                              desc=" vs ".join(seats))
    except BaseException:
        try:
            kept = resume_point(args.out, schedule, seed=args.seed)
        except (OSError, ValueError):
            kept = 0
        if kept:
            print(f"ime play: stopped; {kept} of {len(schedule)} matches are in {args.out}: "
                  "run the same command again to play the rest", file=sys.stderr)
        raise
    print(f"wrote {n} matches to {args.out}", file=sys.stderr)
    faulted = print_fault_summary(args.out)
    print_tally(args.out)
    return 1 if args.strict and faulted else 0


def check_external_bots(game: str, seats: list[str], specs: dict) -> None:
    """Build each external seat's bot once (no program starts): a missing program, script or
    working directory fails here, naming the path, not as an RE in every match."""
    from ime.bots.registry import make_bot

    for bot_id in dict.fromkeys(seats):
        spec = specs.get(bot_id)
        if isinstance(spec, dict) and spec.get("kind") == "external":
            make_bot(game, bot_id, specs).close()


def fault_counts(path: str | Path) -> tuple[int, int, dict[str, dict[str, int]]]:
    """``(matches, faulted, {bot: {verdict: count}})`` of a log our judge wrote; a verdict ``OK``
    fault (an illegal move) is counted under the judge's reason. Unreadable lines count as
    faulted under ``?``."""
    from ime.matches.logs import BadMatch, iter_raw_matches

    matches = faulted = 0
    per_bot: dict[str, dict[str, int]] = {}
    for item in iter_raw_matches(path):
        matches += 1
        if isinstance(item, BadMatch):
            faulted += 1
            per_bot.setdefault("?", {})
            per_bot["?"]["unreadable"] = per_bot["?"].get("unreadable", 0) + 1
            continue
        fault = item.data.get("fault")
        if not isinstance(fault, dict):
            continue
        faulted += 1
        ids = item.bot_ids()
        player = fault.get("player")
        bot = ids[player] if isinstance(player, int) and 0 <= player < len(ids) else "?"
        verdict = str(fault.get("verdict", "?"))
        if verdict == "OK":
            verdict = str(fault.get("reason", "OK"))
        counts = per_bot.setdefault(bot, {})
        counts[verdict] = counts.get(verdict, 0) + 1
    return matches, faulted, per_bot


def print_fault_summary(path: str | Path) -> int:
    """Print the fault summary of ``path`` to stderr; the number of faulted matches."""
    matches, faulted, per_bot = fault_counts(path)
    if not faulted:
        print(f"faults: none in {matches} matches", file=sys.stderr)
        return 0
    print(f"faults: {faulted} of {matches} matches ended by a fault", file=sys.stderr)
    for bot, counts in sorted(per_bot.items()):
        items = sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))
        print(f"  {bot}: " + ", ".join(f"{v} {n}" for v, n in items), file=sys.stderr)
    return faulted


def tally(path: str | Path) -> dict[tuple[str, int], dict[str, int]]:
    """``{(bot, seat): {"win": n, "draw": n, "loss": n}}`` over the readable matches of ``path``.

    A seat wins when its final score is the highest and some seat scored less (Doudizhu's two
    winning farmers both win), draws when every seat scored the same, and loses otherwise: the
    evaluation's own rule (:func:`ime.evaluate.forks.outcome`), so the tally agrees with the
    tournament tables. Keyed by seat too, since the first mover's edge is what a user checks.
    """
    from ime.evaluate.forks import OUTCOME_NAMES, outcome
    from ime.matches.logs import BadMatch, finish_scores, iter_raw_matches

    out: dict[tuple[str, int], dict[str, int]] = {}
    for item in iter_raw_matches(path):
        if isinstance(item, BadMatch):
            continue
        try:
            scores = finish_scores(item.data)
        except (KeyError, IndexError, TypeError, ValueError):
            continue  # no final scores (a torn match): the fault summary counts it
        for seat, bot in enumerate(item.bot_ids()[:len(scores)]):
            counts = out.setdefault((bot, seat), {"win": 0, "draw": 0, "loss": 0})
            counts[OUTCOME_NAMES[outcome(scores, seat)]] += 1
    return out


def print_tally(path: str | Path) -> None:
    """Print the win/draw/loss tally per bot and seat to stdout, one line each, after a run."""
    rows = tally(path)
    if not rows:
        return
    print("win/draw/loss by bot and seat:")
    for (bot, seat), c in sorted(rows.items(), key=lambda kv: (kv[0][1], kv[0][0])):
        games = sum(c.values())
        print(f"  seat {seat} {bot}: {c['win']} win, {c['draw']} draw, {c['loss']} loss "
              f"({games} games)")


def seat_ids(args: argparse.Namespace, num_players: int) -> list[str]:
    """The bot of every seat, from ``--seats`` or ``--black``/``--white``."""
    if args.seats and (args.black or args.white):
        raise ValueError("give either --seats or --black/--white, not both")
    seats = list(args.seats or [b for b in (args.black, args.white) if b])
    if len(seats) != num_players:
        raise ValueError(f"{args.game} has {num_players} seats; got {len(seats)} bot(s): {seats} "
                         "(--seats A B ..., or --black A --white B for two players)")
    return seats
