"""Claims the thesis makes about more than one game, tested one way wherever it makes them.

Reversi's and Doudizhu's chapters say the same things about their own tables (the imitators
beat the random baseline, S1 and S2 are not linearly related, each bot is closest to its own
imitator, the tournament ranks the originals by the ladder and each imitator below its
original), and chapter 6 and section 4.6 order the same algorithm classes. Each such claim is
one function here, so that a criterion cannot drift between the games or between a chapter's
check and the summary's.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np
import pandas as pd

from ime.thesis.checks.core import (
    Missing,
    Results,
    Verdict,
    accuracy_by_bot,
    ci_text,
    fmt,
    game_of,
    label,
    lo_hi,
    pair,
    table_of,
    verdict,
)
from ime.thesis.results import GameResults


# --- accuracy ----------------------------------------------------------------------------------
def beats_baseline(results: Results, game: str, nets: Sequence[str] | None = None) -> Verdict:
    """Every bot's validation accuracy is above its random-choice baseline, for each net of
    ``nets`` (the evaluation net when None; ``"mean"``: the nets' mean); significant when every
    CI's bottom is above the baseline too."""
    g = game_of(results, game)
    nets = list(nets) if nets else [g.eval_net]
    ok, sig, parts = True, True, []
    for net in nets:
        acc = accuracy_by_bot(g, net)
        ok &= bool((acc["val_acc"] > acc["baseline"]).all())
        sig &= bool((acc["val_acc_lo"] > acc["baseline"]).all())
        nums = "; ".join(f"{label(g, r.bot)} {ci_text(r._asdict(), 'val_acc')} vs "
                         f"{fmt(r.baseline)}" for r in acc.itertuples())
        which = "every net's mean" if net == "mean" else net
        parts.append(f"val_acc ({which}) vs random baseline, %: {nums}")
    return verdict(ok, " | ".join(parts), significant=sig)


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


def hardest(results: Results, game: str, thesis_no: int, metrics: tuple[str, ...]) -> Verdict:
    """The thesis's bot ``thesis_no`` has the lowest imitator similarity on every metric."""
    g = game_of(results, game)
    t = table_of(g, "s1s2_imitator.csv", "bot", *metrics)
    bot = g.bot_of(thesis_no)
    if bot is None or bot not in set(t["bot"]) or len(t) < 2:
        raise Missing(f"{game}: bot {thesis_no} and another target are needed in "
                      "s1s2_imitator.csv")
    rows = t.set_index("bot")
    oks, sigs, parts = [], [], []
    for m in metrics:
        vals = rows[m].astype(float).to_dict()
        lo = rows.get(f"{m}_lo", rows[m]).astype(float).to_dict()
        hi = rows.get(f"{m}_hi", rows[m]).astype(float).to_dict()
        ok, sig = ordered(vals, lo, hi, bot)
        oks.append(ok)
        sigs.append(sig)
        parts.append(f"{m}: " + ", ".join(f"{b} {ci_text(r, m)}"
                                          for b, r in rows.to_dict("index").items()))
    return verdict(all(oks), f"{label(g, bot)} lowest? " + "; ".join(parts),
                   significant=all(sigs))


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


def imitator_closest(results: Results, game: str, metric: str,
                     exclude: tuple[int, ...] = ()) -> Verdict:
    """Every bot (but ``exclude``) is closer to its imitator than to any other original."""
    ok, text = closest(results, game, metric, exclude)
    return verdict(all(ok), text)


def not_linear(results: Results, game: str) -> Verdict:
    """Pearson r^2 of the imitators' S1 and S2 over ``game``'s bots is under 0.5."""
    g = game_of(results, game)
    t = table_of(g, "s1s2_imitator.csv", "bot", "S1", "S2")
    if len(t) < 3:
        raise Missing(f"{game}: {len(t)} bots; a linear fit needs 3 or more")
    r = float(np.corrcoef(t["S1"].astype(float), t["S2"].astype(float))[0, 1])
    return verdict(r * r < 0.5,
                   f"Pearson r(S1, S2) = {r:.2f} (r^2 = {r * r:.2f}) over {len(t)} bots: "
                   + "; ".join(f"{b} S1 {fmt(float(s1))} S2 {fmt(float(s2))}"
                               for b, s1, s2 in zip(t["bot"], t["S1"], t["S2"], strict=True)))


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
    t = t.assign(ppg=t["points"].astype(float) / t["games"].astype(float).where(t["games"] > 0))
    orig = t[t["type"] == "original"].set_index(who)["ppg"]
    imit = t[(t["type"] == "imitator") & t["imitates"].isin(orig.index)]
    if imit.empty:
        raise Missing(f"{g.game}: {table} has no imitator of an original")
    below = [float(r.ppg) < float(orig[r.imitates]) for r in imit.itertuples()]
    text = "; ".join(f"{getattr(r, who)} {fmt(float(r.ppg), 2)} vs {r.imitates} "
                     f"{fmt(float(orig[r.imitates]), 2)}" for r in imit.itertuples())
    return below, text, imit.assign(orig_ppg=[float(orig[x]) for x in imit["imitates"]])


def below_originals(results: Results, game: str) -> Verdict:
    """Every imitator scores fewer points per game than its original."""
    g = game_of(results, game)
    below, text, _ = imitators_below(g, *tournament_of(g))
    return verdict(all(below),
                   f"points per game: {text}; {sum(below)} of {len(below)} below their original")


def originals_ppg(g: GameResults) -> dict[int, float]:
    """The thesis's originals' tournament points per game, by thesis number."""
    table, who = tournament_of(g)
    t = table_of(g, table, who, "type", "points", "games")
    t = t[t["type"] == "original"]
    return {g.thesis_no(str(r[who])): float(r["points"]) / max(float(r["games"]), 1.0)
            for _, r in t.iterrows() if g.thesis_no(str(r[who])) is not None}


def originals_order(results: Results, game: str) -> Verdict:
    """The originals' tournament points per game fall with their thesis number (the ladder)."""
    g = game_of(results, game)
    rows = originals_ppg(g)
    if len(rows) < 2:
        raise Missing(f"{game}: fewer than two of the thesis's bots in the tournament")
    nos = sorted(rows)
    ok = all(rows[a] > rows[b] for a, b in zip(nos, nos[1:], strict=False))
    return verdict(ok, "points per game: " + ", ".join(f"bot {n} {rows[n]:.2f}" for n in nos))


def imitators_trend(results: Results, game: str) -> Verdict:
    """Imitating a stronger bot gives a stronger imitator, as a trend: Kendall's tau between
    the originals' and their imitators' points per game is positive."""
    from scipy import stats

    g = game_of(results, game)
    _, text, imit = imitators_below(g, *tournament_of(g))
    if len(imit) < 2:
        raise Missing(f"{game}: the order needs two or more imitators in the tournament")
    tau = float(stats.kendalltau(imit["orig_ppg"], imit["ppg"]).statistic)
    return verdict(tau > 0,
                   f"points per game, imitator vs original: {text}; Kendall tau = {tau:.2f}")


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
            f"{r.imitates} {r.orig_ppg:.2f}" for r in expected.itertuples()))
    ppg = list(expected["ppg"].astype(float))
    ok = all(a > b for a, b in zip(ppg, ppg[1:], strict=False))
    actual = imit.sort_values("ppg", ascending=False, kind="stable")
    return verdict(ok, "imitators by points per game: " + ", ".join(
        f"{getattr(r, who)} {r.ppg:.2f}" for r in actual.itertuples())
        + f"; the order stated: {what} (" + ", ".join(map(str, expected[who])) + ")")


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


def class_order_by_bot(results: Results, games: tuple[str, ...], col: str = "S2") -> Verdict:
    """Within each game of ``games`` that has bots of two or more classes of
    :data:`CLASS_ORDER` (difficulty_by_class.csv): every bot of a harder class has a lower
    ``col`` than every bot of the next easier class present."""
    oks, sigs, parts = [], [], []
    for game in games:
        if game not in results:
            continue
        d = table_of(results[game], "difficulty_by_class.csv", "bot", "class", col)
        present = [c for c in CLASS_ORDER if c in set(d["class"])]
        parts.append(f"{game}: " + " < ".join(
            f"{c} (" + ", ".join(f"{b} {fmt(float(v))}" for b, v in
                                 zip(d[d["class"] == c]["bot"], d[d["class"] == c][col],
                                     strict=True)) + ")" for c in present))
        if len(present) < 2:
            continue
        bad: list[str] = []
        for a, b in zip(present, present[1:], strict=False):
            ok, sig, out = classes_apart(d, col, (a,), (b,))
            oks.append(ok)
            sigs.append(sig)
            bad += out
        if bad:
            parts[-1] += "; out of order: " + ", ".join(bad)
    if not oks:
        raise Missing("no game has bots of two or more of the classes " + ", ".join(CLASS_ORDER)
                      + (" (" + "; ".join(parts) + ")" if parts else ""))
    return verdict(all(oks), f"{col} % per bot, hardest class first as the thesis orders them: "
                   + "; ".join(parts), significant=all(sigs))
