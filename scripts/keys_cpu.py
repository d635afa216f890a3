#!/usr/bin/env python3
"""CPU-seconds of key mining for one target, and a digest of the keys it finds (issue 31).

Runs :func:`ime.evaluate.keys.mine_keys` in this process (one worker, so process CPU time is the
whole cost) on a run directory's match logs, with the spec the workflow's ``eval_keys`` rule
would pass, and prints one JSON line: CPU and wall seconds, forks, keys, and the SHA-256 of the
key set's table (every column, the stored planes and masks included) and of the candidate table.
Run it with one checkout's ``src`` on ``PYTHONPATH`` and then another's to compare code versions
on the same logs: equal digests mean the same keys, byte for byte.

Usage::

    python scripts/keys_cpu.py --run /tmp/run --target rev5 [--scale quick] [--n-keys 50] \\
        [--override game.targets=[rev5] ...]
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import sys
import time
from pathlib import Path


def _digest(df) -> str:
    """SHA-256 (16 hex digits) of a table: its columns, every cell (arrays by their bytes) and
    its length."""
    h = hashlib.sha256()
    h.update(",".join(map(str, df.columns)).encode())
    for col in df.columns:
        for v in df[col]:
            h.update(v.tobytes() if hasattr(v, "tobytes") else repr(v).encode())
            h.update(b"|")
    h.update(str(len(df)).encode())
    return h.hexdigest()[:16]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--run", required=True, help="a run directory holding data/<game>/logs")
    ap.add_argument("--target", required=True)
    ap.add_argument("--game", default="reversi")
    ap.add_argument("--scale", default="quick")
    ap.add_argument("--n-keys", type=int, help="override evaluate.n_keys")
    ap.add_argument("--override", action="append", default=[], help="more Hydra overrides")
    ap.add_argument("--profile", help="write a cProfile dump here")
    ap.add_argument("--no-memo", action="store_true",
                    help="mine without the decision memo (code that has one)")
    args = ap.parse_args(argv)

    from ime.core.registry import get_game
    from ime.evaluate.agents import ProviderFactory
    from ime.evaluate.keys import mine_keys
    from ime.paths import config_dir
    from ime.workflow import setup_workflow

    overrides = [f"game={args.game}", f"scale={args.scale}", *args.override]
    if args.n_keys:
        overrides.append(f"evaluate.n_keys={args.n_keys}")
    cwd = os.getcwd()
    os.chdir(args.run)
    try:
        wf = setup_workflow({"overrides": overrides}, config_dir(), base=".")
        plans = [p for (g, *_), p in wf.evals.by_keys.items() if g == args.game]
        plan = plans[0]
        spec = plan.keys_spec(args.target)
        logs = [str(Path(args.run) / p) for p in plan.v.log_paths(args.target)]
    finally:
        os.chdir(cwd)
    missing = [p for p in logs if not Path(p).exists()]
    if missing:
        print(f"missing logs (run the matches first): {missing[:3]}", file=sys.stderr)
        return 2
    game = get_game(spec["game"], spec["game_params"])
    factory = ProviderFactory(spec["game"], spec["bot_specs"])
    prof = None
    if args.profile:
        import cProfile

        prof = cProfile.Profile()
        prof.enable()
    from numba.core import event as numba_event

    compiling = numba_event.TimingListener()  # fires on a cache miss only, not on a cache load
    c0, w0 = time.process_time(), time.perf_counter()
    with numba_event.install_listener("numba:compile", compiling):
        res = mine_keys(game, spec["target"], spec["references"], logs, factory,
                        n_keys=int(spec["n_keys"]), max_candidates=spec["max_candidates"],
                        min_legal=int(spec["min_legal"]), seed=int(spec["seed"]),
                        match_seed=int(spec["match_seed"]), workers=1, progress=False,
                        game_params=spec["game_params"],
                        **({"memo": False} if args.no_memo else {}))
    cpu, wall = time.process_time() - c0, time.perf_counter() - w0
    if prof is not None:
        prof.disable()
        prof.dump_stats(args.profile)
    s = res.stats
    compile_s = compiling.duration if compiling.done else 0.0
    if compile_s:
        print(f"warning: numba compiled for {compile_s:.1f} s of this run (its cache was cold): "
              "cpu_s includes it; run again for the mining alone", file=sys.stderr)
    print(json.dumps({"target": args.target, "scale": args.scale, "references": s.references,
                      "n_keys": s.n_keys, "candidates": s.candidates_forked, "forks": s.forks,
                      "cpu_s": round(cpu, 2), "wall_s": round(wall, 2),
                      "numba_compile_s": round(compile_s, 2),
                      "keys_sha": _digest(res.keys), "candidates_sha": _digest(res.candidates),
                      "src": str(Path(sys.modules["ime"].__file__).parent)}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
