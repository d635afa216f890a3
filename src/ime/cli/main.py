"""The ``ime`` command line: one sub-module per command group, each with ``register(subparsers)``.

A command module adds its parser and sets ``func=run`` where ``run(args) -> int`` is the exit code.
Modules are imported lazily by name so that one missing optional piece never breaks the others.
"""

from __future__ import annotations

import argparse
import importlib
import os
import sys

COMMAND_MODULES = [
    "ime.cli.perft",
    "ime.cli.solve",
    "ime.cli.play",
    "ime.cli.zoo",
    "ime.cli.bench",
    "ime.cli.import_pack",
    "ime.cli.identify",
    "ime.cli.pipeline",
    "ime.cli.verify",
    "ime.cli.trace",
]


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="ime",
        description="IME: imitate game bots from their match logs and measure similarity.",
    )
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    sub.required = True
    for name in COMMAND_MODULES:
        module = importlib.import_module(name)
        module.register(sub)
    return parser


DASH_VALUE_OPTIONS = ("--board",)
"""Options whose value may start with ``-`` (a Reversi board whose A1 is empty, as most FFO
positions are); argparse would read such a value as an option."""


def join_dash_values(argv: list[str]) -> list[str]:
    """``["--board", "-OO..."]`` -> ``["--board=-OO..."]`` for :data:`DASH_VALUE_OPTIONS`."""
    out: list[str] = []
    i = 0
    while i < len(argv):
        if argv[i] in DASH_VALUE_OPTIONS and i + 1 < len(argv):
            out.append(f"{argv[i]}={argv[i + 1]}")
            i += 2
            continue
        out.append(argv[i])
        i += 1
    return out


def main(argv: list[str] | None = None) -> int:
    """Run one command; its exit code. A Ctrl-C ends it with one line and 130, not a traceback
    (:mod:`ime.core.interrupt`: worker processes forked meanwhile end quietly too)."""
    from ime.core.interrupt import EXIT_INTERRUPTED, Interrupted, quiet_interrupt

    parser = build_parser()
    args = parser.parse_args(join_dash_values(list(sys.argv[1:] if argv is None else argv)))
    try:
        with quiet_interrupt():
            return int(args.func(args) or 0)
    except (ValueError, KeyError, FileNotFoundError) as e:
        print(f"ime {args.command}: error: {e}", file=sys.stderr)
        return 2
    except Interrupted:
        print(f"ime {args.command}: interrupted", file=sys.stderr)
        return EXIT_INTERRUPTED
    except BrokenPipeError:
        # the reader went away (`ime pipeline show ... | head`): what it wanted was written; stop
        # as other Unix tools do, without a traceback, and without Python's second one when it
        # flushes stdout at exit
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 141  # 128 + SIGPIPE, as a shell reports a tool killed by it


if __name__ == "__main__":
    sys.exit(main())
