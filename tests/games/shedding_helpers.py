"""Test helpers shared by Big-2 and Doudizhu (``ime.games.shedding``'s games): decision
contexts, checked and first-legal bots, reproducible decisions, seeded matches, and the log and
external-program checks their codec tests make alike. Each game's ``conftest.py`` puts this
folder on ``sys.path``.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from ime.bots.external.bot import ExternalBot
from ime.bots.external.spec import ExternalSpec
from ime.core.bot import Bot, DecisionContext
from ime.core.game import Game
from ime.games.shedding.bots import RandomBot
from ime.matches.judge import MatchResult, run_match
from ime.matches.logs import read_matches, write_matches


def ctx(st, seed: int = 0, match: str = "m") -> DecisionContext:
    """The decision context of the player to move in ``st``."""
    return DecisionContext(seed=seed, match_id=match, ply=st.ply, player=st.to_move)


class Checked(Bot):
    """Asserts that every action is one of the canonical legal actions and the state is not
    mutated."""

    def __init__(self, inner: Bot):
        self.inner, self.bot_id = inner, inner.bot_id

    def act(self, state, ctx):
        before = (state.ply, state.hand(ctx.player), state.to_move)
        a = self.inner.act(state, ctx)
        assert a in state.legal_actions(ctx.player), (self.bot_id, a, str(state))
        assert (state.ply, state.hand(ctx.player), state.to_move) == before
        return a


def decision_sample(decisions: list, n: int) -> list:
    """``n`` states drawn (seeded) from recorded ``(bot, decision)`` pairs with a choice."""
    rng = np.random.default_rng(3)
    many = [d.state for _, d in decisions if len(d.state.legal_actions()) > 1]
    return [many[int(i)] for i in rng.choice(len(many), n, replace=False)]


def assert_reproducible(a: Bot, b: Bot, positions: list) -> None:
    """Two copies of a bot choose alike at ``positions``, whatever order they see them in."""
    first = [a.act(st.clone(), ctx(st)) for st in positions]
    again = [b.act(st.clone(), ctx(st)) for st in reversed(positions)]
    assert first == again[::-1]


class First(Bot):
    """The first legal action (what the games' ``bench_bot.py`` programs play)."""

    bot_id = "first"

    def act(self, state, ctx: DecisionContext):
        return state.legal_actions(ctx.player)[0]


def seeded_matches(game: Game, smallest: Callable[[str], Bot], n: int,
                   initdata: Callable[[int], Any]) -> list[MatchResult]:
    """``n`` matches ``m0 ..`` of seed ``i``, dealt ``initdata(i)``: the random bot in most
    seats, the game's ``smallest`` bot in every third."""
    seats = game.game_type.num_players
    out = []
    for i in range(n):
        bots = [(RandomBot if (i + p) % 3 else smallest)(f"b{p}") for p in range(seats)]
        out.append(run_match(game, bots, match_id=f"m{i}", seed=i, initdata=initdata(i)))
    return out


def assert_logs_replay(tmp_path: Path, matches: list[MatchResult], game: Game) -> list:
    """Written and read back strictly (every match replayed through the judge), ``matches``
    come back with their scores, logs and actions; returns the replayed results."""
    assert all(m.fault is None for m in matches)
    path = tmp_path / "a.matches"
    write_matches(path, matches)
    rep = read_matches(path, game)
    assert len(rep.accepted) == len(matches)
    for orig, back in zip(matches, rep.accepted, strict=True):
        assert back.scores == orig.scores and back.log == orig.log
        assert [d.action for d in back.decisions] == [c for _, c in orig.final_state.history]
    return rep.accepted


def corrupt(line: dict, turn: int, response) -> dict:
    """A copy of match-pack ``line`` whose ``turn``-th response is ``response``."""
    bad = json.loads(json.dumps(line))
    entry = bad["log"][2 * turn + 1]
    (key,) = entry
    entry[key]["response"] = response
    return bad


def assert_missing_card_named(tmp_path: Path, line: dict, bad: dict, game: Game, turn: int,
                              player: int) -> Any:
    """A pack of ``line`` then ``bad`` (whose ``turn`` plays a card ``player`` was not dealt):
    read leniently, ``bad`` is rejected as ``MISSING_CARD`` by match id, line and ply; read
    strictly, it raises. Returns the rejection."""
    path = tmp_path / "bad.matches"
    path.write_text(json.dumps(line) + "\n" + json.dumps(bad) + "\n")
    rep = read_matches(path, game, mode="lenient")
    assert len(rep.accepted) == 1 and len(rep.rejected) == 1
    (rej,) = rep.rejected
    assert rej.kind == "illegal_move" and rej.match_id == line["_id"] and rej.line == 2
    assert f"turn {turn}: player {player}" in rej.reason and "MISSING_CARD" in rej.reason
    with pytest.raises(ValueError, match="MISSING_CARD"):
        read_matches(path, game)  # strict
    return rej


def assert_external_program_plays(program: Path, game: Game, initdata: Any, keep: bool) -> None:
    """The stand-alone ``program`` (a game's ``bench_bot.py``), in seat 1 and then seat 0
    beside :class:`First` bots, plays the match those bots play alone: no fault, the same
    scores and player entries (one process per turn, or kept running with ``keep``)."""
    params = {"command": [sys.executable, str(program), *(["keep"] if keep else [])],
              "time_limit": 30}
    if keep:
        params.update(keep_running=True, keep_running_time_limit=30)
    seats = game.game_type.num_players
    for seat in (1, 0):
        ext = ExternalBot(ExternalSpec.from_params("ext", params))
        try:
            bots: list[Bot] = [First() for _ in range(seats)]
            bots[seat] = ext
            res = run_match(game, bots, match_id=f"x{seat}", seed=1, initdata=initdata)
            ref = run_match(game, [First()] * seats, match_id=f"x{seat}", seed=1,
                            initdata=initdata)
        finally:
            ext.close()
        assert res.fault is None and res.scores == ref.scores
        assert [e for e in res.log if "output" not in e] == [
            e for e in ref.log if "output" not in e]
