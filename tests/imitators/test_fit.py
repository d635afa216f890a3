"""The fitter: a synthetic target (the same search with hidden weights) is reproduced on
held-out positions; save/load; the dataset reader's bitboards; the unseen-position protocol."""

from __future__ import annotations

import numpy as np
import pytest

from ime.games.reversi.encode import bits_to_planes
from ime.imitators.data import Decisions, planes_to_bitboards, unseen_positions
from ime.imitators.reversi_features import BASE_NAMES, features, num_features
from ime.imitators.reversi_search import LinearSearch, SearchSettings
from ime.imitators.search_fit import FitConfig, SearchImitator, fit
from imitators.helpers import random_positions


def hidden_weights(positions: list[tuple[int, int]]) -> np.ndarray:
    """A target's evaluation: random weights, each feature scaled to matter about equally."""
    X = np.array([features(P, O) for P, O in positions[:300]])
    std = X.std(axis=0)
    std[std < 1e-9] = 1.0
    w = np.random.default_rng(46).normal(size=num_features(1)) / std
    w[BASE_NAMES.index("tempo")] = 0.0
    return w


def decisions(positions: list[tuple[int, int]], moves: list[int], tag: str) -> Decisions:
    return Decisions(np.array([p for p, _ in positions], dtype=np.uint64),
                     np.array([o for _, o in positions], dtype=np.uint64),
                     np.array(moves, dtype=np.int64),
                     np.array([f"{tag}{i // 20}" for i in range(len(moves))], dtype=object))


def synthetic_target(n: int, seed: int, settings: SearchSettings, fit_n: int, select_n: int,
                     min_ply: int = 2, max_ply: int = 48
                     ) -> tuple[LinearSearch, Decisions, Decisions, Decisions]:
    """A target (``settings`` with :func:`hidden_weights`) and its decisions on ``n`` seeded
    positions, split in order into fit, selection and test rows."""
    positions = random_positions(n, seed=seed, min_ply=min_ply, max_ply=max_ply)
    target = LinearSearch(hidden_weights(positions), settings)
    moves = [target.choose(P, O) for P, O in positions]
    a, b = fit_n, fit_n + select_n
    return (target, decisions(positions[:a], moves[:a], "t"),
            decisions(positions[a:b], moves[a:b], "s"), decisions(positions[b:], moves[b:], "v"))


def test_fit_reproduces_a_synthetic_search_target() -> None:
    target, train, select, test = synthetic_target(1500, 460, SearchSettings(depth=2, tie="last"),
                                                   1000, 250)
    cfg = FitConfig(depths=(1, 2), phases=(1,), passes=3, endgames=(0,))
    imitator = fit(train, select, cfg)
    agree = float(np.mean(imitator.choose_many(test) == test.action)) * 100
    assert imitator.settings.depth == 2
    assert agree >= 95.0, (agree, imitator.settings)
    assert np.corrcoef(imitator.weights, target.w)[0, 1] > 0.9  # the evaluation, recovered
    # and a depth-1 imitator (plain logistic regression) does clearly worse: depth matters
    one = fit(train, select, FitConfig(depths=(1,), phases=(1,), endgames=(0,)))
    assert float(np.mean(one.choose_many(test) == test.action)) * 100 < agree


def test_save_and_load(tmp_path) -> None:  # noqa: ANN001
    w = np.arange(num_features(2), dtype=np.float64) / 7
    imitator = SearchImitator(w, SearchSettings(depth=3, tie="first_col", endgame=8, phases=2),
                              {"select_acc": 61.5})
    path = tmp_path / "rev.json"
    imitator.save(path)
    back = SearchImitator.load(path)
    np.testing.assert_array_equal(back.weights, w)
    assert back.settings == imitator.settings and back.summary == {"select_acc": 61.5}
    for P, O in random_positions(10, seed=1):
        assert back.choose(P, O) == imitator.choose(P, O)
        probs = back.probabilities(P, O)
        assert abs(sum(probs.values()) - 1) < 1e-9
    path.write_text('{"format": "something else"}')
    with pytest.raises(ValueError, match="not a search imitator"):
        SearchImitator.load(path)


def test_planes_to_bitboards_inverts_the_encoder() -> None:
    positions = random_positions(50, seed=3)
    own = np.array([p for p, _ in positions], dtype=np.uint64)
    opp = np.array([o for _, o in positions], dtype=np.uint64)
    planes = np.stack([bits_to_planes(own), bits_to_planes(opp)], axis=1)
    P, O = planes_to_bitboards(planes)
    np.testing.assert_array_equal(P, own)
    np.testing.assert_array_equal(O, opp)


def test_unseen_positions_are_deduplicated() -> None:
    a, b, c = random_positions(3, seed=4)
    train = decisions([a, b], [0, 0], "t")
    val = decisions([a, c, c, b, c], [0, 1, 1, 0, 2], "v")
    u = unseen_positions(train, val)
    assert list(u.rows) == [1]  # c once
    assert u.seen_share == pytest.approx(40.0)
    assert u.conflicting == 1  # c played two ways


def test_patience_stops_deepening() -> None:
    positions = random_positions(160, seed=5, min_ply=2, max_ply=40)
    moves = [LinearSearch(hidden_weights(positions), SearchSettings()).choose(P, O)
             for P, O in positions]
    train, select = decisions(positions[:120], moves[:120], "t"), decisions(
        positions[120:], moves[120:], "s")
    base = {"depths": (1, 2, 3), "phases": (1,), "passes": 1, "endgames": (0,),
            "ties": ("first",)}
    every = fit(train, select, FitConfig(**base))
    assert sorted({g["depth"] for g in every.summary["grid"]}) == [1, 2, 3]
    none_better = fit(train, select, FitConfig(**base, patience=0))
    assert {g["depth"] for g in none_better.summary["grid"]} == {1}
    one_pass = fit(train, select, FitConfig(**{**base, "passes": 6}, pass_patience=0))
    assert [g["pass_"] for g in one_pass.summary["grid"]] == [0, 0, 0]
    some = fit(train, select, FitConfig(**{**base, "passes": 6}, pass_patience=1))
    for depth in (2, 3):  # stops after the first pass that did not raise the depth's best
        accs = [g["acc"] for g in some.summary["grid"] if g["depth"] == depth]
        assert len(accs) == 6 or accs[-1] <= max(accs[:-1])


def test_fit_finds_a_budgeted_target_s_budget_and_ordering() -> None:
    """A target that deepens iteratively within a node budget, without move ordering, searches
    deeper where there are fewer moves: no fixed depth copies it, and the budget stage (the
    budget and ordering chosen on the selection fold, then passes with each position's leaves
    from the depth its decision reaches) does better than the best fixed depth."""
    hidden = SearchSettings(depth=64, budget=400, ordering="none", tie="last")
    _, train, select, test = synthetic_target(900, 461, hidden, 550, 150, min_ply=6, max_ply=44)
    fixed_cfg = FitConfig(depths=(1, 2, 3), phases=(1,), passes=2, endgames=(0,), ties=("last",))
    fixed = fit(train, select, fixed_cfg)
    budgeted = fit(train, select, FitConfig(
        depths=(1, 2, 3), phases=(1,), passes=2, endgames=(0,), ties=("last",),
        budgets=(100, 400, 1600), orderings=("static", "none"), pv_firsts=(False,),
        budget_passes=2))
    s = budgeted.settings
    assert (s.budget, s.ordering) == (400, "none"), s
    agree_fixed = float(np.mean(fixed.choose_many(test) == test.action)) * 100
    agree = float(np.mean(budgeted.choose_many(test) == test.action)) * 100
    assert agree >= 90.0 and agree > agree_fixed + 3, (agree, agree_fixed)


def test_the_hinge_loss_is_the_decision_rule() -> None:
    """The tie-aware ranking loss is zero where the search with those values and the tie rule
    picks the target's move (ties going to it count), positive where it does not, and its
    gradient is the loss's (finite differences)."""
    from scipy.optimize import check_grad

    from ime.imitators.search_fit import _hinge_loss_and_grad, _problem, search_all

    positions = random_positions(40, seed=7, min_ply=6, max_ply=40)
    P = np.array([p for p, _ in positions], dtype=np.uint64)
    O = np.array([o for _, o in positions], dtype=np.uint64)
    w = np.random.default_rng(3).normal(size=num_features(1))
    s = SearchSettings(depth=2)
    res = search_all(P, O, w, s)
    for tie in ("first", "last"):
        own = LinearSearch(w, SearchSettings(depth=2, tie=tie))
        moves = np.array([own.choose(int(p), int(o)) for p, o in zip(P, O, strict=True)])
        prob = _problem(search_all(P, O, w, s, margin=12.0, targets=moves), moves,
                        np.ones(len(w)), tie)
        need = np.where(prob.prefer, 1e-9, 0.0)
        loss, _ = _hinge_loss_and_grad(w, prob.X, prob.pos, prob.chosen, need, 0.0)
        assert loss == 0.0  # its own moves: no violation
        other = np.array([sq for sq in res.squares[res.offsets[:-1] + 1]])  # another legal move
        wrong = np.where(other != moves, other, res.squares[res.offsets[:-1]])
        prob = _problem(search_all(P, O, w, s, margin=12.0, targets=wrong), wrong,
                        np.ones(len(w)), tie)
        need = np.where(prob.prefer, 1.0, 0.0)
        assert _hinge_loss_and_grad(w, prob.X, prob.pos, prob.chosen, need, 0.0)[0] > 0
        args = (prob.X, prob.pos, prob.chosen, need, 1e-3)
        err = check_grad(lambda u, a=args: _hinge_loss_and_grad(u, *a)[0],
                         lambda u, a=args: _hinge_loss_and_grad(u, *a)[1], w)
        scale = max(1.0, float(np.abs(_hinge_loss_and_grad(w, *args)[1]).max()))
        assert err < 1e-4 * scale, err


def test_a_hinge_fit_reproduces_a_synthetic_search_target() -> None:
    _, train, select, test = synthetic_target(900, 462, SearchSettings(depth=2, tie="last"),
                                              600, 150)
    imitator = fit(train, select, FitConfig(depths=(1, 2), phases=(1,), passes=3, endgames=(0,),
                                            loss="hinge"))
    agree = float(np.mean(imitator.choose_many(test) == test.action)) * 100
    assert agree >= 90.0, (agree, imitator.settings)
    with pytest.raises(ValueError, match="loss must be one of"):
        fit(train, select, FitConfig(depths=(1,), phases=(1,), endgames=(0,), loss="l1"))


def test_the_fit_finds_a_solver_that_keeps_the_last_winning_move() -> None:
    """A target that solves for win/draw/loss from 10 empties and keeps the last winning move in
    fastest-first order: offered that pick, the fit takes it and agrees more on fresh positions
    than with the search's values choosing among the winning moves."""
    st = SearchSettings(depth=2, tie="last", endgame_wld=10, endgame_pick="fastest_last")
    _, train, select, test = synthetic_target(1100, 462, st, 600, 250, min_ply=30, max_ply=58)
    assert (test.empties() <= 10).mean() > 0.2  # enough solved positions to tell them apart
    base = dict(depths=(1, 2), phases=(1,), passes=2, endgames=(0,), endgames_wld=(0, 10))
    plain = fit(train, select, FitConfig(**base))
    picked = fit(train, select, FitConfig(**base, endgame_picks=("value", "fastest_last")))
    assert picked.settings.endgame_pick == "fastest_last" and picked.settings.endgame_wld == 10
    ok = {name: float(np.mean(m.choose_many(test) == test.action)) * 100
          for name, m in (("plain", plain), ("picked", picked))}
    assert ok["picked"] >= ok["plain"] + 3.0, ok


@pytest.mark.parametrize("settings", [SearchSettings(depth=3, phases=2),
                                      SearchSettings(depth=8, budget=3000, pv_first=True)])
def test_searches_split_over_threads_give_the_same_results(settings: SearchSettings) -> None:
    """The compiled loop runs without the GIL on slices of the positions: every value, leaf
    feature, node count and depth reached is the same for any thread count, in the same rows."""
    from ime.imitators.search_fit import search_all, set_search_threads

    positions = random_positions(300, seed=77, min_ply=4, max_ply=52)
    P = np.array([p for p, _ in positions], dtype=np.uint64)
    O = np.array([o for _, o in positions], dtype=np.uint64)
    w = hidden_weights(positions)
    w = np.concatenate([w] * settings.phases)
    old = set_search_threads(1)
    try:
        one = search_all(P, O, w, settings)
        set_search_threads(3)
        three = search_all(P, O, w, settings)
    finally:
        set_search_threads(old)
    for name in ("offsets", "squares", "values", "features", "terminal", "nodes", "exact",
                 "depths"):
        np.testing.assert_array_equal(getattr(one, name), getattr(three, name), err_msg=name)
    if settings.budget:  # the budget cuts the deepening at different depths, position by position
        assert len(np.unique(one.depths)) > 1
