"""The opponent-model search experiment's cells and table (ime.evaluate.om_experiment, issue 49):
each cell's spec, the games played in both seats of every opening with the same bytes for any
worker count, the points share with a Wilson interval and the gain over cell (a) with
Newcombe's interval."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest

from ime.core.intervals import newcombe, wilson
from ime.evaluate.agents import ProviderFactory
from ime.evaluate.om_experiment import (
    GAME_COLUMNS,
    PLAYER,
    TABLE_COLUMNS,
    cell_spec,
    cost_table,
    mean_nodes,
    model_label,
    om_table,
    play_cell,
    summary,
)

SETTINGS = {"evaluation": "c4_ab3", "depth": 2, "nodes": 5000, "plain_nodes": 10**8,
            "mode": "policy", "mix": 1.0, "min_prob": 0.0, "batch": 16}


def test_cell_specs() -> None:
    a = cell_spec("plain_depth", "c4_ab3", SETTINGS)["params"]
    assert a == {"evaluation": "c4_ab3", "depth": 2, "mode": "none", "nodes": 10**8}
    b = cell_spec("plain_nodes", "c4_ab3", SETTINGS, nodes=321)["params"]
    assert b["mode"] == "none" and b["nodes"] == 321
    c = cell_spec("om", "c4_ab3", SETTINGS, model_bot="c4_ab3", net="conv")
    assert c["params"]["opponent"] == {"bot": "c4_ab3", "net": "conv", "fold": "ensemble"}
    assert c["params"]["nodes"] == 5000 and c["params"]["batch"] == 16
    assert model_label(c) == "c4_ab3:conv:ensemble"
    prom = cell_spec("om_wrong", "c4_ab3", {**SETTINGS, "mode": "prom", "mix": 0.5},
                     model_bot="c4_greedy", net="conv", fold=1)["params"]
    assert (prom["mode"], prom["mix"], prom["opponent"]["fold"]) == ("prom", 0.5, 1)
    t = cell_spec("om_true", "c4_ab3", SETTINGS)
    assert t["params"]["opponent"] == {"bot": "c4_ab3", "source": "zoo"}
    assert model_label(t) == "c4_ab3:zoo" and model_label({"params": a}) == ""
    with pytest.raises(ValueError, match="needs its node budget"):
        cell_spec("plain_nodes", "c4_ab3", SETTINGS)
    with pytest.raises(ValueError, match="needs the model"):
        cell_spec("om", "c4_ab3", SETTINGS)
    with pytest.raises(ValueError, match="unknown cell"):
        cell_spec("om_x", "c4_ab3", SETTINGS)


def _play(cell: str, workers: int) -> tuple[pd.DataFrame, float]:
    spec = cell_spec(cell, "c4_ab3", SETTINGS)
    return play_cell("connect4", "c4_ab3", ProviderFactory("connect4", extra={PLAYER: spec}),
                     rounds=2, opening_plies=2, seed=3, workers=workers, progress=False,
                     tag=cell)


def test_games_in_both_seats_and_the_same_for_any_worker_count() -> None:
    one, seconds = _play("om_true", 1)
    assert list(one.columns) == GAME_COLUMNS and len(one) == 4 and seconds > 0
    assert one["seat"].tolist() == [0, 1, 0, 1] and one["round"].tolist() == [0, 0, 1, 1]
    assert (one["player0"].where(one["seat"] == 0, one["player1"]) == PLAYER).all()
    ours = np.where(one["seat"] == 0, one["outcome0"], 2 - one["outcome0"]) / 2.0
    assert one["points"].tolist() == ours.tolist()
    assert (one["searched"] <= one["decisions"]).all() and (one["nodes"] > 0).all()
    assert (one["model_positions"] > 0).all() and (one["fault"] == "").all()
    two, _ = _play("om_true", 2)
    assert one.to_csv(index=False) == two.to_csv(index=False)
    s = summary(one)
    assert s["games"] == 4 and s["wins"] + s["draws"] + s["losses"] == 4
    assert s["depth_mean"] <= 2 and mean_nodes(one) == round(s["nodes_mean"])


def _games(points: list[float], nodes: int = 10) -> pd.DataFrame:
    n = len(points)
    return pd.DataFrame({"points": points, "decisions": [3] * n, "searched": [2] * n,
                         "nodes": [nodes] * n, "model_positions": [1] * n,
                         "model_calls": [1] * n, "depth": [4] * n})


def test_the_table_shares_gains_and_intervals() -> None:
    a = cell_spec("plain_depth", "x", SETTINGS)
    c = cell_spec("om", "x", SETTINGS, model_bot="x", net="conv")
    cells = [{"target": "x", "cell": "om", "spec": c, "games": _games([1, 1, 0.5, 0, 1, 1])},
             {"target": "x", "cell": "plain_depth", "spec": a,
              "games": _games([0, 0.5, 0, 0, 1, 0], nodes=40)}]
    t = om_table(cells)
    assert list(t.columns) == TABLE_COLUMNS
    assert t["cell"].tolist() == ["plain_depth", "om"]  # the table's order, not the input's
    pa, pc = t.iloc[0], t.iloc[1]
    assert (pc.wins, pc.draws, pc.losses) == (4, 1, 1)
    assert pc.points_share == pytest.approx(4.5 / 6) and pa.points_share == pytest.approx(1.5 / 6)
    assert (pc.points_share_lo, pc.points_share_hi) == pytest.approx(wilson(4.5, 6))
    assert pc.gain == pytest.approx(0.5)
    assert (pc.gain_lo, pc.gain_hi) == pytest.approx(newcombe(4.5, 6, 1.5, 6))
    assert math.isnan(pa.gain) and pa.model == "" and pc.model == "x:conv:ensemble"
    assert pa.nodes_mean == 20 and pc.depth_mean == 2 and pc.decisions == 12
    for r in t.itertuples():
        assert 0 <= r.points_share_lo <= r.points_share <= r.points_share_hi <= 1
    cost = cost_table([{**cells[0], "timing": {"decision_seconds": 0.6, "seconds": 2.0,
                                                "workers": 1}}])
    assert cost.loc[0, "ms_mean"] == pytest.approx(50.0)  # 0.6 s over 12 searched decisions


def test_newcombe_interval() -> None:
    lo, hi = newcombe(30, 40, 20, 40)
    assert lo < 0.25 < hi and -1 <= lo and hi <= 1
    lo2, hi2 = newcombe(20, 40, 30, 40)
    assert (lo2, hi2) == pytest.approx((-hi, -lo))
    assert newcombe(40, 40, 0, 40)[1] == 1.0 and newcombe(0, 40, 0, 40)[0] < 0
    assert all(math.isnan(x) for x in newcombe(1, 0, 1, 2))
