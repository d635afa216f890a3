"""``ime import-pack reversi PACK.matches --bot ID|NAME [--map ID=NAME ...] --out FILE``.

Imports one bot's matches from a Botzone match pack: selects them by the bot's platform id,
renames platform ids to our bot names, replays every match through our judge and writes the
accepted ones as our JSON lines, the rejects (with reasons) next to them, and the counts.
See :mod:`ime.matches.import_pack`.

The report (counts) is written on failure too, with ``"status": "failed"`` and the error, so it
never describes an earlier import. An output that is one of the inputs (``--out`` equal to the
pack or a map file) is refused before anything is read or written.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "import-pack", help="import a bot's matches from a Botzone *.matches pack (validated)",
        description="Select a bot's matches from a Botzone match pack, map platform ids to "
                    "names, replay every match through the judge, write the accepted ones "
                    "(JSON lines), the rejects with reasons, and the counts.")
    p.add_argument("game", help="game name (e.g. reversi)")
    p.add_argument("pack", help="the platform match pack (one JSON match per line; .gz is fine)")
    p.add_argument("--bot", required=True,
                   help="the bot to import: its 24-hex platform id, or a name from --map")
    p.add_argument("--map", action="append", default=[], metavar="ID=NAME",
                   help="name a platform bot id (repeatable); unmapped ids stay as they are")
    p.add_argument("--map-file", action="append", default=[], metavar="FILE",
                   help="YAML/JSON mapping of platform id -> name (repeatable)")
    p.add_argument("--mode", choices=["strict", "lenient"], default="strict",
                   help="strict: any bad selected match fails the import (default); lenient: "
                        "quarantine bad matches and keep the good ones")
    p.add_argument("--drop-faulted", action="store_true",
                   help="also reject matches the platform ended by a fault (TLE, crash...)")
    p.add_argument("--out", required=True, help="accepted matches (JSON lines)")
    p.add_argument("--rejects", help="rejects file (default: import/<OUT stem>.rejects.jsonl "
                                     "next to OUT)")
    p.add_argument("--report", help="counts as JSON (default: import/<OUT stem>.report.json "
                                    "next to OUT)")
    p.set_defaults(func=run)


def _default(out: str, suffix: str) -> str:
    """``data/raw/reversi/alice.jsonl`` -> ``data/raw/reversi/import/alice<suffix>``.

    A subfolder, because the pipeline reads every ``*.jsonl``/``*.json`` file of its raw-log
    folder (not below it) as match logs: the rejects and counts must not land there.
    """
    base = Path(out)
    stem = base.name
    for ext in (".jsonl", ".json", ".matches"):
        if stem.endswith(ext):
            stem = stem[: -len(ext)]
            break
    return str(base.parent / "import" / (stem + suffix))


def run(args: argparse.Namespace) -> int:
    from ime.core.registry import get_game
    from ime.matches.import_pack import check_paths, import_pack, load_map_file, parse_map
    from ime.matches.logs import LogFormatError

    game = get_game(args.game)
    if not Path(args.pack).is_file():
        raise FileNotFoundError(f"{args.pack}: no such file")
    rejects = args.rejects or _default(args.out, ".rejects.jsonl")
    report_path = args.report or _default(args.out, ".report.json")
    inputs = {"pack": args.pack, **{f"--map-file {f}": f for f in args.map_file}}
    check_paths(inputs, {"--out": args.out, "--rejects": rejects, "--report": report_path})
    names: dict[str, str] = {}
    for f in args.map_file:
        names.update(load_map_file(f))
    names.update(parse_map(args.map))
    try:
        rep = import_pack(args.pack, game, args.bot, names=names, mode=args.mode, out=args.out,
                          rejects=rejects, keep_faulted=not args.drop_faulted,
                          report_path=report_path)
    except LogFormatError as e:
        print(f"ime import-pack: {e}", file=sys.stderr)
        print(f"rejects with reasons: {rejects}; counts: {report_path}; nothing written to "
              f"{args.out} (use --mode lenient to keep the good matches)", file=sys.stderr)
        return 2
    print(rep.summary(), file=sys.stderr)
    print(f"wrote {len(rep.accepted)} matches to {args.out}, {len(rep.rejected)} rejects to "
          f"{rejects}, counts to {report_path}", file=sys.stderr)
    if rep.selected == 0:
        print(f"ime import-pack: {rep.name} ({rep.bot}) plays in none of the {rep.lines} "
              f"matches of {args.pack}", file=sys.stderr)
        return 1
    return 0
