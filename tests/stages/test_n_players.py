"""N seats and simultaneous moves through the stages: matches, schedules, tournaments, forks,
key mining and scoring, on the synthetic games of ``synthetic_games.py``."""

from __future__ import annotations

from collections import Counter

import numpy as np
import pytest
from synthetic_games import TURNS, registered  # noqa: F401 - the fixture is used by name

from ime.core.registry import get_game
from ime.datasets.build import build_dataset
from ime.datasets.extract import extract_part
from ime.datasets.schema import read_arrays
from ime.evaluate.forks import LOSS, WIN, LoggedMatch, finish_as, outcome, state_at
from ime.evaluate.keys import mine_keys, read_keyset, write_keyset
from ime.evaluate.ratings import bradley_terry, win_matrix
from ime.evaluate.scoring import score_agent
from ime.evaluate.similarity import similarity
from ime.evaluate.tournament import (
    balanced_openings,
    bot_outcomes,
    opening_prefix,
    pair_schedule,
    play_games,
    result_columns,
    seat_rotations,
    standings,
)
from ime.evaluate.toy import ToyProvider, ToyProviderFactory
from ime.matches.judge import run_match
from ime.matches.logs import read_matches, write_matches
from ime.matches.runner import build_target_schedule

pytestmark = pytest.mark.usefixtures("registered")
SEED = 5


def _logs(tmp_path, game_name, lineups, name):
    game = get_game(game_name)
    prov = ToyProvider()
    ms = [run_match(game, [prov(b) for b in lineup], match_id=f"{name}-{k:03d}", seed=SEED)
          for k, lineup in enumerate(lineups)]
    path = tmp_path / f"{name}.jsonl"
    write_matches(path, ms)
    return path, ms


def test_three_seat_match_replays_and_scores_by_side(tmp_path):
    lineups = [("toy_first", "toy_last", "toy_random"), ("toy_random", "toy_first", "toy_last")]
    path, ms = _logs(tmp_path, "synthetic_trio", lineups * 3, "trio")
    for m in ms:
        assert sorted(m.scores) in ([0.0, 0.0, 2.0], [0.0, 1.0, 1.0])
        # partners share their side's score, so both win or both lose
        assert outcome(m.scores, 1) == outcome(m.scores, 2) != outcome(m.scores, 0)
    rep = read_matches(path, get_game("synthetic_trio"))  # every line replays through the judge
    assert len(rep.accepted) == 6 and not rep.rejected
    assert [r.scores for r in rep.accepted] == [m.scores for m in ms]


def test_outcome_of_one_seat_against_all_others():
    assert outcome([0, 1, 1], 1) == WIN and outcome([0, 1, 1], 0) == LOSS
    assert outcome([2, 0, 0], 0) == WIN and outcome([2, 0, 0], 2) == LOSS
    assert outcome([1, 1, 1], 2) == 1


def test_schedules_rotate_every_seat():
    assert seat_rotations(["a", "b", "c"]) == [("a", "b", "c"), ("b", "c", "a"), ("c", "a", "b")]
    # two seats: exactly the double round-robin order, a first then b first
    assert [g.players for g in pair_schedule("a", "b", 2)] == [("a", "b"), ("b", "a")] * 2
    sched = pair_schedule("a", "b", 2, seats=3)
    assert len(sched) == 2 * 2 * 3 and {g.round for g in sched} == {0, 1}
    for bot in ("a", "b"):
        alone = [g.players.index(bot) for g in sched if g.players.count(bot) == 1]
        assert sorted(alone) == [0, 0, 1, 1, 2, 2]  # alone in every seat, every round
    assert result_columns(2) == ["round", "match_id", "player0", "player1", "score0", "score1",
                                 "outcome0", "plies"]
    assert result_columns(3)[2:5] == ["player0", "player1", "player2"]


def test_match_schedule_for_three_seats():
    specs = build_target_schedule("synthetic_trio", "t", ["o1", "o2"], ["s"], 30, seed=1,
                                  vs_targets=0.2, seats=3)
    assert len(specs) == 30 and all(len(s.players) == 3 for s in specs)
    assert all(s.players.count("t") == 1 for s in specs)
    seats = Counter(s.players.index("t") for s in specs)
    assert set(seats) == {0, 1, 2} and min(seats.values()) >= 8
    assert sum(1 for s in specs if "s" in s.players) == 6
    two = build_target_schedule("g", "t", ["o1", "o2"], ["s"], 10, seed=1, vs_targets=0.2)
    assert two == build_target_schedule("g", "t", ["o1", "o2"], ["s"], 10, seed=1,
                                        vs_targets=0.2, seats=2)


def test_three_seat_tournament_standings_and_ratings():
    games = pair_schedule("toy_first", "toy_last", 2, seats=3)
    res, logs = play_games("synthetic_trio", games, ToyProviderFactory(), rounds=2,
                           opening_plies=2, seed=SEED, progress=False)
    assert list(res.columns) == result_columns(3) and len(res) == len(games) == len(logs)
    assert (res[["score0", "score1", "score2"]].sum(axis=1) == 2).all()
    per_game = bot_outcomes(res)
    assert all(set(g) == {"toy_first", "toy_last"} for g in per_game)
    assert all(max(g.values()) == WIN for g in per_game)  # a side always wins this game
    st = standings(res).set_index("bot")
    assert (st["games"] == len(games)).all()  # one result per bot and game
    assert (st["wins"] + st["draws"] + st["losses"] == st["games"]).all()
    assert st["draws"].sum() == 0 and st["wins"].sum() >= len(games)
    w = win_matrix(res, ["toy_first", "toy_last"])
    assert w.sum() == len(games)  # one comparison per game between the two bots
    bt = bradley_terry(res, ["toy_first", "toy_last"], n_boot=20, seed=1)
    assert list(bt["bot"]) == ["toy_first", "toy_last"] and np.isfinite(bt["elo"]).all()
    again, _ = play_games("synthetic_trio", games, ToyProviderFactory(), rounds=2,
                          opening_plies=2, seed=SEED, progress=False)
    assert again.equals(res)


def test_simultaneous_openings_and_tournament():
    game = get_game("synthetic_duel")
    ops = balanced_openings(game, 4, 2, seed=3)
    assert len({str(o) for o in ops}) == 4
    assert all(isinstance(ply, dict) and set(ply) == {0, 1} for o in ops for ply in o)
    prefix = opening_prefix(game, ops[0])
    assert [set(e) for e in prefix] == [{"0", "1"}, {"0", "1"}]
    prov = ToyProvider()
    res = run_match(game, [prov("toy_first"), prov("toy_last")], match_id="o", prefix=prefix)
    assert [res.log[k] for k in (1, 3)] == prefix  # the opening, then the bots
    assert res.final_state.ply == TURNS and not res.fault
    tour, _ = play_games("synthetic_duel", pair_schedule("toy_first", "toy_random", 2),
                         ToyProviderFactory(), rounds=2, opening_plies=2, seed=1,
                         progress=False)
    assert list(tour.columns) == result_columns(2) and (tour["plies"] == TURNS).all()


def test_simultaneous_decisions_become_rows_for_both_seats(tmp_path):
    path, ms = _logs(tmp_path, "synthetic_duel", [("toy_first", "toy_last")] * 3, "duel")
    rep = extract_part(path, tmp_path / "d.parquet", tmp_path / "d.json", game="synthetic_duel",
                       targets=["toy_first", "toy_last"])
    assert rep["decisions_per_bot"] == {"toy_first": 3 * TURNS, "toy_last": 3 * TURNS}
    arr = read_arrays(tmp_path / "d.parquet")
    for ply in range(TURNS):  # both seats decided at every ply
        assert sorted(arr.seat[(arr.match_id == "duel-000") & (arr.ply == ply)]) == [0, 1]
    assert (arr.mask[np.arange(len(arr)), arr.action] == 1).all()


@pytest.mark.parametrize("game_name,lineups,target", [
    ("synthetic_trio", [("toy_first", "toy_random", "toy_last"),
                        ("toy_last", "toy_first", "toy_random"),
                        ("toy_random", "toy_last", "toy_first")], "toy_first"),
    ("synthetic_duel", [("toy_first", "toy_random"), ("toy_random", "toy_first")], "toy_first"),
])
def test_key_mining_forks_and_scoring(tmp_path, game_name, lineups, target):
    game = get_game(game_name)
    path, _ = _logs(tmp_path, game_name, lineups * 6, game_name)
    res = mine_keys(game, target, ["toy_last", "toy_random"], [path], ToyProviderFactory(),
                    n_keys=4, seed=2, match_seed=SEED, progress=False)
    st = res.stats
    assert st.n_keys >= 1 and st.self_fork_failed == 0
    assert st.matches_total == len(lineups) * 6
    write_keyset(res, tmp_path / "k.parquet")
    ks = read_keyset(tmp_path / "k.parquet")
    prov = ToyProvider()
    for i in range(len(ks.df)):
        row = ks.df.iloc[i]
        m = ks.logged_match(i)
        seat, ply = int(row["seat"]), int(row["ply"])
        assert seat in state_at(game, m, ply).current_players()
        assert m.players[seat] == target
        full = LoggedMatch.from_json(next(x.to_json() for x in [run_match(
            game, [prov(p) for p in m.players], match_id=m.match_id, seed=SEED)]), SEED)
        fo = finish_as(game, full, ply, seat, prov(target), prov, compare_moves=True)
        assert fo.moves_same and fo.outcome == int(row["target_outcome"])
        assert ks.mask[i][int(row["action"])] == 1
    # a stored reference scored by forking agrees with what mining stored
    stored, _ = score_agent(ks, "toy_last", ToyProviderFactory(), progress=False)
    forked, _ = score_agent(ks, "toy_last", ToyProviderFactory(), progress=False,
                            force_fork=True)
    assert stored.equals(forked)
    differs = (ks.df["outcome__toy_last"] != ks.df["target_outcome"]) | (
        ks.df["outcome__toy_random"] != ks.df["target_outcome"])
    assert differs.all()  # a key: some reference's result differs from the target's
    sim = similarity(ks.df, forked, agent="toy_last", target=target, n_boot=20)
    assert sim.s2 == (forked["outcome"] == ks.df["target_outcome"]).mean()


def test_move_choice_figures_of_a_game_without_a_board(tmp_path):
    from ime.report import figures

    lineups = [("toy_first", "toy_last", "toy_random"), ("toy_last", "toy_random", "toy_first")]
    path, ms = _logs(tmp_path, "synthetic_trio", lineups * 2, "fig")
    extract_part(path, tmp_path / "p.parquet", tmp_path / "p.json", game="synthetic_trio",
                 targets=["toy_first", "toy_last"])
    for bot in ("toy_first", "toy_last"):
        build_dataset([tmp_path / "p.parquet"], [tmp_path / "p.json"], bot,
                      tmp_path / f"{bot}.parquet", tmp_path / f"{bot}.json", game="synthetic_trio")
    counts = figures.move_counts_from_datasets(
        {b: tmp_path / f"{b}.parquet" for b in ("toy_first", "toy_last")})
    assert counts.game == "synthetic_trio" and len(counts["toy_first"]) == 3
    logged = figures.move_counts_from_logs([path], ["toy_first", "toy_last"],
                                           game="synthetic_trio")
    for b in counts:
        np.testing.assert_array_equal(counts[b], logged[b])
    assert figures.code_layout("synthetic_trio").grid is None  # no board: bar charts
    figures.plot_move_heatmaps(counts, tmp_path / "m.png", tmp_path / "m.pdf")
    figures.plot_fig4_2(counts, "toy_first", "toy_last", tmp_path / "f.png")
    assert all((tmp_path / f).stat().st_size > 0 for f in ("m.png", "m.pdf", "f.png"))
