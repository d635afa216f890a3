"""Match generation at scale: a seeded schedule per target, worker processes, a progress bar.

Every target has its own schedule, a pure function of (game, target, opponents, sparring
partners, matches per target, seed): it is seeded by ``derive_seed("schedule", game, seed,
target)`` and its match ids name the game, the seed and the target
(``<game>-s0-<target>-0000042``), so adding a target adds its schedule and changes no other
target's. A shard of a schedule produces the same bytes
whether it runs alone, in a Snakemake job among others, or on another machine; output order is
schedule order, whatever the number of workers.

With ``vs_targets`` = f, a fraction f of a target's matches is played against its *sparring
partners* (a pinned pool, ``game.sparring``, or the other targets), cycling through them with
colours alternating, the rest against the seeded opponent population. Such a match belongs to
the target it was scheduled for: its dataset uses the target's decisions in its own matches
only, the sparring partner's moves there are not a second sample of the partner.

Games of more than two seats (``seats`` = the game's ``num_players``) fill the seats other than
the target's with one sparring partner (a partner's match: the target's seat moves on along the
pool and from one pass to the next, as the colours do with two seats) or with opponents drawn
independently per seat (the target sits in seat ``r mod seats`` of its ``r``-th such match); two
seats are the schedule described above, draw for draw.

**Team seating** (``teams``, from ``matches.team_seats: all`` and the game's declared sides,
:attr:`ime.core.game.GameType.teams`): the target also fills every other seat of its side, as on
Botzone, where one program plays both Doudizhu farmers. The schedule is drawn exactly as without
it (the same draws), except that the target's seat cycles over the *sides* rather than the
seats (the first seat of each side), so that it plays each side equally often: on Botzone
Doudizhu is played as a two-player game (thesis 5.3.1), the landlord against one program in
both farmer seats, and we give the target either side in turn. The target then
replaces whoever was drawn for its teammates' seats, and every other side is played by the
program drawn for its first seat (a landlord target meets one program in both farmer seats, not
two drawn apart; the later seats' draws are still made, so the stream of draws is the same). A
dataset takes the target's decisions from every seat it holds (:mod:`ime.datasets.extract`), so
a farmer's match gives two seats' decisions.
"""

from __future__ import annotations

import glob
import hashlib
import json
import logging
import multiprocessing as mp
import os
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
from tqdm.auto import tqdm

from ime.core.pools import process_pool
from ime.core.seeding import derive_seed
from ime.matches.durable import (
    Appender,
    ForeignOutputError,
    journal_path,
    resume_point,
    run_fingerprint,
)

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class MatchSpec:
    """One scheduled match: its id and the bot id in each seat."""

    index: int
    match_id: str
    players: tuple[str, ...]


def build_target_schedule(
    game: str,
    target: str,
    opponents: Sequence[str],
    sparring: Sequence[str],
    matches: int,
    seed: int,
    vs_targets: float = 0.1,
    seats: int = 2,
    teams: Sequence[Sequence[int]] = (),
) -> list[MatchSpec]:
    """``target``'s ``matches`` matches: ``round(vs_targets * matches)`` against ``sparring``
    (all of them when there are no opponents), the rest against random ``opponents``.

    Sparring partners are taken in turn (partner k of the pool in match r = k + m * len(pool))
    and the colours alternate both along the pool and from one pass to the next, so each partner
    meets the target with both colours. ``target`` is never its own sparring partner or
    opponent. ``seats``: the game's number of players (see the module doc for more than two).
    ``teams``: the game's sides, each played by one program (team seating, the module doc):
    the target fills every seat of its side; empty: every seat is drawn on its own.
    """
    if seats < 2:
        raise ValueError(f"a match needs at least 2 seats, got {seats}")
    if matches < 1:
        raise ValueError("matches per target must be >= 1")
    pool = [b for b in dict.fromkeys(sparring) if b != target]
    # a target that is also an opponent (a zoo bot made a target) does not play itself
    opponents = [o for o in opponents if o != target]
    if not opponents and not pool:
        raise ValueError(f"{target}: need opponents or sparring partners")
    rng = np.random.default_rng(derive_seed("schedule", game, seed, target))
    if not opponents:
        n_vs = matches
    elif pool:
        n_vs = min(matches, int(vs_targets * matches + 0.5))
    else:
        n_vs = 0
    pairs: list[tuple[str, ...]] = []
    # the target's seat cycles over every seat, or, with team seating, over the sides (the
    # first seat of each), so that it plays each side equally often
    slots = side_seats(seats, teams) if teams else list(range(seats))
    for r in range(n_vs):
        k, m = r % len(pool), r // len(pool)
        partner = pool[k]
        if seats == 2:
            pairs.append((target, partner) if (k + m) % 2 == 0 else (partner, target))
        else:
            pairs.append(_seat(target, [partner] * (seats - 1), slots[(k + m) % len(slots)]))
    for r in range(matches - n_vs):
        if seats == 2:
            opp = opponents[int(rng.integers(len(opponents)))]
            pairs.append((target, opp) if r % 2 == 0 else (opp, target))
        else:
            others = [opponents[int(i)] for i in rng.integers(len(opponents), size=seats - 1)]
            pairs.append(_seat(target, others, slots[r % len(slots)]))
    order = rng.permutation(len(pairs))
    if teams:
        pairs = [fill_sides(p, target, teams) for p in pairs]
    return [MatchSpec(n, f"{game}-s{seed}-{target}-{n:07d}", pairs[int(i)])
            for n, i in enumerate(order)]


def _seat(target: str, others: Sequence[str], seat: int) -> tuple[str, ...]:
    """``target`` in ``seat``, ``others`` in the remaining seats in order."""
    out = list(others)
    out.insert(seat, target)
    return tuple(out)


def side_seats(seats: int, teams: Sequence[Sequence[int]]) -> list[int]:
    """The first seat of every side, in seat order (a seat in no team is a side of its own)."""
    first = {min(t) for t in teams}
    teamed = {s for t in teams for s in t}
    return sorted(first | {s for s in range(seats) if s not in teamed})


def fill_sides(players: Sequence[str], target: str,
               teams: Sequence[Sequence[int]]) -> tuple[str, ...]:
    """``players`` with one program per side, as on Botzone: ``target`` in every seat of the side
    of its (first) seat, and each other side's seats held by the program in its first seat."""
    out = list(players)
    seat = out.index(target)
    for team in teams:
        for s in team:
            if not 0 <= s < len(out):
                raise ValueError(f"team {tuple(team)} names seat {s} of a "
                                 f"{len(out)}-seat game")
        program = target if seat in team else out[min(team)]
        for s in team:
            out[s] = program
    return tuple(out)


def build_schedule(
    game: str,
    targets: Sequence[str],
    opponents: Sequence[str],
    matches_per_target: int,
    seed: int,
    vs_targets: float = 0.1,
    sparring: Sequence[str] | None = None,
    seats: int = 2,
    teams: Sequence[Sequence[int]] = (),
) -> list[MatchSpec]:
    """Every target's own schedule (:func:`build_target_schedule`), one after the other.

    ``sparring=None`` makes the other targets each target's sparring partners. The pipeline
    plays each target's schedule as separate log parts; this is the one-file convenience.
    """
    if not targets:
        raise ValueError("need at least one target bot")
    out: list[MatchSpec] = []
    for t in targets:
        pool = list(targets) if sparring is None else list(sparring)
        out += build_target_schedule(game, t, opponents, pool, matches_per_target, seed,
                                     vs_targets, seats, teams)
    return out


def shard(specs: Sequence[MatchSpec], index: int, count: int) -> list[MatchSpec]:
    """The ``index``-th of ``count`` interleaved shards (balanced in size and cost)."""
    if not 0 <= index < count:
        raise ValueError(f"shard index {index} not in [0, {count})")
    return list(specs[index::count])


# --- workers ------------------------------------------------------------------------------------
_WORKER: dict[str, Any] = {}


def _init_worker(game_name: str, bot_specs: Mapping[str, Mapping], seed: int,
                 game_params: Mapping[str, Any] | None = None) -> None:
    from ime.bots.external.signals import guard_pool_worker
    from ime.core.registry import get_game

    guard_pool_worker()  # in a pool worker: its bot programs die with it, whatever kills it
    _WORKER.clear()
    _WORKER.update(game=get_game(game_name, game_params), specs=dict(bot_specs), seed=seed,
                   bots={})


def _bot(bot_id: str):
    """The worker's bot ``bot_id``; a position-pure one behind a memo of its decisions (the
    schedule's matches share their openings; :mod:`ime.core.memo`: same moves, less CPU)."""
    from ime.bots.registry import make_bot
    from ime.core.memo import memoize

    bots = _WORKER["bots"]
    if bot_id not in bots:
        bots[bot_id] = memoize(make_bot(_WORKER["game"].name, bot_id, _WORKER["specs"]))
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
    game_params: Mapping[str, Any] | None = None,
    journal: bool = False,
) -> int:
    """Play ``specs`` and write them as Botzone JSON lines, in schedule order. Returns the count.

    ``workers=0`` uses every core; ``workers=1`` plays in this process (no pool).
    ``game_params``: the game's board options (``game.params``).

    **Durable.** Each finished match is appended and flushed as one line as soon as every match
    before it is written (a pool finishes out of order; results wait in memory for their turn),
    so the file is always a prefix of the uninterrupted run's. When the file already holds a
    prefix of this schedule (an interrupted run), the matches in it are kept and only the rest
    is played: the result is byte-identical to an uninterrupted run. A torn last line (a kill
    mid-write) is dropped first; a file that is not this schedule's prefix raises
    :class:`ForeignOutputError` and is left alone. No file is created before the first match
    finishes, so a run that fails at once (a bad spec) leaves nothing.

    ``journal=False`` appends to ``out_path`` itself (``ime play``). ``journal=True`` appends to
    :func:`journal_path` (``<out>.<fingerprint>.journal``, the fingerprint covering the game, its
    options, the seed, the bots' specs and the schedule) and renames it to ``out_path`` when the
    schedule is complete: for Snakemake, which deletes a job's outputs before running it and
    after it fails, and would otherwise throw the finished matches away.
    """
    workers = workers or os.cpu_count() or 1
    out_path = Path(out_path)
    out_path.parent.mkdir(parents=True, exist_ok=True)
    work = out_path
    if journal:
        work = journal_path(out_path, run_fingerprint(game_name, specs, bot_specs, seed,
                                                      game_params))
        for stale in out_path.parent.glob(f"{glob.escape(out_path.name)}.*.journal"):
            if stale != work:  # another config's matches: never resumable here
                log.info("removing %s (a journal of another configuration)", stale)
                stale.unlink(missing_ok=True)
    done = resume_point(work, specs, seed=seed, truncate=True)
    if done:
        log.info("%s: %d of %d matches already played, resuming", work, done, len(specs))
    bar = tqdm(total=len(specs), initial=done, desc=desc, unit="match", disable=not progress,
               smoothing=0.05)
    out = Appender(work)
    try:
        todo = list(specs[done:])
        if not todo:
            pass
        elif workers == 1 or len(todo) < 4:
            _init_worker(game_name, bot_specs, seed, game_params)
            for line in map(_play, todo):
                out.append(line)
                bar.update()
        else:
            ctx = mp.get_context("spawn" if os.name == "nt" else "fork")
            with process_pool(ctx, workers, _init_worker,
                              (game_name, dict(bot_specs), seed, dict(game_params or {}))) as pool:
                # imap yields in schedule order: a match finished early waits for its turn
                for line in pool.imap(_play, todo, chunksize=1):
                    out.append(line)
                    bar.update()
        out.sync(create=True)
    finally:
        out.close()
        bar.close()
    if journal:
        os.replace(work, out_path)
    return done + out.count


__all__ = ["ForeignOutputError", "MatchSpec", "build_schedule", "build_target_schedule",
           "duplicate_stats", "fill_sides", "journal_path", "play_schedule", "resume_point",
           "run_fingerprint", "shard"]


def duplicate_stats(log_paths: Iterable[str | Path], bot_id: str) -> dict[str, float]:
    """How many of ``bot_id``'s matches repeat an earlier one move for move (same seat).

    Lines are read with :func:`ime.matches.logs.iter_raw_matches`: an unreadable line (or one
    without ``players`` / ``log`` lists) raises ``ValueError`` naming file, line and match id.
    Unknown fields (``seed``, ``fault``, ``platform``...) are ignored.
    """
    from ime.matches.logs import BadMatch, iter_raw_matches

    seen: Counter[str] = Counter()
    total = 0
    for path in log_paths:
        for item in iter_raw_matches(path):
            if isinstance(item, BadMatch):
                raise ValueError(f"duplicate_stats: unreadable match log line: {item}")
            m = item.data
            players, log = m.get("players"), m.get("log")
            if not isinstance(players, list) or not isinstance(log, list):
                bad = BadMatch(item.path, item.line, item.match_id,
                               "a match needs 'players' and 'log' lists", "structure")
                raise ValueError(f"duplicate_stats: unreadable match log line: {bad}")
            ids = [p.get("bot") if isinstance(p, Mapping) else p for p in players]
            if bot_id not in ids:
                continue
            seat = ids.index(bot_id)
            moves = json.dumps([e for k, e in enumerate(log) if k % 2 == 1],
                               sort_keys=True, separators=(",", ":"))
            key = hashlib.blake2b(f"{seat}|{ids}|{moves}".encode(), digest_size=16)
            seen[key.hexdigest()] += 1
            total += 1
    dup = total - len(seen)
    return {"matches": total, "duplicates": dup, "duplicate_rate": dup / total if total else 0.0}
