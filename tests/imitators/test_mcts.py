"""The search imitator's Monte-Carlo mode (issue 46, rev3-like targets): UCT over the linear
evaluation spends exactly its simulations, replays from its seed and reads finished games
exactly; its settings survive the imitator's file; bad settings are refused; and the stage that
fits UCT's settings finds a hidden UCT target's, near that target's own self-agreement."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest

from ime.imitators.data import Decisions, empties
from ime.imitators.mcts_fit import MctsGrid, fit_mcts
from ime.imitators.reversi_mcts import uct_moves, uct_visits
from ime.imitators.reversi_search import SearchSettings, endgame_moves
from ime.imitators.search_fit import FitConfig, SearchImitator, fit, predict
from imitators.helpers import random_positions
from imitators.test_fit import hidden_weights

ROOT = Path(__file__).resolve().parents[2]
UCT = {"c": 1.0, "depth": 2, "playout": "corners", "scale": 8.0}


def _arrays(positions: list[tuple[int, int]]) -> tuple[np.ndarray, np.ndarray]:
    return (np.array([p for p, _ in positions], dtype=np.uint64),
            np.array([o for _, o in positions], dtype=np.uint64))


def test_uct_spends_its_simulations_and_replays_from_its_seed() -> None:
    positions = random_positions(24, seed=3)
    w = hidden_weights(random_positions(300, seed=4))
    for P, O in positions[:6]:
        shares = np.array(list(uct_visits(P, O, w, 1, sims=300, **UCT).values()))
        visits = shares * 300
        assert np.allclose(visits, np.round(visits)) and round(visits.sum()) == 300
    P, O = _arrays(positions)
    a = uct_moves(P, O, w, 1, sims=400, **UCT)
    assert np.array_equal(a, uct_moves(P, O, w, 1, sims=400, **UCT))  # a pure function
    assert not np.array_equal(a, uct_moves(P, O, w, 1, sims=400, **UCT, seed=9))  # seeded
    for (p, o), m in zip(positions, a, strict=True):  # every move legal
        assert (int(np.uint64(p) | np.uint64(o)) >> int(m)) & 1 == 0


def test_uct_plays_finished_games_exactly() -> None:
    # a few empties and playouts to the end: the most visited move is a best one by the solver
    positions = random_positions(40, seed=5, min_ply=52, max_ply=58)
    P, O = _arrays(positions)
    keep = empties(P, O) <= 8
    P, O = P[keep], O[keep]
    w = np.zeros(27)
    moves = uct_moves(P, O, w, 1, sims=4000, c=0.707, depth=0, playout="random", scale=1.0)
    best = [int(m) in endgame_moves(int(p), int(o), "exact") or
            int(m) in endgame_moves(int(p), int(o), "wld")
            for p, o, m in zip(P, O, moves, strict=True)]
    assert len(best) >= 15 and np.mean(best) >= 0.9, (len(best), np.mean(best))


def test_settings_round_trip_and_stay_out_of_files_when_off(tmp_path) -> None:  # noqa: ANN001
    off = SearchSettings(depth=2)
    assert not any(k.startswith("mcts_") for k in off.to_dict())  # older files' bytes kept
    on = SearchSettings(depth=2, mcts_sims=200, mcts_c=1.0, mcts_depth=1, mcts_playout="random",
                        mcts_scale=2.0, mcts_above=10, mcts_seed=3)
    w = hidden_weights(random_positions(300, seed=4))
    imitator = SearchImitator(w, on, {})
    imitator.save(tmp_path / "m.json")
    back = SearchImitator.load(tmp_path / "m.json")
    assert back.settings == on
    positions = random_positions(30, seed=6)
    P, O = _arrays(positions)
    many = predict(w, on, P, O)
    assert [back.choose(p, o) for p, o in positions] == many.tolist()
    low = empties(P, O) <= 10  # the search decides these, UCT the rest
    assert np.array_equal(many[low], predict(w, off, P[low], O[low]))
    for p, o in positions[:5]:
        probs = back.probabilities(p, o)
        assert abs(sum(probs.values()) - 1) < 1e-9


@pytest.mark.parametrize("bad", [{"mcts_sims": -1}, {"mcts_scale": 0.0},
                                 {"mcts_playout": "greedy"}, {"mcts_above": -2}])
def test_bad_settings_are_refused(bad: dict) -> None:
    with pytest.raises(ValueError, match="mcts"):
        SearchSettings(**bad)


def test_bad_grids_are_refused() -> None:
    with pytest.raises(ValueError, match="mcts_cs"):
        MctsGrid(sims=(100,), c=())
    with pytest.raises(ValueError, match="mcts_playouts"):
        MctsGrid(sims=(100,), playout=("greedy",))


@pytest.mark.slow
def test_the_stage_finds_a_hidden_uct_target_near_its_own_ceiling() -> None:
    positions = random_positions(1300, seed=47, min_ply=4, max_ply=44)
    w = hidden_weights(positions)
    P, O = _arrays(positions)
    target = uct_moves(P, O, w, 1, sims=1000, **UCT, seed=777)  # the imitator's seed is 0
    again = uct_moves(P, O, w, 1, sims=1000, **UCT, seed=778)
    ids = np.array([f"m{i // 20}" for i in range(len(P))], dtype=object)
    d = Decisions(P, O, target, ids)
    select, test = d.subset(np.arange(500)), d.subset(np.arange(500, len(P)))
    grid = MctsGrid(sims=(250, 1000), c=(0.707, 1.0), depth=(0, 2), playout=("random", "corners"),
                    scale=(2.0, 8.0), above=(0,), positions=500, rounds=2)
    base = SearchSettings(depth=1)
    mc = fit_mcts(w, base, select, grid)
    settings = mc.settings
    assert settings.mcts_sims and len(mc.rows) >= 6 and mc.climb is None
    assert np.array_equal(mc.weights, w)
    imitator = 100 * float(np.mean(predict(w, settings, test.P, test.O) == test.action))
    alphabeta = 100 * float(np.mean(predict(w, base, test.P, test.O) == test.action))
    ceiling = 100 * float(np.mean(again[500:] == test.action))
    print(settings, f"imitator {imitator:.1f} alpha-beta {alphabeta:.1f} ceiling {ceiling:.1f}")
    assert imitator >= ceiling - 5, (imitator, ceiling, settings)
    assert imitator >= alphabeta + 10, (imitator, alphabeta)


def test_the_stage_is_read_from_net_search_only_where_it_can_run() -> None:
    import yaml

    from ime.imitators import connect4_family, snake_family
    from ime.workflow.index import without_idle_stages

    arch = yaml.safe_load((ROOT / "config" / "net" / "search.yaml").read_text())
    assert arch["search"]["mcts_sims"] == []  # off by default
    # off: the train job's params lose the stage's keys (models fitted before it keep theirs)
    assert not any(k.startswith("mcts_") for k in without_idle_stages(arch)["search"])
    on = {**arch, "search": {**arch["search"], "mcts_sims": [500]}}
    assert without_idle_stages(on)["search"] == {k: x for k, x in on["search"].items()
                                                  if k != "round_enter_shares"}
    # an idle option (round_enter_shares: []) is left out too; set, it is a param
    assert "round_enter_shares" not in without_idle_stages(arch)["search"]
    shares = {**arch, "search": {**arch["search"], "round_enter_shares": [0.1]}}
    assert without_idle_stages(shares)["search"]["round_enter_shares"] == [0.1]
    for fam in (snake_family, connect4_family):
        fam.fit_config(arch["search"], seed=0)  # the keys are known, and ignored when off
    # Connect Four and Snake have their own stages: they read the lists, and refuse Reversi's
    # weight climb
    for fam in (snake_family, connect4_family):
        assert fam.fit_config(on["search"], seed=0).mcts_sims == (500,)
        with pytest.raises(ValueError, match="mcts_climb_evals"):
            fam.fit_config({**on["search"], "mcts_climb_evals": 100}, seed=0)
    assert snake_family.fit_config(on["search"], seed=0).mcts_scales == \
        tuple(float(x) for x in arch["search"]["mcts_scales"])


def test_an_idle_option_renames_no_model_folder() -> None:
    """A search option at its idle value (``round_enter_shares: []``) is left out of an
    overridden model folder's digest, so adding it to the YAML moved no folder; set, it names
    another folder."""
    import yaml

    from ime.workflow.variants import overridden_net_dir

    arch = yaml.safe_load((ROOT / "config" / "net" / "search.yaml").read_text())
    arch["search"]["mcts_sims"] = [500]
    before = {**arch, "search": {k: x for k, x in arch["search"].items()
                                 if k != "round_enter_shares"}}
    assert overridden_net_dir("search", arch) == overridden_net_dir("search", before)
    shares = {**arch, "search": {**arch["search"], "round_enter_shares": [0.1]}}
    assert overridden_net_dir("search", shares) != overridden_net_dir("search", arch)


def test_the_fit_runs_the_stage_last_and_keeps_it_where_it_agrees_more() -> None:
    positions = random_positions(700, seed=48, min_ply=4, max_ply=44)
    w = hidden_weights(positions)
    P, O = _arrays(positions)
    moves = uct_moves(P, O, w, 1, sims=600, **UCT, seed=5)
    ids = np.array([f"m{i // 20}" for i in range(len(P))], dtype=object)
    d = Decisions(P, O, moves, ids)
    train, select = d.subset(np.arange(500)), d.subset(np.arange(500, 700))
    cfg = FitConfig(depths=(1,), phases=(1,), endgames=(0,), ties=("first",),
                    mcts_sims=(600,), mcts_cs=(1.0,), mcts_depths=(2,),
                    mcts_playouts=("random", "corners"), mcts_scales=(8.0,), mcts_aboves=(0,),
                    mcts_positions=200, mcts_rounds=1)
    imitator = fit(train, select, cfg)
    assert imitator.settings.mcts_sims == 600 and imitator.settings.mcts_playout == "corners"
    assert [r["playout"] for r in imitator.summary["mcts_grid"]] == ["random", "corners"]
    off = fit(train, select, FitConfig(depths=(1,), phases=(1,), endgames=(0,), ties=("first",)))
    # measured 69.5 against 59.5 (the weights are the surrogate's, fitted to UCT's moves)
    assert imitator.summary["select_acc"] > off.summary["select_acc"] + 5
    assert off.settings.mcts_sims == 0 and "mcts_grid" not in off.summary


@pytest.mark.slow
def test_the_climb_raises_uct_s_agreement_and_is_kept_only_where_the_selection_agrees() -> None:
    positions = random_positions(900, seed=49, min_ply=4, max_ply=44)
    w = hidden_weights(positions)
    P, O = _arrays(positions)
    kw = {**UCT, "sims": 250}
    moves = uct_moves(P, O, w, 1, **kw, seed=11)
    ids = np.array([f"m{i // 20}" for i in range(len(P))], dtype=object)
    d = Decisions(P, O, moves, ids)
    train, select = d.subset(np.arange(400)), d.subset(np.arange(400, 900))
    bad = w.copy()
    bad[:10] = 0.0  # the square table lost: UCT with these agrees far less
    grid = MctsGrid(sims=(250,), c=(1.0,), depth=(2,), playout=("corners",), scale=(8.0,),
                    above=(0,), positions=300, rounds=1, climb_evals=60, climb_positions=300)
    mc = fit_mcts(bad, SearchSettings(depth=1), select, grid, train=train)
    # measured: 48.0 -> 51.3 % of the 300 fit positions; the selection fold 54.6 -> 56.8 %
    assert mc.climb is not None and mc.climb["score"] > mc.climb["start"] + 2, mc.climb
    without = fit_mcts(bad, SearchSettings(depth=1), select, replace(grid, climb_evals=0),
                       train=train)
    assert without.climb is None
    assert mc.acc == max(without.acc, mc.climb["select"])  # the better on the selection fold
    assert mc.climb["kept"] == (mc.climb["select"] > without.acc)
    assert np.array_equal(mc.weights, bad) != mc.climb["kept"]
    assert np.abs(mc.weights).max() == pytest.approx(np.abs(bad).max())  # the leaves' scale kept
