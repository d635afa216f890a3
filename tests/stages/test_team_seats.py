"""Team seating (``matches.team_seats``) and forced decisions (``dataset.keep_forced``) through
the real stages: the match runner, the decisions extractor and dataset builder, and forks.

Doudizhu is the game with sides (``GameType.teams``: the landlord against both farmers), played
with its real rule bots (``config/bots/doudizhu.yaml``); nothing is mocked. The bot that records
which seats it was asked in wraps a real rule bot and returns its moves unchanged.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pyarrow.parquet as pq
import pytest

from ime.bots.registry import load_bot_specs, make_bot
from ime.core.bot import Bot, DecisionContext
from ime.core.game import State, num_sides, team_of
from ime.core.registry import get_game
from ime.datasets.build import build_dataset
from ime.datasets.extract import extract_part
from ime.evaluate.forks import LoggedMatch, agent_seats, finish_as
from ime.matches.logs import iter_raw_matches
from ime.matches.runner import build_target_schedule, fill_sides, play_schedule

GAME = "doudizhu"
TEAMS = ((0,), (1, 2))
OPPONENTS = ["ddz4", "opp_smallest"]
SPARRING = ["ddz4"]


def test_doudizhu_declares_its_sides() -> None:
    gt = get_game(GAME).game_type
    assert gt.teams == TEAMS
    assert [team_of(gt, s) for s in range(3)] == [(0,), (1, 2), (1, 2)]
    assert team_of(get_game("reversi").game_type, 1) == (1,)  # no sides: one seat each
    assert (num_sides(gt), num_sides(get_game("reversi").game_type)) == (2, 2)


def test_team_schedule_gives_the_target_each_side_in_turn_and_all_of_its_seats() -> None:
    one = build_target_schedule(GAME, "ddz5", OPPONENTS, SPARRING, 30, seed=3, seats=3)
    team = build_target_schedule(GAME, "ddz5", OPPONENTS, SPARRING, 30, seed=3, seats=3,
                                 teams=TEAMS)
    assert [s.match_id for s in one] == [s.match_id for s in team]
    landlord = [s for s in team if s.players[0] == "ddz5"]
    farmer = [s for s in team if s.players[0] != "ddz5"]
    # each side in turn (3 sparring matches: 2 + 1; 27 others: 14 + 13), where one seat each
    # makes the target the landlord in a third of them
    assert (len(landlord), len(farmer)) == (16, 14)
    assert sum(s.players[0] == "ddz5" for s in one) == 10
    assert all(s.players[1] == s.players[2] == "ddz5" for s in farmer)
    assert all("ddz5" not in s.players[1:] for s in landlord)
    # the other side is one program too, the one drawn for its first seat (seat 1)
    assert all(s.players[1] == s.players[2] for s in landlord)
    assert any(o.players[1] != o.players[2] for o in one if o.players[0] == "ddz5")
    assert team == build_target_schedule(GAME, "ddz5", OPPONENTS, SPARRING, 30, seed=3,
                                         seats=3, teams=TEAMS)  # seeded
    with pytest.raises(ValueError, match="seat 5"):
        fill_sides(("a", "b", "c"), "b", ((0,), (1, 5)))
    assert fill_sides(("a", "b", "c", "d"), "d", ((0, 1), (2, 3))) == ("a", "a", "d", "d")


def _play(tmp: Path, teams: tuple, n: int = 12) -> tuple[Path, list]:
    specs = build_target_schedule(GAME, "ddz5", OPPONENTS, SPARRING, n, seed=1, seats=3,
                                  teams=teams)
    log = tmp / ("team.jsonl" if teams else "one.jsonl")
    play_schedule(GAME, specs, load_bot_specs(GAME), log, seed=1, workers=1, progress=False)
    return log, specs


def _extract(tmp: Path, log: Path, name: str, keep_forced: bool = False) -> tuple[Any, dict]:
    part, rep = tmp / f"{name}.parquet", tmp / f"{name}.json"
    report = extract_part(log, part, rep, game=GAME, targets=["ddz5"], keep_forced=keep_forced)
    return pq.read_table(part).to_pandas(), report


def test_team_seated_match_puts_the_target_in_both_farmer_seats_and_the_dataset_takes_both(
        tmp_path: Path) -> None:
    log, specs = _play(tmp_path, TEAMS)
    lines = [m.data for m in iter_raw_matches(log)]
    players = [[p["bot"] for p in m["players"]] for m in lines]
    assert players == [list(s.players) for s in specs]
    farmer_ids = {m["_id"] for m, p in zip(lines, players, strict=True)
                  if p[1] == p[2] == "ddz5" and p[0] != "ddz5"}
    assert farmer_ids, "no farmer match in the schedule"
    rows, rep = _extract(tmp_path, log, "team")
    for mid in farmer_ids:
        seats = set(rows.loc[rows.match_id == mid, "seat"])
        assert seats == {1, 2}, (mid, seats)  # both farmer seats' decisions are rows
    assert rep["matches_per_bot"]["ddz5"] == len(lines)  # a match counts once
    # the same schedule seated one-per-side has fewer decisions of the target
    log1, _ = _play(tmp_path, ())
    rows1, _ = _extract(tmp_path, log1, "one")
    assert all(len(set(g.seat)) == 1 for _, g in rows1.groupby("match_id"))
    assert len(rows) > len(rows1)


class SeatRecorder(Bot):
    """A real bot that notes in which seats it was asked to move."""

    def __init__(self, inner: Bot) -> None:
        self.inner, self.bot_id, self.seats = inner, inner.bot_id, set()

    def act(self, state: State, ctx: DecisionContext) -> Any:
        self.seats.add(ctx.player)
        return self.inner.act(state, ctx)


def _provider():
    cache: dict[str, Bot] = {}

    def get(bot_id: str) -> Bot:
        if bot_id not in cache:
            cache[bot_id] = make_bot(GAME, bot_id)
        return cache[bot_id]
    return get


def _first_farmer_match(log: Path) -> LoggedMatch:
    for item in iter_raw_matches(log):
        m = LoggedMatch.from_json(item.data, default_seed=1)
        if m.players[1] == m.players[2] == "ddz5" or (
                m.players[1] == "ddz5" and m.players[0] != "ddz5"):
            return m
    raise AssertionError("no match with ddz5 as a farmer")


@pytest.mark.parametrize("teams", [TEAMS, ()], ids=["team", "one"])
def test_fork_agent_fills_every_seat_its_program_held_on_the_side(tmp_path: Path,
                                                                 teams: tuple) -> None:
    log, _ = _play(tmp_path, teams)
    m = _first_farmer_match(log)
    game = get_game(GAME)
    seat = m.players.index("ddz5")  # a farmer seat
    expect = {1, 2} if teams else {seat}
    assert set(agent_seats(game, m.players, seat)) == expect
    prov = _provider()
    # the target itself in the same seats replays the log move for move
    me = finish_as(game, m, 1, seat, prov("ddz5"), prov, compare_moves=True)
    assert me.moves_same
    # another program (ddz4) takes the target's seats: every one of them when the side was all
    # the target's, the one seat otherwise; the landlord keeps its program
    agent = SeatRecorder(make_bot(GAME, "ddz4"))
    finish_as(game, m, 1, seat, agent, prov)
    assert agent.seats == expect


def test_keep_forced_keeps_single_action_decisions_and_raises_the_baseline(
        tmp_path: Path) -> None:
    log, _ = _play(tmp_path, TEAMS, n=20)
    base, rep0 = _extract(tmp_path, log, "drop")
    kept, rep1 = _extract(tmp_path, log, "keep", keep_forced=True)
    assert rep0["forced_passes_dropped"] > 0 and "forced_kept" not in rep0
    assert rep1["forced_passes_dropped"] == 0
    assert rep1["forced_kept"] == rep0["forced_passes_dropped"]
    assert len(kept) == len(base) + rep0["forced_passes_dropped"]
    assert (kept.num_legal == 1).sum() >= rep1["forced_kept"]
    stats = {}
    for name in ("drop", "keep"):
        stats[name] = build_dataset([tmp_path / f"{name}.parquet"], [tmp_path / f"{name}.json"],
                                    "ddz5", tmp_path / f"ds_{name}.parquet",
                                    tmp_path / f"ds_{name}.json", game=GAME)
    assert stats["keep"]["pairs"] == len(kept) and stats["drop"]["pairs"] == len(base)
    assert stats["keep"]["baseline"] > stats["drop"]["baseline"] + 5
    meta = json.loads(pq.read_schema(tmp_path / "ds_keep.parquet").metadata[b"ime.keep_forced"])
    assert meta is True
    with pytest.raises(ValueError, match="keep_forced"):  # parts of both kinds never mix
        build_dataset([tmp_path / "drop.parquet", tmp_path / "keep.parquet"],
                      [tmp_path / "drop.json", tmp_path / "keep.json"], "ddz5",
                      tmp_path / "mix.parquet", tmp_path / "mix.json", game=GAME)


def test_keep_forced_is_an_error_for_an_encoder_without_the_option(tmp_path: Path) -> None:
    from ime.datasets.extract import dataset_encoder

    with pytest.raises(ValueError, match="reversi encoder has no keep_forced option"):
        dataset_encoder("reversi", keep_forced=True)
    assert dataset_encoder(GAME, keep_forced=True).keep_forced
