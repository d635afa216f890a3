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


def test_an_unknown_spread_prints_no_ci_never_a_zero_width_one() -> None:
    """Item 3: a single model (no fold spread) printed "93.1 [93.1, 93.1]"; it is now "no CI
    (spread unknown)", its lo/hi left empty, in the checks' numbers and in numbers.csv."""
    import pandas as pd

    from ime.thesis.checks.core import NO_CI, accuracy_by_bot, ci_text
    from ime.thesis.compare import compare
    from ime.thesis.reference import numbers
    from ime.thesis.results import Bot, GameResults

    acc = pd.DataFrame([{"bot": "ddz1", "net": "ddz_conv1", "baseline": 52.7,
                         "train_acc_mean": 95.0, "val_acc_mean": 93.1, "val_acc_std": 0.0,
                         "folds": 1}])
    g = GameResults("doudizhu", {"imitation_accuracy.csv": acc}, {"ddz1": Bot(thesis=1)},
                    "ddz_conv1")
    row = accuracy_by_bot(g).iloc[0]
    assert pd.isna(row["val_acc_lo"]) and pd.isna(row["val_acc_hi"])
    assert ci_text(row.to_dict(), "val_acc") == f"93.1 ({NO_CI})"
    assert ci_text({"x": 1.0, "x_lo": 1.0, "x_hi": 1.0}, "x") == f"1.0 ({NO_CI})"  # zero width
    nums = compare(numbers(), {"doudizhu": g})
    va = nums[(nums["table"] == "Table 5.6") & (nums["metric"] == "val_acc")
              & (nums["subject"] == "1") & (nums["net"] == "CONV-1")].iloc[0]
    assert va["ours"] == 93.1 and pd.isna(va["ours_lo"]) and pd.isna(va["ours_hi"])
    assert RP._ci_cell(va["ours"], va["ours_lo"], va["ours_hi"], "val_acc") == NO_CI
    assert RP._ci_cell(93.1, 93.1, 93.1, "val_acc") == NO_CI
    assert RP._ci_cell(5.0, None, None, "rank") == ""  # a rank has no CI to miss


def test_closest_to_its_own_imitator_is_decided_on_held_out_keys() -> None:
    """Item 4: the pairwise tables' IMBOT column repeats the imitators' S1/S2, so the held-out
    view replaces it by the held-out figure: a bot closest to its imitator in-sample but not
    on held-out keys is decided there."""
    import pandas as pd

    from ime.thesis.results import Bot, GameResults

    bots = {f"rev{i}": Bot(thesis=i) for i in (1, 2)}
    s1s2 = pd.DataFrame([{"bot": f"rev{i}", "S1": 90.0, "S2": 90.0, "S1_heldout": 40.0,
                          "S2_heldout": 40.0} for i in (1, 2)])
    s2pw = pd.DataFrame([{"bot": "rev1", "rev1": 100.0, "rev2": 60.0, "IMBOT": 90.0},
                         {"bot": "rev2", "rev1": 60.0, "rev2": 100.0, "IMBOT": 90.0}])
    r = {"reversi": GameResults("reversi", {"s1s2_imitator.csv": s1s2,
                                            "s2_pairwise.csv": s2pw}, bots)}
    assert C.run_check("reversi_imitator_closest", r).status == C.HOLDS  # in-sample
    held = RP.heldout_view(r)
    assert list(held["reversi"].tables["s2_pairwise.csv"]["IMBOT"]) == [40.0, 40.0]
    assert C.run_check("reversi_imitator_closest", held).status == C.FAILS


def _ddz_tour(orig: dict[str, tuple[int, int, int]], imit: dict[str, tuple[int, int, int]]):
    """A Table 5.10 of (wins, draws, losses) per agent (3 points a win)."""
    import pandas as pd

    from ime.thesis.results import Bot, GameResults

    rows = [{"agent": a, "type": "original", "imitates": "", "wins": w, "draws": d,
             "points": 3 * w + d, "games": w + d + lo} for a, (w, d, lo) in orig.items()]
    rows += [{"agent": f"imit_{a}", "type": "imitator", "imitates": a, "wins": w, "draws": d,
              "points": 3 * w + d, "games": w + d + lo} for a, (w, d, lo) in imit.items()]
    bots = {f"ddz{i}": Bot(thesis=i) for i in (1, 2)}
    return {"doudizhu": GameResults("doudizhu", {"table5_10.csv": pd.DataFrame(rows)}, bots)}


def test_imitators_in_their_originals_order_need_that_order_significant() -> None:
    """Item 6: imitator 1 significantly above imitator 2 "does not hold" against an order of
    originals (ddz2 above ddz1) that is itself inside the noise: now inconclusive; with the
    originals' order significant it still does not hold."""
    close = _ddz_tour({"ddz1": (500, 0, 500), "ddz2": (510, 0, 490)},
                      {"ddz1": (700, 0, 300), "ddz2": (300, 0, 700)})
    v = C.run_check("ddz_imitators_rank_order", close)
    assert v.status == C.FAILS and v.final == C.INCONCLUSIVE
    assert "originals' own order" in v.test
    apart = _ddz_tour({"ddz1": (300, 0, 700), "ddz2": (700, 0, 300)},
                      {"ddz1": (700, 0, 300), "ddz2": (300, 0, 700)})
    assert C.run_check("ddz_imitators_rank_order", apart).final == C.FAILS


def test_bots123_ordered_on_the_tournament_and_read_off_the_ladder_on_the_thesis() -> None:
    """Item 7: "similar strength" has no margin, so it is untested (the single-linkage rule
    is gone: bots 1 and 2 far apart no longer fail it); the orderings are tested; on the
    thesis's tables the ladder ranks of Table 4.1 decide it, as 4.2 reads them."""
    import pandas as pd

    from ime.thesis.results import Bot, GameResults

    ppg = {1: 2.9, 2: 2.2, 3: 1.9, 4: 1.7, 5: 0.9}  # Table 4.8's shape: 1-2 apart
    rows = [{"bot": f"rev{n}", "type": "original", "imitates": "", "points": p * 1000,
             "games": 1000} for n, p in ppg.items()]
    g = GameResults("reversi", {"tournament.csv": pd.DataFrame(rows)},
                    {f"rev{n}": Bot(thesis=n) for n in ppg})
    v = C.run_check("reversi_bots123_similar_strength", {"reversi": g})
    assert v.status == C.HOLDS and "'similar strength' untested" in v.test
    own = thesis_results()
    t = C.run_check("reversi_bots123_similar_strength", own)
    assert t.status == C.HOLDS and "ladder ranks (Table 4.1)" in t.numbers


def test_the_plateau_at_1000_matches_is_tested_over_the_bots() -> None:
    """Item 8: Fig 2.6's plateau was decided on mean gains alone; with the bots as items a
    t-test decides it, and a sweep whose bots disagree is inconclusive."""
    import numpy as np
    import pandas as pd

    from ime.thesis.results import GameResults

    def sweep(after: dict[str, float]) -> dict[str, GameResults]:
        rows = [{"bot": b, "dataset.matches": m, "val_acc_mean": v}
                for b, a in after.items()
                for m, v in ((250, 60.0), (1000, 70.0), (4000, 70.0 + a))]
        return {"snake": GameResults("snake", {"sweep_dataset.matches.csv":
                                               pd.DataFrame(rows)})}

    flat = sweep({"snk01": 0.2, "snk02": 0.4, "snk04": 0.1, "snk06": 0.3})
    v = C.run_check("snake_plateau_1000", flat)
    assert v.final == C.HOLDS and v.n == 4 and v.p is not None and v.p < 0.05
    mixed = sweep({"snk01": -3.0, "snk02": 4.5, "snk04": -2.0, "snk06": 4.0})
    m = C.run_check("snake_plateau_1000", mixed)
    assert m.status == C.HOLDS and m.final == C.INCONCLUSIVE  # mean 0.9: the old "holds"
    assert np.isfinite(m.p)
