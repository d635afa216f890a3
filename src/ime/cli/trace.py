"""``ime trace GAME KEYS KEY``: one key endgame finished move by move by the key set's target,
its references and (given its checkpoints) its imitator, as S2 plays it (thesis 5.5.2; see
:mod:`ime.evaluate.trace`).

KEYS is a key set (``data/<game>/eval/<logs>/<mining>/keys/<target>.parquet``); KEY is a row
index or ``<match_id>@<ply>``. Bots are built from ``config/bots/<game>.yaml`` as the workflow
builds them; the imitator from ``--checkpoint`` (one per fold: an ensemble). ``--scores`` checks
each traced result against stored score tables (the S2 verdicts).
"""

from __future__ import annotations

import argparse
from pathlib import Path


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "trace", help="trace one key endgame through the target, its references and imitator",
        description="Finish one key endgame in the target's seat with the key set's target, "
                    "every reference and (with --checkpoint) the target's imitator, against "
                    "the key's own opponents with its match id and seed, exactly as S2 scores "
                    "it; print every move, where each agent leaves the target's line, and the "
                    "results (thesis Table 5.11, Figs 5.4-5.8).")
    add_arguments(p)
    p.set_defaults(func=run)


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("game", help="the game (reversi, doudizhu, snake, ...)")
    p.add_argument("keys", metavar="KEYS", help="a key set: data/<game>/eval/.../keys/<t>.parquet")
    p.add_argument("key", metavar="KEY",
                   help="a row index of the key set, or <match_id>@<ply> (@<seat> when a match "
                        "and ply hold keys of several seats)")
    p.add_argument("--checkpoint", action="append", default=[], metavar="PT",
                   help="the imitator's checkpoint (repeat for each fold: an ensemble); "
                        "without it the imitator is not traced")
    p.add_argument("--agent", action="append", default=[], metavar="ID",
                   help="trace another bot of config/bots/<game>.yaml too (repeatable)")
    p.add_argument("--scores", action="append", default=[], metavar="AGENT=PARQUET",
                   help="check AGENT's traced result against its stored score table")
    p.add_argument("--csv", metavar="PATH", help="also write the trace table as CSV")


def _scores(items: list[str]) -> dict[str, object]:
    from ime.evaluate.scoring import read_scores

    out = {}
    for item in items:
        agent, sep, path = item.partition("=")
        if not sep or not agent or not path:
            raise ValueError(f"--scores {item!r}: want AGENT=PARQUET")
        out[agent] = read_scores(path)[0]
    return out


def run(args: argparse.Namespace) -> int:
    from ime.evaluate.agents import Provider, imitator_id, imitator_spec
    from ime.evaluate.keyset import read_keyset
    from ime.evaluate.trace import (
        OUTCOME_NAMES,
        check_outcomes,
        find_key,
        stored_outcomes,
        trace_key,
    )

    path = Path(args.keys)
    if not path.is_file():
        raise FileNotFoundError(f"{path}: no such key set")
    ks = read_keyset(path)
    if ks.game != args.game:
        raise ValueError(f"{path} is a key set of {ks.game!r}, not {args.game!r}")
    index = find_key(ks, args.key, path)
    extra, imit = {}, None
    if args.checkpoint:
        imit = imitator_id(ks.target)
        extra[imit] = imitator_spec(args.checkpoint, target=ks.target, net="(given)",
                                    fold="ensemble", game_params=ks.game_params)
    provider = Provider(ks.game, extra=extra)
    agents = [*ks.references, *([imit] if imit else []), *args.agent]
    trace = trace_key(ks, index, agents, provider, imitator=imit)
    check_outcomes(trace, stored_outcomes(ks, index, _scores(args.scores)))

    print(f"{ks.game}: {ks.target}'s key {trace.key} (row {index} of {path}), seat "
          f"{trace.seat} against {', '.join(trace.opponents())}; position at ply {trace.ply}:")
    print(trace.position)
    print()
    print(trace.rows.drop(columns=["match_id"]).to_string(index=False))
    print()
    for a, o in trace.outcomes.items():
        d = trace.divergence(a)
        fork = "never leaves the target's line" if d is None else f"leaves it at ply {d}"
        print(f"{a:>16}: {OUTCOME_NAMES[o]:<5} {fork}")
    if not args.checkpoint:
        print("(no --checkpoint: the imitator was not traced)")
    if args.csv:
        Path(args.csv).parent.mkdir(parents=True, exist_ok=True)
        trace.rows.to_csv(args.csv, index=False, lineterminator="\n")
        print(f"wrote {args.csv}")
    return 0
