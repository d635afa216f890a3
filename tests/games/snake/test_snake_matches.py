"""Snake through the generic machinery: matches played by the judge and the schedule runner,
written as Botzone logs and read back (each replayed through our judge with the same scores),
the two basic bots, ``ime play`` / ``ime perft`` / ``ime bench``, and an external program."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from ime.bots.external.bot import ExternalBot
from ime.bots.external.spec import ExternalSpec
from ime.bots.registry import make_bot
from ime.core.bot import DecisionContext
from ime.core.registry import get_game, get_plugin
from ime.core.seeding import derive_seed
from ime.games.snake import GAME
from ime.games.snake import tools as T
from ime.matches.judge import run_match
from ime.matches.logs import read_matches, write_matches
from ime.matches.runner import MatchSpec, play_schedule

SPECS = {"random": {"kind": "random"}, "greedy": {"kind": "greedy"}}


def test_plugin_declares_a_simultaneous_botzone_game():
    plugin = get_plugin("snake")
    gt = plugin.game_type
    assert (gt.num_players, gt.simultaneous, gt.botzone_game_id) == (
        2, True, "550183b60003e25477128460")
    assert get_game("snake", {"width": 10, "height": 11}).params() == {"width": 10,
                                                                       "height": 11}
    assert plugin.figures.code_label(2) == "down"


def test_fifty_random_matches_replay_with_the_same_scores(tmp_path):
    bots = {b: make_bot("snake", b, SPECS) for b in SPECS}
    results = []
    for i in range(50):
        pair = [bots["random"], bots["greedy"]][:: 1 if i % 2 else -1]
        if i % 5 == 0:
            pair = [bots["random"], bots["random"]]
        init = GAME.random_initdata(1000 + i)
        if i % 3 == 0:
            init = json.dumps(init)  # a JSON-string initdata, as in platform logs
        results.append(run_match(GAME, pair, match_id=f"m{i}", seed=i, initdata=init))
    path = tmp_path / "snake.matches"
    write_matches(path, results)
    report = read_matches(path, GAME)
    assert len(report.accepted) == 50 and not report.rejected
    for res, again in zip(results, report.accepted, strict=True):
        assert again.scores == res.scores
        assert again.log == res.to_json()["log"]
        assert again.fault is None
    ends = {tuple(r.scores) for r in results}
    assert (1.0, 1.0) in ends and len(ends) == 3


def test_one_log_line_in_botzone_shape():
    res = run_match(GAME, [make_bot("snake", "greedy", SPECS)] * 2, match_id="x", seed=0,
                    initdata=GAME.random_initdata(7))
    data = res.to_json()
    first, entry = data["log"][0]["output"], data["log"][1]
    assert first["initdata"] == data["initdata"] and set(first["content"]) == {"0", "1"}
    assert set(entry) == {"0", "1"}  # both players in one player entry
    assert entry["0"] == {"verdict": "OK", "response": {"direction": entry["0"]["response"]
                                                        ["direction"]}}
    finish = data["log"][-1]["output"]
    assert finish["command"] == "finish" and "grow" in finish["display"]


def test_schedule_runner_writes_logs_that_read_back(tmp_path):
    specs = [MatchSpec(i, f"snake-s3-{i:04d}", ("greedy", "random") if i % 2 else
                       ("random", "greedy")) for i in range(12)]
    out = tmp_path / "sched.matches"
    n = play_schedule("snake", specs, SPECS, out, seed=3, workers=1, progress=False)
    assert n == 12
    report = read_matches(out, GAME)
    assert len(report.accepted) == 12


def test_bots_never_fault_and_greedy_is_deterministic():
    greedy, rnd = (make_bot("snake", b, SPECS) for b in ("greedy", "random"))
    for i in range(20):
        res = run_match(GAME, [greedy, rnd], match_id=f"g{i}", seed=i,
                        initdata=GAME.random_initdata(i), record_decisions=True)
        assert res.fault is None
        for d in res.decisions:
            assert d.action in d.state.legal_actions(d.player)
            if d.player == 0:
                assert greedy.act(d.state.clone(), DecisionContext(99, "other", d.ply, 0)) \
                    == d.action
                valid = d.state.valid_actions(0)
                if valid:
                    best = max(d.state.area_after(0, a) for a in valid)
                    assert d.action == min(a for a in valid
                                           if d.state.area_after(0, a) == best)


def test_greedy_beats_random():
    greedy, rnd = (make_bot("snake", b, SPECS) for b in ("greedy", "random"))
    score = 0.0
    for i in range(30):
        seats = [greedy, rnd] if i % 2 == 0 else [rnd, greedy]
        res = run_match(GAME, seats, match_id=f"w{i}", seed=i, initdata=GAME.random_initdata(i))
        score += res.scores[i % 2]
    assert score / 30 > 1.3


def test_cli_play_perft_and_bench(tmp_path, monkeypatch, capsys):
    from ime.cli.main import main

    (tmp_path / "bots").mkdir()
    (tmp_path / "bots" / "snake.yaml").write_text(
        "random: {kind: random}\ngreedy: {kind: greedy}\n")
    monkeypatch.setenv("IME_CONFIG_DIR", str(tmp_path))
    out = tmp_path / "play.matches"
    assert main(["play", "snake", "--seats", "random", "greedy", "--games", "3", "--seed", "1",
                 "--out", str(out), "--workers", "1", "--no-progress"]) == 0
    assert len(read_matches(out, GAME).accepted) == 3
    assert "win/draw/loss by bot and seat:" in capsys.readouterr().out  # the tally
    assert main(["perft", "snake", "--depth", "5"]) == 0
    assert capsys.readouterr().out.split()[0] == "400"
    assert main(["bench", "snake", "--only", "perft", "--quick"]) == 0


def test_perft_numba_equals_the_reference():
    for depth in range(1, 7):
        assert T.perft_leaves(depth) == T.perft_leaves(depth, reference=True)
    assert [T.perft_leaves(d) for d in range(1, 9)] == [4, 4, 16, 49, 400, 2500, 16260,
                                                        104068]


def test_bench_sections_report_rates():
    r = T.random_playouts(200)
    assert r["games"] == 200 and r["games_per_s"] > 0 and r["moves_per_s"] > 0
    assert r["wins0"] + r["wins1"] + r["draws"] == 200
    a = T.api_games(3)
    assert a["games"] == 3 and a["turns"] > 0
    assert set(get_plugin("snake").tools.bench) == {"perft", "playouts", "api", "search_imitator"}
    pos = T.random_positions(5, seed=2)
    assert len(pos) == 5 and all(not p.is_terminal() for p in pos)


def test_external_program_plays_the_first_legal_direction():
    prog = Path(__file__).parents[3] / "src" / "ime" / "games" / "snake" / "bench_bot.py"
    ext = ExternalBot(ExternalSpec.from_params(
        "ext", {"command": [sys.executable, str(prog), "keep"], "keep_running": True,
                "time_limit": 30, "keep_running_time_limit": 30}), game="snake")

    class First:
        bot_id = "first"

        def act(self, state, ctx):
            return state.legal_actions(ctx.player)[0]

        def end_match(self, match_id):
            pass

    try:
        for seat in (0, 1):
            init = GAME.random_initdata(40 + seat)
            a = run_match(GAME, [ext, First()][:: 1 - 2 * seat], match_id=f"e{seat}", seed=0,
                          initdata=init)
            b = run_match(GAME, [First(), First()], match_id=f"e{seat}", seed=0, initdata=init)
            assert a.fault is None and a.log == b.log and len(a.log) > 20
    finally:
        ext.close()


@pytest.mark.parametrize("params", [{}, {"width": 12, "height": 13}])
def test_engine_from_params_plays(params):
    game = get_game("snake", params)
    res = run_match(game, [make_bot("snake", "greedy", SPECS)] * 2, match_id="p", seed=4)
    st = game.new_initial_state(seed=derive_seed(4, "start", "p"))  # one board per match
    assert res.initdata == st.initdata()
    other = run_match(game, [make_bot("snake", "greedy", SPECS)] * 2, match_id="q", seed=4)
    assert other.initdata["obstacle"] != res.initdata["obstacle"]
    if params:
        assert (st.width, st.height) == (12, 13)
