"""Who plays whom in a tournament: the lineups of a pair, their seat rotations and the games of
every round (the module doc of :mod:`ime.evaluate.tournament` says why).

Why a module of its own: the workflow plans the tournament's jobs (one per pair) and their
worker counts from this schedule while Snakemake builds the DAG, and
:mod:`ime.evaluate.tournament`, which plays the games, imports pandas (0.5 s) at the top; it
re-exports every name here.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass


@dataclass(frozen=True)
class TourGame:
    """One scheduled game: round (= opening index) and the bot in each seat."""

    round: int
    players: tuple[str, ...]

    @property
    def player0(self) -> str:
        return self.players[0]

    @property
    def player1(self) -> str:
        return self.players[1]


def seat_rotations(lineup: Sequence[str]) -> list[tuple[str, ...]]:
    """``lineup`` in every rotation of its seats, starting with itself."""
    lu = tuple(lineup)
    return [lu[k:] + lu[:k] for k in range(len(lu))]


def pair_lineups(a: str, b: str, seats: int = 2) -> list[tuple[str, ...]]:
    """The lineups a pair plays in a game of ``seats`` seats (see the module doc)."""
    if seats < 2:
        raise ValueError(f"a game needs at least 2 seats, got {seats}")
    if seats == 2:
        return [(a, b)]
    return [(a, *[b] * (seats - 1)), (b, *[a] * (seats - 1))]


def side_lineups(a: str, b: str, teams: Sequence[Sequence[int]], seats: int
                 ) -> list[tuple[str, ...]]:
    """The pair's lineups when each fills one whole side of a two-sided game (``teams``, the
    game's :attr:`~ime.core.game.GameType.teams`): ``a`` on the first side and ``b`` on the
    other, then the other way round (Doudizhu: ``(a, b, b)`` and ``(b, a, a)``, the landlord
    against both farmers, as Botzone and the thesis's Table 5.10 play it)."""
    sides = [tuple(t) for t in teams]
    if len(sides) != 2 or sorted(s for t in sides for s in t) != list(range(seats)):
        raise ValueError(f"lineups=sides needs a game of two sides covering its {seats} seats; "
                         f"this game declares the teams {teams or '()'}")
    out = []
    for first, second in ((a, b), (b, a)):
        lu = [""] * seats
        for s in sides[0]:
            lu[s] = first
        for s in sides[1]:
            lu[s] = second
        out.append(tuple(lu))
    return out


def lineup_schedule(lineups: Sequence[Sequence[str]], rounds: int) -> list[TourGame]:
    """Every round: each lineup in every seat rotation."""
    return [TourGame(r, rot) for r in range(rounds) for lu in lineups
            for rot in seat_rotations(lu)]


def pair_schedule(a: str, b: str, rounds: int, seats: int = 2,
                  teams: Sequence[Sequence[int]] | None = None) -> list[TourGame]:
    """Every round, ``a`` against ``b`` in every seat rotation (two seats: ``a`` first, then
    ``b`` first); with ``teams`` (``evaluate.tournament.lineups: sides``), each of them on
    each side once, without rotations (rotating would split a side between the two)."""
    if teams:
        return [TourGame(r, lu) for r in range(rounds) for lu in side_lineups(a, b, teams,
                                                                              seats)]
    return lineup_schedule(pair_lineups(a, b, seats), rounds)


def round_robin_pairs(players: Sequence[str]) -> list[tuple[str, str]]:
    """Unordered pairs in a stable order (the pair's file name uses this order)."""
    ps = list(players)
    return [(ps[i], ps[j]) for i in range(len(ps)) for j in range(i + 1, len(ps))]
