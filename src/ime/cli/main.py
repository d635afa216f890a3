"""The ``ime`` command line: one sub-module per command group, each with ``register(subparsers)``.

A command module adds its parser and sets ``func=run`` where ``run(args) -> int`` is the exit code.
Modules are imported lazily by name so that one missing optional piece never breaks the others.
"""

from __future__ import annotations

import argparse
import importlib
import sys

COMMAND_MODULES = [
    "ime.cli.perft",
    "ime.cli.solve",
    "ime.cli.play",
    "ime.cli.zoo",
    "ime.cli.bench",
    "ime.cli.import_pack",
    "ime.cli.pipeline",
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


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        return int(args.func(args) or 0)
    except (ValueError, KeyError, FileNotFoundError) as e:
        print(f"ime {args.command}: error: {e}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
