"""Section 2.1.3 (Snake, the thesis author's earlier study): its conclusions as checks.

On our tables every check runs as its docstring says. The thesis prints only part of what they
read (:mod:`ime.thesis.own`): Fig 2.4's families, ladder ranks and search depths, and Fig
2.7's two groups and the baselines' range. So on the thesis's own tables the family checks
read strength off the ladder ranks, snake_depth_rank is decided there by Kendall's tau over
the printed depths (our run has no ladder: on ours it is a reading of the code), the checks
that need per-bot accuracies (plotted only, Figs 2.6-2.7) cannot be tested, and Fig 2.7's
range and membership would be the thesis checked against itself, so the report says why they
are not decided there (:data:`ime.thesis.own.NOT_ON_OWN_TABLES`).
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping

import numpy as np
import pandas as pd

from ime.thesis.checks.common import depth_follows_rank
from ime.thesis.checks.core import (
    PPG_Z_TEST,
    UNTESTABLE,
    Cmp,
    Missing,
    Results,
    Verdict,
    acc_ci,
    accuracy_by_bot,
    check,
    fmt,
    game_of,
    ppg_se,
    se_of_ci,
    spearman,
    table_of,
    tested,
    thesis_value,
    trend_tested,
    verdict,
    z_p,
)
from ime.thesis.checks.stability import draws, exact, share_tested, spread_unknown
from ime.thesis.results import GameResults


@check("snake_depth_rank")
def snake_depth_rank(results: Results) -> Verdict:
    """Fig 2.4: "后几名的 Bot 的搜索深度只有 1，靠前的 Bot 都具有较大的搜索深度" (the
    lowest-ranked bots search to depth 1, the top-ranked ones deeper): over Fig 2.4's bots with
    a search depth (an expert system's N/A is none; inf and iterative deepening are
    unlimited), Kendall's tau-b between ladder rank and depth is negative
    (:func:`~ime.thesis.checks.common.depth_follows_rank`). Decided on the thesis's Fig 2.4;
    our zoo's depths are set from it and our run has no ladder, so on ours it is a reading of
    the code."""
    return depth_follows_rank(game_of(results, "snake"), None,
                              "a reading of the ladder bots' source code (Fig 2.4), not an "
                              "imitation result; our zoo's search depths are set from it "
                              "(config/bots/snake.yaml, docs/games/snake_zoo.md), and our run "
                              "has no ladder of its own")


def families_tested(v: Verdict, results: Results, better: Collection[str] | None,
                    worse: Collection[str]) -> Verdict:
    """``v`` (the ``better`` families' mean points per game above the ``worse``'s) with a
    z-test of the two means from the originals' outcome counts (:data:`PPG_Z_TEST`)."""
    g = game_of(results, "snake")
    t = table_of(g, "tournament.csv", "bot", "type", "points", "games")
    t = t[(t["type"] == "original") & t["bot"].isin(list(g.bots))]
    rec = {r["bot"]: r for r in t.to_dict("records")}
    fam = {b: g.bots[b].family for b in rec}
    hi = [b for b in rec if fam[b] and (fam[b] in better if better is not None
                                        else fam[b] not in worse)]
    lo = [b for b in rec if fam[b] in worse]

    def mean_se(bots: list[str]) -> tuple[float, float | None]:
        x = [float(rec[b]["points"]) / max(float(rec[b]["games"]), 1.0) for b in bots]
        ses = [ppg_se(rec[b]) for b in bots]
        if any(s is None for s in ses):
            return float(np.mean(x)), None
        return float(np.mean(x)), float(np.sqrt(sum(s * s for s in ses if s is not None))
                                        / len(bots))

    (m_hi, s_hi), (m_lo, s_lo) = mean_se(hi), mean_se(lo)
    se = None if s_hi is None or s_lo is None else float(np.hypot(s_hi, s_lo))
    return tested(v, [Cmp("families' means", m_hi - m_lo, z_p(m_hi - m_lo, se))],
                  PPG_Z_TEST + " (each family's mean over its bots)", len(hi) + len(lo))


def families_ppg(results: Results, better: Collection[str] | None,
                 worse: Collection[str]) -> tuple[float, float, str]:
    """The mean tournament points per game of the originals of the Fig 2.4 families ``better``
    (None: every family not in ``worse``) and of ``worse``, and the text of both."""
    g = game_of(results, "snake")
    t = table_of(g, "tournament.csv", "bot", "type", "points", "games")
    t = t[(t["type"] == "original") & t["bot"].isin(list(g.bots))]
    fam = {b: g.bots[b].family for b in t["bot"]}
    ppg = dict(zip(t["bot"], t["points"].astype(float) / t["games"].astype(float).clip(lower=1),
                   strict=True))
    hi = [b for b in ppg if fam[b] and (fam[b] in better if better is not None
                                        else fam[b] not in worse)]
    lo = [b for b in ppg if fam[b] in worse]
    name_hi = "/".join(sorted(better)) if better is not None else "every other family"
    name_lo = "/".join(sorted(worse))
    if not hi or not lo:
        raise Missing(f"snake: the tournament needs {name_hi} and {name_lo} bots among its "
                      "originals")
    m_hi, m_lo = float(np.mean([ppg[b] for b in hi])), float(np.mean([ppg[b] for b in lo]))

    def each(bots: list[str]) -> str:
        return ", ".join(f"{b} {fmt(ppg[b], 2)}" for b in bots)

    return m_hi, m_lo, (f"points per game of the originals: {name_hi} {fmt(m_hi, 2)} "
                        f"({each(hi)}), {name_lo} {fmt(m_lo, 2)} ({each(lo)})")


@check("snake_expert_bots_weak")
def snake_expert_bots_weak(results: Results) -> Verdict:
    """2.1.3: "使用专家系统的 Bot 则表现不佳，这与黑白棋、五子棋 Bot 中不一致" (the
    expert-system bots play poorly next to the search bots, unlike in Reversi or Gomoku): in
    our tournament their mean points per game is below the search bots'."""
    m_search, m_es, text = families_ppg(results, None, ("ES",))
    return families_tested(verdict(m_es < m_search, text), results, None, ("ES",))


@check("snake_alphabeta_beats_dfs")
def snake_alphabeta_beats_dfs(results: Results) -> Verdict:
    """2.1.3: "故而 Alpha-Beta 的 Bot 表现出水平更高，在对局中的决策更优、更有远见" (Alpha-Beta
    bots play better than depth-first ones, which do not order their children): in our
    tournament the Alpha-Beta originals' mean points per game is above the DFS originals'."""
    m_ab, m_dfs, text = families_ppg(results, ("Alpha-Beta",), ("DFS",))
    return families_tested(verdict(m_ab > m_dfs, text), results, ("Alpha-Beta",), ("DFS",))


@check("snake_mcts_beats_mc")
def snake_mcts_beats_mc(results: Results) -> Verdict:
    """2.1.3: "故与蒙特卡洛相比，蒙特卡洛树搜索的效率更高" (MCTS is more efficient than plain
    Monte Carlo, since it also raises the exploration of rewarding branches). Every bot has the
    same time per turn, so efficiency shows as strength: in our tournament the MCTS originals'
    mean points per game is above the plain-MC originals' (Fig 2.4's families; NE, the
    Nash-equilibrium variant, is a family of its own)."""
    m_mcts, m_mc, text = families_ppg(results, ("MCTS",), ("MC",))
    return families_tested(verdict(m_mcts > m_mc, text), results, ("MCTS",), ("MC",))


@check("snake_baseline_range")
def snake_baseline_range(results: Results) -> Verdict:
    """2.1.3: "这 22 个 Bot 的随机选择准确率在 40.0%到 47.3%之间" (the 22 bots' random-choice
    baselines lie between 40.0 % and 47.3 %). The sentence states a range of numbers, so it is
    decided as the report decides numbers (:func:`ime.thesis.compare.agrees`, percent ±5
    points): our lowest and highest baseline each agree with the thesis's bounds. How many of
    ours lie strictly inside is printed beside it. No test: a baseline is an exact mean over
    every decision of a bot's dataset, so the range is a fact of these datasets
    (:func:`ime.thesis.checks.stability.exact`)."""
    from ime.thesis.compare import agrees

    g = game_of(results, "snake")
    t = table_of(g, "dataset_stats.csv", "bot", "baseline")
    t = t[t["bot"].map(lambda b: g.thesis_no(b) is not None)]
    if t.empty:
        raise Missing("snake: no thesis bot in dataset_stats.csv")
    lo = thesis_value("Fig 2.7", "snake", "all", "baseline_min")
    hi = thesis_value("Fig 2.7", "snake", "all", "baseline_max")
    b = t["baseline"].astype(float)
    inside = int(((b >= lo) & (b <= hi)).sum())
    ok = agrees(lo, float(b.min()), "percent") and agrees(hi, float(b.max()), "percent")
    v = verdict(ok, f"our baselines {fmt(b.min())}-{fmt(b.max())} % over {len(b)} bots against "
                f"the thesis's {fmt(lo)}-{fmt(hi)} % (each bound within 5 points agrees, as in "
                f"the numbers); {inside} of {len(b)} strictly inside")
    return exact(v, "each baseline is computed over every decision of its bot's whole dataset "
                 "(the mean of 1 / legal moves), a description of these datasets with nothing "
                 "sampled to test over; the bounds are compared as the numbers are", len(b))


@check("snake_plateau_1000")
def snake_plateau_1000(results: Results) -> Verdict:
    """Fig 2.6: "当数据集达到 1000 场对局后，对局数再增加，平均验证准确率也不再提升". Decided on
    a dataset-size sweep table (``sweep`` of the Snake results: x = matches, ``val_acc_mean`` per
    bot): the mean gain from 1000 matches to the largest size is under a third of the gain from
    the smallest size to 1000, and under 2 points. Tested over the bots (:func:`plateau_tested`):
    each bot's gains are one item, so "no longer improves" is decided only when the bots agree
    beyond their spread."""
    g = game_of(results, "snake")
    sw = g.get("sweep_dataset.matches.csv")
    if sw is None:
        raise Missing("no Snake dataset-size sweep in these results (run "
                      "experiment=snake_dataset_size: results/snake/<sweep>/"
                      "sweep_dataset.matches.csv)")
    x = "dataset.matches" if "dataset.matches" in sw.columns else "matches"
    if x not in sw.columns or "val_acc_mean" not in sw.columns:
        raise Missing("the sweep table has no dataset.matches / val_acc_mean columns")
    curve = sw.groupby(x)["val_acc_mean"].mean().sort_index()
    xs = list(curve.index)
    if 1000 not in xs or xs[0] >= 1000 or xs[-1] <= 1000:
        raise Missing(f"the sweep's sizes {xs} do not bracket 1000 matches")
    before = float(curve[1000] - curve[xs[0]])
    after = float(curve[xs[-1]] - curve[1000])
    v = verdict(after < PLATEAU_POINTS and after < before / 3,
                "mean val_acc % by matches: " + ", ".join(
                    f"{int(k)}: {fmt(float(v))}" for k, v in curve.items())
                + f"; gain {xs[0]}->1000 {fmt(before)}, 1000->{xs[-1]} {fmt(after)}")
    return plateau_tested(v, sw, x, xs[0], xs[-1])


PLATEAU_POINTS = 2.0
""""No longer improves" of Fig 2.6: a gain under 2 points past 1000 matches, the margin the
check has used since it was written (about the fold-to-fold spread of one bot's accuracy)."""


def plateau_tested(v: Verdict, sw: pd.DataFrame, x: str, lo: float, hi: float) -> Verdict:
    """``v`` (the sweep's plateau at 1000 matches) with a two-sided one-sample t-test over the
    bots of each per-bot difference it states: the gain past 1000 below
    :data:`PLATEAU_POINTS`, and below a third of the gain up to 1000. Holds when both are
    significant (each at 5 %), does not hold when one is significant against it; a sweep
    without a bot column, or with fewer than 3 bots, has no spread to test with."""
    from scipy import stats

    if "bot" not in sw.columns:
        return tested(v, [Cmp("the sweep's bots", 0.0, None)], PLATEAU_METHOD, None)
    wide = sw.pivot_table(index="bot", columns=x, values="val_acc_mean").dropna()
    if len(wide) < 3 or not {lo, 1000, hi} <= set(wide.columns):
        return tested(v, [Cmp("the sweep's bots", 0.0, None)], PLATEAU_METHOD, len(wide))
    before = (wide[1000] - wide[lo]).to_numpy(float)
    after = (wide[hi] - wide[1000]).to_numpy(float)

    def t(d: np.ndarray, what: str) -> Cmp:
        p = float(stats.ttest_1samp(d, 0.0).pvalue) if np.std(d) > 0 else None
        return Cmp(what, float(np.mean(d)), p)

    return tested(v, [t(PLATEAU_POINTS - after, f"gain past 1000 under {PLATEAU_POINTS:g} "
                        "points"), t(before / 3 - after, "gain past 1000 under a third of "
                                     "the gain up to it")], PLATEAU_METHOD, len(wide))


PLATEAU_METHOD = ("two-sided one-sample t-test over the bots of each per-bot difference (the "
                  "bots are the items; the mean over the sweep's folds per bot and size)")


@check("snake_rank_harder")
def snake_rank_harder(results: Results) -> Verdict:
    """Fig 2.7: "大致走向为排名越靠前的 Bot 平均验证准确率越低, 模仿难度越高": Spearman's rho
    between ladder rank (1 = top) and accuracy above baseline is positive, p < 0.05."""
    g = game_of(results, "snake")
    acc = accuracy_by_bot(g, "mean")
    ranks = {b: g.bots[b].ladder_rank for b in acc["bot"] if b in g.bots}
    acc = acc[acc["bot"].map(lambda b: ranks.get(b) is not None)]
    if len(acc) < 5:
        raise Missing(f"snake: {len(acc)} bots with a ladder rank; the trend needs 5 or more")
    rho, p = spearman([float(ranks[b]) for b in acc["bot"]], list(acc["margin"]))
    holds = rho > 0 and p < 0.05
    v = verdict(rho > 0, f"Spearman rho(ladder rank, val_acc - baseline) = {fmt(rho, 2)}, "
                f"p = {p:.3g}, n = {len(acc)} bots", significant=holds)
    return trend_tested(v, rho, p, "Spearman rho (ladder rank, val_acc - baseline)", len(acc))


@check("snake_split_membership")
def snake_split_membership(results: Results) -> Verdict:
    """Fig 2.7: "有序号为 1、2、3、4、5、6、7、10、13、15、16 的 Bot 被聚到第一类": our
    two-way split puts every bot in the thesis's group. A split is no comparison of two
    estimates, so it is tested for stability (:func:`split_tested`): redrawn with the noise the
    folds show, the split must put every bot in the thesis's group in at least 95 % of the
    resamples to hold, and in at most 5 % not to."""
    g = game_of(results, "snake")
    sp = table_of(g, "split_vs_thesis.csv", "bot", "group", "thesis_group")
    known = sp[sp["thesis_group"].notna()]
    if len(known) < 2:
        raise Missing("snake: fewer than two of the thesis's bots in split_vs_thesis.csv")
    wrong = known[known["group"] != known["thesis_group"]]["bot"].tolist()
    v = verdict(not wrong, f"{len(known) - len(wrong)} of {len(known)} bots in the thesis's "
                "group" + (f"; not: {', '.join(wrong)}" if wrong else ""))
    want = dict(zip(known["bot"], known["thesis_group"], strict=True))
    return split_tested(v, g, dict(zip(sp["bot"], sp["group"], strict=True)),
                        lambda grp: all(grp[b] == w for b, w in want.items()))


SPLIT_FAMILIES = {"harder": ("MCTS", "NE"), "easier": ("DFS", "ES"), "both": ("Alpha-Beta", "MC")}
"""2.1.3's families per group of the two-way split (Fig 2.4's names)."""


@check("snake_split_families")
def snake_split_families(results: Results) -> Verdict:
    """2.1.3: "算法框架为蒙特卡洛树搜索和纳什均衡的 Bot 被分到第一类中, 深度优先搜索和专家经验的
    Bot 被分到第二类中, Alpha-Beta 和蒙特卡洛方法的 Bot 在两类中都有" (the MCTS and NE bots are
    in the first, harder group, the DFS and expert-system bots in the second, and the
    Alpha-Beta and MC bots in both). By Fig 2.4's families, every bot: every MCTS and NE bot in
    our harder group, every DFS and ES bot in our easier one, and each of Alpha-Beta and MC
    with bots in both. Tested for stability as snake_split_membership is (:func:`split_tested`):
    the same families' pattern in at least 95 % of the redrawn splits to hold, at most 5 % not
    to."""
    g = game_of(results, "snake")
    sp = table_of(g, "split_vs_thesis.csv", "bot", "group")
    group = {b: x for b, x in zip(sp["bot"], sp["group"], strict=True) if b in g.bots}
    by_fam: dict[str, list[str]] = {}
    for b in group:
        by_fam.setdefault(g.bots[b].family, []).append(b)
    oks, parts, untested = families_split(group, by_fam)
    if not oks:
        raise Missing("snake: no bot of the families the thesis names in split_vs_thesis.csv")
    if untested:
        parts.append(f"too few bots to test: {', '.join(untested)}")
    agree = ""
    if "thesis_group" in sp.columns:
        known = sp[sp["thesis_group"].notna()]
        agree = (f"; our split agrees with the thesis's on "
                 f"{int((known['group'] == known['thesis_group']).sum())} of {len(known)} bots")
    return split_tested(verdict(all(oks), "; ".join(parts) + agree), g,
                        dict(zip(sp["bot"], sp["group"], strict=True)),
                        lambda grp: all(families_split(grp, by_fam)[0]))


def families_split(group: Mapping[str, str], by_fam: Mapping[str, list[str]]
                   ) -> tuple[list[bool], list[str], list[str]]:
    """Per family 2.1.3 names (:data:`SPLIT_FAMILIES`) with enough bots: whether the split
    ``group`` (bot -> harder / easier) puts it where the thesis says, its text, and the
    families with too few bots to test (one bot cannot be in both groups)."""
    oks, parts, untested = [], [], []
    for want, fams in SPLIT_FAMILIES.items():
        for f in fams:
            bots = by_fam.get(f, [])
            if len(bots) < (2 if want == "both" else 1):
                untested.append(f)
                continue
            groups = [group[b] for b in bots]
            ok = (set(groups) == {"harder", "easier"} if want == "both"
                  else all(x == want for x in groups))
            oks.append(ok)
            parts.append(f"{f} ({'in both' if want == 'both' else 'all ' + want}): "
                         + ", ".join(f"{b} {group[b]}" for b in bots)
                         + ("" if ok else " -- no"))
    return oks, parts, untested


SPLIT_METHOD = ("parametric bootstrap: each (bot, net)'s validation accuracy redrawn from its "
                "95 % CI over folds (normal, SE = half-width / 1.96, independent), each bot's "
                "mean over its nets bisected again by count (ime.games.snake.results."
                "bisect_by_count, the pipeline's split)")


def split_tested(v: Verdict, g: GameResults, point: Mapping[str, str],
                 claim: Callable[[Mapping[str, str]], bool]) -> Verdict:
    """``v`` (a claim about the two-way split ``point``, bot -> group, of split_vs_thesis.csv)
    with its stability under resampling (:func:`ime.thesis.checks.stability.share_tested`):
    the split is drawn again from redrawn accuracies
    :data:`~ime.thesis.checks.stability.RESAMPLES` times and ``claim`` (of a bot -> group
    mapping) checked on each. Undecided where an accuracy has no spread."""
    from ime.games.snake.results import bisect_by_count

    if v.status == UNTESTABLE:
        return v
    bots = [str(b) for b in point]
    acc = g.get("imitation_accuracy.csv")
    if acc is None or not set(bots) <= set(acc["bot"]):
        return spread_unknown(v, SPLIT_METHOD, ["the split bots' accuracies"])
    acc = acc[acc["bot"].isin(bots)]
    recs = acc.to_dict("records")
    cis = [acc_ci(r, "val_acc") for r in recs]
    unknown = [f"{r['bot']} {r['net']}" for r, ci in zip(recs, cis, strict=True)
               if se_of_ci(*ci) is None]
    if unknown:
        return spread_unknown(v, SPLIT_METHOD, unknown)
    means = np.array([float(r["val_acc_mean"]) for r in recs])
    ses = np.array([se_of_ci(*ci) for ci in cis], dtype=float)
    weight = np.zeros((len(bots), len(recs)))
    for j, r in enumerate(recs):
        weight[bots.index(r["bot"]), j] = 1.0
    weight /= weight.sum(axis=1, keepdims=True)
    per_bot = draws(means, ses) @ weight.T
    splits = [dict(zip(bots, bisect_by_count(bots, list(x)), strict=True)) for x in per_bot]
    hits = np.array([claim(x) for x in splits])
    same = float(np.mean([x == dict(point) for x in splits]))
    return share_tested(v, hits, SPLIT_METHOD, len(bots), same)
