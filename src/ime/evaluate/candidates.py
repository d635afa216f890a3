"""Where key endgames may be: the target's logged matches and the seeded candidate order.

A candidate is a (match, ply, seat) of the target's own matches where the target is to move with
at least ``min_legal`` choices (several movers at one ply count: a simultaneous turn is one ply
for every mover). The order is seeded and spread over matches (see :mod:`ime.evaluate.keys`), so
the keys found do not depend on how the logs are split into files or on the worker count.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from ime.core.game import Game
from ime.core.seeding import derive_seed
from ime.evaluate.forks import LoggedMatch
from ime.matches.logs import iter_raw_matches


@dataclass
class MatchPool:
    """The target's usable matches and why the others were left out."""

    matches: list[LoggedMatch] = field(default_factory=list)
    seats: list[int] = field(default_factory=list)
    skipped: dict[str, int] = field(default_factory=dict)

    def skip(self, why: str) -> None:
        self.skipped[why] = self.skipped.get(why, 0) + 1


def load_target_matches(
    paths: Iterable[str | Path],
    target: str,
    *,
    default_seed: int,
    known: Callable[[str], bool] | None = None,
) -> MatchPool:
    """Every logged match in which ``target`` plays, ordered by (match id, seat).

    Sorted so that the key sample does not depend on how the logs are split into files (the
    number of shards is an execution detail); the sort is stable, so repeated match ids keep
    their file order.

    ``known(bot_id)`` says whether a fork can rebuild that program; matches with a player it
    rejects are skipped (counted as ``unknown_player``). Unreadable lines raise, naming the file.
    """
    pool = MatchPool()
    for path in paths:
        for item in iter_raw_matches(path):
            if not hasattr(item, "data"):
                raise ValueError(f"unreadable match log line: {item}")
            data = item.data
            players = [p.get("bot") if isinstance(p, Mapping) else p
                       for p in data.get("players", [])]
            if target not in players:
                continue
            m = LoggedMatch.from_json(data, default_seed)
            if m.faulted:
                pool.skip("faulted")
                continue
            if known is not None and not all(known(p) for p in m.players):
                pool.skip("unknown_player")
                continue
            for seat, pid in enumerate(m.players):
                if pid == target:
                    pool.matches.append(m)
                    pool.seats.append(seat)
    ordered = sorted(zip(pool.matches, pool.seats, strict=True),
                     key=lambda ms: (ms[0].match_id, ms[1]))
    pool.matches = [m for m, _ in ordered]
    pool.seats = [seat for _, seat in ordered]
    return pool


@dataclass(frozen=True)
class Candidate:
    """A (match, ply) where the target is to move: an index into the pool, the ply, the seat."""

    index: int
    ply: int
    seat: int
    n_legal: int


def eligible_plies(game: Game, match: LoggedMatch, seat: int,
                   min_legal: int) -> list[tuple[int, int]]:
    """``(ply, n_legal)`` of every turn where ``seat`` moves with ``>= min_legal`` choices."""
    state = game.new_initial_state(initdata=match.initdata, seed=match.seed)
    out = []
    for ply, entry in enumerate(match.entries):
        if state.is_terminal():
            break
        movers = state.current_players()
        if seat in movers:
            n = len(state.legal_actions(seat))
            if n >= min_legal:
                out.append((ply, n))
        state.apply_actions({p: state.decode_response(p, entry[str(p)]["response"])
                             for p in movers})
    return out


def candidate_order(game: Game, pool: MatchPool, *, min_legal: int, seed: int,
                    salt: str = "") -> tuple[list[Candidate], int]:
    """The seeded, match-interleaved candidate order; also returns how many were too forced."""
    rng = np.random.default_rng(derive_seed("keys", seed, salt))
    per_match: list[list[Candidate]] = []
    forced = 0
    for i, (m, seat) in enumerate(zip(pool.matches, pool.seats, strict=True)):
        all_plies = eligible_plies(game, m, seat, 0)
        ok = [(p, n) for p, n in all_plies if n >= min_legal]
        forced += len(all_plies) - len(ok)
        order = rng.permutation(len(ok))
        per_match.append([Candidate(i, ok[j][0], seat, ok[j][1]) for j in order])
    match_order = rng.permutation(len(per_match))
    out: list[Candidate] = []
    depth = max((len(c) for c in per_match), default=0)
    for r in range(depth):
        for i in match_order:
            if r < len(per_match[i]):
                out.append(per_match[i][r])
    return out, forced
