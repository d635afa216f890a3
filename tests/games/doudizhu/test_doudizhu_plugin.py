"""Doudizhu as a registered plug-in: the registry, its baseline bots, tools and the CLI."""

from __future__ import annotations

import pytest

from ime.bots.registry import make_bot
from ime.core.bot import DecisionContext
from ime.core.registry import get_game, get_plugin, known_games
from ime.games.doudizhu.bots.basic import smallest_key
from ime.games.doudizhu.cards import ranks_text
from ime.games.doudizhu.game import GAME
from ime.games.doudizhu.tools import TOOLS, play_random_game, random_positions
from ime.matches.judge import run_match
from ime.matches.logs import read_matches

SPECS = {"r": {"kind": "random"}, "s": {"kind": "smallest"}}


def test_registered_with_its_type():
    assert "doudizhu" in known_games()
    p = get_plugin("doudizhu")
    gt = p.game_type
    assert (gt.short_name, gt.num_players, gt.simultaneous, gt.hidden_information,
            gt.botzone_game_id, gt.simple_interaction) == (
        "doudizhu", 3, False, True, "545840890003e2b77caf768f", False)
    game = get_game("doudizhu", {})
    assert game.name == "doudizhu" and game.num_players == 3
    st = game.new_initial_state(seed=0)
    assert st.current_players() == [0] and st.ply == 0
    assert {"random", "smallest"} <= set(p.bot_kinds)
    assert {"perft", "movegen", "random_games"} <= set(p.tools.bench)


def test_smallest_bot_plays_the_smallest_combination():
    bot = make_bot("doudizhu", "s", SPECS)
    for i, st in enumerate(random_positions(30, 2)):
        p = st.to_move
        a = bot.act(st.clone(), DecisionContext(0, f"m{i}", st.ply, p))
        combos = [c for c in st.legal_combos() if not c.is_pass]
        if not combos:
            assert a == ()
            continue
        best = min(combos, key=smallest_key)
        assert st.combo_of(a) == best and a == st.legal_actions()[st.legal_combos().index(best)]
    st = GAME.new_initial_state(seed=0)
    assert ranks_text(bot.act(st, DecisionContext(0, "x", 0, 0))) == ranks_text(st.hand(0))[0]


def test_random_bot_is_reproducible_per_decision():
    bot = make_bot("doudizhu", "r", SPECS)
    st = GAME.new_initial_state(seed=5)
    picks = {bot.act(st, DecisionContext(1, f"m{i}", 0, 0)) for i in range(20)}
    assert len(picks) > 3
    ctx = DecisionContext(1, "m0", 0, 0)
    assert bot.act(st, ctx) == bot.act(st.clone(), ctx)


def test_smallest_against_random_wins_as_landlord_more_often():
    s, r = make_bot("doudizhu", "s", SPECS), make_bot("doudizhu", "r", SPECS)
    wins = 0
    for i in range(40):
        res = run_match(GAME, [s, r, r], match_id=f"w{i}", seed=i,
                        initdata=GAME.new_initial_state(seed=100 + i).initdata())
        wins += res.scores[0] > 1
    assert wins > 25


@pytest.mark.slow
def test_tools_perft_positions_and_bench_sections():
    assert TOOLS.perft(3, False) == 1020
    pos = TOOLS.positions(5, 1)
    assert len(pos) == 5 and all(not p.is_terminal() and p.ply >= 3 for p in pos)
    plies, scores = play_random_game(GAME, 3)
    assert plies > 10 and len(scores) == 3
    r = TOOLS.bench["random_games"](True)
    assert r["api_games_per_s"] > 0 and r["kernel_games_per_s"] > r["api_games_per_s"]
    m = TOOLS.bench["movegen"](True)
    assert m["kernel_generations_per_s"] > m["legal_actions_per_s"] > 0


@pytest.mark.slow
def test_cli_play_perft_and_bench(tmp_path, monkeypatch, capsys):
    from ime.cli.main import main

    (tmp_path / "bots").mkdir()
    (tmp_path / "bots" / "doudizhu.yaml").write_text("r: {kind: random}\ns: {kind: smallest}\n")
    monkeypatch.setenv("IME_CONFIG_DIR", str(tmp_path))
    out = tmp_path / "play.matches"
    assert main(["play", "doudizhu", "--seats", "s", "r", "r", "--games", "3", "--seed", "1",
                 "--out", str(out), "--workers", "1", "--no-progress"]) == 0
    assert len(read_matches(out, GAME).accepted) == 3
    assert "win/draw/loss by bot and seat:" in capsys.readouterr().out  # the tally
    assert main(["perft", "doudizhu", "--depth", "4"]) == 0
    assert capsys.readouterr().out.split()[0] == "5249"
    assert main(["bench", "doudizhu", "--only", "perft", "--quick"]) == 0
    assert "perft(7) = 358812" in capsys.readouterr().out
