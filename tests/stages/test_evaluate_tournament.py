"""Openings, round-robin games, standings and Bradley-Terry ratings."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from ime.core.registry import get_game
from ime.evaluate.ratings import bradley_terry, fit_bradley_terry, win_matrix
from ime.evaluate.tournament import (
    balanced_openings,
    opening_prefix,
    pair_schedule,
    play_games,
    round_robin_pairs,
    standings,
)
from ime.evaluate.toy import ToyProviderFactory

GAME = get_game("reversi")


def test_openings_are_distinct_balanced_and_seeded():
    ops = balanced_openings(GAME, 30, 4, seed=1, max_mobility_gap=3)
    assert len({tuple(o) for o in ops}) == 30 and all(len(o) == 4 for o in ops)
    assert ops == balanced_openings(GAME, 30, 4, seed=1, max_mobility_gap=3)
    assert ops != balanced_openings(GAME, 30, 4, seed=2, max_mobility_gap=3)
    for o in ops:
        st = GAME.new_initial_state()
        for a in o:
            st.apply_action(a)
        mine = len(st.legal_actions(st.to_move))
        st.to_move = 1 - st.to_move
        theirs = len(st.legal_actions(st.to_move))
        assert abs(mine - theirs) <= 3
    prefix = opening_prefix(GAME, ops[0])
    assert len(prefix) == 4 and list(prefix[0]) == ["0"] and list(prefix[1]) == ["1"]


def test_pair_schedule_swaps_colours_every_round():
    sched = pair_schedule("a", "b", 3)
    assert [(g.round, g.player0, g.player1) for g in sched] == [
        (0, "a", "b"), (0, "b", "a"), (1, "a", "b"), (1, "b", "a"), (2, "a", "b"), (2, "b", "a")]
    assert round_robin_pairs(["x", "y", "z"]) == [("x", "y"), ("x", "z"), ("y", "z")]


def test_deterministic_bots_play_different_games_each_round():
    games = pair_schedule("toy_first", "toy_last", 4)
    res, logs = play_games("reversi", games, ToyProviderFactory(), rounds=4, opening_plies=4,
                           seed=0, progress=False)
    assert len(res) == 8 and len(logs) == 8
    moves = {str([e for k, e in enumerate(m["log"]) if k % 2 == 1]) for m in logs}
    assert len(moves) == 8  # no game is a replay of another
    assert res["match_id"].is_unique
    # workers do not change results
    res2, _ = play_games("reversi", games, ToyProviderFactory(), rounds=4, opening_plies=4,
                         seed=0, workers=2, progress=False)
    assert res.equals(res2)


def _results(records):
    rows = []
    for i, (a, b, o) in enumerate(records):
        rows.append({"round": i % 5, "match_id": f"g{i}", "player0": a, "player1": b,
                     "score0": float(o), "score1": float(2 - o), "outcome0": o, "plies": 60})
    return pd.DataFrame(rows)


def test_standings_points_win3_draw1_loss0():
    res = _results([("a", "b", 2), ("b", "a", 2), ("a", "c", 1), ("c", "b", 0)])
    st = standings(res, points=(3, 1, 0)).set_index("bot")
    assert st.loc["a", "points"] == 3 + 0 + 1
    assert st.loc["b", "points"] == 0 + 3 + 3
    assert st.loc["c", "points"] == 1 + 0
    assert st.loc["b", "rank"] == 1 and st.loc["c", "rank"] == 3
    assert (st["games"] == st["wins"] + st["draws"] + st["losses"]).all()


@pytest.mark.slow
def test_bradley_terry_orders_a_clearly_stronger_player_first():
    rec = []
    for k in range(20):
        rec.append(("a", "b", 2 if k < 17 else 0))   # a beats b 85%
        rec.append(("b", "c", 2 if k < 16 else 1))   # b beats c, some draws
        rec.append(("a", "c", 2))                    # a always beats c
    res = _results(rec)
    bt = bradley_terry(res, ["a", "b", "c"], n_boot=200, seed=0).set_index("bot")
    assert bt.loc["a", "elo"] > bt.loc["b", "elo"] > bt.loc["c", "elo"]
    assert abs(bt["elo"].mean() - 1500) < 1e-6
    assert (bt["elo_lo"] <= bt["elo"]).all() and (bt["elo"] <= bt["elo_hi"]).all()
    assert bt.loc["a", "elo_lo"] > bt.loc["c", "elo_hi"]


def test_bradley_terry_even_results_give_equal_ratings_and_elo_scale():
    w = np.array([[0.0, 10.0], [10.0, 0.0]])
    assert np.allclose(fit_bradley_terry(w), 1500.0)
    # 75% expected score <=> about 191 Elo
    w = np.array([[0.0, 750.0], [250.0, 0.0]])
    elo = fit_bradley_terry(w, prior_elo=1e6)
    assert abs((elo[0] - elo[1]) - 400 * np.log10(3)) < 1.0
    res = _results([("a", "b", 1)])
    assert win_matrix(res, ["a", "b"]).tolist() == [[0.0, 0.5], [0.5, 0.0]]


def test_side_lineups_put_each_bot_on_each_side_once_a_round():
    from ime.evaluate.tournament import pair_schedule, side_lineups

    teams = get_game("doudizhu").game_type.teams
    assert side_lineups("a", "b", teams, 3) == [("a", "b", "b"), ("b", "a", "a")]
    games = pair_schedule("a", "b", 200, seats=3, teams=teams)
    assert len(games) == 400  # 45 pairs x 400 = Table 5.10's 18,000 games
    rotated = pair_schedule("a", "b", 200, seats=3)
    assert len(rotated) == 1200  # every seat rotation of (a,b,b) and (b,a,a)
    import pytest

    with pytest.raises(ValueError, match="two sides"):
        side_lineups("a", "b", (), 2)


def test_thesis_scale_doudizhu_tournament_plays_sides_and_other_games_refuse_it():
    from pathlib import Path

    import pytest

    from ime.workflow.errors import ConfigError
    from ime.workflow.evalplan import EvalPlan
    from ime.workflow.variants import make_plan

    root = Path(__file__).resolve().parents[2]
    v = make_plan(["game=doudizhu", "scale=thesis"], root / "config", base=root).main
    plan = EvalPlan(v, {})
    assert plan.otag.endswith("_sides")
    assert plan.pair_spec("ddz1", "ddz2")["lineups"] == "sides"
    rev = make_plan(["game=reversi", "evaluate.tournament.lineups=sides"], root / "config",
                    base=root).main
    with pytest.raises(ConfigError, match="two sides"):
        EvalPlan(rev, {})
