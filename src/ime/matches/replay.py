"""Validate a logged match by replaying it through our judge (:func:`replay_match`).

A log is accepted only when the rules reproduce it: every judge request the log shows is the one
the rules send, every response is legal where the log goes on, the game ends where the log ends,
and the final scores are the judge's. Otherwise :class:`ReplayError` says how the log
contradicts the rules, with a short ``kind`` for reports (see :mod:`ime.matches.logs`).
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from ime.core.bot import Bot, DecisionContext
from ime.core.game import Action, Game, State
from ime.matches.judge import MatchResult, run_match
from ime.matches.rawlog import BadMatch, RawMatch, finish_scores, parse_initdata, player_entries


def _structure_problem(m: RawMatch, game: Game) -> tuple[str, str] | None:
    """``(kind, reason)`` of the first structural problem, or None."""
    d = m.data
    tag = d.get("game")
    names = {game.name, (game.botzone_game_id or game.name).lower()}
    if tag is not None and str(tag).lower() not in names:
        return "wrong_game", f"wrong game: {tag!r} (expected {game.name})"
    if "log" not in d:
        return "missing_log", "missing 'log'"
    if not isinstance(d["log"], list) or not d["log"]:
        return "missing_log", "'log' must be a non-empty list"
    players = d.get("players")
    if not isinstance(players, list):
        return "structure", "'players' must be a list"
    if len(players) != game.num_players:
        return "wrong_game", (f"{len(players)} players but {game.name} has {game.num_players} "
                              "(a log of another game?)")
    for k, pl in enumerate(players):
        if not isinstance(pl, (Mapping, str)):
            return "structure", f"players[{k}] must be an object or a name"
    for k, e in enumerate(d["log"]):
        if not isinstance(e, Mapping):
            return "structure", f"log[{k}] is not an object"
        if k % 2 == 0 and not isinstance(e.get("output"), Mapping):
            return "structure", f"log[{k}] should be a judge entry (has no 'output' object)"
    last = d["log"][-1].get("output")
    if len(d["log"]) % 2 == 0 or not isinstance(last, Mapping) or last.get("command") != "finish":
        return "truncated", "log does not end with a judge 'finish' entry (truncated match?)"
    content = last.get("content")
    if not isinstance(content, Mapping) or any(str(p) not in content
                                               for p in range(game.num_players)):
        return "structure", "the 'finish' entry must give a score to every player"
    return None


def check_structure(m: RawMatch, game: Game) -> str | None:
    """Cheap checks before replay; returns a reason or None."""
    problem = _structure_problem(m, game)
    return None if problem is None else problem[1]


class ReplayError(ValueError):
    """The log contradicts the rules; ``kind`` says how (see the module doc)."""

    def __init__(self, kind: str, message: str):
        super().__init__(message)
        self.kind = kind


class _LogEnded(Exception):
    def __init__(self, turn: int, player: int):
        super().__init__(turn, player)
        self.turn = turn
        self.player = player


class _EndOfLog(Bot):
    """Sits in every seat of a replay: reached only when the log stops before the game does."""

    bot_id = "end-of-log"

    def act(self, state: State, ctx: DecisionContext) -> Action:
        raise _LogEnded(len(ctx.requests) - 1, ctx.player)

    def respond(self, state: State, ctx: DecisionContext) -> Any:
        raise _LogEnded(state.ply, ctx.player)


def _canon(v: Any) -> str:
    return json.dumps(v, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def _fault_kind(reason: str) -> str:
    if reason == "INVALID_INPUT_VERDICT_OK":
        return "bad_response"
    if "PASS" in reason or "COULDNOT_MOVE" in reason:
        return "wrong_pass"
    return "illegal_move"


def replay_match(game: Game, m: RawMatch, *, record_decisions: bool = True) -> MatchResult:
    """Replay a logged match through our judge and check it against the log.

    Raises :class:`ReplayError` (a ValueError) with the reason when the log contradicts the
    rules: a move the judge rejects where the log goes on, a judge request that differs from
    what the rules send (the first one differing usually means a log of another game), a finish
    before the game is over, or different final scores.
    """
    data = m.data
    entries = player_entries(data)
    initdata = parse_initdata(data.get("initdata"))
    seats = [_EndOfLog()] * game.num_players
    seed = data.get("seed")  # the logged seed, if any: kept on the replay, never invented
    seed = seed if isinstance(seed, int) and not isinstance(seed, bool) else None
    try:
        res = run_match(game, seats, match_id=m.match_id, initdata=initdata,
                        prefix=entries, player_ids=m.bot_ids(),
                        record_decisions=record_decisions, seed=seed or 0)
        res.seed = seed
    except _LogEnded as e:
        raise ReplayError("early_finish", f"the log finishes after {len(entries)} turns but by "
                          f"the rules the game is not over (player {e.player} to move)") from None
    for k in range(0, len(res.log) - 1, 2):
        want = data["log"][k]["output"].get("content")
        got = res.log[k]["output"]["content"]
        if _canon(want) != _canon(got):
            if k == 0:
                raise ReplayError("wrong_game", f"the first judge request {_canon(want)[:120]} "
                                  f"is not {game.name}'s {_canon(got)[:120]} (a log of another "
                                  "game?)")
            raise ReplayError("wrong_request", f"judge entry log[{k}] sends {_canon(want)[:120]}"
                              f" but the rules send {_canon(got)[:120]}")
    turns_played = len(res.log) // 2
    if turns_played < len(entries):
        if res.fault is not None:
            f = res.fault
            k = 2 * turns_played - 1
            item = data["log"][k].get(str(f.player), {})
            resp = item.get("response", item.get("content")) if isinstance(item, Mapping) else None
            raise ReplayError(
                _fault_kind(f.reason),
                f"turn {turns_played - 1}: player {f.player}'s response {_canon(resp)} loses "
                f"the game ({f.reason}) but the log goes on to {len(entries)} turns")
        raise ReplayError("too_long", f"the game is over after {turns_played} turns but the log "
                          f"has {len(entries)}")
    want_scores = finish_scores(data)
    if [round(s, 6) for s in want_scores] != [round(s, 6) for s in res.scores]:
        raise ReplayError("wrong_score",
                          f"final scores {want_scores} contradict the rules: replay gives "
                          f"{res.scores}" + (f" ({res.fault.reason})" if res.fault else ""))
    top = data.get("scores")
    if isinstance(top, list) and [round(float(s), 6) for s in top] != [
            round(s, 6) for s in want_scores]:
        raise ReplayError("wrong_score", f"top-level 'scores' {top} contradict the log's "
                          f"finish {want_scores}")
    return res


def validate_match(
    item: RawMatch,
    game: Game,
    *,
    known_players: set[str] | None = None,
    replay: bool = True,
    keep_faulted: bool = True,
    record_decisions: bool = True,
) -> MatchResult | RawMatch | BadMatch:
    """One match through every check of :func:`read_matches`: the replay, or why it is bad."""
    problem = _structure_problem(item, game)
    if problem is None and known_players is not None:
        unknown = [b for b in item.bot_ids() if b not in known_players]
        if unknown:
            problem = ("unknown_player", f"unknown player(s) {unknown}")
    if problem is not None:
        return BadMatch(item.path, item.line, item.match_id, problem[1], problem[0])
    if not replay:
        return item
    try:
        result = replay_match(game, item, record_decisions=record_decisions)
    except ReplayError as e:
        return BadMatch(item.path, item.line, item.match_id, f"rejected by the judge: {e}", e.kind)
    except Exception as e:  # a log shaped in a way nobody foresaw: say so, never crash
        return BadMatch(item.path, item.line, item.match_id,
                        f"cannot replay: {type(e).__name__}: {e}", "bad_log")
    if not keep_faulted and result.fault is not None:
        f = result.fault
        return BadMatch(item.path, item.line, item.match_id,
                        f"ended by a fault: player {f.player} {f.verdict} {f.reason}", "faulted")
    return result

