"""Match generation at scale: a seeded schedule, worker processes, a progress bar.

The schedule is a pure function of (targets, opponents, matches per target, seed), and every match
id is derived from its schedule index, so a shard of the schedule produces the same bytes whether it
runs alone, in a Snakemake job among others, or on another machine. Output order is schedule
order, whatever the number of workers.

As on Botzone, a match between two targets counts for both of them: with ``vs_targets`` = f, each
target spends about a fraction f of its matches against the other targets (colours alternating),
the rest against the seeded opponent population.
"""

from __future__ import annotations

import hashlib
import json
import multiprocessing as mp
import os
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
from tqdm.auto import tqdm

from ime.bots.base import derive_seed


@dataclass(frozen=True)
class MatchSpec:
    """One scheduled match: its id and the bot id in each seat."""

    index: int
    match_id: str
    players: tuple[str, ...]


def build_schedule(
    game: str,
    targets: Sequence[str],
    opponents: Sequence[str],
    matches_per_target: int,
    seed: int,
    vs_targets: float = 0.1,
) -> list[MatchSpec]:
    """Each target appears in ``matches_per_target`` matches (target-vs-target ones count twice)."""
    if matches_per_target < 1:
        raise ValueError("matches_per_target must be >= 1")
    if not targets:
        raise ValueError("need at least one target bot")
    if not opponents and len(targets) < 2:
        raise ValueError("need opponents, or at least two targets")
    rng = np.random.default_rng(derive_seed("schedule", game, seed))
    pairs: list[tuple[str, str]] = []
    k = len(targets)
    per_pair = int(round(vs_targets * matches_per_target / (k - 1))) if k > 1 else 0
    if not opponents:
        per_pair = int(np.ceil(matches_per_target / (k - 1)))
    for i in range(k):
        for j in range(i + 1, k):
            for r in range(per_pair):
                pairs.append((targets[i], targets[j]) if r % 2 == 0 else (targets[j], targets[i]))
    left = max(0, matches_per_target - per_pair * (k - 1))
    for t in targets:
        for r in range(left):
            opp = opponents[int(rng.integers(len(opponents)))]
            pairs.append((t, opp) if r % 2 == 0 else (opp, t))
    order = rng.permutation(len(pairs))
    return [
        MatchSpec(n, f"{game}-s{seed}-{n:07d}", pairs[int(i)]) for n, i in enumerate(order)
    ]


def shard(specs: Sequence[MatchSpec], index: int, count: int) -> list[MatchSpec]:
    """The ``index``-th of ``count`` interleaved shards (balanced in size and cost)."""
    if not 0 <= index < count:
        raise ValueError(f"shard index {index} not in [0, {count})")
    return list(specs[index::count])


# --- workers ------------------------------------------------------------------------------------
_WORKER: dict[str, Any] = {}


def _init_worker(game_name: str, bot_specs: Mapping[str, Mapping], seed: int) -> None:
    from ime.games.registry import get_game

    _WORKER.clear()
    _WORKER.update(game=get_game(game_name), specs=dict(bot_specs), seed=seed, bots={})


def _bot(bot_id: str):
    from ime.bots.registry import make_bot

    bots = _WORKER["bots"]
    if bot_id not in bots:
        bots[bot_id] = make_bot(_WORKER["game"].name, bot_id, _WORKER["specs"])
    return bots[bot_id]


def _play(spec: MatchSpec) -> str:
    from ime.matches.judge import run_match

    bots = [_bot(b) for b in spec.players]
    res = run_match(_WORKER["game"], bots, match_id=spec.match_id, seed=_WORKER["seed"])
    return json.dumps(res.to_json(), separators=(",", ":"), ensure_ascii=False)


def play_schedule(
    game_name: str,
    specs: Sequence[MatchSpec],
    bot_specs: Mapping[str, Mapping],
    out_path: str | Path,
    *,
    seed: int,
    workers: int = 0,
    progress: bool = True,
    desc: str = "matches",
) -> int:
    """Play ``specs`` and write them as Botzone JSON lines, in schedule order. Returns the count.

    ``workers=0`` uses every core; ``workers=1`` plays in this process (no pool).
    """
    workers = workers or os.cpu_count() or 1
    out_path = Path(out_path)
    out_path.parent.mkdir(parents=True, exist_ok=True)
    tmp = out_path.with_suffix(out_path.suffix + ".part")
    bar = tqdm(total=len(specs), desc=desc, unit="match", disable=not progress, smoothing=0.05)
    n = 0
    with open(tmp, "w", encoding="utf-8") as f:
        if workers == 1 or len(specs) < 4:
            _init_worker(game_name, bot_specs, seed)
            lines: Iterable[str] = map(_play, specs)
            for line in lines:
                f.write(line + "\n")
                n += 1
                bar.update()
        else:
            ctx = mp.get_context("spawn" if os.name == "nt" else "fork")
            with ctx.Pool(workers, initializer=_init_worker,
                          initargs=(game_name, dict(bot_specs), seed)) as pool:
                for line in pool.imap(_play, specs, chunksize=4):
                    f.write(line + "\n")
                    n += 1
                    bar.update()
    bar.close()
    os.replace(tmp, out_path)
    return n


def duplicate_stats(log_paths: Iterable[str | Path], bot_id: str) -> dict[str, float]:
    """How many of ``bot_id``'s matches repeat an earlier one move for move (same seat)."""
    seen: Counter[str] = Counter()
    total = 0
    for path in log_paths:
        with open(path, encoding="utf-8") as f:
            for line in f:
                if not line.strip():
                    continue
                m = json.loads(line)
                ids = [p.get("bot") for p in m["players"]]
                if bot_id not in ids:
                    continue
                seat = ids.index(bot_id)
                moves = json.dumps([e for k, e in enumerate(m["log"]) if k % 2 == 1],
                                   sort_keys=True, separators=(",", ":"))
                key = hashlib.blake2b(f"{seat}|{ids}|{moves}".encode(), digest_size=16)
                seen[key.hexdigest()] += 1
                total += 1
    dup = total - len(seen)
    return {"matches": total, "duplicates": dup, "duplicate_rate": dup / total if total else 0.0}
