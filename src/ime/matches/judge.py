"""The judge: plays bots against each other, validates every move, writes Botzone logs.

One loop serves every game in the API of :mod:`ime.core.game`: single-mover games (any number of
seats) and simultaneous-move games alike, because a turn is "every current player
answers its request, then the state advances".

The same loop replays logs: a ``prefix`` of recorded player entries is fed through the rules
instead of asking bots, and the bots take over where the prefix ends. That makes three things one
mechanism:

* replaying a platform log to validate it (prefix = the whole log, no bots needed);
* forking a match at ply ``i`` (prefix = the first ``i`` turns, then any bots finish it);
* generating fresh matches (no prefix).

Faults follow Botzone: a bot that raises :class:`BotFault` (time limit, runtime error, garbage)
gets that verdict in its player entry and loses as the judge's ``INVALID_INPUT_VERDICT_*`` rule
says; an illegal or unparsable response loses with the game's own error code.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from ime.core.bot import Bot, BotFault, DecisionContext
from ime.core.game import Action, Game, IllegalMoveError, State
from ime.core.seeding import derive_seed


@dataclass
class Fault:
    """Why a match ended early: who, at which ply, the verdict and the judge's reason."""

    player: int
    ply: int
    verdict: str
    reason: str

    def to_json(self) -> dict:
        return {"player": self.player, "ply": self.ply, "verdict": self.verdict,
                "reason": self.reason}


@dataclass
class Decision:
    """One decision of one player: the state *before* it, and what was played."""

    ply: int
    player: int
    state: State
    action: Action
    response: Any
    from_prefix: bool


@dataclass
class MatchResult:
    match_id: str
    game: str
    players: list[str]
    initdata: Any
    log: list[dict]
    scores: list[float]
    fault: Fault | None
    final_state: State
    decisions: list[Decision] = field(default_factory=list)
    seed: int | None = None
    """The seed the bots decided with (``DecisionContext.seed``); ``None`` when unknown (a
    replayed log that recorded none)."""

    def to_json(self) -> dict:
        """The match as one Botzone match-pack line, plus our audit fields: ``game``, ``seed``
        (when known: what a fork needs to replay the bots' decisions) and ``fault``."""
        out: dict[str, Any] = {
            "_id": self.match_id,
            "game": self.game,
        }
        if self.seed is not None:
            out["seed"] = self.seed
        out.update({
            "players": [{"type": "bot", "bot": b} for b in self.players],
            "initdata": self.initdata,
            "log": self.log,
            "scores": [_num(s) for s in self.scores],
        })
        if self.fault is not None:
            out["fault"] = self.fault.to_json()
        return out


def _num(x: float) -> int | float:
    return int(x) if float(x).is_integer() else float(x)


def run_match(
    game: Game,
    bots: Sequence[Bot | None],
    *,
    match_id: str,
    seed: int = 0,
    initdata: Any = None,
    prefix: Sequence[Mapping[str, Any]] | None = None,
    player_ids: Sequence[str] | None = None,
    record_decisions: bool = False,
    max_turns: int = 10_000,
) -> MatchResult:
    """Play (or replay, or fork) one match.

    ``bots[p]`` sits in seat ``p``; it may be ``None`` when the prefix covers the whole match.
    ``prefix`` holds recorded player entries (``{"0": {"verdict": "OK", "response": ...}}``),
    consumed turn by turn before any bot is asked. Bots see a clone of the state and a
    :class:`DecisionContext` with their Botzone transcript; their decision context uses the
    same ``match_id`` and ply as the original, which is what makes a fork reproduce a match.

    However the match ends (a finish, a fault, an exception), every bot that has
    ``end_match`` is told, once: an external bot's kept-running program dies with its match,
    as on Botzone, even when the match ended on another seat's move.
    """
    try:
        return _run_match(game, bots, match_id=match_id, seed=seed, initdata=initdata,
                          prefix=prefix, player_ids=player_ids,
                          record_decisions=record_decisions, max_turns=max_turns)
    finally:
        end_match(bots, match_id)


def end_match(bots: Sequence[Bot | None], match_id: str) -> None:
    """Call ``end_match(match_id)`` once on every distinct bot that has it."""
    seen: set[int] = set()
    for bot in bots:
        if bot is None or id(bot) in seen:
            continue
        seen.add(id(bot))
        hook = getattr(bot, "end_match", None)
        if hook is not None:
            hook(match_id)


def _run_match(
    game: Game,
    bots: Sequence[Bot | None],
    *,
    match_id: str,
    seed: int,
    initdata: Any,
    prefix: Sequence[Mapping[str, Any]] | None,
    player_ids: Sequence[str] | None,
    record_decisions: bool,
    max_turns: int,
) -> MatchResult:
    if initdata is None:
        # A game that deals or draws its start (Doudizhu's deal, Snake's board) gets one start
        # per match, keyed like a decision by (seed, match id); the log's initdata records it.
        state = game.new_initial_state(seed=derive_seed(seed, "start", match_id))
    else:
        state = game.new_initial_state(initdata=initdata, seed=seed)
    n = game.num_players
    ids = list(player_ids) if player_ids is not None else [
        b.bot_id if b is not None else f"player{p}" for p, b in enumerate(bots)
    ]
    requests: list[list[Any]] = [[] for _ in range(n)]
    responses: list[list[Any]] = [[] for _ in range(n)]
    log: list[dict] = []
    decisions: list[Decision] = []
    fault: Fault | None = None
    prefix = list(prefix or [])
    turn = 0
    init_out = state.initdata()

    while not state.is_terminal():
        if turn >= max_turns:
            raise RuntimeError(f"match {match_id}: no end after {max_turns} turns")
        movers = state.current_players()
        content = {str(p): state.request_for(p) for p in movers}
        output: dict[str, Any] = {"command": "request", "content": content,
                                  "display": state.display() if turn else _first_display(state)}
        if turn == 0 and init_out not in (None, ""):
            output["initdata"] = init_out
        log.append({"output": output})
        for p in movers:
            requests[p].append(content[str(p)])

        entry: dict[str, Any] = {}
        actions: dict[int, Action] = {}
        before = state.clone() if record_decisions else None
        for p in movers:
            key = str(p)
            from_prefix = turn < len(prefix)
            if from_prefix:
                item = prefix[turn].get(key)
                if not isinstance(item, Mapping):
                    raise ValueError(f"match {match_id}: turn {turn} has no entry for player {p}")
                verdict = str(item.get("verdict", "OK"))
                response = item.get("response", item.get("content"))
            else:
                bot = bots[p]
                if bot is None:
                    raise ValueError(f"match {match_id}: prefix ended at turn {turn} "
                                     f"and seat {p} has no bot")
                ctx = DecisionContext(seed=seed, match_id=match_id, ply=state.ply, player=p,
                                      requests=list(requests[p]), responses=list(responses[p]))
                try:
                    response = respond(bot, state.clone(), ctx)
                    verdict = "OK"
                except BotFault as e:
                    verdict, response = e.verdict, None
                    entry[key] = {"verdict": verdict, "debug": e.detail[:500]}
            if verdict != "OK":
                entry.setdefault(key, {"verdict": verdict})
                fault = fault or Fault(p, state.ply, verdict, f"INVALID_INPUT_VERDICT_{verdict}")
                continue
            entry[key] = {"verdict": "OK", "response": response}
            try:
                actions[p] = state.decode_response(p, response)
            except IllegalMoveError as e:
                fault = fault or Fault(p, state.ply, "OK", e.reason)
            if before is not None and p in actions:
                decisions.append(Decision(state.ply, p, before, actions[p], response, from_prefix))
        log.append(entry)
        for p in movers:
            responses[p].append(entry[str(p)].get("response"))
        if fault is None:
            try:
                state.apply_actions(actions)
            except IllegalMoveError as e:
                fault = Fault(e.player, state.ply, "OK", e.reason)
        if fault is not None:
            state.forfeit(fault.player, fault.reason)
        turn += 1

    scores = state.returns()
    log.append({"output": {"command": "finish",
                           "content": {str(p): _num(s) for p, s in enumerate(scores)},
                           "display": state.display()}})
    return MatchResult(match_id=match_id, game=game.name, players=ids, initdata=init_out,
                       log=log, scores=scores, fault=fault, final_state=state,
                       decisions=decisions, seed=int(seed))


def respond(bot: Bot, state: State, ctx: DecisionContext) -> Any:
    """A bot's Botzone response: external programs answer raw JSON, in-process bots an action."""
    raw = getattr(bot, "respond", None)
    if raw is not None:
        return raw(state, ctx)
    return state.encode_response(ctx.player, bot.act(state, ctx))


def _first_display(state: State) -> Any:
    return ""
