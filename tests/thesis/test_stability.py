"""The tests of the claims that neither order nor compare two estimates (issue 47, Deliver 2):
clusters and splits redrawn from their CIs, closeness claims by equivalence tests, and the
exact verdicts of one recorded trace. Synthetic tables: for each, noise that leaves the claim
undecided (inconclusive) and a clear case that decides it either way."""

from __future__ import annotations

import copy

import pandas as pd
import pytest
from thesis_helpers import edit, snake_case, with_case

from ime.evaluate.clustering import cluster_points
from ime.thesis import conclusions as C
from ime.thesis.checks import stability as ST
from ime.thesis.own import thesis_results
from ime.thesis.results import GameResults


@pytest.fixture(scope="module")
def thesis() -> dict[str, GameResults]:
    return thesis_results()


# --- Snake's two-way split -------------------------------------------------------------------
def snake_with_spread(good: bool, std: float) -> dict[str, GameResults]:
    """:func:`snake_case` with every (bot, net)'s validation accuracy given a fold spread."""
    r = snake_case(good)

    def fn(df: pd.DataFrame) -> pd.DataFrame:
        return df.assign(val_acc_std=std, folds=5)

    edit(r, "snake", "imitation_accuracy.csv", fn)
    return r


@pytest.mark.parametrize("cid", ["snake_split_membership", "snake_split_families"])
@pytest.mark.parametrize(("good", "std", "final"), [
    (True, 0.5, C.HOLDS), (True, 500.0, C.INCONCLUSIVE),
    (False, 0.5, C.FAILS), (False, 500.0, C.INCONCLUSIVE)])
def test_a_split_holds_only_where_it_survives_its_noise(cid: str, good: bool, std: float,
                                                        final: str) -> None:
    """The same split on the point estimates; with folds that agree it is decided, with noise
    that scrambles every split it is not, either way (a split that appears rarely because
    every split does is no evidence against the claim)."""
    v = C.run_check(cid, snake_with_spread(good, std))
    assert v.status == (C.HOLDS if good else C.FAILS)
    assert v.final == final, v.test
    assert f"of {ST.RESAMPLES} resamples (seed {ST.SEED}" in v.test and v.n == 8
    assert "bisect_by_count" in v.test


def test_a_split_without_fold_spread_is_undecided() -> None:
    v = C.run_check("snake_split_membership", snake_case(True))  # no val_acc_std at all
    assert v.status == C.HOLDS and v.final == C.INCONCLUSIVE and "spread unknown" in v.test


# --- clusters by imitation similarity --------------------------------------------------------
ODD = {"reversi": "rev3", "doudizhu": "ddz5"}
"""The bot 4.5.1 / 5.5.1 (and their classes, for 6.1) put in a cluster of its own."""


def clustered(thesis: dict[str, GameResults], far: dict[str, str],
              half: float) -> dict[str, GameResults]:
    """The thesis's tables with, in Reversi and Doudizhu, every imitator's (S1, S2) at (90, 80)
    but the bot of ``far`` at (50, 40), each with a 95 % CI of half-width ``half``, and
    clusters.csv drawn from them by the pipeline's clustering."""
    out = copy.copy(thesis)
    for game, odd in far.items():
        def fn(df: pd.DataFrame, odd: str = odd) -> pd.DataFrame:
            df["S1"] = [50.0 if b == odd else 90.0 + i for i, b in enumerate(df["bot"])]
            df["S2"] = [40.0 if b == odd else 80.0 - i for i, b in enumerate(df["bot"])]
            for m in ("S1", "S2"):
                df[f"{m}_lo"], df[f"{m}_hi"] = df[m] - half, df[m] + half
            return df

        edit(out, game, "s1s2_imitator.csv", fn)
        s = out[game].tables["s1s2_imitator.csv"]
        labels, _ = cluster_points(s.set_index("bot")[["S1", "S2"]], 2)
        classes = [out[game].bots[b].cls for b in labels["bot"]]
        edit(out, game, "clusters.csv", lambda df, labels=labels, classes=classes: pd.DataFrame(
            {"bot": labels["bot"], "class": classes, "cluster_imitation": labels["cluster"]}))
    return out


@pytest.mark.parametrize("cid", ["reversi_cluster_mcts_apart", "ddz_cluster_rule_apart",
                                 "personality_follows_algorithm"])
@pytest.mark.parametrize(("claimed", "half", "final"), [
    (True, 1.0, C.HOLDS), (True, 60.0, C.INCONCLUSIVE), (False, 1.0, C.FAILS)])
def test_a_cluster_holds_only_where_it_survives_its_noise(thesis, cid: str, claimed: bool,
                                                          half: float, final: str) -> None:
    """The claimed bot alone (or, not claimed, bot 1 alone instead): with narrow CIs the
    clusters come back in every resample and the verdict is decided; with CIs wider than the
    gap they do not, and the claim is inconclusive."""
    far = ODD if claimed else {"reversi": "rev1", "doudizhu": "ddz1"}
    v = C.run_check(cid, clustered(thesis, far, half))
    assert v.status == (C.HOLDS if claimed else C.FAILS)
    assert v.final == final, v.test
    assert "cluster_points" in v.test and f"seed {ST.SEED}" in v.test and v.p is not None


def test_a_cluster_without_cis_is_undecided(thesis) -> None:
    """The thesis's own Table 4.5 prints no spread: bot 3 alone, undecided."""
    v = C.run_check("reversi_cluster_mcts_apart", thesis)
    assert v.status == C.HOLDS and v.final == C.INCONCLUSIVE and "spread unknown" in v.test


# --- closeness: equivalence tests ------------------------------------------------------------
def with_acc(thesis: dict[str, GameResults], std: float, net: str | None = None,
             col: str = "", delta: float = 0.0) -> dict[str, GameResults]:
    """The thesis's Table 4.4 with a fold spread ``std`` on both accuracies (5 folds), and
    ``delta`` added to ``col`` of ``net`` (or every net's row of bot 1 when ``net`` is
    "rev1")."""
    out = copy.copy(thesis)

    def fn(df: pd.DataFrame) -> pd.DataFrame:
        df = df.assign(train_acc_std=std, val_acc_std=std, folds=5)
        if net is not None:
            hit = df["bot"] == net if net.startswith("rev") else df["net"] == net
            df.loc[hit, col] = df.loc[hit, col].astype(float) + delta
        return df

    edit(out, "reversi", "imitation_accuracy.csv", fn)
    return out


@pytest.mark.parametrize(("cid", "net", "col", "delta"), [
    ("reversi_nets_fit_alike", "mlp1", "train_acc_mean", -8.0),
    ("reversi_mlp_sizes_similar", "mlp2", "val_acc_mean", 6.0),
    ("reversi_conv_val_about_90", "rev1", "val_acc_mean", -20.0)])
@pytest.mark.parametrize(("std", "moved", "final"), [
    (0.2, False, C.HOLDS), (8.0, False, C.INCONCLUSIVE), (0.2, True, C.FAILS),
    (30.0, True, C.INCONCLUSIVE)])
def test_closeness_is_an_equivalence_test(thesis, cid: str, net: str, col: str, delta: float,
                                          std: float, moved: bool, final: str) -> None:
    """The thesis's own accuracies are close (within 2 points between nets, about 90 %): with
    folds that agree that holds; with folds 8 points apart the data cannot exclude a gap as
    large as the margin. Moved well outside the margin, it does not hold, unless the folds'
    noise could still put it inside."""
    r = with_acc(thesis, std, net if moved else None, col, delta)
    v = C.run_check(cid, r)
    assert v.status == (C.FAILS if moved else C.HOLDS)
    assert v.final == final, v.test
    assert ("equivalence margin 2.00 points" in v.test if cid != "reversi_conv_val_about_90"
            else "band [87.0, 93.0]" in v.test)


def test_closeness_without_fold_spread_is_undecided(thesis) -> None:
    v = C.run_check("reversi_mlp_sizes_similar", thesis)
    assert v.status == C.HOLDS and v.final == C.INCONCLUSIVE and "spread unknown" in v.test


# --- one recorded trace, an exact count --------------------------------------------------------
@pytest.mark.parametrize("cid", ["ddz_key_endgame_example", "ddz_case_imitator_bot5_follow_bot1",
                                 "ddz_case_bots23_same_sequence", "ddz_case_bot5_leaves_late"])
def test_the_case_study_is_one_trace_and_says_so(thesis, cid: str) -> None:
    v = C.run_check(cid, with_case(thesis))
    assert v.test.startswith(ST.EXACT) and "one recorded trace" in v.test
    assert v.decided is None and v.final == v.status == C.HOLDS


def test_exact_counts_say_so() -> None:
    v = C.run_check("snake_baseline_range", snake_case(True))
    assert v.test.startswith(ST.EXACT) and v.final == C.HOLDS and v.n == 8
    w = C.run_check("snake_baseline_range", snake_case(False))
    assert w.test.startswith(ST.EXACT) and w.final == C.FAILS


def test_share_tested_needs_another_partition_to_fail() -> None:
    """The rule itself: a claim seen in 3 % of the resamples does not hold when the point
    estimates' own partition recurs (60 %), and decides nothing when it does not (2 %)."""
    import numpy as np

    v = C.Verdict(C.FAILS, "x")
    hits = np.array([True] * 3 + [False] * 97)
    assert ST.share_tested(v, hits, "m", 5, 0.6).final == C.FAILS
    assert ST.share_tested(v, hits, "m", 5, 0.02).final == C.INCONCLUSIVE
    assert ST.share_tested(C.Verdict(C.HOLDS, "x"), ~hits, "m", 5).final == C.HOLDS
    assert ST.share_tested(C.Verdict(C.HOLDS, "x"), hits | (np.arange(100) < 90), "m",
                           5).final == C.INCONCLUSIVE
