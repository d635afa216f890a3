"""Fork a logged match at a ply and let other bots finish it (thesis 3.2, Fig 3.4).

A fork is the judge's replay with a *prefix*: the first ``ply`` recorded player entries are fed
through the rules, then the bots take over. Because a bot's decision is a pure function of
(config, seed, match id, ply, history), forking a match with the very bots that played it, the
same match id and the same seed reproduces it move for move; that is the self-fork check that
validates every key endgame.

Outcomes are game-agnostic and work for any number of seats: a seat *wins* when its score is the
highest and not everyone's, *draws* when all scores are equal, and *loses* otherwise; so it is
one seat's result against all the others. Games with sides need no declaration: the judges give
every seat of a side the side's score (two partners share the top score when their side
wins), so every seat of the winning side wins and every other seat loses. In a free-for-all of
three or more seats a shared top score is a win for each seat that has it. Key endgames and S2
compare one seat's outcome before and after another program takes that seat, so this rule is
all they need.

**Sides held by one program.** Where a game declares sides (``GameType.teams``) and the logged
program in the evaluated seat also held other seats of its side (team seating,
``matches.team_seats: all``, or a Botzone log where one program played both Doudizhu farmers),
the agent takes all of them (:func:`agent_seats`): the agent under test replaces the program,
not one of its seats. In logs where the side's other seats are other programs (``one``) it
takes the one seat, as before. So a fork follows the seating its log was played with, and the
target's self-fork reproduces the log either way.

Simultaneous moves need nothing special either: a turn's player entry holds every
mover's response, a prefix replays them together (``apply_actions``), and the evaluated seat's
response at the fork ply is its first decision there.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from ime.core.bot import Bot
from ime.core.game import Game, State
from ime.matches.judge import MatchResult, run_match

LOSS, DRAW, WIN = 0, 1, 2
OUTCOME_NAMES = {LOSS: "loss", DRAW: "draw", WIN: "win"}

BotProvider = Callable[[str], Bot]
"""Makes (or returns a cached) bot from its id; see :mod:`ime.evaluate.agents`."""


def outcome(scores: Sequence[float], seat: int) -> int:
    """``WIN``/``DRAW``/``LOSS`` of ``seat`` against all other seats (see the module doc)."""
    s = [round(float(x), 9) for x in scores]
    top = max(s)
    if min(s) == top:
        return DRAW
    return WIN if s[seat] == top else LOSS


@dataclass(frozen=True)
class LoggedMatch:
    """What a fork needs from a raw log line: ids, seed, initdata and the player entries."""

    match_id: str
    players: tuple[str, ...]
    seed: int
    initdata: Any
    entries: tuple[Mapping[str, Any], ...]
    scores: tuple[float, ...]
    faulted: bool

    @classmethod
    def from_json(cls, data: Mapping[str, Any], default_seed: int) -> LoggedMatch:
        """Read a Botzone match line; ``seed`` comes from the line when recorded there.

        Our runner plays every match of a schedule with the schedule's seed; a line may carry
        its own ``seed`` (then it wins) so that logs from different schedules can be mixed.
        """
        from ime.matches.logs import finish_scores, parse_initdata, player_entries

        players = tuple(
            str(p.get("bot", p.get("name", "?"))) if isinstance(p, Mapping) else str(p)
            for p in data.get("players", [])
        )
        seed = data.get("seed", default_seed)
        return cls(
            match_id=str(data["_id"]),
            players=players,
            seed=int(seed),
            initdata=parse_initdata(data.get("initdata")),
            entries=tuple(player_entries(data)),
            scores=tuple(finish_scores(data)),
            faulted="fault" in data or any(
                isinstance(v, Mapping) and v.get("verdict", "OK") != "OK"
                for e in player_entries(data) for v in e.values()
            ),
        )


def state_at(game: Game, match: LoggedMatch, ply: int) -> State:
    """The position before turn ``ply`` (a pass is a turn), replayed through the rules."""
    state = game.new_initial_state(initdata=match.initdata, seed=match.seed)
    for turn in range(ply):
        entry = match.entries[turn]
        actions = {p: state.decode_response(p, entry[str(p)]["response"])
                   for p in state.current_players()}
        state.apply_actions(actions)
    return state


def fork(
    game: Game,
    match: LoggedMatch,
    ply: int,
    bots: Sequence[Bot],
    player_ids: Sequence[str] | None = None,
) -> MatchResult:
    """Replay ``match`` up to ``ply`` and let ``bots`` (one per seat) finish it.

    Same match id and seed as the original: a bot that played the original in that seat makes
    the same decisions again.
    """
    return run_match(game, bots, match_id=match.match_id, seed=match.seed,
                     initdata=match.initdata, prefix=list(match.entries[:ply]),
                     player_ids=player_ids)


@dataclass(frozen=True)
class ForkOutcome:
    """A fork seen from the evaluated seat: its first decision there and its final outcome."""

    action: Any
    outcome: int
    moves_same: bool | None  # for self-forks: did the whole game replay move for move?


def agent_seats(game: Game, players: Sequence[str], seat: int) -> tuple[int, ...]:
    """The seats an agent taking ``seat`` of a logged match takes: ``seat`` and every other seat
    of its side (``GameType.teams``) that the same logged program held (the module doc)."""
    from ime.core.game import team_of

    return tuple(s for s in team_of(game.game_type, seat)
                 if s == seat or players[s] == players[seat])


def finish_as(
    game: Game,
    match: LoggedMatch,
    ply: int,
    seat: int,
    agent: Bot,
    provider: BotProvider,
    *,
    compare_moves: bool = False,
    state: State | None = None,
) -> ForkOutcome:
    """``agent`` takes ``seat`` at ``ply`` (with the seats of its side that the same program
    held: :func:`agent_seats`); every other seat keeps the program it had.

    The agent's first response (turn ``ply``) is its single-step action (S1); the end result
    is its endgame outcome (S2). ``compare_moves`` checks the whole continuation against the
    log (used for the target's self-fork). ``state``: the position at ``ply`` when the caller
    has it already (saves a replay when decoding the first response).
    """
    mine = agent_seats(game, match.players, seat)
    bots = [agent if p in mine else provider(pid) for p, pid in enumerate(match.players)]
    ids = list(match.players)
    res = fork(game, match, ply, bots, player_ids=ids)
    entries = [e for k, e in enumerate(res.log) if k % 2 == 1]
    first = entries[ply].get(str(seat), {}) if ply < len(entries) else {}
    action: Any = None
    if first.get("verdict", "OK") == "OK" and "response" in first:
        st = state if state is not None else state_at(game, match, ply)
        try:
            action = st.decode_response(seat, first["response"])
        except ValueError:
            action = None
    same = None
    if compare_moves:
        same = _canon(entries) == _canon(match.entries)
    return ForkOutcome(action=action, outcome=outcome(res.scores, seat), moves_same=same)


def _jsonable(o: Any) -> Any:
    if isinstance(o, np.integer):
        return int(o)
    if isinstance(o, np.floating):
        return float(o)
    if isinstance(o, set | frozenset):
        return sorted(o)
    if isinstance(o, np.ndarray):
        return o.tolist()
    return str(o)


def action_key(action: Any) -> int | str:
    """An action as key sets and score tables store it, so that S1's ``IsSame`` is ``==``.

    Integer actions (one code: a board square) stay integers, ``-1`` for none (no valid
    first response); any other action (a tuple of cards) is its canonical JSON, ``""`` for
    none. The engine's actions are canonical (equal actions are equal values), so equal keys
    mean equal actions.
    """
    if action is None:
        return -1
    if isinstance(action, int | np.integer) and not isinstance(action, bool):
        return int(action)
    return json.dumps(action, sort_keys=True, separators=(",", ":"), default=_jsonable)


def action_column(keys: Sequence[int | str]) -> list[int] | list[str]:
    """One column type for a table's action keys: integers when every action is one (``-1``
    for none), else strings (``""`` for none)."""
    if all(isinstance(k, int) for k in keys):
        return [int(k) for k in keys]
    return ["" if k == -1 else str(k) for k in keys]


def _canon(entries: Sequence[Mapping[str, Any]]) -> list[str]:
    out = []
    for e in entries:
        out.append(json.dumps({k: (v.get("verdict", "OK"), v.get("response"))
                               for k, v in e.items() if isinstance(v, Mapping)},
                              sort_keys=True))
    return out
