"""Identification's arithmetic (issue 48, :mod:`ime.evaluate.identify`): the likelihood of a
player's moves summed over heads and matches, the softmax over the pool, ranks with ties, the
open-set threshold, the held-out tables' trials and CIs, and the Wilson interval.

The models here are hand-written policies (fixed probabilities per code), so every expected
log-likelihood is computed by hand; the real imitators go through the same ``head_policy`` call
in tests/workflow/test_identify_e2e.py and tests/stages/test_identify_cli.py.
"""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest

from ime.core.encoding import Observation
from ime.core.intervals import wilson
from ime.evaluate.identify import (
    HeldoutScores,
    PlayerDecisions,
    accuracy_by_k,
    accuracy_by_pool_size,
    disjoint_groups,
    feasible_k,
    identification_table,
    identify,
    move_loglik,
    open_set_threshold,
    per_match,
    softmax,
    sub_pools,
    threshold_at,
    true_rank,
)


class FixedPolicy:
    """A policy giving every row the same probabilities per head (rows' masks ignored)."""

    def __init__(self, *heads: list[float]):
        self.heads = [np.asarray(h, dtype=np.float64) for h in heads]
        self.calls = 0

    def head_policy(self, obs: Observation) -> list[np.ndarray]:
        self.calls += 1
        n = len(obs)
        return [np.tile(h, (n, 1)) for h in self.heads]


def decisions(actions: list[list[int]], masks: list[np.ndarray], matches: list[str]
              ) -> PlayerDecisions:
    n = len(actions)
    return PlayerDecisions(planes=np.zeros((n, 1, 2, 2), dtype=np.uint8), masks=masks,
                           actions=np.asarray(actions, dtype=np.int64),
                           match_id=np.asarray(matches, dtype=object))


def test_move_loglik_mixes_epsilon_and_sums_the_heads_a_move_uses() -> None:
    m0 = np.array([[1, 1, 0, 0], [1, 1, 1, 1], [0, 0, 1, 1]], dtype=np.uint8)
    m1 = np.array([[1, 1], [0, 0], [1, 1]], dtype=np.uint8)
    d = decisions([[0, 1], [3, -1], [2, 0]], [m0, m1], ["a", "a", "b"])
    model = FixedPolicy([0.5, 0.5, 0.0, 0.0], [0.25, 0.75])
    eps = 0.01
    got = move_loglik(model, d, epsilon=eps, batch=2)
    want = [math.log((1 - eps) * 0.5 + eps / 2) + math.log((1 - eps) * 0.75 + eps / 2),
            math.log((1 - eps) * 0.0 + eps / 4),  # head 1 unused (-1): not counted
            math.log((1 - eps) * 0.0 + eps / 2) + math.log((1 - eps) * 0.25 + eps / 2)]
    assert got == pytest.approx(want)
    assert model.calls == 2  # batches of 2 rows
    assert np.isfinite(got).all()  # a move the model rules out costs log(eps / #legal)
    with pytest.raises(ValueError, match="epsilon"):
        move_loglik(model, d, epsilon=1.0)


def test_per_match_sums_and_counts_by_match() -> None:
    ids, sums, counts = per_match(np.array([-1.0, -2.0, -0.5, -4.0]),
                                  np.array(["m2", "m1", "m2", "m1"], dtype=object))
    assert list(ids) == ["m1", "m2"]
    assert list(sums) == [-6.0, -1.5] and list(counts) == [2, 2]


def test_identify_sums_over_matches_and_takes_the_softmax() -> None:
    m = np.ones((4, 2), dtype=np.uint8)
    d = decisions([[0], [0], [1], [0]], [m], ["x", "x", "y", "y"])
    models = {"likes0": FixedPolicy([0.9, 0.1]), "likes1": FixedPolicy([0.2, 0.8]),
              "even": FixedPolicy([0.5, 0.5])}
    r = identify(models, d, epsilon=0.0, threshold=-0.5)
    ll = {"likes0": 3 * math.log(0.9) + math.log(0.1),
          "likes1": 3 * math.log(0.2) + math.log(0.8), "even": 4 * math.log(0.5)}
    assert dict(zip(r.bots, r.loglik, strict=True)) == pytest.approx(ll)
    p = np.exp(list(ll.values()))
    assert r.probabilities == pytest.approx(p / p.sum())
    assert r.best == "likes0" and r.moves == 4 and r.matches == 2
    assert r.mean_loglik == pytest.approx(ll["likes0"] / 4)
    assert r.known is (r.mean_loglik >= -0.5)
    assert r.known is False  # -0.65 per move: below the threshold, none of them
    table = r.table()
    assert list(table.bot) == ["likes0", "even", "likes1"]
    assert table.probability.sum() == pytest.approx(1.0)
    assert identify(models, d, epsilon=0.0).known is None  # no threshold, no verdict
    with pytest.raises(ValueError, match="no decisions"):
        identify(models, decisions([], [np.zeros((0, 2), np.uint8)], []), epsilon=0.0)


def test_softmax_is_stable_for_large_sums() -> None:
    p = softmax(np.array([-10_000.0, -10_001.0, -20_000.0]))
    assert p == pytest.approx([1 / (1 + math.e ** -1), math.e ** -1 / (1 + math.e ** -1), 0.0])


def test_a_tie_counts_against_the_true_bot() -> None:
    scores = np.array([[-1.0, -1.0, -3.0], [-1.0, -2.0, -3.0], [-5.0, -2.0, -1.0]])
    assert list(true_rank(scores, np.array([0, 0, 0]))) == [2, 1, 3]


def test_open_set_threshold_is_an_observed_quantile() -> None:
    v = np.array([-3.0, -1.0, -2.0, -1.5, -2.5])
    assert open_set_threshold(v, 0.0) == -3.0
    assert open_set_threshold(v, 0.3) == -2.5  # "lower": the observed value at or below
    with pytest.raises(ValueError, match="quantile"):
        open_set_threshold(v, 1.0)
    with pytest.raises(ValueError, match="no held-out"):
        open_set_threshold(np.zeros(0), 0.05)


def synthetic(n_bots: int = 3, per_bot: int = 20, confuse: int = 0, seed: int = 1
              ) -> HeldoutScores:
    """Each bot's matches score -1 per move under its own model and -2 under the others',
    except ``confuse`` of bot 0's matches, which score best under bot 1."""
    rng = np.random.default_rng(seed)
    truth = np.repeat(np.arange(n_bots), per_bot)
    moves = rng.integers(20, 40, size=len(truth))
    ll = -2.0 * np.ones((len(truth), n_bots)) * moves[:, None]
    ll[np.arange(len(truth)), truth] = -1.0 * moves
    bad = np.flatnonzero(truth == 0)[:confuse]
    ll[bad, 1] = -0.5 * moves[bad]
    ids = np.array([f"b{t}-m{i:03d}" for i, t in enumerate(truth)], dtype=object)
    return HeldoutScores(bots=[f"bot{b}" for b in range(n_bots)], match_id=ids, truth=truth,
                         fold=np.zeros(len(truth), dtype=np.int64), moves=moves, loglik=ll)


def test_groups_are_disjoint_per_bot_seeded_and_independent_of_order() -> None:
    s = synthetic(per_bot=23)
    g = disjoint_groups(s, 5, seed=0)
    assert len(g) == 3 * 4  # floor(23 / 5) groups per bot
    flat = np.concatenate(g)
    assert len(set(flat.tolist())) == len(flat)  # no match in two groups
    assert all(len(set(s.truth[x].tolist())) == 1 for x in g)  # one bot per group
    again = disjoint_groups(s, 5, seed=0)
    assert all((a == b).all() for a, b in zip(g, again, strict=True))
    assert any((a != b).any() for a, b in zip(g, disjoint_groups(s, 5, seed=1), strict=True))
    # the rows in another order give the same groups of match ids
    perm = np.random.default_rng(3).permutation(len(s.truth))
    shuffled = HeldoutScores(s.bots, s.match_id[perm], s.truth[perm], s.fold[perm],
                             s.moves[perm], s.loglik[perm])
    ids = sorted(tuple(sorted(s.match_id[x])) for x in g)
    ids2 = sorted(tuple(sorted(shuffled.match_id[x])) for x in disjoint_groups(shuffled, 5, 0))
    assert ids == ids2
    with pytest.raises(ValueError, match="k must be"):
        disjoint_groups(s, 0, seed=0)


def test_accuracy_by_k_counts_trials_and_the_confused_matches() -> None:
    s = synthetic(per_bot=20, confuse=6)
    table, conf = accuracy_by_k(s, [1, 5, 25], quantile=0.05, seed=0, level=0.95)
    assert list(table.k) == [1, 5]  # k=25: more than a bot's 20 held-out matches
    k1 = table.set_index("k").loc[1]
    assert k1.trials == 60 and k1.pool_size == 3
    assert k1.top1 == pytest.approx(54 / 60)  # bot 0's 6 confused matches name bot1
    assert k1.top3 == 1.0 and k1.chance_top1 == pytest.approx(1 / 3)
    lo, hi = wilson(54, 60)
    assert (k1.top1_lo, k1.top1_hi) == pytest.approx((lo, hi))
    assert k1.known_accepted >= 0.95
    c1 = conf[conf.k == 1].set_index(["bot", "named"]).trials
    assert c1[("bot0", "bot1")] == 6 and c1[("bot0", "bot0")] == 14
    assert c1[("bot1", "bot1")] == 20 and ("bot1", "bot0") not in c1.index
    # at k=5 a group of bot 0 is lost only when its confused matches outweigh the rest
    k5 = table.set_index("k").loc[5]
    assert k5.trials == 12 and k5.top1 > k1.top1


def test_unknown_bots_are_rejected_when_they_play_unlike_the_pool() -> None:
    s = synthetic(per_bot=30)  # every bot: -1 per move under its own model, -2 under others
    table, _ = accuracy_by_k(s, [5], quantile=0.05, seed=0, level=0.95)
    row = table.iloc[0]
    assert row.threshold == pytest.approx(-1.0)
    assert row.unknown_rejected == 1.0  # left out, its best match in the pool is -2 per move
    assert row.known_accepted == 1.0
    # a pool of clones: every bot's moves as likely under every model, nobody is rejected
    s.loglik[:] = -1.0 * s.moves[:, None]
    table, _ = accuracy_by_k(s, [5], quantile=0.05, seed=0, level=0.95)
    assert table.iloc[0].unknown_rejected == 0.0
    assert table.iloc[0].top1 == 0.0  # all tied: a tie counts against the true bot


def test_pool_size_curve_uses_sub_pools_and_bootstrap() -> None:
    s = synthetic(n_bots=5, per_bot=10, confuse=10)  # all of bot 0's matches name bot 1
    t = accuracy_by_pool_size(s, 5, None, draws=4, seed=0, level=0.95, bootstrap=200)
    assert list(t.pool_size) == [2, 3, 4, 5]
    full = t.set_index("pool_size").loc[5]
    assert full.pools == 1 and full.top1 == pytest.approx(0.8)  # bot 0's 2 groups of 10 lost
    assert full.top1_lo <= full.top1 <= full.top1_hi
    assert (t.chance_top1 == 1 / t.pool_size).all()
    two = t.set_index("pool_size").loc[2]
    assert two.pools == 4 and 0.8 <= two.top1 <= 1.0  # bot 0 loses only beside bot 1
    assert len(sub_pools(5, 2, 4, 0)) == 4 and len(set(sub_pools(5, 2, 4, 0))) == 4
    assert sub_pools(5, 2, 4, 0) == sub_pools(5, 2, 4, 0)
    assert len(sub_pools(5, 4, 20, 0)) == 5  # all of them when there are fewer than draws


def test_threshold_at_caps_k_to_the_held_out_matches() -> None:
    s = synthetic(per_bot=7)
    thr, k = threshold_at(s, 20, 0.05, seed=0)
    assert k == 7 and thr == pytest.approx(-1.0)
    assert feasible_k(s, 3) == 3


def test_the_table_is_the_same_for_the_same_seed() -> None:
    s = synthetic(n_bots=4, per_bot=25, confuse=5)
    kw = dict(ks=[1, 2, 5, 10, 20], pool_k=5, pool_sizes=None, pool_draws=3, quantile=0.05,
              level=0.95, bootstrap=100)
    a, ca = identification_table(s, seed=0, **kw)
    b, cb = identification_table(s, seed=0, **kw)
    pd.testing.assert_frame_equal(a, b)
    pd.testing.assert_frame_equal(ca, cb)
    assert set(a.ci) == {"wilson", "bootstrap"}
    assert list(a[a.curve == "k"].k) == [1, 2, 5, 10, 20]


def test_wilson_interval() -> None:
    assert wilson(0, 10) == pytest.approx((0.0, 0.27754), abs=1e-5)
    assert wilson(10, 10) == pytest.approx((0.72246, 1.0), abs=1e-5)
    lo, hi = wilson(54, 60)
    assert lo < 0.9 < hi
    assert wilson(54, 60, level=0.99)[0] < lo  # a wider interval at a higher level
    assert all(math.isnan(x) for x in wilson(0, 0))
    with pytest.raises(ValueError):
        wilson(11, 10)
    with pytest.raises(ValueError, match="level"):
        wilson(1, 2, level=1.0)
