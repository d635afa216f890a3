#!/usr/bin/env python3
"""Write or check the golden key sets: key mining must find the same keys, byte for byte.

Issue 31 makes key mining cheaper (a memo of position-pure bots' decisions, faster searches)
and must not change one key. For each game in :data:`PLANS` this plays a few seeded matches of
a target against its config's sparring partners through the judge, mines keys with the zoo's
real reference bots, and records every key's identity (match, ply, seat), the target's and
every reference's action and outcome, the self-fork, a digest of the stored planes and masks,
the mining counts, and a digest of the whole key table.
``tests/golden/test_golden_keys.py`` recomputes them and compares, with and without the memo.

``--write`` was run with the code before issue 31's changes (commit fd67599, via
``PYTHONPATH``), so the files pin the keys of the code before the change.

Usage::

    python scripts/golden_keys.py --write            # tests/data/golden/keys_<game>.json
    python scripts/golden_keys.py                    # check against the files
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT / "tests" / "data" / "golden"


@dataclass(frozen=True)
class KeysPlan:
    """One game's small mining setup: who plays the logged matches and who forks them."""

    target: str
    opponents: tuple[str, ...]
    references: tuple[str, ...]
    matches: int
    n_keys: int
    match_seed: int = 11
    mining_seed: int = 3


PLANS: dict[str, KeysPlan] = {
    "reversi": KeysPlan(target="rev5", opponents=("opp_noisy1", "opp_random", "rev4"),
                        references=("rev1", "rev2", "rev3", "rev4"), matches=8, n_keys=6),
}


def golden_path(game: str) -> Path:
    return DATA / f"keys_{game}.json"


def _sha(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()[:20]


def _cell(v: Any) -> Any:
    """A key table's cell as JSON: stored planes and masks by digest, numbers as numbers."""
    import numpy as np

    if isinstance(v, np.ndarray):
        return _sha(v.tobytes())
    if isinstance(v, np.generic):
        return v.item()
    return v


def play_logs(game: str, plan: KeysPlan, out: Path) -> Path:
    """The plan's matches, played through the judge and written as Botzone JSON lines."""
    from ime.bots.registry import make_bot
    from ime.core.registry import get_game
    from ime.matches.judge import run_match
    from ime.matches.logs import write_matches

    g = get_game(game)
    results = []
    for k in range(plan.matches):
        opp = make_bot(game, plan.opponents[k % len(plan.opponents)])
        me = make_bot(game, plan.target)
        seats = [me, opp] if k % 2 == 0 else [opp, me]
        results.append(run_match(g, seats, match_id=f"golden-{game}-{k}", seed=plan.match_seed))
    write_matches(out, results)
    return out


def compute(game: str, work: Path, **mine_options: Any) -> dict[str, Any]:
    """Mine the plan's keys (``mine_options`` go to :func:`ime.evaluate.keys.mine_keys`)."""
    from ime.core.registry import get_game
    from ime.evaluate.agents import ProviderFactory
    from ime.evaluate.keys import mine_keys

    plan = PLANS[game]
    logs = play_logs(game, plan, work / f"{game}.jsonl")
    res = mine_keys(get_game(game), plan.target, plan.references, [logs],
                    ProviderFactory(game), n_keys=plan.n_keys, seed=plan.mining_seed,
                    match_seed=plan.match_seed, workers=1, progress=False, **mine_options)
    keys = res.keys
    rows = [{c: _cell(keys[c].iloc[i]) for c in keys.columns if c not in ("prefix_json",)}
            for i in range(len(keys))]
    s = res.stats
    table = keys.to_json(orient="split", default_handler=lambda v: _cell(v)).encode()
    return {
        "game": game, "target": plan.target, "references": list(plan.references),
        "n_keys": s.n_keys, "candidates_forked": s.candidates_forked, "forks": s.forks,
        "self_fork_reproduced": s.self_fork_reproduced,
        "candidates_sha": _sha(res.candidates.to_json(orient="split").encode()),
        "keys_sha": _sha(table), "keys": rows,
    }


def main(argv: list[str] | None = None) -> int:
    import tempfile

    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--write", action="store_true", help="write the golden files")
    ap.add_argument("games", nargs="*", default=sorted(PLANS))
    args = ap.parse_args(argv)
    bad = 0
    for game in args.games:
        with tempfile.TemporaryDirectory() as tmp:
            got = compute(game, Path(tmp))
        path = golden_path(game)
        if args.write:
            DATA.mkdir(parents=True, exist_ok=True)
            path.write_text(json.dumps(got, indent=1, sort_keys=True) + "\n")
            print(f"{path}: {got['n_keys']} keys from {got['candidates_forked']} candidates, "
                  f"{got['forks']} forks")
            continue
        want = json.loads(path.read_text())
        same = want == json.loads(json.dumps(got, sort_keys=True))
        bad += not same
        print(f"{game}: {'same keys' if same else 'DIFFERENT keys'} ({path})")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
