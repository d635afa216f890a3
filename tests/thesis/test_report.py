"""The reproduction report's parts: the number comparison, the protocol table, the report files.

The thesis's own tables (ime.thesis.own) stand in for a run: compared with the thesis, every
number they hold must agree with a difference of 0, which checks the lookups end to end.
"""

from __future__ import annotations

import copy
import json
from dataclasses import replace
from pathlib import Path

import pandas as pd
import pytest

from ime.thesis import compare as K
from ime.thesis import conclusions as C
from ime.thesis import protocol as PR
from ime.thesis import report as RP
from ime.thesis.own import thesis_results
from ime.thesis.reference import numbers
from ime.workflow.variants import make_plan

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def own():
    return thesis_results()


def test_the_thesis_tables_agree_with_the_thesis(own) -> None:
    nums = K.compare(numbers(), own)
    measured = nums[nums["agrees"].notna()]
    # Tables 4.2, 4.4-4.8, 5.4, 5.6-5.10 of Reversi and Doudizhu (not params, Snake, Fig 2.7)
    assert len(measured) >= 180
    assert measured["agrees"].all()
    assert (measured["diff"].abs() < 1e-9).all(), measured[measured["diff"].abs() > 0]
    assert set(measured["table"]) >= {"Table 4.4", "Table 4.5", "Table 4.6", "Table 4.8",
                                      "Table 5.6", "Table 5.7", "Table 5.10"}
    # a symmetric pair is compared once
    t46 = measured[measured["table"] == "Table 4.6"]
    assert "2-1" not in set(t46["subject"]) and "1-2" in set(t46["subject"])


def test_a_moved_number_is_a_disagreement(own) -> None:
    moved = copy.copy(own)
    g = moved["reversi"]
    tables = dict(g.tables)
    tables["s1s2_imitator.csv"] = tables["s1s2_imitator.csv"].assign(
        S1=lambda d: d.S1 + [10.0, 0, 0, 0, 0])
    moved["reversi"] = replace(g, tables=tables)
    nums = K.compare(numbers(), moved)
    row = nums[(nums.table == "Table 4.5") & (nums.subject == "1") & (nums.metric == "S1")]
    assert not bool(row["agrees"].iloc[0]) and float(row["diff"].iloc[0]) == pytest.approx(10)


def test_doudizhu_points_are_per_game_between_two_sides(own) -> None:
    """Table 5.10's 18,000 games are between two agents each (one per side): 3,600 games per
    agent, so a tournament of the thesis's size is compared unscaled, and half as many games
    count double."""
    g = own["doudizhu"]
    t = g.tables["table5_10.csv"]
    assert set(t["games"]) == {3600.0}
    for games, factor in ((3600, 1.0), (1800, 2.0)):
        moved = copy.copy(own)
        tables = dict(g.tables)
        tables["table5_10.csv"] = t.assign(points=t["points"] / factor, games=float(games))
        moved["doudizhu"] = replace(g, tables=tables)
        nums = K.compare(numbers(), moved)
        pts = nums[(nums.table == "Table 5.10") & (nums.metric == "points")]
        assert len(pts) == 10 and (pts["diff"].abs() < 1e-9).all(), pts[["subject", "diff"]]


def test_tolerance_and_ci() -> None:
    assert K.agrees(80.0, 84.9, "percent")
    assert not K.agrees(80.0, 85.1, "percent")
    assert K.agrees(80.0, 60.0, "percent", lo=55.0, hi=81.0)  # thesis inside our CI
    assert K.agrees(1000.0, 1090.0, "count") and not K.agrees(1000.0, 1110.0, "count")
    assert K.agrees(2.0, 2.0, "rank") and not K.agrees(2.0, 3.0, "rank")


def test_unmeasured_numbers_say_why(own) -> None:
    nums = K.compare(numbers(), {"reversi": own["reversi"]})
    ddz = nums[nums["game"] == "doudizhu"]
    assert len(ddz) and ddz["agrees"].isna().all()
    assert ddz["note"].str.startswith("not measured").all()


@pytest.mark.parametrize("game", ["reversi", "doudizhu", "snake"])
def test_protocol_at_thesis_scale(game: str) -> None:
    """At scale=thesis every size is the thesis's; what still differs has a reason."""
    cfg = make_plan([f"game={game}", "scale=thesis"], ROOT / "config", base=ROOT).main.cfg
    p = PR.compare(game, cfg, "thesis", PR.load()[game])
    diff = p[p["status"] == PR.DIFFERENT]
    assert (diff["reason"] != "(no reason recorded)").all(), diff
    sizes = {it["item"] for it in PR.load()[game] if it.get("size")}
    assert not set(diff["item"]) & sizes, diff


def test_protocol_sizes_at_a_small_scale_name_the_scale() -> None:
    cfg = make_plan(["game=reversi", "scale=tiny"], ROOT / "config", base=ROOT).main.cfg
    p = PR.compare("reversi", cfg, "tiny", PR.load()["reversi"]).set_index("item")
    assert p.loc["matches per target bot", "status"] == PR.DIFFERENT
    assert "scale=tiny" in p.loc["matches per target bot", "reason"]
    assert p.loc["batch size", "status"] == PR.SAME


def test_protocol_file_errors_name_the_item(tmp_path: Path) -> None:
    bad = tmp_path / "protocol.yaml"
    bad.write_text("reversi:\n  - {item: x, section: '1', thesis: 1}\n")
    with pytest.raises(ValueError, match="reversi item 1 \\(x\\).*key, derive"):
        PR.load(bad)


@pytest.mark.slow
def test_report_files(tmp_path: Path, own) -> None:
    cfgs = {g: make_plan([f"game={g}", "scale=thesis"], ROOT / "config", base=ROOT).main.cfg
            for g in ("reversi", "doudizhu")}
    prov = {"git": {"commit": "abc123", "dirty": False}, "packages": {"numpy": "1"},
            "machine": {"cores": 2}, "timestamp_utc": "2026-11-27T00:00:00+00:00",
            "stages": [{"game": "reversi", "stage": "train", "jobs": 3, "wall_s": 1.5,
                        "cpu_s": 2.5}]}
    counts = RP.write(tmp_path, scale="thesis", results=own, cfgs=cfgs,
                      rdirs={"reversi": "results/reversi/thesis"}, command="snakemake x",
                      prov=prov)
    for f in RP.FILES:
        assert (tmp_path / f).is_file(), f
    md = (tmp_path / "reproduction.md").read_text()
    assert f"**{counts['agree']} agree**" in md and "Commit `abc123`" in md
    concl = pd.read_csv(tmp_path / "conclusions.csv")
    assert len(concl) == counts["conclusions"] == counts["holds"] + counts["fails"] + \
        counts["inconclusive"] + counts["untestable"]  # the three verdicts counted apart
    assert f"**{counts['inconclusive']} inconclusive**" in md
    assert set(concl["verdict"]) <= set(C.FINAL_STATUSES)
    for cid in concl["id"]:
        assert f"| {cid} |" in md
    t61 = pd.read_csv(tmp_path / "table6_1.csv")
    assert set(t61["game"]) == {"reversi", "doudizhu"} and len(t61) == 10
    assert (t61["S2"] == t61["thesis_S2"]).all()
    assert json.loads((tmp_path / "provenance.json").read_text())["git"]["commit"] == "abc123"
    by = pd.read_csv(tmp_path / "table6_1_by_class.csv")
    rev = by[by["game"] == "reversi"]
    assert list(rev["class"]) == ["statistical sampling search", "deterministic search"]


@pytest.mark.slow
def test_a_partial_report_names_its_games_and_tests_nothing_of_the_others(
        tmp_path: Path, own) -> None:
    """Reversi only, from the thesis's own tables (where every conclusion is decided): the
    summary says what is covered and left out, every conclusion that asks for Doudizhu or Snake
    (cross-game ones too) cannot be tested for that reason, their numbers are not compared."""
    cfgs = {g: make_plan([f"game={g}", "scale=thesis"], ROOT / "config", base=ROOT).main.cfg
            for g in ("reversi", "doudizhu", "snake")}
    prov = {"git": {"commit": "abc123"}}
    whole = RP.write(tmp_path / "whole", scale="thesis", results=own, cfgs=cfgs,
                     rdirs={"reversi": "r"}, command="x", prov=prov)
    part = RP.write(tmp_path / "part", scale="thesis", results=own, cfgs=cfgs,
                    rdirs={"reversi": "r"}, command="x", prov=prov,
                    left_out=("doudizhu", "snake"))
    md = (tmp_path / "part/reproduction.md").read_text()
    head = md.split("## Summary")[0]
    assert "reversi only (partial)" in head.splitlines()[0]
    assert "covers reversi only; doudizhu and snake are left out" in head
    nums = pd.read_csv(tmp_path / "part/numbers.csv")
    assert set(nums["game"]) == {"reversi"}
    # rows of the left-out games, duplicates included (each number counted once in the others)
    assert part["numbers_left_out"] == (whole["numbers"] + whole["duplicates"]
                                        - part["numbers"] - part["duplicates"]) > 0
    assert f"Their {part['numbers_left_out']} numbers of the thesis are not compared" in head
    # the left-out games' numbers count neither as measured nor as agreeing
    assert part["agree"] < whole["agree"] and part["measured"] < whole["measured"]
    concl = pd.read_csv(tmp_path / "part/conclusions.csv").set_index("id")
    c = concl.loc[["ddz_beats_baseline", "snake_baseline_range", "ddz_similarity_above_reversi",
                   "conv_beats_mlp", "difficulty_by_class"]]
    assert (c["verdict"] == "cannot be tested").all(), c
    assert concl.loc["snake_baseline_range", "numbers"] == "snake is not in this report"
    assert concl.loc["ddz_similarity_above_reversi", "numbers"] == \
        "doudizhu is not in this report"
    assert concl.loc["difficulty_by_class", "numbers"] == \
        "doudizhu is not in this report; snake is not in this report"
    # a Reversi-only conclusion is decided as in the whole report
    full = pd.read_csv(tmp_path / "whole/conclusions.csv").set_index("id")
    rev = [i for i in concl.index if i.startswith("reversi_")]
    assert (concl.loc[rev, "verdict"] == full.loc[rev, "verdict"]).all()
    # on the thesis's own tables the whole report decides the cross-game ones
    assert full.loc["difficulty_by_class", "verdict"] != "cannot be tested"
    assert set(pd.read_csv(tmp_path / "part/protocol.csv")["game"]) == {"reversi"}
    assert set(pd.read_csv(tmp_path / "part/table6_1.csv")["game"]) == {"reversi"}
    with pytest.raises(ValueError, match="left_out \\['go'\\]: not thesis games"):
        RP.write(tmp_path / "bad", scale="thesis", results=own, cfgs=cfgs, rdirs={},
                 command="x", prov=prov, left_out=("go",))


def test_s1s2_of_every_game_stand_beside_their_held_out_figures() -> None:
    """Snake's imitators have no thesis S1/S2 to stand beside, so the report lists every game's
    S1/S2 on all keys and on held-out keys in a section of its own."""
    from ime.thesis.results import GameResults

    snake = pd.DataFrame([{"bot": "snk01", "imitator": "imit_snk01", "keys": 1000,
                           "keys_heldout": 1000, "S1": 71.5, "S1_lo": 68.9, "S1_hi": 74.0,
                           "S2": 40.5, "S2_lo": 36.8, "S2_hi": 43.9, "S1_heldout": 55.7,
                           "S1_heldout_lo": 52.8, "S1_heldout_hi": 58.7, "S2_heldout": 38.2,
                           "S2_heldout_lo": 34.5, "S2_heldout_hi": 41.9}])
    reversi = pd.DataFrame([{"bot": "rev1", "imitator": "imit_rev1", "keys": 1000, "S1": 95.8,
                             "S1_lo": 94.4, "S1_hi": 97.0, "S2": 85.5, "S2_lo": 83.0,
                             "S2_hi": 87.9}])  # a run without held-out keys: blank cells
    results = {"snake": GameResults("snake", {"s1s2_imitator.csv": snake}),
               "reversi": GameResults("reversi", {"s1s2_imitator.csv": reversi}),
               "doudizhu": GameResults("doudizhu", {})}
    table = RP.s1s2_every_game(results)
    assert list(table["game"]) == ["reversi", "snake"]  # the thesis's order, games with rows
    md = RP.markdown(scale="thesis", rdirs={}, command="x", nums=pd.DataFrame(
        columns=["table", "game", "agrees"]), concl=pd.DataFrame(
        columns=["id", "section", "statement", "verdict", "point", "test", "thesis_verdict",
                 "numbers", "status"]), proto=pd.DataFrame(columns=["game", "status"]),
        per_bot=pd.DataFrame(), by_class=pd.DataFrame(
            columns=["game", "class", "bots", "S2", "thesis_S2", "val_acc_margin"]),
        prov={}, s1s2=table)
    assert "## S1/S2 of every game's imitators, on all keys and on held-out keys" in md
    assert ("| snake | snk01 | imit_snk01 | 71.5 [68.9, 74.0] | 55.7 [52.8, 58.7] | "
            "40.5 [36.8, 43.9] | 38.2 [34.5, 41.9] | 1,000 / 1,000 |") in md
    assert "| reversi | rev1 | imit_rev1 | 95.8 [94.4, 97.0] |  | 85.5 [83.0, 87.9] |  | 1,000 |" \
        in md
