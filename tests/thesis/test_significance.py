"""Significance on every comparison (issue 47, Deliver 2): a check that orders, ranks or
compares carries a test with its n and p, and its verdict is inconclusive where the data cannot
decide at 95 %. Synthetic tables: the thesis's own with CIs or outcome counts added, a
difference inside the noise and a clear one."""

from __future__ import annotations

import copy

import pandas as pd
import pytest
from thesis_helpers import edit

from ime.thesis import conclusions as C
from ime.thesis.checks import core
from ime.thesis.own import thesis_results
from ime.thesis.results import GameResults


@pytest.fixture(scope="module")
def thesis() -> dict[str, GameResults]:
    return thesis_results()


def with_s2(thesis: dict[str, GameResults], game: str, s2: dict[str, float],
            half: float) -> dict[str, GameResults]:
    """``thesis`` with ``game``'s imitators' S2 set to ``s2`` and every S1/S2 given a 95 % CI of
    half-width ``half``."""
    out = copy.copy(thesis)

    def fn(df: pd.DataFrame) -> pd.DataFrame:
        for b, v in s2.items():
            df.loc[df["bot"] == b, "S2"] = v
        for m in ("S1", "S2"):
            df[f"{m}_lo"] = df[m].astype(float) - half
            df[f"{m}_hi"] = df[m].astype(float) + half
        return df

    edit(out, game, "s1s2_imitator.csv", fn)
    return out


S2_BOT3_LOWEST = {"rev1": 70.0, "rev2": 71.0, "rev3": 68.0, "rev4": 72.0, "rev5": 73.0}


@pytest.mark.parametrize(("half", "final"), [(10.0, C.INCONCLUSIVE), (0.5, C.HOLDS)])
def test_an_ordering_inside_the_noise_is_inconclusive(thesis, half: float, final: str) -> None:
    """Bot 3's S2 lowest by 2 points: with CIs of ±10 the data cannot decide; with ±0.5 it
    holds. The point verdict is the same both times."""
    r = with_s2(thesis, "reversi", S2_BOT3_LOWEST, half)
    v = C.run_check("reversi_mcts_hardest", r)
    assert v.status == C.HOLDS
    assert v.final == final
    assert "z-test from the archived 95 % CIs" in v.test and "n = 5" in v.test
    assert v.p is not None and (v.p < 0.05) == (final == C.HOLDS)


@pytest.mark.parametrize(("half", "final"), [(10.0, C.INCONCLUSIVE), (0.5, C.FAILS)])
def test_a_reversal_inside_the_noise_is_inconclusive(thesis, half: float, final: str) -> None:
    """Bot 3's S2 above bot 1's by 3 points: does not hold on the point estimates, but only a
    narrow CI makes the reversal significant."""
    r = with_s2(thesis, "reversi", {**S2_BOT3_LOWEST, "rev3": 73.0, "rev1": 70.0}, half)
    v = C.run_check("reversi_mcts_hardest", r)
    assert v.status == C.FAILS
    assert v.final == final


def test_a_zero_width_ci_is_unknown_spread_not_significance(thesis) -> None:
    """Doudizhu's single-model accuracy ([93.0, 93.0]): CONV-1 far above the baseline and
    CONV-2 holds on the point estimates, but no fold spread is no evidence: inconclusive, and
    the test says why."""
    r = copy.copy(thesis)

    def fn(df: pd.DataFrame) -> pd.DataFrame:
        df.loc[df["net"] == "ddz_conv1", "val_acc_mean"] = 93.0
        df["val_acc_std"], df["folds"] = 0.0, 1  # one hold-out model, as our 9:1 split
        return df

    edit(r, "doudizhu", "imitation_accuracy.csv", fn)
    v = C.run_check("ddz_beats_baseline", r)
    assert v.status == C.HOLDS
    assert v.final == C.INCONCLUSIVE
    assert "spread unknown" in v.test and "bootstrap over validation matches" in v.test


def test_ci_comparisons() -> None:
    """The z-test from CIs: SE = half-width / 1.96; a constant has no spread; a zero-width or
    missing CI has an unknown one."""
    c = core.ci_cmp("a", 60.0, (58.04, 61.96), 50.0, None)  # SE 1: z = 10
    assert c.diff == pytest.approx(10.0) and c.p is not None and c.p < 1e-20
    c = core.ci_cmp("a", 51.0, (49.04, 52.96), 50.0, (48.04, 51.96))  # z = 1 / sqrt 2
    assert c.p == pytest.approx(0.4795, abs=1e-3)
    assert core.ci_cmp("a", 93.0, (93.0, 93.0), 50.0, None).p is None
    assert core.ci_cmp("a", 93.0, (None, None), 50.0, None).p is None
    # a share of 100 % with its exact CI [96.08, 100]: all the width is on one side, SE 2
    # (z = 2: p 0.0455), not half of it (z = 4: p 6e-05)
    c = core.ci_cmp("a", 100.0, (96.08, 100.0), 96.0, None)
    assert c.p == pytest.approx(0.0455, abs=1e-3)


def test_the_three_way_rule() -> None:
    """Holds at 95 % when every stated comparison is significant; fails when one is against
    it after Bonferroni; otherwise inconclusive."""
    holds = core.verdict(True, "x")
    fails = core.verdict(False, "x")
    sig, weak = core.Cmp("a", 1.0, 0.001), core.Cmp("b", 1.0, 0.2)
    assert core.tested(holds, [sig, sig], "m", 2).final == C.HOLDS
    assert core.tested(holds, [sig, weak], "m", 2).final == C.INCONCLUSIVE
    assert core.tested(holds, [sig, core.Cmp("c", 1.0, None)], "m", 2).final == C.INCONCLUSIVE
    against = core.Cmp("d", -1.0, 0.02)
    assert core.tested(fails, [sig, against], "m", 2).final == C.FAILS  # 0.02 x 2 < 0.05
    assert core.tested(fails, [sig, against, sig], "m", 3).final == C.INCONCLUSIVE  # 0.06
    assert core.verdict(True, "x").final == C.HOLDS  # no test: the point verdict


def tournament(points: dict[str, tuple[int, int]], games: int) -> pd.DataFrame:
    """Reversi's tournament of originals rev1..5 with (wins, losses) each over ``games``."""
    return pd.DataFrame([{"bot": b, "type": "original", "imitates": "", "wins": w,
                          "losses": lo, "draws": games - w - lo, "points": 3 * w + games - w - lo,
                          "games": games} for b, (w, lo) in points.items()])


@pytest.mark.parametrize(("games", "final"), [(20, C.INCONCLUSIVE), (4000, C.HOLDS)])
def test_tournament_orders_are_tested_on_the_games(thesis, games: int, final: str) -> None:
    """The originals' ladder order with win rates 0.60, 0.55 ... 0.40: over 20 games each
    that is noise; over 4000 it is decided."""
    r = copy.copy(thesis)
    rates = {f"rev{i}": 0.65 - 0.05 * i for i in range(1, 6)}
    t = tournament({b: (round(x * games), round((1 - x) * games)) for b, x in rates.items()},
                   games)
    edit(r, "reversi", "tournament.csv", lambda _: t)
    v = C.run_check("reversi_originals_ladder_order", r)
    assert v.status == C.HOLDS and v.final == final
    assert "outcome counts" in v.test


def test_ppg_se_from_outcome_counts() -> None:
    """Win 3 / draw 1 / loss 0: two games, one won and one lost, have sd 1.5 a game."""
    assert core.ppg_se({"games": 2, "wins": 1, "draws": 0}) == pytest.approx(1.5 / 2 ** 0.5)
    assert core.ppg_se({"games": 2, "points": 6}) is None  # no outcome counts: unknown


def test_sign_flip_is_exact() -> None:
    """Five positive gaps: the most extreme of 32 sign patterns on each side, p = 2/32; three
    of five ahead is nowhere near."""
    assert core.sign_flip_p([1, 2, 3, 4, 5]) == pytest.approx(2 / 32)
    assert core.sign_flip_p([1.0, 1.0, 1.0, -1.0, -1.0]) > 0.5


@pytest.mark.parametrize(("s1", "final"), [([1, 2, 3, 4, 5], C.INCONCLUSIVE),
                                           ([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12], C.FAILS)])
def test_not_linear_is_an_interval_question(thesis, s1: list[int], final: str) -> None:
    """S2 = S1 (r = 1) fails on the point estimates; with n = 5 even that is not decided at
    95 % (Fisher-z CI reaches under |r| = 0.71), with 12 bots it is."""
    rows = [{"bot": f"rev{i}", "S1": float(x), "S2": float(x) + (0.5 if i % 2 else -0.5)}
            for i, x in enumerate(s1, start=1)]
    r = copy.copy(thesis)
    edit(r, "reversi", "s1s2_imitator.csv", lambda _: pd.DataFrame(rows))
    v = C.run_check("reversi_s1_s2_not_linear", r)
    assert v.status == C.FAILS and v.final == final
    assert f"n = {len(s1)}" in v.test


def test_every_check_that_compares_carries_a_test(thesis) -> None:
    """The checks converted for Deliver 2 say their test, n and p on the thesis's tables
    shaped as ours (a test is run even where no spread is known, saying so)."""
    tested = ["reversi_mcts_hardest", "reversi_low_ranked_easier", "reversi_bot4_shallow_easier",
              "reversi_bots12_s2_poor", "reversi_random_harder", "reversi_beats_baseline",
              "reversi_conjecture_s2_above_s1", "reversi_s1_s2_not_linear",
              "reversi_originals_ladder_order", "reversi_imitators_rank_order",
              "reversi_imitators_below_originals", "reversi_conv_beats_mlp_same_size",
              "ddz_beats_baseline", "ddz_rule_bot_easiest", "ddz_similarity_above_reversi",
              "ddz_s1_s2_not_linear", "ddz_originals_ladder_order", "ddz_imitators_rank_order",
              "ddz_imitators_below_originals", "ddz_simpler_rules_easier", "conv_beats_mlp"]
    for cid in tested:
        v = C.run_check(cid, thesis)
        assert v.status != C.UNTESTABLE, cid
        assert v.test and "n = " in v.test, cid


def with_pair_cis(thesis: dict[str, GameResults], half: float) -> dict[str, GameResults]:
    """``thesis`` with every pair of originals' S1/S2 given a 95 % CI of half-width ``half``
    (and the imitators' too)."""
    out = with_s2(thesis, "reversi", {}, half)

    def fn(df: pd.DataFrame) -> pd.DataFrame:
        for m in ("s1", "s2"):
            df[f"{m}_lo"], df[f"{m}_hi"] = df[m] - half, df[m] + half
        return df

    edit(out, "reversi", "similarity_pairs.csv", fn)
    return out


@pytest.mark.parametrize(("half", "final"), [(6.0, C.INCONCLUSIVE), (0.3, C.HOLDS)])
def test_pairs_of_originals_and_thresholds_are_tested(thesis, half: float, final: str) -> None:
    """Table 4.7's S2 among bots 1-3 (52.9, 55.7, 58.4) above 52 % and above every pair with
    bot 4 or 5 (at most 45.1): the 52.9 against the 52 % floor is inside ±6 points of noise,
    decided at ±0.3."""
    v = C.run_check("reversi_s2_bots123_close", with_pair_cis(thesis, half))
    assert v.status == C.HOLDS and v.final == final
    assert "52 %" in v.test or "comparisons" in v.test


def test_imitator_closest_is_tested_against_each_original(thesis) -> None:
    """Bots 1, 2, 4 and 5 each closer to their imitator than to any other original by S2: bot
    2's margin over bot 3 is 0.5 points (58.9 against 58.4), noise even at ±1; with bot 2's
    imitator at 80 the same CIs decide it."""
    r = with_pair_cis(thesis, 1.0)
    v = C.run_check("reversi_imitator_closest", r)
    assert v.status == C.HOLDS and v.final == C.INCONCLUSIVE
    assert "n = 4" in v.test

    def fn(df: pd.DataFrame) -> pd.DataFrame:
        df.loc[df["bot"] == "rev2", "IMBOT"] = 80.0
        return df

    edit(r, "reversi", "s2_pairwise.csv", fn)
    assert C.run_check("reversi_imitator_closest", r).final == C.HOLDS


@pytest.mark.parametrize(("std", "final"), [(10.0, C.INCONCLUSIVE), (0.2, C.HOLDS)])
def test_a_stated_threshold_is_tested_from_the_folds(thesis, std: float, final: str) -> None:
    """"Every model above 75 %": the thesis's lowest is 83.5; a fold spread of 10 points over
    5 folds cannot tell it from 75, one of 0.2 can."""
    r = copy.copy(thesis)

    def fn(df: pd.DataFrame) -> pd.DataFrame:
        df["val_acc_std"], df["folds"] = std, 5
        return df

    edit(r, "reversi", "imitation_accuracy.csv", fn)
    v = C.run_check("reversi_val_above_75", r)
    assert v.status == C.HOLDS and v.final == final
    assert "threshold" in v.test


def test_a_majority_claim() -> None:
    """"For most bots": decided when more than half are significant as stated; against when
    at least half are significant against it."""
    holds, fails = core.verdict(True, "x"), core.verdict(False, "x")
    yes, no, noise = core.Cmp("a", 1.0, 0.01), core.Cmp("b", -1.0, 0.01), core.Cmp("c", 1, 0.4)
    assert core.majority_tested(holds, [yes, yes, noise], "m", 3).final == C.HOLDS
    assert core.majority_tested(holds, [yes, noise, noise], "m", 3).final == C.INCONCLUSIVE
    assert core.majority_tested(fails, [no, no, yes, noise], "m", 4).final == C.FAILS
    assert core.majority_tested(fails, [no, yes, noise], "m", 3).final == C.INCONCLUSIVE


def test_sign_flip_beyond_16_items_is_seeded() -> None:
    """22 Snake bots: 100,000 seeded random sign patterns, the same p every run."""
    d = [0.5 * (-1) ** i + 0.1 for i in range(22)]
    assert core.sign_flip_p(d) == core.sign_flip_p(d)
    assert 0.0 < core.sign_flip_p(d) < 1.0
