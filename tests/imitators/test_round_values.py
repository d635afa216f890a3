"""The round-value stage (issue 46): weights put on a ladder of round numbers and hill-climbed on
agreement itself, which a smooth surrogate cannot do (agreement is piecewise constant)."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from ime.imitators.round_values import LADDER, TOPS, Agreement, Race, climb, snap, to_ladder

TABLE = np.array([100, -20, 10, 5, -50, -2, -2, 1, 1, 0, 0, 0], dtype=float)
"""A hand-written evaluation: square-class weights, then two features it does not use."""


def _table_bot_decisions(terms: dict[str, float], seed: int) -> tuple[Any, Any, Any]:
    """A depth-2 bot's moves (:data:`TABLE`'s squares plus the named features ``terms``; no zoo
    bot's) on 2,500 seeded positions, as fit, selection and test decisions (1,500, 400, 600)."""
    from ime.imitators.reversi_features import BASE_NAMES, num_features
    from ime.imitators.reversi_search import LinearSearch, SearchSettings
    from imitators.helpers import random_positions
    from imitators.test_fit import decisions

    w = np.zeros(num_features(1))
    w[:10] = TABLE[:10]
    for name, value in terms.items():
        w[BASE_NAMES.index(name)] = value
    target = LinearSearch(w, SearchSettings(depth=2, tie="last", phases=1))
    positions = random_positions(2500, seed=seed, min_ply=2, max_ply=48)
    moves = [target.choose(P, O) for P, O in positions]
    return (decisions(positions[:1500], moves[:1500], "f"),
            decisions(positions[1500:1900], moves[1500:1900], "s"),
            decisions(positions[1900:], moves[1900:], "t"))


def _argmax_first(values: np.ndarray) -> np.ndarray:
    """Each row's best column, ties to the first (a deterministic bot's tie rule)."""
    return np.argmax(values, axis=1)


def _problem(seed: int, n: int = 1500, moves: int = 8) -> tuple[np.ndarray, np.ndarray]:
    """Integer feature counts of each position's moves and a table bot's choices among them
    (exact ties are common, as with a real table, and the tie rule settles them)."""
    rng = np.random.default_rng(seed)
    X = rng.integers(-3, 4, size=(n, moves, len(TABLE))).astype(float)
    return X, _argmax_first(X @ TABLE)


def test_the_ladder_is_round_numbers_and_symmetric() -> None:
    assert {0, 1, 2, 10, 12, 15, 25, 120, 1500, 8000} <= set(LADDER.tolist())
    assert 13 not in LADDER and 130 not in LADDER
    np.testing.assert_array_equal(LADDER, -LADDER[::-1])
    np.testing.assert_array_equal(snap(np.array([13.0, -118.0, 0.4, 2600.0])),
                                  [12.0, -120.0, 0.0, 2500.0])
    # a search's move is unchanged by a positive scale, and so is the laddered start
    w = np.array([0.61, -0.122, 0.05, -0.3])
    np.testing.assert_array_equal(to_ladder(w), to_ladder(7.3 * w))
    assert to_ladder(w, 6000.0)[0] == 6000.0 and 6000.0 in TOPS


def test_climb_recovers_a_table_that_the_surrogate_missed() -> None:
    X, target = _problem(1)

    def score(w: np.ndarray, _setting: object) -> float:
        return float(np.mean(_argmax_first(X @ w) == target)) * 100

    # what a smooth fit leaves: the mid-size weights 1.4x too large against the corner and
    # X-square, small weights on the unused features (rev4's hinge fit, docs/imitators.md)
    fitted = TABLE * np.array([1, 1.35, 1.5, 1.4, 1, 1.45, 1.35, 1.7, 1.6, 1, 1, 1])
    fitted[10:] = [0.9, -0.6]
    assert score(fitted, None) < 95.0
    out = climb([(fitted, "one phase")], score, max_evals=600)
    assert out["score"] == 100.0 and out["setting"] == "one phase"
    assert out["evals"] <= 600 and out["start_scores"]
    w = out["weights"]
    assert w[4] / w[0] == -0.5 and w[1] / w[0] == -0.2  # the table's own ratios, exactly


def test_climb_keeps_to_its_budget_and_its_best() -> None:
    X, target = _problem(2, n=400)
    calls: list[int] = []

    def score(w: np.ndarray, _setting: object) -> float:
        calls.append(1)
        return float(np.mean(_argmax_first(X @ w) == target)) * 100

    rng = np.random.default_rng(3)
    start = rng.normal(size=len(TABLE))
    out = climb([(start, 1), (-start, 2)], score, max_evals=40)
    assert len(calls) == out["evals"] == 40  # the starts (22) and then moves up to the budget
    assert out["score"] >= max(out["start_scores"])  # never below its best start
    assert len(out["climbs"]) == 2 and out["score"] == max(out["climbs"])
    assert out["score"] == pytest.approx(score(out["weights"], out["setting"]))


def test_a_raced_climb_takes_the_same_steps_as_a_full_one_and_searches_less() -> None:
    """Raced scorings (module doc): each stops once its point cannot beat the climb's, so the
    climb ends on the same weights and setting after the same number of scorings, with the
    same start scores, while far fewer rows are read. Two tie rules (two argmax columns' ties
    broken first or last), the best taken, as Snake's climb does; two starts and a settings
    round, so that bounds are met again under other bars."""
    X, target = _problem(4, n=600)

    def misses(w: np.ndarray, setting: int, rows: np.ndarray) -> np.ndarray:
        v = X[rows] @ (w * (1.0 if setting == 0 else np.r_[np.ones(10), 0.0, 0.0]))
        first = np.argmax(v, axis=1)
        last = v.shape[1] - 1 - np.argmax(v[:, ::-1], axis=1)
        return np.array([first != target[rows], last != target[rows]])

    def full(w: np.ndarray, setting: int) -> float:
        return max(float(np.mean(~m)) * 100 for m in misses(w, setting, np.arange(len(target))))

    race = Race(len(target), chunk=40)
    rows_read: list[int] = []

    def raced(w: np.ndarray, setting: int, bar: float | None) -> Agreement:
        before = race.searched
        got = race(lambda r: misses(w, setting, r), bar)
        rows_read.append(race.searched - before)
        assert got.exact or got.value <= bar + 1e-9
        if got.exact:
            assert got.value == full(w, setting)  # bit for bit
        return got

    rng = np.random.default_rng(5)
    starts = [(TABLE + rng.normal(scale=8.0, size=len(TABLE)), 0), (rng.normal(size=12), 1)]
    kw: dict[str, Any] = {"max_evals": 300, "setting_moves": lambda s: [1 - s]}
    plain = climb(starts, full, **kw)
    fast = climb(starts, raced, raced=True, **kw)
    np.testing.assert_array_equal(fast["weights"], plain["weights"])
    assert (fast["setting"], fast["score"], fast["evals"], fast["climbs"]) == (
        plain["setting"], plain["score"], plain["evals"], plain["climbs"])
    # a start's scales race the best scale before them: the same best, and where a scale
    # stopped early a bound between its agreement and that best
    k = len(TOPS)
    for i in range(0, len(plain["start_scores"]), k):
        got, full = fast["start_scores"][i:i + k], plain["start_scores"][i:i + k]
        assert max(got) == max(full) and got.index(max(got)) == full.index(max(full))
        assert all(f <= g <= max(full) for g, f in zip(got, full, strict=True))
    # measured: 60 % of the rows 300 full scorings read (the climb ends at 97.7 %)
    assert race.searched < 0.7 * plain["evals"] * len(target), race.searched
    assert min(rows_read) == 40  # some stopped after their first chunk


def test_a_race_reads_hard_rows_first_and_never_stops_below_the_last_chunk() -> None:
    race = Race(10, chunk=3)
    wrong = np.zeros(10, dtype=bool)
    wrong[[7, 8, 9]] = True
    seen: list[list[int]] = []

    def misses(rows: np.ndarray) -> np.ndarray:
        seen.append(rows.tolist())
        return wrong[rows]

    assert race(misses, None) == Agreement(70.0, True)
    assert seen == [[0, 1, 2], [3, 4, 5], [6, 7, 8], [9]]
    assert race.missed.tolist() == [0] * 7 + [1] * 3
    seen.clear()
    # the rows missed before go first; three misses in the first chunk bound it at 70 %
    assert race(misses, 80.0) == Agreement(70.0, False) and seen == [[7, 8, 9]]
    seen.clear()
    assert race(misses, 69.0) == Agreement(70.0, True) and len(seen) == 4  # it beats 69 %
    with pytest.raises(ValueError, match="rows and a chunk"):
        Race(0)


def test_reversis_raced_round_score_is_its_full_score_or_a_bound_below_the_bar() -> None:
    """Reversi's climb score (``RoundScorer``) raced: with no bar the full agreement, bit for
    bit, and the endgame solver's picks made on the right rows (a table bot's moves, solved
    at 14 empties or fewer); with a bar above it a bound at most that bar; with one below, the
    agreement itself."""
    from ime.imitators.reversi_features import BASE_NAMES
    from ime.imitators.reversi_search import LinearSearch, SearchSettings
    from ime.imitators.search_fit import round_scorer
    from imitators.helpers import random_positions

    w = np.zeros(len(BASE_NAMES))
    w[:10] = TABLE[:10]
    settings = SearchSettings(depth=2, tie="last", phases=1, endgame=14)
    target = LinearSearch(w, SearchSettings(depth=1, tie="first", phases=1))
    positions = random_positions(300, seed=3, min_ply=2, max_ply=58)
    P = np.array([p for p, _ in positions], dtype=np.uint64)
    O = np.array([o for _, o in positions], dtype=np.uint64)
    A = np.array([target.choose(p, o) for p, o in positions])
    score = round_scorer(P, O, A, settings)
    assert len(score.end) > 20  # the solver's rows are among the chunks
    v = np.append(w, 0.0)
    full = score(v, 1)
    assert 20.0 < full < 100.0
    assert score.raced(v, 1, None) == (full, True)
    bound = score.raced(v, 1, full + 5.0)
    assert not bound.exact and full <= bound.value <= full + 5.0
    assert score.raced(v, 1, full - 5.0) == (full, True)


def test_the_leading_climb_goes_on_with_what_a_converged_start_left() -> None:
    """The starts climb on equal shares of the first half of the scorings; the highest climb
    then goes on with the rest (and what a start that converged early did not use), resuming
    its sweep where it stopped."""
    rng = np.random.default_rng(0)
    mags = LADDER[(LADDER >= 10) & (LADDER <= 800)]
    target = np.concatenate([[1000.0], rng.choice(mags, 39) * rng.choice([-1, 1], 39)])
    ladder_at = {float(x): i for i, x in enumerate(LADDER)}
    near = target.copy()  # every weight but the largest one rung off, up or down in turn
    for k in range(1, len(target)):
        near[k] = LADDER[ladder_at[float(target[k])] + (1 if k % 2 else -1)]

    def score(w: np.ndarray, setting: object) -> float:
        return 50.0 if setting == "flat" else 100.0 - float(np.sum(w != target))

    alone = climb([(near, "table")], score, max_evals=100)
    assert alone["score"] < 100.0  # 100 scorings are not enough for it ...
    flat = np.array([1000.0, 10.0, 0.0])  # a start that converges in a few dozen scorings
    out = climb([(near, "table"), (flat, "flat")], score, max_evals=200)
    # ... and its share is (100 - 22 starts) / 2 = 39 of the first half: it got the rest
    assert out["evals"] <= 200 and out["setting"] == "table" and out["score"] == 100.0
    np.testing.assert_array_equal(out["weights"], target)


@pytest.mark.slow
def test_the_round_value_stage_recovers_a_square_table_target() -> None:
    """A depth-2 bot with a hand-written square table (not a zoo bot's): the surrogate's
    real-valued weights agree with it on 86.8 % of fresh positions, the round-value stage on 100.0
    (measured at v14; v13's refits on the climb's positions alone: 97.0; the test asks for 5 points
    more and at least 93 %)."""
    from ime.imitators.search_fit import FitConfig, fit, predict

    train, select, test = _table_bot_decisions({}, seed=7)
    agree = {}
    for evals in (0, 600):
        cfg = FitConfig(depths=(1, 2), passes=3, phases=(1,), ties=("first", "last"),
                        endgames=(0,), endgame_modes=("exact",), round_evals=evals,
                        round_positions=600)
        im = fit(train, select, cfg)
        agree[evals] = float(np.mean(predict(im.weights, im.settings, test.P, test.O)
                                     == test.action)) * 100
        stages = {g["stage"] for g in im.summary["grid"]}
        assert stages == ({"surrogate", "round"} if evals else {"surrogate"})
    assert agree[600] >= max(93.0, agree[0] + 5.0), agree


def test_a_start_with_a_mask_moves_only_its_free_weights() -> None:
    """A square-table start (its third element a mask) tries one-weight moves on its free
    weights only: the features it holds at 0 stay 0, and it reaches the table in fewer
    scorings than the same start moving every weight."""
    X, target = _problem(4, n=600)

    def score(w: np.ndarray, _setting: object) -> float:
        return float(np.mean(_argmax_first(X @ w) == target)) * 100

    start = TABLE * np.array([1, 1.35, 1.5, 1.4, 1, 1.45, 1.35, 1.7, 1.6, 1, 0, 0])
    free = np.arange(len(TABLE)) < 10
    masked = climb([(start, 1, free)], score, max_evals=400)
    assert (masked["weights"][~free] == 0).all()
    assert masked["score"] == 100.0
    every = climb([(start, 1)], score, max_evals=400)
    assert every["score"] <= masked["score"]
    assert masked["evals"] < every["evals"] or every["score"] < 100.0


def test_a_wide_round_crosses_a_plateau_that_stops_the_near_moves() -> None:
    """Agreement flat in a small weight over several rungs (rev5's thesis fold 1: a small square
    weighs 0-5 for the same agreement) stops the one-and-two-rung moves; the wide round scans
    far rungs and small shares of the largest weight, and moves to the best."""
    target = np.array([1000.0, 300.0, 50.0, 20.0])

    def score(w: np.ndarray, _setting: object) -> float:
        # each small weight counts only within 20 % of its target: a plateau elsewhere
        near = np.abs(w[2:] - target[2:]) <= 0.2 * target[2:]
        return 50.0 + 20.0 * float(np.sum(near)) + (10.0 if w[1] == target[1] else 0.0)

    start = np.array([1000.0, 300.0, 0.0, 0.0])
    rv_wide = climb([(start, "table")], score, max_evals=300)
    assert rv_wide["score"] == 100.0, rv_wide
    w = rv_wide["weights"]
    assert abs(w[2] - 50.0) <= 10.0 and abs(w[3] - 20.0) <= 4.0
    # the near moves alone (the wide round's first candidates are x -1 ... of 0: none) cannot
    near_only = np.array([1000.0, 300.0, 0.0, 0.0])
    assert score(near_only, None) == 60.0
    for x in (1.0, 2.0, -1.0, -2.0):
        v = near_only.copy()
        v[2] = x
        assert score(v, None) == 60.0  # every near move of the small weights is flat


def test_a_term_enters_at_its_size_with_enter_shares() -> None:
    """A term that counts only at a tenth of the largest weight or more (rev2's parity: 15 % of
    its corner) is flat at every rung the near, wide and pair moves try from 0 (1 and 2; shares
    up to 5 %), so the climb ends without it; with ``enter_shares`` the near moves from 0 try
    its size and it enters."""
    def score(w: np.ndarray, _setting: object) -> float:
        if w[0] <= 0 or w[0] < np.abs(w).max():
            return 50.0  # the corner must stay the largest weight
        return 100.0 if w[2] >= 0.12 * w[0] else 60.0

    start = np.array([1000.0, 300.0, 0.0])
    plain = climb([(start, "table")], score, max_evals=300)
    assert plain["score"] == 60.0 and plain["weights"][2] < 120, plain
    entered = climb([(start, "table")], score, max_evals=300, enter_shares=(0.05, 0.1, 0.2))
    assert entered["score"] == 100.0, entered
    assert entered["weights"][2] >= 120 and entered["evals"] < plain["evals"]


def test_a_pair_round_moves_two_weights_that_help_only_together() -> None:
    """Two weights a table gives the same value: either moved alone loses (on rev5's thesis fold
    1 no single weight, near or far, helped at the stopped point), both moved together by the
    same step reach the table."""
    def score(w: np.ndarray, _setting: object) -> float:
        if w[2] != w[3]:
            return 55.0
        return 100.0 if w[2] >= 20.0 else 60.0

    start = np.array([1000.0, 300.0, 0.0, 0.0])
    for k in (2, 3):  # every single-weight move, near or far, loses
        for x in LADDER[np.abs(LADDER) <= 1000]:
            v = start.copy()
            v[k] = x
            assert score(v, None) <= 60.0
    out = climb([(start, "table")], score, max_evals=400)
    assert out["score"] == 100.0, out
    assert out["weights"][2] == out["weights"][3] >= 20.0


def test_a_rescale_mends_ratios_that_no_move_of_weights_can() -> None:
    """rev5's thesis fold 3 stopped with the corner at 4000 and the mid squares at 300, 500,
    400, -250: 41 : 501 is 328 : 4000, between two rungs, and no move of one weight, of a pair
    or of the group reaches it. The point put on the ladder again at another scale (1000: 80,
    120, 100, -60) has every ratio within 3 %."""
    from ime.imitators import round_values

    target = np.array([501.0, 41.0, 61.0, 51.0, -29.0])

    def score(w: np.ndarray, _setting: object) -> float:
        if w[0] == 0:
            return 0.0
        ratio = (w[1:] / w[0]) / (target[1:] / target[0])
        return 60.0 + 10.0 * float(np.sum(np.abs(ratio - 1.0) <= 0.03))

    stuck = np.array([4000.0, 300.0, 500.0, 400.0, -250.0])
    assert score(stuck, None) == 80.0

    def run(tops: tuple[float, ...]) -> float:
        round_values.TOPS, saved = tops, round_values.TOPS
        try:
            cache: dict = {}

            def f(w: np.ndarray, setting: object, _bar: float | None) -> float:
                return cache.setdefault((setting, w.tobytes()), score(w, setting))

            c = round_values._Climb(stuck, 1, score(stuck, 1), f, cache)
            c.run(2000)
            return c.score
        finally:
            round_values.TOPS = saved

    assert run((4000.0,)) == 80.0  # near, wide and pair moves at the stopped scale: stuck
    assert run(TOPS) == 100.0


def test_each_nonzero_weight_costs_the_start_that_goes_on_one_agreement() -> None:
    """After the shared scorings the start that agrees most goes on, less ``per_weight`` for
    each nonzero weight: on rev5's thesis fold 0 a 49-weight start led the square table (11) on
    the fit sample by 1.1 points and then barely moved, where the square tables of three other
    folds went on to 99.6 %."""
    rng = np.random.default_rng(0)
    mags = LADDER[(LADDER >= 10) & (LADDER <= 800)]
    target = np.zeros(40)  # a sparse table: 12 nonzero weights
    target[0] = 1000.0
    target[1:12] = rng.choice(mags, 11) * rng.choice([-1, 1], 11)
    ladder_at = {float(x): i for i, x in enumerate(LADDER)}
    near = target.copy()
    for k in range(1, 12):
        near[k] = LADDER[ladder_at[float(target[k])] + (1 if k % 2 else -1)]

    def score(w: np.ndarray, setting: object) -> float:
        # the dense start sits on a plateau at 90 %; the table climbs one weight at a time
        return 90.0 if setting == "dense" else 100.0 - 2.0 * float(np.sum(w != target))

    dense = np.full(40, 100.0)
    dense[0] = 1000.0
    starts = [(dense, "dense"), (near, "table")]
    plain = climb(starts, score, max_evals=64)
    assert plain["setting"] == "dense" and plain["score"] == 90.0
    assert plain["climbs"][1] < 90.0  # the table had not reached the plateau at half time
    lines: list[str] = []
    sparse = climb(starts, score, max_evals=64, per_weight=0.2, say=lines.append)
    assert sparse["setting"] == "table" and sparse["score"] == 100.0
    np.testing.assert_array_equal(sparse["weights"], target)
    assert any("start 2 goes on" in line for line in lines)


def test_leading_features_are_the_table_and_the_few_terms_that_weigh() -> None:
    """The sparse start's features (:func:`leading_features`): weights measured on the
    optimiser's scale, so a count weighted 12 leads a ratio weighted 30 (a ratio moves a value
    less); the small dense rest is left out, and a share of 0 leaves out everything."""
    from dataclasses import replace

    from ime.imitators.reversi_features import BASE_NAMES, num_features
    from ime.imitators.reversi_search import SearchSettings
    from ime.imitators.search_fit import leading_features
    from imitators.helpers import random_positions

    w = np.zeros(num_features(1))
    w[:10] = TABLE[:10]
    named = {"mob": 12.0, "parity": 15.0, "mob_ratio": 30.0, "frontier": -0.3, "tempo": 0.2}
    for name, value in named.items():
        w[BASE_NAMES.index(name)] = value
    positions = random_positions(300, seed=3, min_ply=4, max_ply=50)
    P = np.array([p for p, _ in positions], dtype=np.uint64)
    O = np.array([o for _, o in positions], dtype=np.uint64)
    settings = SearchSettings(depth=3, phases=1)
    lead = leading_features(w, settings, P, O, 0.1)
    chosen = {BASE_NAMES[i] for i in np.flatnonzero(lead)}
    assert {"sq0", "sq4", "mob", "parity"} <= chosen, chosen
    assert not chosen & {"mob_ratio", "frontier", "tempo", "sq7", "sq8", "sq9"}, chosen
    assert not leading_features(w, replace(settings, budget=1000), P, O, 0.0).any()


@pytest.mark.slow
def test_the_sparse_start_recovers_a_table_with_mobility_and_parity() -> None:
    """A depth-2 bot with a square table, mobility and parity (not a zoo bot's): the square-table
    start cannot hold its mobility term, and the climb from the dense starts keeps 17 other
    features: 96.3 % of fresh positions. The sparse start holds mobility and nothing else (the
    bot's parity term rarely decides a move at depth 2): 98.7 % (measured at v14; 99.5 at v13,
    whose refits used the climb's positions alone; the test asks for two points more and at
    least 97 %)."""
    from ime.imitators.reversi_features import BASE_NAMES
    from ime.imitators.search_fit import FitConfig, fit, predict

    train, select, test = _table_bot_decisions({"mob": 8.0, "parity": 10.0}, seed=11)
    agree, kept = {}, {}
    for share in (0.0, 0.1):
        cfg = FitConfig(depths=(1, 2), passes=3, phases=(1,), ties=("first", "last"),
                        endgames=(0,), endgame_modes=("exact",), round_evals=400,
                        round_positions=600, round_extra_share=share)
        im = fit(train, select, cfg)
        agree[share] = float(np.mean(predict(im.weights, im.settings, test.P, test.O)
                                     == test.action)) * 100
        kept[share] = {BASE_NAMES[i] for i in np.flatnonzero(im.weights)} - {
            f"sq{k}" for k in range(10)}
    assert agree[0.1] >= max(97.0, agree[0.0] + 2.0), agree
    assert kept[0.1] <= {"mob", "parity"} and "mob" in kept[0.1], kept


def test_a_refit_from_a_saved_imitators_weights_starts_on_the_surrogates_scale() -> None:
    """A saved imitator's weights are on the round-value ladder (a corner of 5,000 here); the
    surrogate's margins and L2 penalty are absolute, so from there its first pass shrank every
    weight to about 0 (64.3 % agreement, measured without the rescale); put on the surrogate's
    scale first, the same pass agrees about as from its own scale (95.5 and 95.7 %; the test asks
    90 %, a point of the other at most, and the corner's and X-square's signs). A search's moves
    do not change with a positive scale."""
    from ime.imitators.mmto import SCALES, best_scale
    from ime.imitators.reversi_features import BASE_NAMES, TABLE_FEATURES
    from ime.imitators.reversi_search import SearchSettings
    from ime.imitators.search_fit import (
        FitConfig,
        _masked_refit,
        _problem,
        round_scorer,
        search_all,
    )

    train, _, _ = _table_bot_decisions({"mob": 8.0, "parity": 10.0}, seed=11)
    P, O, A = train.P[:600], train.O[:600], train.action[:600]
    terms = [BASE_NAMES.index("mob"), BASE_NAMES.index("parity")]
    w = np.zeros(len(BASE_NAMES))
    w[TABLE_FEATURES], w[terms] = TABLE[:10], (8.0, 10.0)
    mask = w != 0
    settings = SearchSettings(depth=2, tie="last", phases=1)
    cfg = FitConfig(loss="hinge")
    score = round_scorer(P, O, A, settings)
    assert score(np.append(w, 0.0), 1) == 100.0  # the bot's own weights

    refit = {top: _masked_refit(w * top / 100, mask, settings, P, O, A, cfg, passes=1)
             for top in (1.0, 5000.0)}
    agree = {top: score(np.append(v, 0.0), 1) for top, v in refit.items()}
    assert agree[5000.0] >= max(90.0, agree[1.0] - 1.0), agree
    assert refit[5000.0][0] > 0 and refit[5000.0][4] < 0  # corner and X-square keep their signs

    # the chosen factor follows the weights' scale: 2^10 times the weights, 2^-10 the factor
    prob = _problem(search_all(P, O, w / 100, settings, margin=cfg.margin, targets=A), A,
                    np.ones(len(w)), "last")
    c = best_scale(prob, w / 100, cfg.l2, "hinge")
    assert c in SCALES and best_scale(prob, w / 100 * 2.0**10, cfg.l2, "hinge") == c / 2.0**10


@pytest.mark.slow
def test_the_stage_runs_again_from_its_result_while_the_selection_fold_agrees_more() -> None:
    """``round_repeats``: the round-value stage again from its own result (its table and sparse
    starts refitted from climbed weights), kept only where the selection fold agrees more, and
    no further run once one does not. Measured on a square-table bot with 60 scorings a run:
    92.5 % of the selection positions after one run, 94.0 after the second; with 120 a run the
    first reaches 100 % and a third run is never started."""
    from ime.imitators.search_fit import FitConfig, fit

    train, select, _ = _table_bot_decisions({}, seed=7)

    def rounds(evals: int, repeats: int) -> tuple[list[float], float]:
        cfg = FitConfig(depths=(1, 2), passes=3, phases=(1,), ties=("first", "last"),
                        endgames=(0,), endgame_modes=("exact",), round_evals=evals,
                        round_positions=600, round_repeats=repeats)
        im = fit(train, select, cfg)
        return ([g["acc"] for g in im.summary["grid"] if g["stage"] == "round"],
                im.summary["select_acc"])

    once, acc_once = rounds(60, 1)
    twice, acc_twice = rounds(60, 2)
    assert len(once) == 1 and len(twice) == 2 and twice[0] == once[0]
    assert twice[1] > twice[0] and acc_twice == twice[1] > acc_once
    stopped, acc = rounds(120, 3)
    assert len(stopped) == 2 and stopped[0] == stopped[1] == acc == 100.0
