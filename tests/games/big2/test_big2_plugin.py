"""Big-2's plug-in: registry, config composition (the Doudizhu nets on Big-2's planes), the
tools and the two result tables of seed 004's agent."""

from __future__ import annotations

import csv

import pytest

from ime.bots.registry import load_bot_specs
from ime.core.registry import get_encoder, get_game, get_plugin, known_games
from ime.games.big2.study import (
    SOLVER_COLUMNS,
    STRENGTH_COLUMNS,
    solver_rows,
    strength_rows,
    wilson,
    write_rows,
)
from ime.nets import build_net, count_params
from ime.workflow.compose import compose, to_plain


def test_registered():
    assert "big2" in known_games()
    p = get_plugin("big2")
    assert p.game_type.num_players == 2 and p.game_type.hidden_information
    assert not p.game_type.simultaneous and p.game_type.botzone_game_id is None
    assert set(p.results) == {"agent_strength.csv", "solver_effort.csv"}
    assert {"random", "smallest", "negamax"} <= set(p.bot_kinds)
    assert get_game("big2", {"hand_size": 13}).hand_size == 13
    assert p.figures.code_label(66) == "3333"


@pytest.mark.parametrize("scale", ["quick", "tiny", "thesis"])
def test_config_composes_with_the_doudizhu_nets(scale):
    cfg = to_plain(compose(["game=big2", f"scale={scale}"]))
    assert cfg["game"]["name"] == "big2" and cfg["game"]["params"] == {"hand_size": 26}
    assert cfg["train"]["nets"] == ["ddz_conv1", "ddz_conv2"]
    assert cfg["evaluate"]["imitator"]["net"] == "ddz_conv1"
    enc = get_encoder("big2", cfg["game"]["params"])
    for name in cfg["train"]["nets"]:
        net = build_net(cfg["nets"][name], enc.state_shape, enc.head_sizes, seed=0)
        assert count_params(net) > 10_000
    specs = load_bot_specs("big2")
    game = cfg["game"]
    for b in {*game["targets"], *game["opponents"], *game["sparring"], *game["references"]}:
        assert b in specs


def test_strength_table(tmp_path):
    specs = {**load_bot_specs("big2"), "fast": {"kind": "negamax", "params": {
        "first_nodes": 2000, "nodes": 500, "exact_nodes": 5000}}}
    study = {"agent": "fast", "baselines": ["b2_random", "b2_smallest"], "games_per_seat": 3}
    rows = strength_rows(study, specs, {"hand_size": 26}, seed=0, workers=1, log=lambda s: None)
    assert [r["baseline"] for r in rows] == ["b2_random", "b2_smallest"]
    for r in rows:
        assert r["games"] == 6 and r["wins"] + r["losses"] == 6
        ci = (r["win_rate_lo"], r["win_rate_hi"])
        assert ci == tuple(round(x, 4) for x in wilson(r["wins"], 6))
        assert r["mean_score_lo"] <= r["mean_score"] <= r["mean_score_hi"]
    again = strength_rows(study, specs, {"hand_size": 26}, seed=0, workers=2, log=lambda s: None)
    assert again == rows  # a pure function of the config, whatever the number of workers
    write_rows(rows, STRENGTH_COLUMNS, tmp_path / "s.csv")
    assert list(csv.DictReader((tmp_path / "s.csv").open()))[0].keys() == set(STRENGTH_COLUMNS)
    with pytest.raises(ValueError, match="unknown bot"):
        strength_rows({"agent": "nobody"}, specs)


def test_solver_table():
    rows = solver_rows({"sizes": [2, 6], "positions": 4, "max_nodes": 10**6}, seed=0,
                       log=lambda s: None)
    assert [r["cards"] for r in rows] == ["2+2", "6+6"]
    assert all(r["solved"] == 4 and set(r) == set(SOLVER_COLUMNS) for r in rows)
    assert rows[0]["nodes_max"] < rows[1]["nodes_median"]
    capped = solver_rows({"sizes": [10], "positions": 3, "max_nodes": 10}, log=lambda s: None)
    assert capped[0]["solved"] == 0
