"""Chapter 6 (the thesis's summary): its conclusions as checks, across the games.

A conclusion here that restates a chapter's reuses that chapter's criterion (the same
function), so that the summary cannot hold where the chapter fails for another reason.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace

import numpy as np

from ime.thesis.checks.common import class_order_by_bot
from ime.thesis.checks.core import (
    Missing,
    Results,
    Verdict,
    acc_table,
    all_of,
    check,
    fmt,
    table_of,
    verdict,
)
from ime.thesis.checks.doudizhu import ddz_params_matter
from ime.thesis.checks.reversi import conv_vs_mlp_same_size, paired_tested
from ime.thesis.checks.reversi_training import reversi_mlp_sizes_similar
from ime.thesis.checks.stability import (
    CLUSTER_METHOD,
    cluster_claim_share,
    share_tested,
    spread_unknown,
)


@check("conv_beats_mlp")
def conv_beats_mlp(results: Results) -> Verdict:
    """6.1: "卷积网络在本文进行的实验中均好于纯全连接网络" (at the same parameter scale,
    convolutional nets beat fully connected ones in every experiment): in Reversi (CONV vs
    MLP-2) and in Snake (the three CONVs' mean vs the two MLPs', all ~60k)."""
    parts = []
    if "reversi" in results:
        parts.append(conv_vs_mlp_same_size(results))
    if "snake" in results and results["snake"].get("imitation_accuracy.csv") is not None:
        acc = acc_table(results["snake"])
        conv = acc[acc["net"].str.contains("conv")].groupby("bot")["val_acc_mean"].mean()
        mlp = acc[acc["net"].str.contains("mlp")].groupby("bot")["val_acc_mean"].mean()
        gap = (conv - mlp).dropna()
        if len(gap):
            ok = float(gap.mean()) > 0 and int((gap > 0).sum()) > len(gap) / 2
            parts.append(paired_tested(verdict(
                ok, f"snake: CONVs - MLPs val_acc mean {fmt(gap.mean(), 2, sign=True)} points, "
                f"CONVs ahead for {int((gap > 0).sum())} of {len(gap)} bots"), list(gap)))
    if not parts:
        raise Missing("no Reversi or Snake accuracy table")
    v = all_of(*parts)
    return replace(v, numbers=("reversi: " if "reversi" in results else "") + v.numbers)


@check("params_effect_differs")
def params_effect_differs(results: Results) -> Verdict:
    """6.1: "不同参数量对模仿 AI 的影响在黑白棋和斗地主实验中不同": parameter count mattered
    little for Reversi's MLPs (reversi_mlp_sizes_similar) but clearly for Doudizhu
    (ddz_params_matter)."""
    return all_of(reversi_mlp_sizes_similar(results), ddz_params_matter(results))


@check("personality_follows_algorithm")
def personality_follows_algorithm(results: Results) -> Verdict:
    """6.1: "AI 表现出个性化特征与 AI 使用的算法有关": in each game, the clusters by imitation
    similarity split the thesis's bots exactly as their algorithm classes do. Tested for
    stability (:mod:`ime.thesis.checks.stability`): each game's clusters drawn again from S1/S2
    redrawn within their CIs, the classes' split must appear in every game at once in at least
    95 % of the resamples to hold, in at most 5 % not to."""
    parts, oks, shares, sames, unknown, n = [], [], [], [], [], 0
    for game in ("reversi", "doudizhu"):
        if game not in results or results[game].get("clusters.csv") is None:
            continue
        g = results[game]
        full = table_of(g, "clusters.csv", "bot", "class", "cluster_imitation")
        cl = full[[g.thesis_no(b) is not None for b in full["bot"]]]
        if cl["class"].nunique() < 2:
            continue
        cls = dict(zip(cl["bot"], cl["class"], strict=True))
        oks.append(by_class(dict(zip(cl["bot"], cl["cluster_imitation"], strict=True)), cls))
        parts.append(f"{game}: " + ", ".join(f"{b} {c} -> cluster {k}" for b, c, k in
                                             zip(cl["bot"], cl["class"],
                                                 cl["cluster_imitation"], strict=True)))
        hits, same, why = cluster_claim_share(g.get("s1s2_imitator.csv"), full,
                                              lambda c, cls=cls: by_class(c, cls))
        shares.append(hits)
        sames.append(same)
        unknown += [f"{game}: {w}" for w in why]
        n += len(cl)
    if not oks:
        raise Missing("no game with the thesis's bots of two or more classes in clusters.csv")
    v = verdict(all(oks), "; ".join(parts))
    if unknown:
        return spread_unknown(v, CLUSTER_METHOD, unknown)
    return share_tested(v, np.logical_and.reduce([h for h in shares if h is not None]),
                        CLUSTER_METHOD + " (each game's, redrawn together)", n,
                        float(np.logical_and.reduce([x for x in sames if x is not None]).mean()))


def by_class(clusters: Mapping[str, int], classes: Mapping[str, str]) -> bool:
    """Whether the clusters of the bots of ``classes`` (bot -> class) are exactly their
    classes: one cluster per class, no cluster shared by two."""
    pairs = {(classes[b], clusters[b]) for b in classes}
    return len(pairs) == len(set(classes.values())) == len({clusters[b] for b in classes})


@check("difficulty_by_class")
def difficulty_by_class(results: Results) -> Verdict:
    """Table 6.1: "使用统计采样搜索的 Bot 的残局胜负相似度最低，确定性搜索处于中段，而基于强规则的
    Bot 的残局胜负相似度最高" (the statistical-sampling bots have the lowest S2, the
    deterministic-search bots the middle, the rule-based bots the highest). The sentence is
    about bots, so it is decided bot by bot, as reversi_random_harder is: within each game with
    bots of two or more of the classes, every bot of a harder class has a lower S2 than every
    bot of the next easier class (class means could hide a bot out of place)."""
    return class_order_by_bot(results, ("reversi", "doudizhu", "snake"))
