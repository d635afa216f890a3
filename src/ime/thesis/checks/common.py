"""Claims the thesis makes about more than one game, tested one way wherever it makes them.

Reversi's and Doudizhu's chapters say the same things about their own tables (the imitators
beat the random baseline, S1 and S2 are not linearly related, each bot is closest to its own
imitator, the tournament ranks the originals by the ladder and each imitator below its
original), and chapter 6 and section 4.6 order the same algorithm classes. Each such claim is
one function here, so that a criterion cannot drift between the games or between a chapter's
check and the summary's.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any

import numpy as np
import pandas as pd

from ime.thesis.checks.core import (
    CI_Z_TEST,
    PPG_Z_TEST,
    Cmp,
    Missing,
    Results,
    Verdict,
    accuracy_by_bot,
    ci_cmp,
    ci_text,
    fmt,
    game_of,
    label,
    lo_hi,
    not_a_result,
    pair,
    ppg_se,
    significant,
    table_of,
    tested,
    trend_tested,
    verdict,
    z_p,
)
from ime.thesis.results import GameResults


# --- accuracy ----------------------------------------------------------------------------------
def beats_baseline(results: Results, game: str, nets: Sequence[str] | None = None) -> Verdict:
    """Every bot's validation accuracy is above its random-choice baseline, for each net of
    ``nets`` (the evaluation net when None; ``"mean"``: the nets' mean); significant when every
    CI's bottom is above the baseline too."""
    g = game_of(results, game)
    nets = list(nets) if nets else [g.eval_net]
    ok, sig, parts, cmps = True, True, [], []
    for net in nets:
        acc = accuracy_by_bot(g, net)
        ok &= bool((acc["val_acc"] > acc["baseline"]).all())
        sig &= bool((acc["val_acc_lo"] > acc["baseline"]).all())
        cmps += [ci_cmp(f"{r.bot} {net}", r.val_acc, (r.val_acc_lo, r.val_acc_hi), r.baseline,
                        None) for r in acc.itertuples()]
        nums = "; ".join(f"{label(g, r.bot)} {ci_text(r._asdict(), 'val_acc')} vs "
                         f"{fmt(r.baseline)}" for r in acc.itertuples())
        which = "every net's mean" if net == "mean" else net
        parts.append(f"val_acc ({which}) vs random baseline, %: {nums}")
    return tested(verdict(ok, " | ".join(parts), significant=sig), cmps,
                  "two-sided z-test of each bot's validation accuracy against its baseline (a "
                  "constant) from its 95 % t interval over folds (SE = half-width / 1.96)",
                  len(cmps))


def nets_of(g: GameResults) -> list[str]:
    """The nets of imitation_accuracy.csv, in the table's order."""
    acc = table_of(g, "imitation_accuracy.csv", "net")
    return list(dict.fromkeys(acc["net"]))


# --- S1 / S2 -----------------------------------------------------------------------------------
def ordered(values: Mapping[str, float], lows: Mapping[str, float],
            highs: Mapping[str, float], lowest: str) -> tuple[bool, bool]:
    """Whether ``lowest`` has the smallest value, and whether its CI's top is below every other
    CI's bottom."""
    others = [k for k in values if k != lowest]
    point = all(values[lowest] < values[k] for k in others)
    sig = all(highs[lowest] < lows[k] for k in others)
    return point, sig


def lowest_cmps(rows: pd.DataFrame, metric: str, lowest: str, sign: int = 1) -> list[Cmp]:
    """The comparisons of "``lowest`` has the lowest ``metric``" (``sign`` -1: the highest)
    with every other row of ``rows`` (indexed by bot, CI columns ``<metric>_lo/_hi``), each by
    :func:`ci_cmp`."""
    def ci(b: str) -> tuple[float | None, float | None]:
        r = rows.loc[b]
        return r.get(f"{metric}_lo"), r.get(f"{metric}_hi")

    out = []
    for o in rows.index:
        if o == lowest:
            continue
        c = ci_cmp(f"{o} vs {lowest}", float(rows.loc[o, metric]), ci(o),
                   float(rows.loc[lowest, metric]), ci(lowest))
        out.append(Cmp(c.what, sign * c.diff, c.p))
    return out


def hardest(results: Results, game: str, thesis_no: int, metrics: tuple[str, ...]) -> Verdict:
    """The thesis's bot ``thesis_no`` has the lowest imitator similarity on every metric."""
    g = game_of(results, game)
    t = table_of(g, "s1s2_imitator.csv", "bot", *metrics)
    bot = g.bot_of(thesis_no)
    if bot is None or bot not in set(t["bot"]) or len(t) < 2:
        raise Missing(f"{game}: bot {thesis_no} and another target are needed in "
                      "s1s2_imitator.csv")
    rows = t.set_index("bot")
    oks, sigs, parts, cmps = [], [], [], []
    for m in metrics:
        cmps += lowest_cmps(rows, m, bot)
        vals = rows[m].astype(float).to_dict()
        lo = rows.get(f"{m}_lo", rows[m]).astype(float).to_dict()
        hi = rows.get(f"{m}_hi", rows[m]).astype(float).to_dict()
        ok, sig = ordered(vals, lo, hi, bot)
        oks.append(ok)
        sigs.append(sig)
        parts.append(f"{m}: " + ", ".join(f"{b} {ci_text(r, m)}"
                                          for b, r in rows.to_dict("index").items()))
    return tested(verdict(all(oks), f"{label(g, bot)} lowest? " + "; ".join(parts),
                          significant=all(sigs)), cmps, CI_Z_TEST, len(rows))


def closest(results: Results, game: str, metric: str,
            exclude: tuple[int, ...] = ()) -> tuple[list[bool], str]:
    """Per bot (leaving out the thesis numbers in ``exclude``): whether its imitator (the
    ``IMBOT`` column of the pairwise table) is more similar to it than any other original."""
    g = game_of(results, game)
    name = f"{metric.lower()}_pairwise.csv"
    tab = table_of(g, name, "bot", "IMBOT").set_index("bot")
    bots = [b for b in tab.index if g.thesis_no(b) not in exclude]
    if len(tab.index) < 2 or not bots:
        raise Missing(f"{game}: {name} needs at least two bots")
    parts, ok = [], []
    for b in bots:
        others = tab.loc[b, [c for c in tab.index if c != b]].astype(float)
        best = float(others.max())
        ok.append(float(tab.loc[b, "IMBOT"]) > best)
        parts.append(f"{label(g, b)} imitator {fmt(float(tab.loc[b, 'IMBOT']))} vs closest "
                     f"original {others.idxmax()} {fmt(best)}")
    return ok, f"{metric} %, {sum(ok)} of {len(ok)} bots: " + "; ".join(parts)


def closest_cmps(g: GameResults, metric: str, exclude: tuple[int, ...] = ()) -> list[Cmp]:
    """Per bot (but ``exclude``) and every other original: its imitator's ``metric`` (the
    IMBOT column; its CI from s1s2_imitator.csv) above that original's (similarity_pairs.csv's
    CI), each by :func:`ci_cmp`; a CI either table lacks is unknown spread."""
    name = f"{metric.lower()}_pairwise.csv"
    tab = table_of(g, name, "bot", "IMBOT").set_index("bot")
    imit = g.get("s1s2_imitator.csv")
    imit = imit.set_index("bot") if imit is not None else pd.DataFrame()
    pairs = g.get("similarity_pairs.csv")
    lo, hi = f"{metric.lower()}_lo", f"{metric.lower()}_hi"

    def ci_imit(b: str) -> tuple[float | None, float | None]:
        if b not in imit.index or f"{metric}_lo" not in imit.columns:
            return None, None
        return imit.loc[b, f"{metric}_lo"], imit.loc[b, f"{metric}_hi"]

    def ci_pair(a: str, b: str) -> tuple[float | None, float | None]:
        if pairs is None or lo not in pairs.columns:
            return None, None
        hit = pairs[((pairs["a"] == a) & (pairs["b"] == b)) | ((pairs["a"] == b)
                                                               & (pairs["b"] == a))]
        return (None, None) if hit.empty else (float(hit[lo].iloc[0]), float(hit[hi].iloc[0]))

    out = []
    for b in tab.index:
        if g.thesis_no(b) in exclude:
            continue
        for o in tab.index:
            if o != b and pd.notna(tab.loc[b, o]):
                out.append(ci_cmp(f"{b}: imitator vs {o}", float(tab.loc[b, "IMBOT"]),
                                  ci_imit(b), float(tab.loc[b, o]), ci_pair(b, o)))
    return out


def imitator_closest(results: Results, game: str, metric: str,
                     exclude: tuple[int, ...] = ()) -> Verdict:
    """Every bot (but ``exclude``) is closer to its imitator than to any other original."""
    ok, text = closest(results, game, metric, exclude)
    g = game_of(results, game)
    return tested(verdict(all(ok), text), closest_cmps(g, metric, exclude), CI_Z_TEST,
                  len(ok))


def not_linear(results: Results, game: str) -> Verdict:
    """Pearson r^2 of the imitators' S1 and S2 over ``game``'s bots is under 0.5. Tested by the
    Fisher-z 95 % CI of r over the n bots: decided only when the whole CI has r^2 under 0.5
    (holds) or over it (does not hold); with five bots it rarely can be."""
    g = game_of(results, game)
    t = table_of(g, "s1s2_imitator.csv", "bot", "S1", "S2")
    if len(t) < 3:
        raise Missing(f"{game}: {len(t)} bots; a linear fit needs 3 or more")
    r = float(np.corrcoef(t["S1"].astype(float), t["S2"].astype(float))[0, 1])
    v = verdict(r * r < 0.5,
                f"Pearson r(S1, S2) = {fmt(r, 2)} (r^2 = {fmt(r * r, 2)}) over {len(t)} bots: "
                + "; ".join(f"{b} S1 {fmt(float(s1))} S2 {fmt(float(s2))}"
                            for b, s1, s2 in zip(t["bot"], t["S1"], t["S2"], strict=True)))
    return fisher_tested(v, r, len(t))


def fisher_tested(v: Verdict, r: float, n: int, cut: float = 0.5) -> Verdict:
    """``v`` (r^2 < ``cut`` holds) with the Fisher-z 95 % CI of Pearson's ``r`` over ``n``
    items and its p against r = 0."""
    from scipy import stats

    if n <= 3:
        return v
    rr = min(max(r, -0.999999), 0.999999)
    z, se = math.atanh(rr), 1 / math.sqrt(n - 3)
    lo, hi = math.tanh(z - 1.96 * se), math.tanh(z + 1.96 * se)
    edge = math.sqrt(cut)
    below = -edge < lo and hi < edge
    above = lo > edge or hi < -edge
    p0 = float(2 * stats.norm.sf(abs(z) / se))
    decided = below if v.status == "holds" else above
    return replace(v, test=f"Fisher-z 95 % CI of r: [{fmt(lo, 2)}, {fmt(hi, 2)}] (r^2 < "
                   f"{cut:g} needs |r| < {fmt(edge, 2)} across it); p(r = 0) = {p0:.3g}; "
                   f"n = {n} bots", p=p0, n=n, decided=decided)


def within_vs_across(g: GameResults, metric: str, inner: tuple[int, ...],
                     outer: tuple[int, ...]) -> tuple[list[float], list[float]]:
    """``metric`` between the originals: every pair within ``inner``, and every pair of one of
    ``inner`` with one of ``outer``."""
    within = [pair(g, metric, a, b) for i, a in enumerate(inner) for b in inner[i + 1:]]
    across = [pair(g, metric, a, b) for a in inner for b in outer]
    return within, across


def apart(results: Results, game: str, thesis_no: int) -> Verdict:
    """By imitation similarity, the thesis's bot ``thesis_no`` forms its own cluster and the
    thesis's other bots share one (clusters.csv's cluster_imitation)."""
    g = game_of(results, game)
    cl = table_of(g, "clusters.csv", "bot", "cluster_imitation")
    c = {g.thesis_no(b): k for b, k in zip(cl["bot"], cl["cluster_imitation"], strict=True)
         if g.thesis_no(b) is not None}
    if thesis_no not in c or len(c) < 3:
        raise Missing(f"{game}: bot {thesis_no} and two more of the thesis's bots are needed "
                      "in clusters.csv")
    rest = {c[n] for n in c if n != thesis_no}
    return verdict(c[thesis_no] not in rest and len(rest) == 1,
                   "clusters: " + ", ".join(f"bot {n} {c[n]}" for n in sorted(c)))


# --- the tournament ----------------------------------------------------------------------------
def tournament_of(g: GameResults) -> tuple[str, str]:
    """The tournament table the conclusions read and its agent column: Doudizhu's Table 5.10
    (the thesis-protocol games) where present, else the generic ``tournament.csv``."""
    if g.game == "doudizhu" and g.get("table5_10.csv") is not None:
        return "table5_10.csv", "agent"
    return "tournament.csv", "bot"


def imitators_below(g: GameResults, table: str,
                    who: str) -> tuple[list[bool], str, pd.DataFrame]:
    """Per imitator in a tournament table: whether it scored fewer points per game than its
    original; the text; the imitators' rows with ``ppg`` and their original's ``orig_ppg``."""
    t = table_of(g, table, who, "type", "imitates", "points", "games")
    t = t.assign(ppg=t["points"].astype(float) / t["games"].astype(float).where(t["games"] > 0),
                 se=[ppg_se(r) for r in t.to_dict("records")])
    orig = t[t["type"] == "original"].set_index(who)["ppg"]
    orig_se = t[t["type"] == "original"].set_index(who)["se"]
    imit = t[(t["type"] == "imitator") & t["imitates"].isin(orig.index)]
    if imit.empty:
        raise Missing(f"{g.game}: {table} has no imitator of an original")
    below = [float(r.ppg) < float(orig[r.imitates]) for r in imit.itertuples()]
    text = "; ".join(f"{getattr(r, who)} {fmt(float(r.ppg), 2)} vs {r.imitates} "
                     f"{fmt(float(orig[r.imitates]), 2)}" for r in imit.itertuples())
    return below, text, imit.assign(orig_ppg=[float(orig[x]) for x in imit["imitates"]],
                                    orig_se=[orig_se[x] for x in imit["imitates"]])


def se_pair(a: float | None, b: float | None) -> float | None:
    """The standard error of a difference of two independent estimates (None if either is
    unknown)."""
    if a is None or b is None or pd.isna(a) or pd.isna(b):
        return None
    return math.hypot(float(a), float(b))


def ppg_cmp(what: str, a: float, a_se: float | None, b: float, b_se: float | None) -> Cmp:
    """Points per game ``a`` > ``b`` by :data:`PPG_Z_TEST`."""
    return Cmp(what, a - b, z_p(a - b, se_pair(a_se, b_se)))


def below_originals(results: Results, game: str) -> Verdict:
    """Every imitator scores fewer points per game than its original."""
    g = game_of(results, game)
    below, text, imit = imitators_below(g, *tournament_of(g))
    who = tournament_of(g)[1]
    cmps = [ppg_cmp(f"{r.imitates} vs {getattr(r, who)}", float(r.orig_ppg), r.orig_se,
                    float(r.ppg), r.se) for r in imit.itertuples()]
    return tested(verdict(all(below), f"points per game: {text}; {sum(below)} of {len(below)} "
                          "below their original"), cmps, PPG_Z_TEST, int(imit["games"].min()))


def originals_ppg(g: GameResults, se: bool = False) -> dict[int, Any]:
    """The thesis's originals' tournament points per game, by thesis number (``se``: the pair
    of it and its standard error, :func:`ppg_se`)."""
    table, who = tournament_of(g)
    t = table_of(g, table, who, "type", "points", "games")
    t = t[t["type"] == "original"]
    out: dict[int, Any] = {}
    for r in t.to_dict("records"):
        n = g.thesis_no(str(r[who]))
        if n is not None:
            x = float(r["points"]) / max(float(r["games"]), 1.0)
            out[n] = (x, ppg_se(r)) if se else x
    return out


def originals_order(results: Results, game: str) -> Verdict:
    """The originals' tournament points per game fall with their thesis number (the ladder)."""
    g = game_of(results, game)
    rows = originals_ppg(g)
    if len(rows) < 2:
        raise Missing(f"{game}: fewer than two of the thesis's bots in the tournament")
    nos = sorted(rows)
    ok = all(rows[a] > rows[b] for a, b in zip(nos, nos[1:], strict=False))
    se = originals_ppg(g, se=True)
    cmps = [ppg_cmp(f"bot {a} vs bot {b}", rows[a], se[a][1], rows[b], se[b][1])
            for a, b in zip(nos, nos[1:], strict=False)]
    return tested(verdict(ok, "points per game: " + ", ".join(f"bot {n} {fmt(rows[n], 2)}"
                                                              for n in nos)),
                  cmps, PPG_Z_TEST, len(nos))


def imitators_trend(results: Results, game: str) -> Verdict:
    """Imitating a stronger bot gives a stronger imitator, as a trend: Kendall's tau between
    the originals' and their imitators' points per game is positive."""
    from scipy import stats

    g = game_of(results, game)
    _, text, imit = imitators_below(g, *tournament_of(g))
    if len(imit) < 2:
        raise Missing(f"{game}: the order needs two or more imitators in the tournament")
    kt = stats.kendalltau(imit["orig_ppg"], imit["ppg"])
    tau = float(kt.statistic)
    v = verdict(tau > 0, f"points per game, imitator vs original: {text}; Kendall tau = "
                f"{fmt(tau, 2)}")
    return trend_tested(v, tau, float(kt.pvalue), "Kendall tau (exact test over the imitators)",
                        len(imit))


def imitators_in_order(results: Results, game: str, by: str) -> Verdict:
    """The imitators rank exactly in the order ``by`` names: ``"ladder"``, their originals'
    thesis numbers 1 to 5; ``"originals"``, their originals' order in the same tournament.
    Strict: each imitator scores more points per game than the next (a tie is no order)."""
    g = game_of(results, game)
    table, who = tournament_of(g)
    _, _, imit = imitators_below(g, table, who)
    imit = imit.assign(no=[g.thesis_no(str(b)) for b in imit["imitates"]])
    imit = imit[imit["no"].notna()]
    if len(imit) < 2:
        raise Missing(f"{game}: the order needs two or more imitators of the thesis's bots in "
                      "the tournament")
    if by == "ladder":
        expected = imit.sort_values("no")
        what = "their originals' numbers, 1 to 5"
    else:
        expected = imit.sort_values("orig_ppg", ascending=False, kind="stable")
        what = ("their originals' order here: " + ", ".join(
            f"{r.imitates} {fmt(r.orig_ppg, 2)}" for r in expected.itertuples()))
    ppg = list(expected["ppg"].astype(float))
    ok = all(a > b for a, b in zip(ppg, ppg[1:], strict=False))
    rows = list(expected.itertuples())
    cmps = [ppg_cmp(f"{getattr(a, who)} vs {getattr(b, who)}", float(a.ppg), a.se,
                    float(b.ppg), b.se) for a, b in zip(rows, rows[1:], strict=False)]
    actual = imit.sort_values("ppg", ascending=False, kind="stable")
    v = tested(verdict(ok, "imitators by points per game: " + ", ".join(
        f"{getattr(r, who)} {fmt(r.ppg, 2)}" for r in actual.itertuples())
        + f"; the order stated: {what} (" + ", ".join(map(str, expected[who])) + ")"),
        cmps, PPG_Z_TEST, len(rows))
    if by != "originals" or v.decided is None:
        return v
    return reference_order_tested(v, [ppg_cmp(f"{a.imitates} vs {b.imitates}",
                                              float(a.orig_ppg), a.orig_se, float(b.orig_ppg),
                                              b.orig_se) for a, b in zip(rows, rows[1:],
                                                                        strict=False)])


def reference_order_tested(v: Verdict, ref: list[Cmp]) -> Verdict:
    """``v`` (the imitators in their originals' order in the same tournament) decided only
    where that reference order is itself significant: every adjacent pair of originals
    ordered at 5 % (:data:`PPG_Z_TEST`). Why: where two originals' order is inside the noise
    (Table 5.10's ddz2 1.915 against ddz1 1.851 points a game, p 0.06), an imitator order
    "against" it contradicts no established order, and one "with" it confirms none. On the
    thesis's printed tables, without outcome counts, the order is taken as printed."""
    undecided = [c for c in ref if not (c.diff > 0 and significant(c))]
    if not undecided:
        return replace(v, test=v.test + "; the originals' own order is significant at 5 % "
                       "for every adjacent pair (largest p " + fmt_p(ref) + ")")
    worst = max(undecided, key=lambda c: c.p if c.p is not None else 1.0)
    return replace(v, decided=False, test=v.test + "; but the originals' own order, the one "
                   f"stated, is not significant at 95 % ({worst.what}: p = "
                   + ("n/a" if worst.p is None else f"{worst.p:.3g}")
                   + "), so the imitators' order cannot be held against or for it")


def fmt_p(cmps: list[Cmp]) -> str:
    """The largest p of ``cmps`` (n/a where one has none)."""
    ps = [c.p for c in cmps]
    return "n/a" if not ps or None in ps else f"{max(p for p in ps if p is not None):.3g}"


def depth_follows_rank(g: GameResults, nos: Sequence[int] | None, code: str) -> Verdict:
    """The bots' search depths fall as their ladder ranks fall (``ladder.csv``: bot,
    ladder_rank, depth; inf where the thesis states no limit), over the thesis's bots ``nos``
    (None: every bot with a depth), tested by Kendall's tau-b between rank and depth (negative
    as stated; its exact two-sided p without ties, n bots: with 4 bots it cannot go below
    0.083). Our runs have no ladder of their own, so where there is no ``ladder.csv`` (only the
    thesis's printed tables have one) the depths are a reading of the code (``code``)."""
    from scipy import stats

    lad = g.get("ladder.csv")
    if lad is None:
        return not_a_result(code)
    lad = lad.assign(no=[g.thesis_no(str(b)) for b in lad["bot"]])
    lad = lad[lad["depth"].notna() & (lad["no"].isin(nos) if nos is not None
                                       else lad["no"].notna())].sort_values("ladder_rank")
    if len(lad) < 3:
        raise Missing(f"{g.game}: the depth trend needs 3 or more bots with a depth")
    depth = lad["depth"].astype(float)
    finite = depth.replace(math.inf, math.nan)
    big = (finite.max() if finite.notna().any() else 0.0) + 1.0  # unlimited: above every limit
    kt = stats.kendalltau(lad["ladder_rank"].astype(float), depth.replace(math.inf, big))
    tau, p = float(kt.statistic), float(kt.pvalue)
    v = verdict(tau < 0, "ladder rank: search depth " + ", ".join(
        f"{r.ladder_rank}: {'unlimited' if math.isinf(r.depth) else fmt(r.depth, 0)}"
        for r in lad.itertuples()) + f"; Kendall tau-b = {fmt(tau, 2)}")
    return trend_tested(v, tau, p, "Kendall tau-b (ladder rank, search depth; negative as "
                        "stated)", len(lad), positive=False)


# --- algorithm classes (Table 6.1, 4.6) --------------------------------------------------------
CLASS_ORDER = ("statistical sampling search", "deterministic search", "rule-based")
"""Table 6.1, hardest to easiest."""


def classes_apart(rows: pd.DataFrame, col: str, low: Sequence[str],
                  high: Sequence[str]) -> tuple[bool, bool, list[str]]:
    """Whether every bot of the classes ``low`` has a lower ``col`` than every bot of the
    classes ``high`` (bot by bot, not class means: the thesis orders bots), whether the CIs
    separate them too, and each pair out of that order (``"snk10 (...) 62.7 > snk04 (...)"``).
    ``rows``: ``bot``, ``class``, ``col`` and optionally its ``_lo``/``_hi`` columns."""
    lo_rows = [r for _, r in rows.iterrows() if r["class"] in low]
    hi_rows = [r for _, r in rows.iterrows() if r["class"] in high]
    bad = [f"{a['bot']} ({a['class']}) {fmt(float(a[col]))} >= {b['bot']} ({b['class']}) "
           f"{fmt(float(b[col]))}" for a in lo_rows for b in hi_rows
           if float(a[col]) >= float(b[col])]
    sig = all(lo_hi(a, col)[1] < lo_hi(b, col)[0] for a in lo_rows for b in hi_rows)
    return not bad, sig, bad


def classes_cmps(rows: pd.DataFrame, col: str, low: Sequence[str],
                 high: Sequence[str]) -> list[Cmp]:
    """Every pair of a bot of ``low`` and one of ``high``: ``high``'s ``col`` > ``low``'s,
    by :func:`ci_cmp` from the rows' CI columns."""
    recs = rows.to_dict("records")
    return [ci_cmp(f"{b['bot']} vs {a['bot']}", float(b[col]), lo_hi_raw(b, col),
                   float(a[col]), lo_hi_raw(a, col))
            for a in recs if a["class"] in low for b in recs if b["class"] in high]


def lo_hi_raw(row: Mapping[str, Any], col: str) -> tuple[float | None, float | None]:
    """``col``'s CI columns of ``row`` as they are (None where absent: spread unknown)."""
    return row.get(f"{col}_lo"), row.get(f"{col}_hi")


def class_order_by_bot(results: Results, games: tuple[str, ...], col: str = "S2") -> Verdict:
    """Within each game of ``games`` that has bots of two or more classes of
    :data:`CLASS_ORDER` (difficulty_by_class.csv): every bot of a harder class has a lower
    ``col`` than every bot of the next easier class present."""
    oks, sigs, parts, cmps, n = [], [], [], [], 0
    for game in games:
        if game not in results or results[game].get("difficulty_by_class.csv") is None:
            continue  # decided on the games that have the table (the thesis prints no Snake S2)
        d = table_of(results[game], "difficulty_by_class.csv", "bot", "class", col)
        present = [c for c in CLASS_ORDER if c in set(d["class"])]
        parts.append(f"{game}: " + " < ".join(
            f"{c} (" + ", ".join(f"{b} {fmt(float(v))}" for b, v in
                                 zip(d[d["class"] == c]["bot"], d[d["class"] == c][col],
                                     strict=True)) + ")" for c in present))
        if len(present) < 2:
            continue
        n += len(d)
        bad: list[str] = []
        for a, b in zip(present, present[1:], strict=False):
            cmps += classes_cmps(d, col, (a,), (b,))
            ok, sig, out = classes_apart(d, col, (a,), (b,))
            oks.append(ok)
            sigs.append(sig)
            bad += out
        if bad:
            parts[-1] += "; out of order: " + ", ".join(bad)
    if not oks:
        raise Missing("no game has bots of two or more of the classes " + ", ".join(CLASS_ORDER)
                      + (" (" + "; ".join(parts) + ")" if parts else ""))
    return tested(verdict(all(oks), f"{col} % per bot, hardest class first as the thesis orders "
                          "them: " + "; ".join(parts), significant=all(sigs)),
                  cmps, CI_Z_TEST, n)
