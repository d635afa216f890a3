"""Doudizhu as an opponent-model experiment game (issue 49, Deliver 3): its cells play through
the pipeline's own jobs (ime.workflow.jobs.om_search) with our player the game's ``pimc_om``
template, each seeded deal once with our player in seats 0, 1 and 2 and the original bot in the
other two; the table reads them (rollouts where a search has nodes, no depth cap, a ``mode``
read from the cell). A model cell records its imitator's accuracy (ime.evaluate.om_accuracy):
the positions the rollouts ask it to play and the target's moves in both of its seats."""

from __future__ import annotations

import json
from pathlib import Path
from types import SimpleNamespace

import pandas as pd
import pytest

from ime.bots.om_search import resolve_specs
from ime.bots.registry import load_bot_specs, make_bot
from ime.core.bot import DecisionContext
from ime.evaluate.agents import ProviderFactory
from ime.evaluate.om_accuracy import (
    ACCURACY_COLUMNS,
    AccuracySample,
    GameSample,
    measure,
    measure_cell,
)
from ime.evaluate.om_experiment import (
    PLAYER,
    TABLE_COLUMNS,
    cell_mode,
    cell_spec,
    game_columns,
    play_cell,
    seat_schedule,
)
from ime.games.doudizhu.game import GAME

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


def test_the_mode_column_says_how_the_template_uses_its_model() -> None:
    """A template spec has no ``mode``: the table reads ``none`` without a model, the
    template's ``model_play`` for an imitator and ``search`` (the bot's own decision, as the
    two-player true-model row) for the zoo's target; an ``om_search`` spec keeps its own."""
    settings = {"player": PLAYER_TEMPLATE}
    modes = [cell_mode(cell_spec(c, TARGET, settings, model_bot=TARGET, net="mlp1", fold=0))
             for c in ("plain_depth", "om", "om_wrong", "om_true")]
    assert modes == ["none", "sample", "sample", "search"]
    argmax = {"kind": "pimc_om", "params": {**PLAYER_TEMPLATE["params"], "model_play": "argmax"}}
    assert cell_mode(cell_spec("om", TARGET, {"player": argmax}, model_bot=TARGET,
                               net="mlp1", fold=0)) == "argmax"
    unset = {"kind": "pimc_om", "params": {"simulations": 12}}  # pimc_om's default: sample
    assert cell_mode(cell_spec("om", TARGET, {"player": unset}, model_bot=TARGET,
                               net="mlp1", fold=0)) == "sample"
    two = {"evaluation": "c4_ab3", "depth": 2, "nodes": 50, "plain_nodes": 10**8,
           "mode": "prom", "mix": 0.5, "min_prob": 0.0, "batch": 16}
    assert [cell_mode(cell_spec(c, "c4_ab3", two, model_bot="c4_ab3", net="mlp1", fold=0,
                                nodes=10))
            for c in ("plain_depth", "plain_nodes", "om", "om_true")] == [
        "none", "none", "prom", "search"]


# --- the model's accuracy in a three-seat game ---------------------------------------------------
RECORDED = {"kind": "pimc_om", "params": {"simulations": 6, "max_determinizations": 2,
                                          "epsilon": 0.15, "margin": 0.01, "halving": True,
                                          "bomb_at": 4, "model_play": "sample",
                                          "model_turns": 2}}
"""A cheap template: the model plays the first two modelled turns of each rollout, which are
the two other seats' first plies after our candidate (``model_seats: others``)."""


@pytest.fixture(scope="module")
def ddz_cell(tmp_path_factory) -> dict:
    """One deal of cell (c) against ddz5 (our player in seats 0, 1 and 2) played without the
    record, with every position kept (k=1000) and with a sample of 10."""
    ckpt = _checkpoint(tmp_path_factory.mktemp("ddz_imit"))
    spec = cell_spec("om", TARGET, {"player": RECORDED}, model_bot=TARGET, net="mlp1", fold=0)
    spec = resolve_specs({PLAYER: spec}, lambda ref: [ckpt])[PLAYER]
    out: dict = {"spec": spec}
    for name, k in (("plain", None), ("all", 1000), ("ten", 10)):
        factory = ProviderFactory("doudizhu", extra={PLAYER: spec})
        sample = AccuracySample(k, 1) if k else None
        games, _ = play_cell("doudizhu", TARGET, factory, rounds=1, opening_plies=0, seed=1,
                             progress=False, tag="om", accuracy=sample)
        out[name] = (games, sample, factory)
    return out


def test_a_three_seat_cell_records_the_rollouts_and_both_target_seats(ddz_cell: dict) -> None:
    games, sample, _ = ddz_cell["all"]
    plain, _, _ = ddz_cell["plain"]
    assert games.to_csv(index=False) == plain.to_csv(index=False)  # the record only watches
    asked, moved = sample.asked(), sample.moved()
    assert len(asked) == sample.n_asked > 0 and len(moved) == sample.n_moved > 0  # all kept
    assert sample.n_asked <= int(games["model_positions"].sum())
    seat_of = {r.match_id: int(r.seat) for r in games.itertuples()}
    for a in asked:  # a modelled seat to move in a rollout, just after our candidate
        assert a.player == a.state.to_move != seat_of[a.match_id]
        assert len(a.state.legal_actions(a.player)) > 1 and a.below_root in (1, 2)
    assert {a.below_root for a in asked} == {1, 2}
    for mid, ours in seat_of.items():  # the target's real moves, in both of its seats
        mine = [m for m in moved if m.match_id == mid]
        assert {m.player for m in mine} == {0, 1, 2} - {ours}
        assert all(m.player == m.state.to_move and m.move in m.state.legal_actions(m.player)
                   for m in mine)


def test_a_smaller_sample_is_the_smallest_keys_of_the_same_positions(ddz_cell: dict) -> None:
    """The sample is seeded by position, not by who played it: k=10 from a second play is the
    first ten of the full record, and merging the games in another order changes nothing."""
    _, full, _ = ddz_cell["all"]
    _, ten, _ = ddz_cell["ten"]
    for part in ("_asked", "_moved"):
        small = [(key, a.state.history, a.player) for key, a in getattr(ten, part).pairs()]
        big = [(key, a.state.history, a.player) for key, a in getattr(full, part).pairs()]
        assert len(small) == 10 and small == big[:10]
    games = [GameSample(10, 1, f"g{i}") for i in range(3)]
    for i, g in enumerate(games):
        s = GAME.new_initial_state(seed=i)
        g.asked([s] * 6, [s.to_move] * 6)
        g.moved(s, s.to_move, s.legal_actions()[0])
    one, other = AccuracySample(10, 1), AccuracySample(10, 1)
    for g in games:
        one.merge(g.result())
    for g in reversed(games):
        other.merge(g.result())
    assert one._asked.pairs() == other._asked.pairs() and (one.n_asked, one.n_moved) == (18, 3)


def test_the_measurement_agrees_with_a_hand_count(ddz_cell: dict) -> None:
    """The imitator's top play is its own decision (argmax, not the rollouts' samples), checked
    against ddz5's decision at each rollout position and its move in the games, counted here by
    hand; ddz5 itself as the model agrees everywhere (its recorded moves are what it plays)."""
    _, sample, factory = ddz_cell["all"]
    acc = measure_cell(sample, factory(), PLAYER, TARGET, ddz_cell["spec"])
    target = make_bot("doudizhu", TARGET)
    imitator = factory()(PLAYER).model.imitator  # the imitator itself (its select, unbatched)

    def ctx(state, player) -> DecisionContext:
        return DecisionContext(seed=1, match_id="hand", ply=state.ply, player=player)

    by_hand = sum(imitator.act(a.state.clone(), ctx(a.state, a.player))
                  == target.act(a.state.clone(), ctx(a.state, a.player))
                  for a in sample.asked())
    moved = sum(imitator.act(m.state.clone(), ctx(m.state, m.player)) == m.move
                for m in sample.moved())
    assert (acc["search"]["agree"], acc["games"]["agree"]) == (by_hand, moved)
    assert acc["search"]["n"] == sample.n_asked and acc["target_deterministic"] is True
    assert 0 < by_hand < sample.n_asked  # an untrained imitator: right sometimes, not always
    true = measure(sample, lambda s, p, c: [target.act(x.clone(), y) for x, y in
                                            zip(s, c, strict=True)], target)
    assert true["search"]["agree"] == sample.n_asked and true["games"]["agree"] == sample.n_moved


def test_the_true_model_is_not_recorded() -> None:
    """Only an imitator is recorded (the true model is the target: 100 % by construction)."""
    bot = make_bot("doudizhu", "x", {"x": {"kind": "pimc_om", "params": {
        "simulations": 6, "opponent": {"bot": TARGET, "source": "zoo"}}}})
    with pytest.raises(TypeError, match="accuracy_sample=0"):
        GameSample(5, 0, "m").attach(bot, make_bot("doudizhu", TARGET))


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
                "accuracy_sample": 20 if cell in ("om", "om_wrong") else 0}),
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
    assert played["model_accuracy"]["search"]["n"] == 20  # the imitator's rollout positions
    assert json.loads((tmp_path / "om_true.json").read_text())["model_accuracy"] is None
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
    assert t["mode"].tolist() == ["none", "sample", "sample", "search"]
    acc = pd.read_csv(out / "om_search_model_accuracy.csv")
    assert list(acc.columns) == ACCURACY_COLUMNS and acc["cell"].tolist() == ["om", "om_wrong"]
    assert acc["mode"].tolist() == ["sample", "sample"] and (acc["sample"] == 20).all()
    assert (acc["search_n"] == 20).all() and (acc["game_n"] == 20).all()
    assert (acc["search_positions"] > 20).all() and acc["search_top1"].between(0, 1).all()
