"""Issue 47's referee review: the thesis's own tables decided by the same tests as ours, the
p column of combined and majority claims, and the other items of that review, each on a
synthetic table where the old criterion and the new disagree."""

from __future__ import annotations

import pytest

from ime.thesis import conclusions as C
from ime.thesis import report as RP
from ime.thesis.checks import core
from ime.thesis.checks.core import Cmp, all_of, majority_tested, printed_numbers, verdict
from ime.thesis.own import NOT_ON_OWN_TABLES, thesis_results


def test_thesis_tables_take_the_same_trend_test_as_ours() -> None:
    """Item 1: Tables 4.2/4.4's rho 0.20 (p 0.75, n 5) said "holds" on the point estimates;
    with our test it is inconclusive there, as it would be here."""
    own = thesis_results()
    assert C.run_check("reversi_val_rises_with_data", own).status == C.HOLDS  # the old column
    row = RP.on_own_tables("reversi_val_rises_with_data", own, {}, printed_numbers)
    assert row["thesis_verdict"] == C.INCONCLUSIVE
    assert row["thesis_n"] == 5 and row["thesis_p"] == pytest.approx(0.747, abs=1e-3)
    assert "Spearman" in row["thesis_test"]


def test_printed_numbers_take_a_comparison_without_spread_at_its_point() -> None:
    """The thesis prints no spread: on its tables such a comparison decides at its point
    estimates (and says so); on ours the same comparison is inconclusive."""
    v = verdict(True, "x")
    ours = core.tested(v, [Cmp("a vs b", 1.0, None)], "z", 2)
    assert ours.final == C.INCONCLUSIVE
    with printed_numbers():
        theirs = core.tested(v, [Cmp("a vs b", 1.0, None)], "z", 2)
        against = core.tested(verdict(False, "x"), [Cmp("a vs b", -1.0, None)], "z", 2)
    assert theirs.final == C.HOLDS and "the thesis prints no spread" in theirs.test
    assert against.final == C.FAILS


def test_own_tables_say_why_a_tautological_check_cannot_be_decided() -> None:
    """Item 2: Fig 2.7's range and split checked against themselves would hold by
    construction; the column says so rather than "no table"."""
    own = thesis_results()
    for cid in ("snake_baseline_range", "snake_split_membership"):
        row = RP.on_own_tables(cid, own, NOT_ON_OWN_TABLES, printed_numbers)
        assert row["thesis_verdict"] == C.UNTESTABLE
        assert "by construction" in row["thesis_numbers"]


def test_a_majority_claim_reports_the_deciding_p() -> None:
    """Item 8: the p of a majority claim is the m-th smallest p on its side (m = 3 of 5), so
    p < 0.05 exactly when the majority is significant; it was blank."""
    cmps = [Cmp("a", 1, 0.001), Cmp("b", 1, 0.01), Cmp("c", 1, 0.2), Cmp("d", 1, 0.03),
            Cmp("e", -1, 0.5)]
    v = majority_tested(verdict(True, "x"), cmps, "z", 5)
    assert v.p == pytest.approx(0.03) and v.final == C.HOLDS and "3rd smallest" in v.test
    v = majority_tested(verdict(True, "x"), cmps[:2] + [Cmp("c", 1, 0.2)] * 3, "z", 5)
    assert v.p == pytest.approx(0.2) and v.final == C.INCONCLUSIVE


def test_a_combined_claim_reports_its_p() -> None:
    """Item 8: all_of gives the largest of its parts' p when it holds, its failing part's p
    when it does not (it was blank)."""
    a = core.tested(verdict(True, "a"), [Cmp("a", 1, 0.01)], "z", 5)
    b = core.tested(verdict(True, "b"), [Cmp("b", 1, 0.04)], "z", 5)
    c = core.tested(verdict(False, "c"), [Cmp("c", -1, 0.002)], "z", 5)
    assert all_of(a, b).p == pytest.approx(0.04) and all_of(a, b).final == C.HOLDS
    both = all_of(a, c)
    assert both.p == pytest.approx(0.002) and both.final == C.FAILS
    assert "failing part's p" in both.test
