"""``ime verify [PATH ...]``: check an IME tree like ``git fsck`` checks a repository.

Walks ``data/`` and ``results/`` (or the given paths) and prints every bad, stale or missing
file with its reason and the Snakemake command that rebuilds it; exits 1 if there is any, 0
otherwise. See :mod:`ime.verify` and docs/reliability.md ("ime verify").
"""

from __future__ import annotations

import argparse
import sys


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "verify", help="check data/ and results/: checksums, invariants, logs, models, staleness",
        description="Check every file under PATH (default: data/ and results/): Parquet page "
                    "checksums, footers and invariants; match logs replay through the judge; "
                    "models load; built files are not older than, nor built from other bytes "
                    "than, their inputs (Snakemake's records). Prints each bad file with the "
                    "command that rebuilds it; exit status 1 if any.")
    add_arguments(p)
    p.set_defaults(func=run)


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("paths", nargs="*", metavar="PATH",
                   help="files or folders to check (default: data and results of the root)")
    p.add_argument("--root", help="the workflow folder holding .snakemake/ (default: the "
                                  "nearest one above the first PATH, else the working folder)")
    p.add_argument("-q", "--quiet", action="store_true", help="print problems only")
    p.add_argument("-v", "--verbose", action="store_true",
                   help="list every stale file (default: the first 5 under their cause)")


def run(args: argparse.Namespace) -> int:
    from ime.verify import verify

    report = verify(args.paths, root=args.root)
    for line in report.lines(verbose=args.verbose):
        print(line)
    if not args.quiet:
        for note in report.notes:
            print(f"note    {note}")
        print(report.summary(), file=sys.stderr)
    return 1 if report.problems else 0


def main(argv: list[str] | None = None) -> int:
    """``python -m ime.cli.verify``: the same command without the ``ime`` entry point."""
    parser = argparse.ArgumentParser(prog="ime verify", description=__doc__)
    add_arguments(parser)
    args = parser.parse_args(argv)
    try:
        return run(args)
    except (ValueError, FileNotFoundError) as e:
        print(f"ime verify: error: {e}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
