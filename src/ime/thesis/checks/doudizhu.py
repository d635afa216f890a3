"""Chapter 5 (Doudizhu): its conclusions as checks, in the chapter's order; the worked key
endgame of 5.5.2 is in :mod:`.doudizhu_case`.

Each check's docstring quotes the thesis's sentence (the Chinese of
``config/thesis/conclusions.csv``) and says how our tables decide it.
"""

from __future__ import annotations

import math

import pandas as pd

from ime.thesis.checks.common import (
    apart,
    beats_baseline,
    below_originals,
    class_order_by_bot,
    closest,
    closest_cmps,
    imitator_closest,
    imitators_in_order,
    imitators_trend,
    lowest_cmps,
    not_linear,
    ordered,
    originals_order,
    within_vs_across,
)
from ime.thesis.checks.core import (
    CI_Z_TEST,
    HOLDS,
    UNTESTABLE,
    Cmp,
    Missing,
    Results,
    Verdict,
    accuracy_by_bot,
    all_of,
    check,
    ci_cmp,
    ci_text,
    fmt,
    fold_ci,
    game_of,
    label,
    majority_tested,
    pair,
    pair_ci,
    pairs_cmps,
    se_of_ci,
    significant,
    table_of,
    tested,
    verdict,
    z_p,
)
from ime.thesis.checks.stability import (
    CLUSTER_METHOD,
    alone,
    cluster_claim_share,
    exact,
    share_tested,
    spread_unknown,
)

CONV1, CONV2 = "ddz_conv1", "ddz_conv2"
"""Table 5.5's two net groups, as our configs name them."""


# --- 5.3.3 training ---------------------------------------------------------------------------
@check("ddz_beats_baseline")
def ddz_beats_baseline(results: Results) -> Verdict:
    """Table 5.6: "CONV-1 网络组在验证集上的准确率高于一 CONV-2 和 Baseline" (CONV-1's
    validation accuracy is above both CONV-2's and the random baseline): for every bot, CONV-1
    above its baseline and above CONV-2; significant when the CIs separate both."""
    g = game_of(results, "doudizhu")
    base = beats_baseline(results, "doudizhu", [CONV1])
    c1 = accuracy_by_bot(g, CONV1).set_index("bot")
    c2 = accuracy_by_bot(g, CONV2).set_index("bot")
    bots = [b for b in c1.index if b in c2.index]
    above = [float(c1.loc[b, "val_acc"]) > float(c2.loc[b, "val_acc"]) for b in bots]
    sig = all(float(c1.loc[b, "val_acc_lo"]) > float(c2.loc[b, "val_acc_hi"]) for b in bots)
    cmps = [ci_cmp(f"{b} CONV-1 vs CONV-2", float(c1.loc[b, "val_acc"]),
                   (c1.loc[b, "val_acc_lo"], c1.loc[b, "val_acc_hi"]),
                   float(c2.loc[b, "val_acc"]), (c2.loc[b, "val_acc_lo"], c2.loc[b, "val_acc_hi"]))
            for b in bots]
    return tested(verdict(base.status == HOLDS and all(above),
                   f"{base.numbers} | CONV-1 vs CONV-2 val_acc %, above for {sum(above)} of "
                   f"{len(bots)} bots: " + "; ".join(
                       f"{label(g, b)} {fmt(float(c1.loc[b, 'val_acc']))} vs "
                       f"{fmt(float(c2.loc[b, 'val_acc']))}" for b in bots),
                   significant=bool(base.significant) and sig),
        [*cmps, *[ci_cmp(f"{b} CONV-1 vs baseline", float(c1.loc[b, "val_acc"]),
                         (c1.loc[b, "val_acc_lo"], c1.loc[b, "val_acc_hi"]),
                         float(c1.loc[b, "baseline"]), None) for b in bots]],
        CI_Z_TEST + " (validation accuracy: t interval over folds; a baseline is a constant)",
        len(bots))


@check("ddz_conv2_underfits")
def ddz_conv2_underfits(results: Results) -> Verdict:
    """Table 5.6: "CONV-2 的准确率反而低于 Baseline": CONV-2 falls below the random baseline
    (for most bots)."""
    g = game_of(results, "doudizhu")
    acc = accuracy_by_bot(g, CONV2)
    below = acc[acc["val_acc"] < acc["baseline"]]
    cmps = [ci_cmp(f"{r.bot}", r.val_acc, (r.val_acc_lo, r.val_acc_hi), r.baseline, None)
            for r in acc.itertuples()]
    v = verdict(len(below) > len(acc) / 2,
                f"CONV-2 val_acc below baseline for {len(below)} of {len(acc)} bots: "
                + ", ".join(f"{label(g, r.bot)} {fmt(r.val_acc)} vs {fmt(r.baseline)}"
                            for r in acc.itertuples()))
    return majority_tested(v, [Cmp(c.what, -c.diff, c.p) for c in cmps],
                           "two-sided z-test of each bot's CONV-2 validation accuracy against "
                           "its baseline (a constant) from its t interval over folds", len(acc))


# --- 5.4.2 similarity -------------------------------------------------------------------------
@check("ddz_rule_bot_easiest")
def ddz_rule_bot_easiest(results: Results) -> Verdict:
    """Table 5.7: "5 号 Bot 规则更加简单，决策确定性更高，残局胜负相似度最高，更容易模仿": bot 5
    has the highest S2."""
    g = game_of(results, "doudizhu")
    t = table_of(g, "s1s2_imitator.csv", "bot", "S2")
    b5 = g.bot_of(5)
    if b5 is None or b5 not in set(t["bot"]) or len(t) < 2:
        raise Missing("doudizhu: bot 5 and another target are needed in s1s2_imitator.csv")
    rows = t.set_index("bot")
    neg = (-rows["S2"].astype(float)).to_dict()
    lo = (-rows.get("S2_hi", rows["S2"]).astype(float)).to_dict()
    hi = (-rows.get("S2_lo", rows["S2"]).astype(float)).to_dict()
    ok, sig = ordered(neg, lo, hi, b5)
    return tested(verdict(ok, "S2 %: " + ", ".join(f"{b} {ci_text(r, 'S2')}" for b, r in
                                                   rows.to_dict("index").items()),
                          significant=sig), lowest_cmps(rows, "S2", b5, sign=-1), CI_Z_TEST,
                  len(rows))


@check("ddz_similarity_above_reversi")
def ddz_similarity_above_reversi(results: Results) -> Verdict:
    """Tables 5.7/4.5: "与黑白棋实验对比，斗地主的模仿 Bot 相似度评估值要普遍更高": higher mean
    S1 and S2 in Doudizhu than in Reversi."""
    d = table_of(game_of(results, "doudizhu"), "s1s2_imitator.csv", "S1", "S2")
    r = table_of(game_of(results, "reversi"), "s1s2_imitator.csv", "S1", "S2")
    ok = all(float(d[m].mean()) > float(r[m].mean()) for m in ("S1", "S2"))
    cmps = [Cmp(f"mean {m}", float(d[m].mean()) - float(r[m].mean()),
                z_p(float(d[m].mean()) - float(r[m].mean()), _se_mean_pair(d, r, m)))
            for m in ("S1", "S2")]
    return tested(verdict(ok, f"mean S1 % Doudizhu {fmt(d['S1'].mean())} vs Reversi "
                   f"{fmt(r['S1'].mean())}; mean S2 % {fmt(d['S2'].mean())} vs "
                   f"{fmt(r['S2'].mean())}"),
        cmps, CI_Z_TEST + " (each game's mean over its bots: SE = sqrt(sum SE^2) / bots)",
        len(d) + len(r))


def _se_mean_pair(d: pd.DataFrame, r: pd.DataFrame, m: str) -> float | None:
    """The standard error of the difference of two games' mean ``m`` over their bots, from
    the bots' CIs (None where a CI is missing or has zero width)."""
    out = 0.0
    for t in (d, r):
        if f"{m}_lo" not in t.columns:
            return None
        ses = [se_of_ci(lo, hi, x) for lo, hi, x in zip(t[f"{m}_lo"], t[f"{m}_hi"], t[m],
                                                         strict=True)]
        if any(x is None for x in ses):
            return None
        out += sum(x * x for x in ses if x is not None) / len(ses) ** 2
    return math.sqrt(out)


@check("ddz_s1_s2_not_linear")
def ddz_s1_s2_not_linear(results: Results) -> Verdict:
    """5.4.2: "但单步动作相似度和残局胜负相似度没有表现出线性相关性": Pearson r^2 < 0.5."""
    return not_linear(results, "doudizhu")


@check("ddz_conjecture_order_irrelevant")
def ddz_conjecture_order_irrelevant(results: Results) -> Verdict:
    """5.4.2 (conjecture): "存在这样的关键局面，出牌顺序不一致不影响最后的胜负结果". On one key
    set, an agent whose S2 exceeds its S1 has at least (S2 - S1) x n keys where its first play
    differs but the result is the same; holds when some agent shows one. An existence claim
    read off counts of these key sets, so no test (:func:`~ime.thesis.checks.stability.exact`)."""
    g = game_of(results, "doudizhu")
    t = table_of(g, "similarity.csv", "agent", "target", "n", "s1", "s2")
    gain = (t["s2"].astype(float) - t["s1"].astype(float)) / 100.0 * t["n"].astype(float)
    best = t.assign(keys=gain.round().astype(int)).sort_values("keys", ascending=False)
    top = best.iloc[0]
    if int(top["keys"]) >= 1:
        return exact(verdict(True, f"{top['agent']} on {top['target']}'s {int(top['n'])} keys: "
                             f"S1 {fmt(float(top['s1']))} %, S2 {fmt(float(top['s2']))} %: at "
                             f"least {int(top['keys'])} keys played differently with the same "
                             "result"),
                     "a count over one key set ((S2 - S1) x keys is a lower bound on the keys "
                     "whose first play differs and whose result is the same), nothing sampled "
                     "to test over; an existence claim needs one such key", int(top["n"]))
    raise Missing("no agent's S2 exceeds its S1 on a key set, so these tables cannot show such "
                  "keys (per-key results would)")


# --- 5.5 clusters, similarity between the originals, the tournament ---------------------------
@check("ddz_cluster_rule_apart")
def ddz_cluster_rule_apart(results: Results) -> Verdict:
    """5.5.1: "一类是 1、2、3、4 号 Bot，一类 5 号 Bot，前一类的 Bot 的残局胜负相似度要低于后一类":
    by imitation similarity, {1, 2, 3, 4} and {5}. Tested for stability as
    reversi_cluster_mcts_apart is: clustered again from S1/S2 redrawn within their CIs, bot 5
    must stand alone in at least 95 % of the resamples to hold, in at most 5 % not to."""
    v = apart(results, "doudizhu", 5)
    if v.status == UNTESTABLE:
        return v
    g = game_of(results, "doudizhu")
    cl = table_of(g, "clusters.csv", "bot", "cluster_imitation")
    b5 = g.bot_of(5)
    others = [b for b in cl["bot"] if g.thesis_no(b) is not None and b != b5]
    hits, same, unknown = cluster_claim_share(g.get("s1s2_imitator.csv"), cl,
                                              lambda c: alone(c, str(b5), others))
    if hits is None or same is None:
        return spread_unknown(v, CLUSTER_METHOD, unknown)
    return share_tested(v, hits, CLUSTER_METHOD, len(cl), float(same.mean()))


S1_BOTS123_MIN = 64.0
"""5.5.2's stated floor of S1 among Doudizhu bots 1-3 (%)."""


@check("ddz_s1_bots123_similar")
def ddz_s1_bots123_similar(results: Results) -> Verdict:
    """Table 5.8: "1 号、2 号、3 号的动作相似度互相之间达到 64% 以上，而 4、5 号 Bot 与其他 Bot
    的相似度都较低": by S1 every pair among bots 1-3 is at 64 % or more, and above every pair
    with bot 4 or 5."""
    g = game_of(results, "doudizhu")
    within, across = within_vs_across(g, "S1", (1, 2, 3), (4, 5))
    across.append(pair(g, "S1", 4, 5))
    ok = min(within) >= S1_BOTS123_MIN and min(within) > max(across)
    inner = [(1, 2), (1, 3), (2, 3)]
    outer = [(a, b) for a in (1, 2, 3) for b in (4, 5)] + [(4, 5)]
    cmps = pairs_cmps(g, "S1", inner, outer) + [
        ci_cmp(f"{a}-{b} vs {S1_BOTS123_MIN:g} %", pair(g, "S1", a, b), pair_ci(g, "S1", a, b),
               S1_BOTS123_MIN, None) for a, b in inner]
    return tested(verdict(ok, f"S1 % among bots 1-3: {', '.join(f'{fmt(x)}' for x in within)} "
                          f"(the thesis: {S1_BOTS123_MIN:g} or more); pairs with 4 or 5: "
                          f"{', '.join(f'{fmt(x)}' for x in across)}"), cmps, CI_Z_TEST, 5)


@check("ddz_imitator_closest_s2")
def ddz_imitator_closest_s2(results: Results) -> Verdict:
    """Table 5.9: "被模仿 Bot 与其模仿 Bot 的残局胜负相似度普遍高于与其他 Bot 的相似度": by S2,
    each bot is generally (for most bots) closer to its imitator than to the other originals."""
    ok, text = closest(results, "doudizhu", "S2")
    g = game_of(results, "doudizhu")
    per_bot: dict[str, list[Cmp]] = {}
    for c in closest_cmps(g, "S2"):
        per_bot.setdefault(c.what.split(":")[0], []).append(c)
    cmps = []
    for b, cs in per_bot.items():  # a bot's claim: its imitator above every other original
        if all(c.diff > 0 and significant(c) for c in cs):
            cmps.append(Cmp(b, 1.0, max((c.p for c in cs if c.p is not None), default=None)))
        else:
            against = [c for c in cs if c.diff <= 0]
            known = [c.p for c in against if c.p is not None]
            p = min(1.0, min(known) * len(cs)) if known else None
            cmps.append(Cmp(b, -1.0 if against else 0.0, p))
    return majority_tested(verdict(sum(ok) > len(ok) / 2, text), cmps,
                           CI_Z_TEST + " (a bot counts as stated when its imitator is "
                           "significantly above every other original, against when one "
                           "original is significantly above it, Bonferroni)", len(cmps))


@check("ddz_imitator_closest")
def ddz_imitator_closest(results: Results) -> Verdict:
    """Tables 5.8/5.9: "不同 Bot 之间的相似度都不如与模仿 Bot 之间的相似度高": by both S1 and S2,
    every original is closer to its own imitator than to any other original."""
    return all_of(imitator_closest(results, "doudizhu", "S1"),
                  imitator_closest(results, "doudizhu", "S2"))


@check("ddz_originals_ladder_order")
def ddz_originals_ladder_order(results: Results) -> Verdict:
    """Table 5.10: "双循环赛中 1 到 5 号 Bot 的排名也依次降低": points per game fall from bot 1
    to bot 5."""
    return originals_order(results, "doudizhu")


@check("ddz_imitators_rank_order")
def ddz_imitators_rank_order(results: Results) -> Verdict:
    """Table 5.10: "模仿 Bot 之间的排名顺序与被模仿 Bot 之间的排名顺序一致" (the imitators rank
    among themselves as their originals do): ordered by their originals' points per game in
    the same tournament, the imitators' points per game fall strictly."""
    return imitators_in_order(results, "doudizhu", "originals")


@check("ddz_imitators_below_originals")
def ddz_imitators_below_originals(results: Results) -> Verdict:
    """Table 5.10: "模仿 Bot 排名分数低于被模仿 Bot，仅靠模仿是不能超越原 Bot 的": every imitator
    scores fewer points per game than its original."""
    return below_originals(results, "doudizhu")


# --- 5.6 the chapter's summary -----------------------------------------------------------------
@check("ddz_params_matter")
def ddz_params_matter(results: Results) -> Verdict:
    """5.6: "当网络结构相同时，参数量对模仿效果有影响，过小的参数量会使得网络在训练时无法收敛到
    较好值": for most bots the smaller CONV-2 group's training accuracy is more than 10 points
    below CONV-1's."""
    g = game_of(results, "doudizhu")
    acc = table_of(g, "imitation_accuracy.csv", "bot", "net", "train_acc_mean")
    wide = acc.pivot_table(index="bot", columns="net", values="train_acc_mean")
    if not {CONV1, CONV2} <= set(wide.columns):
        raise Missing("doudizhu: imitation_accuracy.csv needs ddz_conv1 and ddz_conv2")
    gap = wide[CONV1] - wide[CONV2]
    under = int((gap > 10).sum())
    rows = {(r["bot"], r["net"]): r for r in acc.to_dict("records")}
    cmps = []
    for b in wide.index:
        c1, c2 = (rows.get((b, n), {}) for n in (CONV1, CONV2))
        s1 = se_of_ci(*fold_ci(c1.get("train_acc_mean"), c1.get("train_acc_std"),
                               c1.get("folds")))
        s2 = se_of_ci(*fold_ci(c2.get("train_acc_mean"), c2.get("train_acc_std"),
                               c2.get("folds")))
        se = None if s1 is None or s2 is None else math.hypot(s1, s2)
        cmps.append(Cmp(str(b), float(gap[b]) - 10.0, z_p(float(gap[b]) - 10.0, se)))
    v = verdict(under > len(gap) / 2, "train_acc % CONV-1 vs CONV-2: " + "; ".join(
        f"{b} {fmt(float(wide.loc[b, CONV1]))} vs {fmt(float(wide.loc[b, CONV2]))}"
        for b in wide.index) + f"; CONV-2 >10 points below for {under} of {len(gap)} bots")
    return majority_tested(v, cmps, "two-sided z-test of each bot's CONV-1 - CONV-2 training gap "
                           "against 10 points from the nets' t intervals over folds", len(cmps))


@check("ddz_simpler_rules_easier")
def ddz_simpler_rules_easier(results: Results) -> Verdict:
    """5.6: "使用越简单规则的 Bot 决策越确定，越容易模仿": bot by bot, every rule-based bot has a
    higher S2 than every search (split-enumerating) bot."""
    return class_order_by_bot(results, ("doudizhu",))


@check("ddz_imitation_effective")
def ddz_imitation_effective(results: Results) -> Verdict:
    """5.6: "模仿在斗地主游戏上有效，模仿强 Bot 比模仿弱 Bot 更好，但仅靠模仿不能超越原 Bot": the
    imitators are above the baseline, stronger originals give stronger imitators as a trend
    (Kendall's tau > 0), and no imitator surpasses its original."""
    return all_of(beats_baseline(results, "doudizhu"), imitators_trend(results, "doudizhu"),
                  below_originals(results, "doudizhu"))
