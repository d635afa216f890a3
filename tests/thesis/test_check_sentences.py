"""Each check tests the thesis's sentence, not a stand-in for it (issue 47).

For every check whose criterion was changed, one synthetic table where the former criterion
(computed here, as it was) and the sentence disagree: the check must give the sentence's
answer. The tables are the thesis's own (ime.thesis.own) with one change, or hand-made ones.
"""

from __future__ import annotations

import copy

import numpy as np
import pytest
from scipy import stats
from thesis_helpers import (
    changed,
    edit,
    setv,
    shift,
    snake,
    snake_case,
    with_case,
)

from ime.thesis import conclusions as C
from ime.thesis.compare import agrees
from ime.thesis.own import thesis_results
from ime.thesis.results import GameResults


@pytest.fixture(scope="module")
def thesis() -> dict[str, GameResults]:
    return thesis_results()


def status(cid: str, results: dict[str, GameResults]) -> str:
    return C.run_check(cid, results).status


def s1s2(r: dict[str, GameResults], game: str = "reversi") -> dict[str, tuple[float, float]]:
    t = r[game].tables["s1s2_imitator.csv"]
    return {b: (float(a), float(c)) for b, a, c in zip(t.bot, t.S1, t.S2, strict=True)}


def ppg(r: dict[str, GameResults], game: str) -> dict[str, float]:
    t = r[game].tables["tournament.csv" if game == "reversi" else "table5_10.csv"]
    who = "bot" if game == "reversi" else "agent"
    return dict(zip(t[who], t.points.astype(float) / t.games.astype(float), strict=True))


def test_bots12_s2_poor_ranks_them_among_the_deterministic_bots(thesis) -> None:
    """"模仿 1、2 号的 Bot 在残局胜负相似任务中，表现不佳": S2 below S1 (the former criterion)
    holds for almost any imitator; the sentence ranks bots 1 and 2 below bots 4 and 5."""
    best = changed(thesis, setv("s1s2_imitator.csv", "reversi", {"bot": "rev1"}, "S1", 99),
                   setv("s1s2_imitator.csv", "reversi", {"bot": "rev1"}, "S2", 95))
    s = s1s2(best)
    assert all(s[b][1] < s[b][0] for b in ("rev1", "rev2"))  # the former: holds
    assert s["rev1"][1] == max(x[1] for x in s.values())  # yet bot 1's S2 is the highest
    assert status("reversi_bots12_s2_poor", best) == C.FAILS
    # and the other way: S2 above S1 for bot 2, still below bots 4 and 5
    low = changed(thesis, setv("s1s2_imitator.csv", "reversi", {"bot": "rev2"}, "S1", 50))
    assert not s1s2(low)["rev2"][1] < s1s2(low)["rev2"][0]  # the former: does not hold
    assert status("reversi_bots12_s2_poor", low) == C.HOLDS


def _tau(r: dict[str, GameResults], game: str) -> float:
    p = ppg(r, game)
    imit = [b for b in p if b.startswith("imit_")]
    return float(stats.kendalltau([p[b[5:]] for b in imit], [p[b] for b in imit]).statistic)


def test_reversi_imitators_rank_from_1_to_5_not_by_a_trend(thesis) -> None:
    """"模仿 Bot 的排名顺序也从 1 到 5": Table 4.8's imitator 3 is last, so the order is not 1
    to 5, although Kendall's tau (the former criterion) is positive."""
    assert _tau(thesis, "reversi") > 0
    assert status("reversi_imitators_rank_order", thesis) == C.FAILS
    # the trend still carries "imitating a strong bot gives a stronger imitator" (4.6)
    assert status("reversi_imitation_effective", thesis) == C.HOLDS


def test_ddz_imitators_follow_their_originals_order(thesis) -> None:
    """"模仿 Bot 之间的排名顺序与被模仿 Bot 之间的排名顺序一致": with bot 2 the strongest
    original, imitators ranked 1, 2, 3, 4, 5 are out of the originals' order (tau > 0 all the
    same); ranked 2, 1, 3, 4, 5 they follow it."""
    two_first = changed(thesis, setv("table5_10.csv", "doudizhu", {"agent": "ddz2"}, "points",
                                     8000))
    assert _tau(two_first, "doudizhu") > 0
    assert status("ddz_imitators_rank_order", two_first) == C.FAILS
    follow = changed(two_first, setv("table5_10.csv", "doudizhu", {"agent": "imit_ddz2"},
                                     "points", 5500))
    assert status("ddz_imitators_rank_order", follow) == C.HOLDS


def test_difficulty_by_class_is_decided_bot_by_bot(thesis) -> None:
    """Table 6.1's sentence orders bots: with the MCTS bot's S2 (60) above bot 2's (58.9) the
    class means (the former criterion) are still in order, the bots are not; the
    reversi_random_harder check of 4.6 agrees."""
    out = changed(thesis, setv("difficulty_by_class.csv", "reversi", {"bot": "rev3"}, "S2", 60),
                  setv("s1s2_imitator.csv", "reversi", {"bot": "rev3"}, "S2", 60))
    d = out["reversi"].tables["difficulty_by_class.csv"]
    means = d.groupby("class")["S2"].mean()
    assert means["statistical sampling search"] < means["deterministic search"]
    assert status("difficulty_by_class", out) == C.FAILS
    assert status("reversi_random_harder", out) == C.FAILS
    assert "rev3 (statistical sampling search) 60.0 >= rev2" in \
        C.run_check("difficulty_by_class", out).numbers


def test_snake_split_families_by_the_named_families() -> None:
    """"Alpha-Beta 和蒙特卡洛方法的 Bot 在两类中都有": with both MC bots in the harder group,
    most bots of each class are in their half (the former criterion), but MC is not in
    both groups."""
    good = snake_case(True)["snake"]
    groups = dict(zip(good.tables["split_vs_thesis.csv"].bot,
                      good.tables["split_vs_thesis.csv"].group, strict=True))
    groups["s6"] = "harder"  # the second MC bot
    accs = {b: 50.0 for b in groups}
    out = snake(accs, groups, dict.fromkeys(groups, 10.0), dict.fromkeys(groups, 44.0))
    bots = out["snake"].bots
    sampling = [b for b in groups if bots[b].cls == "statistical sampling search"]
    determ = [b for b in groups if bots[b].cls != "statistical sampling search"]
    assert sum(groups[b] == "harder" for b in sampling) > len(sampling) / 2
    assert sum(groups[b] == "easier" for b in determ) > len(determ) / 2
    v = C.run_check("snake_split_families", out)
    assert v.status == C.FAILS and "MC (in both): s4 harder, s6 harder -- no" in v.numbers


def test_snake_baseline_range_agrees_as_the_numbers_do() -> None:
    """A lowest baseline of 39.6 % against the stated 40.0 %: the former criterion (every bot
    inside) fails, while the numbers section counts the bound as agreeing; the check now
    decides as the numbers do."""
    out = snake_case(True)
    edit(out, "snake", "dataset_stats.csv",
         lambda df: df.assign(baseline=[39.6, *df.baseline[1:]]))
    b = out["snake"].tables["dataset_stats.csv"]["baseline"]
    assert not ((b >= 40.0) & (b <= 47.3)).all() and agrees(40.0, 39.6, "percent")
    v = C.run_check("snake_baseline_range", out)
    assert v.status == C.HOLDS and "7 of 8 strictly inside" in v.numbers


def test_ddz_conv1_above_conv2_and_the_baseline(thesis) -> None:
    """"CONV-1 网络组在验证集上的准确率高于一 CONV-2 和 Baseline": on Table 5.6, CONV-1 is above
    the baseline for every bot (the former criterion) but below CONV-2 for bot 4."""
    acc = thesis["doudizhu"].tables["imitation_accuracy.csv"]
    c1 = acc[acc.net == "ddz_conv1"]
    assert (c1.val_acc_mean > c1.baseline).all()
    v = C.run_check("ddz_beats_baseline", thesis)
    assert v.status == C.FAILS and "above for 4 of 5 bots" in v.numbers


def test_reversi_conv_beats_mlp_needs_the_mlps_alike(thesis) -> None:
    """"…；当网络结构相同时，不同参数量的全连接网络表现差别不大": CONV still beats MLP-2 (the
    former criterion), but MLP-1 10 points below MLP-2 is not "alike"."""
    out = changed(thesis, shift("imitation_accuracy.csv", "reversi", {"net": "mlp1"},
                                "val_acc_mean", -10))
    acc = out["reversi"].tables["imitation_accuracy.csv"].pivot_table(
        index="bot", columns="net", values="val_acc_mean")
    assert ((acc.conv - acc.mlp2) > 0).all()
    assert status("reversi_conv_beats_mlp_same_size", out) == C.FAILS
    # 6.1's sentence is CONV against MLP alone, and still holds
    assert status("conv_beats_mlp", out) == C.HOLDS


def test_reversi_bots45_are_the_most_alike_pair(thesis) -> None:
    """"4、5号 Bot 之间相似度较高，但也低于与各自模仿 Bot 的相似度": with bots 1 and 2 at 60 %,
    the pair 4-5 (37.25 %) is still below both imitators (the former criterion) but no longer
    "fairly similar" next to the others."""
    out = changed(thesis, setv("similarity_pairs.csv", "reversi", {"a": "rev1", "b": "rev2"},
                               "s1", 60))
    s = s1s2(out)
    assert 37.25 < min(s["rev4"][0], s["rev5"][0])
    assert status("reversi_s1_bots45_below_imitators", out) == C.FAILS


def test_reversi_every_model_beats_the_baseline(thesis) -> None:
    """"所有模型……在验证集上的准确率都高于随机选择准确率": an MLP-1 below the baseline fails
    it, though every CONV (the former criterion) is above."""
    out = changed(thesis, setv("imitation_accuracy.csv", "reversi",
                               {"net": "mlp1", "bot": "rev1"}, "val_acc_mean", 10))
    acc = out["reversi"].tables["imitation_accuracy.csv"]
    conv = acc[acc.net == "conv"]
    assert (conv.val_acc_mean > conv.baseline).all()
    assert status("reversi_beats_baseline", out) == C.FAILS


def test_reversi_mcts_hardest_by_s2(thesis) -> None:
    """"从残局胜负相似度来看……3 号 Bot 模仿效果最差": bot 3 lowest by S2 but not by S1 holds;
    the former criterion asked for both."""
    out = changed(thesis, setv("s1s2_imitator.csv", "reversi", {"bot": "rev3"}, "S1", 99))
    s = s1s2(out)
    assert s["rev3"][0] != min(x[0] for x in s.values())
    assert status("reversi_mcts_hardest", out) == C.HOLDS


def test_reversi_conjecture_for_every_imitator(thesis) -> None:
    """"模仿 Bot 的残局胜负相似度都显著高于单步动作相似度": S2 above S1 for four of five
    imitators is a majority (the former criterion), not every one."""
    out = changed(thesis, lambda r: edit(r, "reversi", "s1s2_imitator.csv", lambda df: df.assign(
        S2=np.where(df.bot == "rev5", df.S1 - 5, df.S1 + 5))))
    above = sum(s2 > s1 for s1, s2 in s1s2(out).values())
    assert above == 4
    assert status("reversi_conjecture_s2_above_s1", out) == C.FAILS


def test_the_stated_floors(thesis) -> None:
    """"达到 52%以上" (Reversi S2 among bots 1-3) and "达到 64% 以上" (Doudizhu S1 among bots
    1-3): pairs above every pair with bots 4 and 5 (the former criterion) but under the floor
    fail."""
    rev = copy.copy(thesis)
    for (a, b), x in zip((("rev1", "rev2"), ("rev1", "rev3"), ("rev2", "rev3")), (50, 49, 48),
                         strict=True):
        setv("similarity_pairs.csv", "reversi", {"a": a, "b": b}, "s2", x)(rev)
    pairs = rev["reversi"].tables["similarity_pairs.csv"]
    across = pairs[pairs.b.isin(["rev4", "rev5"]) & ~pairs.a.isin(["rev4"])]
    assert 48 > across.s2.max()
    assert status("reversi_s2_bots123_close", rev) == C.FAILS
    ddz = copy.copy(thesis)
    for (a, b), x in zip((("ddz1", "ddz2"), ("ddz1", "ddz3"), ("ddz2", "ddz3")), (60, 61, 62),
                         strict=True):
        setv("similarity_pairs.csv", "doudizhu", {"a": a, "b": b}, "s1", x)(ddz)
    pairs = ddz["doudizhu"].tables["similarity_pairs.csv"]
    assert 60 > pairs[pairs.b.isin(["ddz4", "ddz5"])].s1.max()
    assert status("ddz_s1_bots123_similar", ddz) == C.FAILS


def test_the_key_endgame_tests_what_its_choice_does_not_make_true(thesis) -> None:
    """Review item 10: the key's choice (ime.evaluate.trace.choose_key) makes the two wins,
    the target being bot 1 (the first target) and every reference losing (the key where the
    most lose) true or nearly so by construction: they are shown, not tested. What it leaves
    open is tested: the landlord's seat and the imitator playing every one of the target's
    moves."""
    v = C.run_check("ddz_key_endgame_example", with_case(thesis))
    assert v.status == C.HOLDS and "by construction" in v.numbers and "choose_key" in v.numbers
    assert status("ddz_key_endgame_example", with_case(thesis, seat=1)) == C.FAILS
    bot2 = {"ddz2": ("target", "win", ["a", "b"]), "imit_ddz2": ("imitator", "win", ["a", "b"]),
            "ddz1": ("reference", "loss", ["a", "x"]), "ddz3": ("reference", "loss", ["y"])}
    assert status("ddz_key_endgame_example", with_case(thesis, bot2)) == C.HOLDS
    # a reference that wins: the old criterion failed; the key with the most losers was taken
    winner = {"ddz1": ("target", "win", ["a", "b"]), "imit_ddz1": ("imitator", "win", ["a", "b"]),
              "ddz2": ("reference", "win", ["a", "x"]), "ddz3": ("reference", "loss", ["y"])}
    assert status("ddz_key_endgame_example", with_case(thesis, winner)) == C.HOLDS
    # what the choice leaves open: an imitator that wins but leaves the target's moves fails
    apart = {"ddz1": ("target", "win", ["a", "b"]), "imit_ddz1": ("imitator", "win", ["a", "z"]),
             "ddz2": ("reference", "loss", ["a", "x"])}
    assert status("ddz_key_endgame_example", with_case(thesis, apart)) == C.FAILS
    # the details of 5.5.2 are about bot 1's example: on bot 2's they cannot be tested
    assert status("ddz_case_bots23_same_sequence", with_case(thesis, bot2)) == C.UNTESTABLE
