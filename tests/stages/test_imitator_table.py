"""The family x bot table of issue 46's Deliver 5, from archived result tables."""

from __future__ import annotations

import shutil
from pathlib import Path

import pandas as pd

from ime.paths import repo_root
from ime.report.imitator_table import family_table, main

QUICK = repo_root() / "reproduction" / "quick" / "reversi"


def test_rows_goals_and_ceiling_flags(tmp_path: Path) -> None:
    df = family_table([QUICK])
    assert list(df.bot) == ["rev1", "rev2", "rev3", "rev4", "rev5"]
    assert set(df.family) == {"policy"} and set(df.net) == {"conv"}
    acc = pd.read_csv(QUICK / "table4_4.csv").set_index(["bot", "net"])
    rev1 = df.set_index("bot").loc["rev1"]
    assert rev1.val_acc_unseen == acc.loc[("rev1", "conv"), "val_acc_unseen_mean"]
    assert rev1.ceiling == 100 and rev1.goal.startswith("unseen >= 95") and not rev1.goal_met
    assert df.set_index("bot").loc["rev3"].goal.startswith("unseen within 5")
    # an imitator above its bot's ceiling CI is flagged (the ceiling would be wrong)
    bad = tmp_path / "reversi"
    shutil.copytree(QUICK, bad)
    t = pd.read_csv(bad / "table4_4.csv")
    t.loc[(t.bot == "rev3") & (t.net == "conv"), "val_acc_unseen_mean"] = 99.0
    t.to_csv(bad / "table4_4.csv", index=False)
    flagged = family_table([bad]).set_index("bot")
    assert flagged.loc["rev3"].above_ceiling and flagged.loc["rev3"].goal_met
    assert not flagged.loc["rev1"].above_ceiling
    assert main([str(bad), "--out", str(tmp_path / "t.md"), "--csv", str(tmp_path / "t.csv")]) == 0
    assert "above their ceiling's CI: 1 (rev3/policy)" in (tmp_path / "t.md").read_text()


def test_other_nets_are_listed_beside_without_s1s2() -> None:
    df = family_table([QUICK], nets=["mlp1", "conv"])
    assert set(df.net) == {"conv", "mlp1"} and len(df) == 10
    mlp = df[df.net == "mlp1"]
    assert set(mlp.family) == {"policy"} and mlp.S1_heldout.isna().all()
    assert df[df.net == "conv"].S1_heldout.notna().all()  # the imitators' net is played


def test_a_run_without_s1s2_gets_rows_without_them(tmp_path: Path) -> None:
    acc_only = tmp_path / "reversi"
    shutil.copytree(QUICK, acc_only)
    (acc_only / "table4_5.csv").unlink()
    df = family_table([acc_only])
    assert len(df) == 5 and df.S1_heldout.isna().all() and df.val_acc_unseen.notna().all()


def test_the_top1_ceiling_is_shown_and_checked_where_measured(tmp_path: Path) -> None:
    """An imitator above self-agreement but inside the top-1 ceiling's CI is not flagged (it
    may learn the mode, which beats a single redraw); above top1_max's CI it is."""
    top1 = tmp_path / "reversi"
    shutil.copytree(QUICK, top1)
    t = pd.read_csv(top1 / "table4_4.csv")
    rev3 = t.bot == "rev3"
    sa_hi = float(t.loc[rev3, "self_agreement_hi"].iloc[0])
    for c in ("top1_mode", "top1_mode_lo", "top1_mode_hi", "top1_max", "top1_max_lo",
              "top1_max_hi"):
        t[c] = float("nan")
    t.loc[rev3, ["top1_mode", "top1_max", "top1_max_lo", "top1_max_hi"]] = [
        sa_hi, sa_hi + 4.0, sa_hi + 2.0, sa_hi + 6.0]
    t.loc[rev3 & (t.net == "conv"), "val_acc_unseen_mean"] = sa_hi + 3.0
    t.to_csv(top1 / "table4_4.csv", index=False)
    df = family_table([top1]).set_index("bot")
    r = df.loc["rev3"]
    assert not r.above_ceiling and r.above_checked == "top1_max_hi"
    assert r.gap_to_top1 == 1.0 and r.top1_mode == sa_hi
    rev1 = df.loc["rev1"]
    assert rev1.above_checked == "self_agreement_hi" and pd.isna(rev1.gap_to_top1)
    t.loc[rev3 & (t.net == "conv"), "val_acc_unseen_mean"] = sa_hi + 7.0
    t.to_csv(top1 / "table4_4.csv", index=False)
    assert family_table([top1]).set_index("bot").loc["rev3"].above_ceiling
    assert main([str(top1), "--out", str(tmp_path / "t.md")]) == 0
    md = (tmp_path / "t.md").read_text()
    assert "| top1_mode | top1_max | gap_to_top1 |" in md
    assert "above their ceiling's CI: 1 (rev3/policy). Compared with the upper end of the " \
           "top-1 ceiling's CI (top1_max_hi) on 1 row(s), of self-agreement's CI " \
           "(self_agreement_hi: no top-1 ceiling measured) on 4." in md


def test_fit_and_decision_times_are_read_from_an_overridden_nets_folder(tmp_path: Path) -> None:
    """A run that overrode a net's settings (e.g. ``net.search.max_fit``) trains it into
    ``<net>-<digest>``; the table finds its folds there, and in ``<net>`` otherwise."""
    import json

    from ime.workflow.variants import overridden_net_dir

    report = json.loads((QUICK / "run_report.json").read_text())
    arch, ttag = report["config"]["nets"]["conv"], report["tags"]["train"]

    def folds(netdir: str, seconds: float) -> None:
        d = tmp_path / netdir / "reversi" / "models" / ttag / netdir / "rev1"
        d.mkdir(parents=True)
        for k, s in enumerate((seconds, seconds + 2)):
            timing = {"train_seconds": s, "ms_per_decision": 0.5}
            (d / f"fold{k}.json").write_text(json.dumps({"timing": timing}))
        # a stopped fit's state beside them is no fold's metrics (it has no timing)
        (d / "fold2.pt.fitstate.json").write_text(json.dumps({"stages": {}}))

    folds(overridden_net_dir("conv", arch), 10.0)
    folds("conv", 20.0)
    for netdir, mean in ((overridden_net_dir("conv", arch), 11.0), ("conv", 21.0)):
        df = family_table([QUICK], models=tmp_path / netdir).set_index("bot")
        assert df.loc["rev1"].fit_s_mean == mean and df.loc["rev1"].ms_per_decision == 0.5
        assert pd.isna(df.loc["rev2"].fit_s_mean)  # no folds of rev2 there


def test_the_goal_needs_the_gap_to_the_unseen_ceiling_too(tmp_path: Path) -> None:
    """A stochastic bot's imitator within 5 points of self-agreement on all sampled decisions
    but not of self-agreement on the unseen ones misses the goal; the table shows both."""
    run = tmp_path / "reversi"
    shutil.copytree(QUICK, run)
    t = pd.read_csv(run / "table4_4.csv")
    rev3 = t.bot == "rev3"
    ceiling = float(t.loc[rev3, "self_agreement"].iloc[0])
    t.loc[rev3 & (t.net == "conv"), "val_acc_unseen_mean"] = ceiling - 2.0
    t["self_agreement_unseen"] = t["self_agreement"]
    t["self_agreement_unseen_n"] = 400
    t.to_csv(run / "table4_4.csv", index=False)
    r = family_table([run]).set_index("bot").loc["rev3"]
    assert r.goal_met and r.gap_to_unseen_ceiling == 2.0 and r.ceiling_unseen_n == 400
    t.loc[rev3, "self_agreement_unseen"] = ceiling + 4.0  # 6 points above the imitator
    t.to_csv(run / "table4_4.csv", index=False)
    r = family_table([run]).set_index("bot").loc["rev3"]
    assert r.gap_to_ceiling == 2.0 and r.gap_to_unseen_ceiling == 6.0 and not r.goal_met
    assert main([str(run), "--out", str(tmp_path / "t.md")]) == 0
    assert "| ceiling_unseen | ceiling_unseen_n | gap_to_unseen_ceiling |" in \
        (tmp_path / "t.md").read_text()
    # an archive without the column: the goal is self-agreement's alone, as before
    assert pd.isna(family_table([QUICK]).set_index("bot").loc["rev3"].ceiling_unseen)
