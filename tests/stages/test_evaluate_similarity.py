"""S1/S2 (thesis eqs. 3-1, 3-2), clustered bootstrap CIs and pairwise matrices."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from ime.evaluate.similarity import (
    cluster_bootstrap_ci,
    is_same,
    pairwise_similarity,
    s1,
    s2,
    similarity,
    to_matrix,
)


def test_s1_counts_agreement_not_disagreement():
    # The thesis's Fig 3.5 pseudo-code counts action != action; eq. (3-1) counts IsSame.
    target = [10, 20, 30, 40]
    assert s1(target, target) == 1.0  # the inverted code would give 0.0
    assert s1([11, 21, 31, 41], target) == 0.0  # ... and 1.0 here
    assert s1([10, 20, 31, 41], target) == 0.5
    assert s1([5, 5, 5], [5, 6, 7]) == pytest.approx(1 / 3)  # inverted: 2/3


def test_s2_compares_win_draw_loss_categories():
    win, draw, loss = 2, 1, 0
    assert s2([win, draw, loss], [win, draw, loss]) == 1.0
    assert s2([win, win, loss, draw], [win, draw, win, draw]) == 0.5
    assert s2([draw], [loss]) == 0.0


def test_is_same_rejects_misaligned_and_empty():
    with pytest.raises(ValueError):
        is_same([1, 2], [1, 2, 3])
    with pytest.raises(ValueError):
        s1([], [])


def _keys(n_matches=20, per_match=3, seed=0):
    rng = np.random.default_rng(seed)
    rows = []
    for m in range(n_matches):
        for k in range(per_match):
            rows.append({"match_id": f"m{m}", "ply": 10 + k, "seat": m % 2,
                         "action": int(rng.integers(64)), "target_outcome": int(rng.integers(3)),
                         "n_legal": int(rng.integers(2, 10))})
    return pd.DataFrame(rows)


def test_similarity_of_target_with_itself_is_one_and_order_free():
    keys = _keys()
    scores = keys.rename(columns={"target_outcome": "outcome"})[
        ["match_id", "ply", "seat", "action", "outcome"]].sample(frac=1.0, random_state=3)
    sim = similarity(keys, scores, agent="t", target="t", n_boot=200)
    assert sim.s1 == 1.0 and sim.s2 == 1.0
    # all 60 keys agree: the exact interval over the 20 matches, not a zero-width one
    assert sim.s1_hi == 1.0 and sim.s1_lo == pytest.approx(0.025 ** (1 / 20))
    assert (sim.s2_lo, sim.s2_hi) == (sim.s1_lo, sim.s1_hi)
    assert sim.baseline == pytest.approx((1 / keys["n_legal"]).mean())
    assert sim.n == len(keys) and sim.n_matches == 20


def test_similarity_hand_made_values_and_missing_scores():
    keys = pd.DataFrame({"match_id": ["a", "a", "b", "c"], "ply": [4, 6, 4, 8],
                         "seat": [0, 0, 1, 0], "action": [1, 2, 3, 4],
                         "target_outcome": [2, 2, 0, 1], "n_legal": [2, 4, 4, 5]})
    scores = pd.DataFrame({"match_id": ["a", "a", "b", "c"], "ply": [4, 6, 4, 8],
                           "seat": [0, 0, 1, 0], "action": [1, 9, 3, 9],
                           "outcome": [2, 0, 0, 0]})
    sim = similarity(keys, scores, agent="x", target="t", n_boot=100)
    assert sim.s1 == 0.5 and sim.s2 == 0.5
    assert 0.0 <= sim.s1_lo <= sim.s1 <= sim.s1_hi <= 1.0
    with pytest.raises(ValueError, match="no score"):
        similarity(keys, scores.iloc[:3], agent="x", target="t", n_boot=10)


def test_bootstrap_ci_is_seeded_contains_mean_and_respects_clusters():
    rng = np.random.default_rng(1)
    v = rng.random(400) < 0.7
    clusters = np.arange(400)
    lo, hi = cluster_bootstrap_ci(v, clusters, n_boot=2000, seed=5)
    assert lo < v.mean() < hi
    assert (lo, hi) == cluster_bootstrap_ci(v, clusters, n_boot=2000, seed=5)
    # ~ +-1.96 * sqrt(p(1-p)/n) = +-0.045 for independent keys
    assert 0.06 < hi - lo < 0.12
    # the same values in 40 perfectly correlated clusters of 10: a much wider interval
    vc = np.repeat(rng.random(40) < 0.7, 10)
    lo_c, hi_c = cluster_bootstrap_ci(vc, np.repeat(np.arange(40), 10), n_boot=2000, seed=5)
    lo_i, hi_i = cluster_bootstrap_ci(vc, np.arange(400), n_boot=2000, seed=5)
    assert hi_c - lo_c > 2 * (hi_i - lo_i)
    # coverage: the CI of many independent samples covers the truth ~95% of the time
    cover = 0
    for s in range(200):
        x = np.random.default_rng(100 + s).random(100) < 0.3
        a, b = cluster_bootstrap_ci(x, np.arange(100), n_boot=300, seed=s)
        cover += a <= 0.3 <= b
    assert 0.88 <= cover / 200 <= 0.99


def test_pairwise_is_symmetric_and_pools_both_key_sets():
    ka, kb = _keys(10, 2, seed=1), _keys(10, 2, seed=2)
    kb["match_id"] = "n" + kb["match_id"]
    on = ["match_id", "ply", "seat"]
    # b agrees with a on all of a's keys; a agrees with b on none of b's keys
    b_on_a = ka[on + ["action"]].assign(outcome=ka["target_outcome"])
    a_on_b = kb[on].assign(action=kb["action"] + 1, outcome=(kb["target_outcome"] + 1) % 3)
    pairs = pairwise_similarity({"a": ka, "b": kb}, {("b", "a"): b_on_a, ("a", "b"): a_on_b},
                                ["a", "b"], n_boot=200)
    assert len(pairs) == 1
    r = pairs.iloc[0]
    assert r["s1"] == 0.5 and r["s2"] == 0.5 and r["n"] == 40 and r["sets"] == 2
    mat = to_matrix(pairs, ["a", "b"], "s1")
    assert np.allclose(mat.values, mat.values.T)
    assert mat.loc["a", "a"] == 1.0


def test_bootstrap_ci_of_one_cluster_is_undefined_not_certain():
    # 23 keys of one match (snk14's held-out keys at quick scale): one observation, so no
    # interval; a [0, 0] here once read as certainty
    lo, hi = cluster_bootstrap_ci(np.zeros(23), np.zeros(23, dtype=int), n_boot=200, seed=0)
    assert np.isnan(lo) and np.isnan(hi)
    lo2, hi2 = cluster_bootstrap_ci(np.r_[np.zeros(23), np.ones(5)],
                                    np.r_[np.zeros(23, dtype=int), np.ones(5, dtype=int)],
                                    n_boot=200, seed=0)
    assert lo2 < hi2


def test_bootstrap_ci_of_a_share_of_100_or_0_percent_is_exact_not_zero_width():
    # ddz5's imitator agreed on all 128 held-out keys of 119 matches: resampling gives 100 %
    # every time; the exact interval over the 119 matches bounds the share instead
    clusters = np.r_[np.arange(119), np.arange(9)]
    lo, hi = cluster_bootstrap_ci(np.ones(128), clusters, n_boot=200, seed=0)
    assert hi == 1.0 and lo == pytest.approx(0.025 ** (1 / 119)) and 0.969 < lo < 0.970
    lo, hi = cluster_bootstrap_ci(np.zeros(40), np.arange(40) // 2, n_boot=200, seed=0)
    assert lo == 0.0 and hi == pytest.approx(1 - 0.025 ** (1 / 20))
    # one disagreement among them: the bootstrap as before, not the exact interval
    v = np.r_[np.zeros(1), np.ones(127)]
    assert cluster_bootstrap_ci(v, clusters, n_boot=200, seed=0)[1] == 1.0
