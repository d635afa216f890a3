"""Doudizhu as an opponent-model experiment game (issue 49, Deliver 3): its cells play through
the pipeline's own jobs (ime.workflow.jobs.om_search) with our player the game's ``pimc_om``
template, each seeded deal once with our player in seats 0, 1 and 2 and the original bot in the
other two; the table reads them (rollouts where a search has nodes, no depth cap)."""

from __future__ import annotations

import json
from pathlib import Path
from types import SimpleNamespace

import pandas as pd
import pytest

from ime.bots.om_search import resolve_specs
from ime.bots.registry import load_bot_specs
from ime.evaluate.om_experiment import (
    PLAYER,
    TABLE_COLUMNS,
    cell_spec,
    game_columns,
    seat_schedule,
)

TARGET = "ddz5"
WRONG = "ddz4"
PLAYER_TEMPLATE = {"kind": "pimc_om", "params": {"simulations": 12, "max_determinizations": 4,
                                                 "epsilon": 0.15, "margin": 0.01,
                                                 "halving": True, "bomb_at": 4,
                                                 "model_play": "sample"}}


def _checkpoint(where: Path) -> str:
    """A tiny untrained Doudizhu imitator (an MLP over the kicker encoder's heads)."""
    from ime.core.registry import get_encoder
    from ime.nets import build_net, save_checkpoint

    enc = get_encoder("doudizhu")
    net = build_net({"name": "mlp1", "kind": "mlp", "hidden": [16]}, enc.state_shape,
                    enc.head_sizes, seed=0)
    path = where / "fold0.pt"
    save_checkpoint(path, net, game="doudizhu", encoder_version=enc.version, fold=0,
                    in_shape=enc.state_shape, num_actions=enc.head_sizes)
    return str(path)


def test_three_seats_put_our_player_in_every_seat_once_a_round() -> None:
    """A round is one seeded deal played three times, our player in seat 0, 1 and 2 and the
    target in the other two; two seats keep the tournament's pair schedule."""
    games = seat_schedule(TARGET, rounds=2, seats=3)
    assert [g.round for g in games] == [0, 0, 0, 1, 1, 1]
    for k, g in enumerate(games):
        assert list(g.players) == [PLAYER if q == k % 3 else TARGET for q in range(3)]
    pair = seat_schedule(TARGET, rounds=2, seats=2)
    both = [(PLAYER, TARGET), (TARGET, PLAYER)] * 2
    assert sorted(tuple(g.players) for g in pair) == sorted(both)


def test_the_template_takes_the_imitator_or_the_target_as_its_opponent() -> None:
    """Cell (a) plays the template as it is; (c)/(d) add the imitator, the true-model row the
    zoo's target; a rollout player has no node count to equal, so cell (b) is refused."""
    settings = {"player": PLAYER_TEMPLATE}
    plain = cell_spec("plain_depth", TARGET, settings)
    assert plain == PLAYER_TEMPLATE and "opponent" not in plain["params"]
    wrong = cell_spec("om_wrong", TARGET, settings, model_bot=WRONG, net="mlp1", fold=0)
    assert wrong["params"]["opponent"] == {"bot": WRONG, "net": "mlp1", "fold": 0}
    true = cell_spec("om_true", TARGET, settings)
    assert true["params"]["opponent"] == {"bot": TARGET, "source": "zoo"}
    assert PLAYER_TEMPLATE["params"].get("opponent") is None  # the template is not changed
    with pytest.raises(ValueError, match="plain_nodes"):
        cell_spec("plain_nodes", TARGET, settings, nodes=100)
    with pytest.raises(ValueError, match="model's bot"):
        cell_spec("om", TARGET, settings)


@pytest.mark.slow  # four cells of 6 games with rollouts (~10-20 s on 2 busy cores)
def test_doudizhu_cells_play_through_the_jobs(tmp_path: Path) -> None:
    from ime.workflow.jobs.om_search import job_om_cell, job_om_table

    ckpt = _checkpoint(tmp_path)
    settings = {"player": PLAYER_TEMPLATE}
    cells = []
    for cell in ("plain_depth", "om", "om_wrong", "om_true"):
        model = {"om": TARGET, "om_wrong": WRONG}.get(cell)
        spec = cell_spec(cell, TARGET, settings, model_bot=model, net="mlp1", fold=0)
        spec = resolve_specs({PLAYER: spec}, lambda ref: [ckpt])[PLAYER]
        files = {k: str(tmp_path / f"{cell}{ext}") for k, ext in
                 (("games", ".csv"), ("cell", ".json"), ("timing", ".timing.json"))}
        job_om_cell(SimpleNamespace(
            params=SimpleNamespace(spec={
                "game": "doudizhu", "game_params": None, "target": TARGET, "cell": cell,
                "rounds": 2, "opening_plies": 0, "openings": {}, "seed": 1, "spec": spec,
                "settings": None, "bot_specs": {TARGET: load_bot_specs("doudizhu")[TARGET]},
                "accuracy_sample": 0}),
            input=SimpleNamespace(budget=[]), output=SimpleNamespace(**files), threads=1,
            log=[]))
        g = pd.read_csv(files["games"], keep_default_na=False)
        assert list(g.columns) == game_columns(3) and len(g) == 2 * 3
        assert g["seat"].tolist() == [0, 1, 2, 0, 1, 2] and (g["fault"] == "").all()
        for _, row in g.iterrows():  # our player in its seat, the target in the other two
            seats = [row[f"player{k}"] for k in range(3)]
            assert seats[row["seat"]] == PLAYER and seats.count(TARGET) == 2
        assert g["searched"].sum() > 0 and g["nodes"].sum() > 0  # rollouts
        if cell in ("om", "om_wrong", "om_true"):
            assert g["model_positions"].sum() > 0
        cells.append({"target": TARGET, "cell": cell, "games": files["games"],
                      "cell_file": files["cell"], "timing": files["timing"]})
    played = json.loads((tmp_path / "om_wrong.json").read_text())
    assert played["spec"]["params"]["opponent"]["bot"] == WRONG
    out = tmp_path / "results"
    (out / "figures").mkdir(parents=True)
    job_om_table(SimpleNamespace(
        params=SimpleNamespace(spec={"game": "doudizhu", "net": "mlp1", "ci": 0.95,
                                     "depth": 4, "games": 6, "player": "pimc_om",
                                     "cells": cells}),
        output=SimpleNamespace(table=str(out / "om_search.csv"),
                               cost=str(out / "om_search_cost.csv"),
                               accuracy=str(out / "om_search_model_accuracy.csv"),
                               png=str(out / "figures/om_search.png"),
                               pdf=str(out / "figures/om_search.pdf")),
        log=[]))
    t = pd.read_csv(out / "om_search.csv")
    assert list(t.columns) == TABLE_COLUMNS
    assert t["cell"].tolist() == ["plain_depth", "om", "om_wrong", "om_true"]
    assert (t["games"] == 6).all() and (t["depth_cap"] == 0).all()
    assert (t["nodes_budget"] == 12).all()
    assert t["model"].tolist()[1:] == [f"{TARGET}:mlp1:0", f"{WRONG}:mlp1:0", f"{TARGET}:zoo"]
    assert t["gain"].notna().tolist() == [False, True, True, True]
