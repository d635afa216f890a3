"""The thesis's stated conclusions as named checks over our result tables.

Each conclusion of ``config/thesis/conclusions.csv`` (its id, the thesis section, the statement)
has one check here, registered under the same id with :func:`check`. A check reads only the
tables of :class:`~ime.thesis.results.GameResults` and returns a :class:`Verdict`: the conclusion
**holds**, **does not hold**, or **cannot be tested** on these results (a table or a bot it needs
is missing, too few bots), always with the numbers, and their CIs, it was decided on. Nothing
here or in the docs states a verdict by hand: the reproduction report prints what these return.

Where the thesis states an ordering ("the MCTS bot is hardest"), a check decides on the point
estimates and says in ``significant`` whether the CIs also separate them, so that a verdict that
rests on overlapping intervals is visible as such.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd

from ime.thesis.results import GameResults

HOLDS = "holds"
FAILS = "does not hold"
UNTESTABLE = "cannot be tested"
STATUSES = (HOLDS, FAILS, UNTESTABLE)


@dataclass(frozen=True)
class Verdict:
    """A check's outcome: the status, the numbers behind it (one line, CIs included), and
    whether the CIs back the ordering the conclusion states (None where no ordering)."""

    status: str
    numbers: str
    significant: bool | None = None

    def __post_init__(self) -> None:
        if self.status not in STATUSES:
            raise ValueError(f"unknown verdict status {self.status!r}: one of {STATUSES}")


Results = Mapping[str, GameResults]
"""The games' results a check may read, by game name."""
CheckFn = Callable[[Results], Verdict]
CHECKS: dict[str, CheckFn] = {}


def check(cid: str) -> Callable[[CheckFn], CheckFn]:
    """Register ``fn`` as the check of conclusion ``cid`` (an id of conclusions.csv)."""

    def deco(fn: CheckFn) -> CheckFn:
        if cid in CHECKS:
            raise ValueError(f"two checks for conclusion {cid!r}")
        CHECKS[cid] = fn
        return fn

    return deco


def run_check(cid: str, results: Results) -> Verdict:
    """The verdict of conclusion ``cid``; a game the check needs that is absent from
    ``results`` makes it untestable (a :class:`Missing` raised inside the check)."""
    try:
        return CHECKS[cid](results)
    except Missing as e:
        return Verdict(UNTESTABLE, str(e))


class Missing(Exception):
    """A table, game or bot a check needs is not in the results."""


# --- helpers --------------------------------------------------------------------------------
def _game(results: Results, game: str) -> GameResults:
    if game not in results:
        raise Missing(f"no {game} results")
    return results[game]


def _table(g: GameResults, name: str, *cols: str) -> pd.DataFrame:
    df = g.get(name)
    if df is None:
        raise Missing(f"{g.game}: no {name}")
    missing = [c for c in cols if c not in df.columns]
    if missing:
        raise Missing(f"{g.game}: {name} has no column(s) {missing}")
    return df


def _fmt(x: float, nd: int = 1) -> str:
    return "nan" if x is None or (isinstance(x, float) and math.isnan(x)) else f"{x:.{nd}f}"


def _ci(row: Mapping[str, Any], col: str) -> str:
    """``x [lo, hi]`` of an estimate with CI columns (just ``x`` without them)."""
    lo, hi = row.get(f"{col}_lo"), row.get(f"{col}_hi")
    if lo is None or hi is None or pd.isna(lo) or pd.isna(hi):
        return _fmt(float(row[col]))
    return f"{_fmt(float(row[col]))} [{_fmt(float(lo))}, {_fmt(float(hi))}]"


def _label(g: GameResults, bot: str) -> str:
    n = g.thesis_no(bot)
    return f"{bot} (bot {n})" if n is not None else bot


def accuracy_by_bot(g: GameResults, net: str | None = None) -> pd.DataFrame:
    """Per bot: validation accuracy, its 95 % CI over folds (t interval), the baseline and the
    margin, for ``net`` (the evaluation net by default; ``"mean"``: every net's mean, as Fig
    2.7 averages Snake's five nets)."""
    from scipy import stats

    acc = _table(g, "imitation_accuracy.csv", "bot", "net", "baseline", "val_acc_mean")
    net = net or g.eval_net
    if net == "mean":
        rows = acc.groupby("bot", sort=False).agg(
            baseline=("baseline", "first"), val_acc=("val_acc_mean", "mean"),
            sd=("val_acc_mean", "std"), n=("val_acc_mean", "size")).reset_index()
    else:
        rows = acc[acc["net"] == net]
        if rows.empty:
            raise Missing(f"{g.game}: no {net} rows in imitation_accuracy.csv")
        rows = pd.DataFrame({"bot": rows["bot"], "baseline": rows["baseline"],
                             "val_acc": rows["val_acc_mean"],
                             "sd": rows.get("val_acc_std", np.nan),
                             "n": rows.get("folds", np.nan)})
    half = []
    for sd, n in zip(rows["sd"], rows["n"], strict=True):
        ok = pd.notna(sd) and pd.notna(n) and n > 1
        half.append(float(stats.t.ppf(0.975, n - 1) * sd / math.sqrt(n)) if ok else 0.0)
    out = rows[["bot", "baseline", "val_acc"]].reset_index(drop=True).astype(
        {"baseline": float, "val_acc": float})
    out["val_acc_lo"] = (out["val_acc"] - half).clip(lower=0.0)
    out["val_acc_hi"] = (out["val_acc"] + half).clip(upper=100.0)
    out["margin"] = out["val_acc"] - out["baseline"]
    return out


def game_accuracy(g: GameResults) -> pd.DataFrame:
    """:func:`accuracy_by_bot` as the thesis reads a game: Snake's mean over its five nets (Fig
    2.7), the evaluation net's elsewhere (Tables 4.4, 5.6)."""
    return accuracy_by_bot(g, "mean" if g.game == "snake" else None)


def _beats_baseline(results: Results, game: str, net: str | None = None) -> Verdict:
    g = _game(results, game)
    acc = accuracy_by_bot(g, net)
    above = acc["val_acc_lo"] > acc["baseline"]
    nums = "; ".join(f"{_label(g, r.bot)} {_ci(r._asdict(), 'val_acc')} vs {_fmt(r.baseline)}"
                     for r in acc.itertuples())
    which = "every net's mean" if (net or g.eval_net) == "mean" else (net or g.eval_net)
    status = HOLDS if bool((acc["val_acc"] > acc["baseline"]).all()) else FAILS
    return Verdict(status, f"val_acc ({which}) vs random baseline, %: {nums}",
                   significant=bool(above.all()))


def _ordered(values: Mapping[str, float], lows: Mapping[str, float],
             highs: Mapping[str, float], lowest: str) -> tuple[bool, bool]:
    """Whether ``lowest`` has the smallest value, and whether its CI's top is below every other
    CI's bottom."""
    others = [k for k in values if k != lowest]
    point = all(values[lowest] < values[k] for k in others)
    sig = all(highs[lowest] < lows[k] for k in others)
    return point, sig


def _closest(results: Results, game: str, metric: str,
             exclude: tuple[int, ...] = ()) -> tuple[list[bool], str]:
    """Per bot (leaving out the thesis numbers in ``exclude``): whether its imitator (the
    ``IMBOT`` column of the pairwise table) is more similar to it than any other original."""
    g = _game(results, game)
    name = f"{metric.lower()}_pairwise.csv"
    tab = _table(g, name, "bot", "IMBOT").set_index("bot")
    bots = [b for b in tab.index if g.thesis_no(b) not in exclude]
    if len(tab.index) < 2 or not bots:
        raise Missing(f"{game}: {name} needs at least two bots")
    parts, ok = [], []
    for b in bots:
        others = tab.loc[b, [c for c in tab.index if c != b]].astype(float)
        best = float(others.max())
        ok.append(float(tab.loc[b, "IMBOT"]) > best)
        parts.append(f"{_label(g, b)} imitator {_fmt(float(tab.loc[b, 'IMBOT']))} vs closest "
                     f"original {others.idxmax()} {_fmt(best)}")
    return ok, f"{metric} %, {sum(ok)} of {len(ok)} bots: " + "; ".join(parts)


def _imitator_closest(results: Results, game: str, metric: str,
                      exclude: tuple[int, ...] = ()) -> Verdict:
    """Every bot (but ``exclude``) is closer to its imitator than to any other original."""
    ok, text = _closest(results, game, metric, exclude)
    return Verdict(HOLDS if all(ok) else FAILS, text)


def _imitators_below(g: GameResults, table: str,
                     who: str) -> tuple[list[bool], str, pd.DataFrame]:
    """Per imitator in a tournament table: whether it scored fewer points per game than its
    original."""
    t = _table(g, table, who, "type", "imitates", "points", "games")
    t = t.assign(ppg=t["points"].astype(float) / t["games"].astype(float).where(t["games"] > 0))
    orig = t[t["type"] == "original"].set_index(who)["ppg"]
    imit = t[(t["type"] == "imitator") & t["imitates"].isin(orig.index)]
    if imit.empty:
        raise Missing(f"{g.game}: {table} has no imitator of an original")
    below = [float(r.ppg) < float(orig[r.imitates]) for r in imit.itertuples()]
    text = "; ".join(f"{getattr(r, who)} {_fmt(float(r.ppg), 2)} vs {r.imitates} "
                     f"{_fmt(float(orig[r.imitates]), 2)}" for r in imit.itertuples())
    return below, text, imit.assign(orig_ppg=[float(orig[x]) for x in imit["imitates"]])


# --- 2.1.3 Snake ------------------------------------------------------------------------------
@check("snake_plateau_1000")
def snake_plateau_1000(results: Results) -> Verdict:
    """Fig 2.6: validation accuracy stops improving at about 1000 matches. Decided on a dataset
    -size sweep table (``sweep`` of the Snake results: x = matches, ``val_acc_mean`` per bot):
    the mean gain from 1000 matches to the largest size is under a third of the gain from the
    smallest size to 1000, and under 2 points."""
    g = _game(results, "snake")
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
    holds = after < 2.0 and after < before / 3
    return Verdict(HOLDS if holds else FAILS,
                   "mean val_acc % by matches: " + ", ".join(
                       f"{int(k)}: {_fmt(float(v))}" for k, v in curve.items())
                   + f"; gain {xs[0]}->1000 {_fmt(before)}, 1000->{xs[-1]} {_fmt(after)}")


def _spearman(x: list[float], y: list[float]) -> tuple[float, float]:
    from scipy import stats

    r = stats.spearmanr(x, y)
    return float(r.statistic), float(r.pvalue)


@check("snake_rank_harder")
def snake_rank_harder(results: Results) -> Verdict:
    """Fig 2.7: the higher a bot stands on the ladder, the harder it is to imitate: Spearman's
    rho between ladder rank (1 = top) and accuracy above baseline is positive, p < 0.05."""
    g = _game(results, "snake")
    acc = accuracy_by_bot(g, "mean")
    ranks = {b: g.bots[b].ladder_rank for b in acc["bot"] if b in g.bots}
    acc = acc[acc["bot"].map(lambda b: ranks.get(b) is not None)]
    if len(acc) < 5:
        raise Missing(f"snake: {len(acc)} bots with a ladder rank; the trend needs 5 or more")
    rho, p = _spearman([float(ranks[b]) for b in acc["bot"]], list(acc["margin"]))
    holds = rho > 0 and p < 0.05
    return Verdict(HOLDS if holds else FAILS,
                   f"Spearman rho(ladder rank, val_acc - baseline) = {rho:.2f}, p = {p:.3g}, "
                   f"n = {len(acc)} bots", significant=holds)


@check("snake_split_families")
def snake_split_families(results: Results) -> Verdict:
    """2.1.3: the harder half holds the statistical-sampling bots (MCTS, Nash-equilibrium MC),
    the easier half the deterministic ones (DFS, expert systems, alpha-beta): over the bots of
    those classes, more than half of each class sits in its half."""
    g = _game(results, "snake")
    sp = _table(g, "split_vs_thesis.csv", "bot", "group")
    sampling = [b for b in sp["bot"] if b in g.bots and g.bots[b].cls == "statistical sampling "
                "search"]
    determ = [b for b in sp["bot"] if b in g.bots and g.bots[b].cls in ("deterministic search",
                                                                        "rule-based")]
    if not sampling or not determ:
        raise Missing("snake: the split needs bots of both the sampling and deterministic "
                      "classes")
    group = dict(zip(sp["bot"], sp["group"], strict=True))
    hs = sum(group[b] == "harder" for b in sampling)
    ed = sum(group[b] == "easier" for b in determ)
    agree = ""
    if "thesis_group" in sp.columns:
        known = sp[sp["thesis_group"].notna()]
        agree = (f"; our split agrees with the thesis's on "
                 f"{int((known['group'] == known['thesis_group']).sum())} of {len(known)} bots")
    holds = hs > len(sampling) / 2 and ed > len(determ) / 2
    return Verdict(HOLDS if holds else FAILS,
                   f"sampling-search bots in the harder half: {hs} of {len(sampling)}; "
                   f"deterministic/rule bots in the easier half: {ed} of {len(determ)}{agree}")


# --- chapter 4 Reversi ------------------------------------------------------------------------
def _net_best(results: Results, game: str, best: str) -> Verdict:
    """Net ``best`` has the highest mean validation accuracy over the bots, and the highest for
    most bots."""
    g = _game(results, game)
    acc = _table(g, "imitation_accuracy.csv", "bot", "net", "val_acc_mean")
    wide = acc.pivot_table(index="bot", columns="net", values="val_acc_mean")
    if best not in wide.columns or len(wide.columns) < 2:
        raise Missing(f"{game}: imitation_accuracy.csv needs {best} and another net")
    top = int((wide.idxmax(axis=1) == best).sum())
    means = wide.mean()
    holds = means.idxmax() == best and top > len(wide) / 2
    return Verdict(HOLDS if holds else FAILS,
                   "mean val_acc % over bots: " + ", ".join(
                       f"{n} {_fmt(float(v))}" for n, v in means.items())
                   + f"; {best} best for {top} of {len(wide)} bots")


@check("reversi_conv_best")
def reversi_conv_best(results: Results) -> Verdict:
    """Table 4.4: CONV imitates best."""
    return _net_best(results, "reversi", "conv")


@check("reversi_beats_baseline")
def reversi_beats_baseline(results: Results) -> Verdict:
    """Table 4.4: every imitator (CONV) is far above the random baseline."""
    return _beats_baseline(results, "reversi")


@check("reversi_s1_s2_not_linear")
def reversi_s1_s2_not_linear(results: Results) -> Verdict:
    """4.4: S1 and S2 are not linearly related: over the bots, a straight line explains less
    than half of S2's variance from S1 (Pearson r^2 < 0.5)."""
    return _not_linear(results, "reversi")


def _hardest(results: Results, game: str, thesis_no: int, metrics: tuple[str, ...]) -> Verdict:
    """The thesis's bot ``thesis_no`` has the lowest imitator similarity on every metric."""
    g = _game(results, game)
    t = _table(g, "s1s2_imitator.csv", "bot", *metrics)
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
        ok, sig = _ordered(vals, lo, hi, bot)
        oks.append(ok)
        sigs.append(sig)
        parts.append(f"{m}: " + ", ".join(f"{b} {_ci(r, m)}"
                                          for b, r in rows.to_dict("index").items()))
    return Verdict(HOLDS if all(oks) else FAILS, f"{_label(g, bot)} lowest? " + "; ".join(parts),
                   significant=all(sigs))


@check("reversi_mcts_hardest")
def reversi_mcts_hardest(results: Results) -> Verdict:
    """4.4: the MCTS bot (3) is the hardest to imitate: the lowest S1 and S2 of Table 4.5."""
    return _hardest(results, "reversi", 3, ("S1", "S2"))


@check("reversi_imitator_closest")
def reversi_imitator_closest(results: Results) -> Verdict:
    """Table 4.7: by S2, bots 1, 2, 4 and 5 are each closer to their own imitator than to any
    other original (the thesis names bot 3 as the exception)."""
    return _imitator_closest(results, "reversi", "S2", exclude=(3,))


@check("reversi_imitators_rank_order")
def reversi_imitators_rank_order(results: Results) -> Verdict:
    """Table 4.8: the imitators' ranking follows their originals' (Kendall's tau between the
    originals' and the imitators' points per game is positive)."""
    return _imitators_follow(results, "reversi")


CORNERS = {0, 7, 56, 63}
EDGES = {i for i in range(64) if i // 8 in (0, 7) or i % 8 in (0, 7)}


@check("reversi_bot5_corners")
def reversi_bot5_corners(results: Results) -> Verdict:
    """Fig 4.2: bot 5 plays the corners and edges more often than bot 1 (share of its moves on
    the board's rim; a two-proportion z-test says whether the difference is significant)."""
    g = _game(results, "reversi")
    mc = _table(g, "move_counts.csv", "bot", "square", "count")
    b1, b5 = g.bot_of(1), g.bot_of(5)
    if b1 is None or b5 is None or not {b1, b5} <= set(mc["bot"]):
        raise Missing("reversi: bots 1 and 5 are needed in move_counts.csv")

    def share(bot: str) -> tuple[float, int]:
        m = mc[(mc["bot"] == bot) & (mc["square"].astype(str).str.isdigit())]
        n = int(m["count"].sum())
        k = int(m[m["square"].astype(int).isin(EDGES)]["count"].sum())
        return (k / n if n else float("nan")), n

    (p1, n1), (p5, n5) = share(b1), share(b5)
    pooled = (p1 * n1 + p5 * n5) / (n1 + n5)
    se = math.sqrt(pooled * (1 - pooled) * (1 / n1 + 1 / n5)) if 0 < pooled < 1 else 0.0
    z = (p5 - p1) / se if se else 0.0
    return Verdict(HOLDS if p5 > p1 else FAILS,
                   f"share of moves on corners and edges: {_label(g, b5)} {100 * p5:.1f} % of "
                   f"{n5}, {_label(g, b1)} {100 * p1:.1f} % of {n1}; z = {z:.1f}",
                   significant=z > 1.96)


@check("reversi_cluster_mcts_apart")
def reversi_cluster_mcts_apart(results: Results) -> Verdict:
    """4.5.1: clustered by imitation similarity, the MCTS bot (3) stands apart: its cluster
    holds no other bot, and the deterministic-search bots share one."""
    g = _game(results, "reversi")
    cl = _table(g, "clusters.csv", "bot", "cluster_imitation")
    b3 = g.bot_of(3)
    if b3 is None or b3 not in set(cl["bot"]) or len(cl) < 3:
        raise Missing("reversi: bot 3 and two more targets are needed in clusters.csv")
    c = dict(zip(cl["bot"], cl["cluster_imitation"], strict=True))
    rest = {c[b] for b in c if b != b3}
    holds = c[b3] not in rest and len(rest) == 1
    return Verdict(HOLDS if holds else FAILS,
                   "clusters: " + ", ".join(f"{b} {c[b]}" for b in c))


# --- chapter 5 Doudizhu -----------------------------------------------------------------------
@check("ddz_params_matter")
def ddz_params_matter(results: Results) -> Verdict:
    """5.6: with the same structure, too few parameters keep training from converging: for
    most bots the smaller CONV-2 group's training accuracy is more than 10 points below
    CONV-1's."""
    g = _game(results, "doudizhu")
    acc = _table(g, "imitation_accuracy.csv", "bot", "net", "train_acc_mean")
    wide = acc.pivot_table(index="bot", columns="net", values="train_acc_mean")
    if not {"ddz_conv1", "ddz_conv2"} <= set(wide.columns):
        raise Missing("doudizhu: imitation_accuracy.csv needs ddz_conv1 and ddz_conv2")
    gap = wide["ddz_conv1"] - wide["ddz_conv2"]
    under = int((gap > 10).sum())
    return Verdict(HOLDS if under > len(gap) / 2 else FAILS,
                   "train_acc % CONV-1 vs CONV-2: " + "; ".join(
                       f"{b} {_fmt(float(wide.loc[b, 'ddz_conv1']))} vs "
                       f"{_fmt(float(wide.loc[b, 'ddz_conv2']))}" for b in wide.index)
                   + f"; CONV-2 >10 points below for {under} of {len(gap)} bots")


@check("ddz_beats_baseline")
def ddz_beats_baseline(results: Results) -> Verdict:
    """Table 5.6: the CONV-1 imitators are above the random baseline."""
    return _beats_baseline(results, "doudizhu")


@check("ddz_rule_bot_easiest")
def ddz_rule_bot_easiest(results: Results) -> Verdict:
    """Table 5.7: the simple rule bot (5) is the easiest to imitate: the highest S2."""
    g = _game(results, "doudizhu")
    t = _table(g, "s1s2_imitator.csv", "bot", "S2")
    b5 = g.bot_of(5)
    if b5 is None or b5 not in set(t["bot"]) or len(t) < 2:
        raise Missing("doudizhu: bot 5 and another target are needed in s1s2_imitator.csv")
    rows = t.set_index("bot")
    neg = (-rows["S2"].astype(float)).to_dict()
    lo = (-rows.get("S2_hi", rows["S2"]).astype(float)).to_dict()
    hi = (-rows.get("S2_lo", rows["S2"]).astype(float)).to_dict()
    ok, sig = _ordered(neg, lo, hi, b5)
    return Verdict(HOLDS if ok else FAILS,
                   "S2 %: " + ", ".join(f"{b} {_ci(r, 'S2')}" for b, r in
                                        rows.to_dict("index").items()), significant=sig)


@check("ddz_imitator_closest")
def ddz_imitator_closest(results: Results) -> Verdict:
    """Tables 5.8/5.9: by both S1 and S2, every original is closer to its own imitator than to
    any other original."""
    a = _imitator_closest(results, "doudizhu", "S1")
    b = _imitator_closest(results, "doudizhu", "S2")
    both = HOLDS if a.status == HOLDS and b.status == HOLDS else FAILS
    return Verdict(both, f"{a.numbers} | {b.numbers}")


@check("ddz_imitators_below_originals")
def ddz_imitators_below_originals(results: Results) -> Verdict:
    """Table 5.10: every imitator scores fewer points per game than its original."""
    g = _game(results, "doudizhu")
    below, text, _ = _imitators_below(g, "table5_10.csv", "agent")
    return Verdict(HOLDS if all(below) else FAILS,
                   f"points per game: {text}; {sum(below)} of {len(below)} below")


# --- chapter 6 --------------------------------------------------------------------------------
CLASS_ORDER = ("statistical sampling search", "deterministic search", "rule-based")
"""Table 6.1, hardest to easiest."""


def class_means(results: Results, games: tuple[str, ...]) -> pd.DataFrame:
    """Per (game, class) of :data:`CLASS_ORDER`: bots, mean S2 (difficulty_by_class.csv) and
    mean validation accuracy above baseline of the evaluation net."""
    rows = []
    for game in games:
        if game not in results:
            continue
        g = results[game]
        d = _table(g, "difficulty_by_class.csv", "bot", "class", "S2")
        try:
            acc = game_accuracy(g).set_index("bot")
        except Missing:
            acc = pd.DataFrame(columns=["margin"])
        for cls, grp in d.groupby("class", sort=False):
            if cls not in CLASS_ORDER:
                continue
            m = [float(acc.loc[b, "margin"]) for b in grp["bot"] if b in acc.index]
            rows.append({"game": game, "class": cls, "bots": len(grp),
                         "S2": float(grp["S2"].astype(float).mean()),
                         "margin": float(np.mean(m)) if m else float("nan")})
    return pd.DataFrame(rows, columns=["game", "class", "bots", "S2", "margin"])


def _class_order(results: Results, games: tuple[str, ...], col: str) -> Verdict:
    cm = class_means(results, games)
    if cm.empty:
        raise Missing(f"no difficulty_by_class.csv for {', '.join(games)}")
    verdicts, parts = [], []
    for game, grp in cm.groupby("game", sort=False):
        by = grp.set_index("class")[col]
        present = [c for c in CLASS_ORDER if c in by.index and pd.notna(by[c])]
        bots = grp.set_index("class")["bots"]
        parts.append(f"{game}: " + " < ".join(f"{c} {_fmt(float(by[c]))} ({int(bots[c])} bots)"
                                             for c in present))
        if len(present) >= 2:
            verdicts.append(all(by[a] < by[b] for a, b in zip(present, present[1:],
                                                              strict=False)))
    if not verdicts:
        raise Missing("no game has bots of two or more of the classes " + ", ".join(CLASS_ORDER)
                      + " (" + "; ".join(parts) + ")")
    what = "mean S2 %" if col == "S2" else "mean val_acc above baseline, points"
    return Verdict(HOLDS if all(verdicts) else FAILS,
                   f"{what}, hardest first as the thesis orders them: " + "; ".join(parts))


@check("difficulty_by_class")
def difficulty_by_class(results: Results) -> Verdict:
    """Table 6.1: imitation difficulty by algorithm class, by endgame similarity S2:
    statistical sampling search hardest, then deterministic search, rule-based easiest, within
    each game that has two or more of the classes."""
    return _class_order(results, ("reversi", "doudizhu", "snake"), "S2")


# --- helpers for the checks below ------------------------------------------------------------
def _numbered(g: GameResults, table: str, *cols: str, key: str = "bot") -> dict[int, Any]:
    """The rows of ``table`` by the thesis's bot number (bots the thesis has only)."""
    t = _table(g, table, key, *cols)
    out = {}
    for _, r in t.iterrows():
        n = g.thesis_no(str(r[key]))
        if n is not None:
            out[n] = r
    return out


def _need(rows: Mapping[int, Any], nos: tuple[int, ...], what: str) -> None:
    missing = [n for n in nos if n not in rows]
    if missing:
        raise Missing(f"{what}: bot(s) {missing} not in this run")


def _pair(g: GameResults, metric: str, a: int, b: int) -> float:
    """S1 or S2 (%) between the thesis's originals ``a`` and ``b`` (similarity_pairs.csv)."""
    t = _table(g, "similarity_pairs.csv", "a", "b", metric.lower())
    ba, bb = g.bot_of(a), g.bot_of(b)
    hit = t[((t["a"] == ba) & (t["b"] == bb)) | ((t["a"] == bb) & (t["b"] == ba))]
    if ba is None or bb is None or hit.empty:
        raise Missing(f"{g.game}: no {metric} between bots {a} and {b}")
    return float(hit[metric.lower()].iloc[0])


def _s1s2(g: GameResults, nos: tuple[int, ...]) -> dict[int, Any]:
    rows = _numbered(g, "s1s2_imitator.csv", "S1", "S2")
    _need(rows, nos, f"{g.game} s1s2_imitator.csv")
    return rows


def _show(rows: Mapping[int, Any], col: str, nos: tuple[int, ...] | None = None) -> str:
    nos = nos or tuple(sorted(rows))
    return ", ".join(f"bot {n} {_ci(rows[n], col)}" for n in nos)


def _not_a_result(reason: str) -> Verdict:
    """A statement about the thesis's bots' source code or a hedged cause: no result table of
    an imitation run can decide it."""
    return Verdict(UNTESTABLE, reason)


def _tournament(g: GameResults) -> tuple[str, str]:
    """The tournament table the conclusions read and its agent column: Doudizhu's Table 5.10
    (the thesis-protocol games) where present, else the generic ``tournament.csv``."""
    if g.game == "doudizhu" and g.get("table5_10.csv") is not None:
        return "table5_10.csv", "agent"
    return "tournament.csv", "bot"


def _originals_order(results: Results, game: str) -> Verdict:
    """The originals' tournament points per game fall with their thesis number (the ladder)."""
    g = _game(results, game)
    table, who = _tournament(g)
    t = _table(g, table, who, "type", "points", "games")
    t = t[t["type"] == "original"]
    rows = {g.thesis_no(str(r[who])): float(r["points"]) / max(float(r["games"]), 1.0)
            for _, r in t.iterrows() if g.thesis_no(str(r[who])) is not None}
    if len(rows) < 2:
        raise Missing(f"{game}: fewer than two of the thesis's bots in the tournament")
    nos = sorted(rows)
    ok = all(rows[a] > rows[b] for a, b in zip(nos, nos[1:], strict=False))
    return Verdict(HOLDS if ok else FAILS, "points per game: " + ", ".join(
        f"bot {n} {rows[n]:.2f}" for n in nos))


def _imitators_follow(results: Results, game: str) -> Verdict:
    from scipy import stats

    g = _game(results, game)
    _, text, imit = _imitators_below(g, *_tournament(g))
    if len(imit) < 2:
        raise Missing(f"{game}: the order needs two or more imitators in the tournament")
    tau = float(stats.kendalltau(imit["orig_ppg"], imit["ppg"]).statistic)
    return Verdict(HOLDS if tau > 0 else FAILS,
                   f"points per game, imitator vs original: {text}; Kendall tau = {tau:.2f}")


def _below(results: Results, game: str) -> Verdict:
    g = _game(results, game)
    below, text, _ = _imitators_below(g, *_tournament(g))
    return Verdict(HOLDS if all(below) else FAILS,
                   f"points per game: {text}; {sum(below)} of {len(below)} below their original")


def _all_of(*verdicts: Verdict) -> Verdict:
    """A conclusion made of several: holds when all hold, untestable when any is."""
    text = " | ".join(v.numbers for v in verdicts)
    if any(v.status == UNTESTABLE for v in verdicts):
        return Verdict(UNTESTABLE, text)
    return Verdict(HOLDS if all(v.status == HOLDS for v in verdicts) else FAILS, text)


def _thesis_value(table: str, game: str, subject: str, metric: str) -> float:
    from ime.thesis.reference import value

    return float(value(table, game, subject, metric))


# --- 2.1.3 Snake, the rest ---------------------------------------------------------------------
@check("snake_depth_rank")
def snake_depth_rank(results: Results) -> Verdict:
    """Fig 2.4 (static analysis of the ladder bots' code)."""
    return _not_a_result("a reading of the ladder bots' source code (Fig 2.4), not an imitation "
                         "result; our zoo's search depths are set from it "
                         "(config/bots/snake.yaml, docs/games/snake_zoo.md)")


@check("snake_expert_bots_weak")
def snake_expert_bots_weak(results: Results) -> Verdict:
    """2.1.3: the expert-system bots play worse than the search bots: in our tournament their
    mean points per game is below the search bots'."""
    g = _game(results, "snake")
    t = _table(g, "tournament.csv", "bot", "type", "points", "games")
    t = t[(t["type"] == "original") & t["bot"].isin(list(g.bots))]
    fam = {b: g.bots[b].family for b in t["bot"]}
    ppg = dict(zip(t["bot"], t["points"].astype(float) / t["games"].astype(float).clip(lower=1),
                   strict=True))
    es = [b for b in ppg if fam[b] == "ES"]
    search = [b for b in ppg if fam[b] and fam[b] != "ES"]
    if not es or not search:
        raise Missing("snake: the tournament needs expert-system and search bots")
    m_es, m_s = float(np.mean([ppg[b] for b in es])), float(np.mean([ppg[b] for b in search]))
    return Verdict(HOLDS if m_es < m_s else FAILS,
                   f"points per game: expert systems {m_es:.2f} ({', '.join(es)}), search bots "
                   f"{m_s:.2f} ({len(search)} bots)")


@check("snake_baseline_range")
def snake_baseline_range(results: Results) -> Verdict:
    """2.1.3: the random baseline of the 22 bots lies in the thesis's stated range."""
    g = _game(results, "snake")
    t = _table(g, "dataset_stats.csv", "bot", "baseline")
    t = t[t["bot"].map(lambda b: g.thesis_no(b) is not None)]
    if t.empty:
        raise Missing("snake: no thesis bot in dataset_stats.csv")
    lo = _thesis_value("Fig 2.7", "snake", "all", "baseline_min")
    hi = _thesis_value("Fig 2.7", "snake", "all", "baseline_max")
    b = t["baseline"].astype(float)
    inside = int(((b >= lo) & (b <= hi)).sum())
    return Verdict(HOLDS if inside == len(b) else FAILS,
                   f"our baselines {b.min():.1f}-{b.max():.1f} % over {len(b)} bots, "
                   f"{inside} inside the thesis's {lo:.1f}-{hi:.1f} %")


@check("snake_split_membership")
def snake_split_membership(results: Results) -> Verdict:
    """Fig 2.7: our two-way split puts every bot in the thesis's group."""
    g = _game(results, "snake")
    sp = _table(g, "split_vs_thesis.csv", "bot", "group", "thesis_group")
    known = sp[sp["thesis_group"].notna()]
    if len(known) < 2:
        raise Missing("snake: fewer than two of the thesis's bots in split_vs_thesis.csv")
    wrong = known[known["group"] != known["thesis_group"]]["bot"].tolist()
    return Verdict(HOLDS if not wrong else FAILS,
                   f"{len(known) - len(wrong)} of {len(known)} bots in the thesis's group"
                   + (f"; not: {', '.join(wrong)}" if wrong else ""))


# --- chapter 4, the rest --------------------------------------------------------------------
def _acc_table(g: GameResults) -> pd.DataFrame:
    return _table(g, "imitation_accuracy.csv", "bot", "net", "train_acc_mean", "val_acc_mean")


@check("reversi_train_acc_above_98")
def reversi_train_acc_above_98(results: Results) -> Verdict:
    """Table 4.4: every net fits every bot's training data above 98 %."""
    acc = _acc_table(_game(results, "reversi"))
    low = acc[acc["train_acc_mean"].astype(float) <= 98.0]
    return Verdict(HOLDS if low.empty else FAILS,
                   f"train_acc % min {acc['train_acc_mean'].min():.1f} over {len(acc)} "
                   f"(bot, net); {len(low)} at or below 98")


@check("reversi_val_above_75")
def reversi_val_above_75(results: Results) -> Verdict:
    """Table 4.4: every model's validation accuracy is above 75 %."""
    acc = _acc_table(_game(results, "reversi"))
    low = acc[acc["val_acc_mean"].astype(float) <= 75.0]
    return Verdict(HOLDS if low.empty else FAILS,
                   f"val_acc % min {acc['val_acc_mean'].min():.1f} over {len(acc)} (bot, net); "
                   f"{len(low)} at or below 75")


@check("reversi_val_rises_with_data")
def reversi_val_rises_with_data(results: Results) -> Verdict:
    """Tables 4.2/4.4: validation accuracy tends to rise with the dataset's size (Spearman's
    rho between a bot's decision pairs and its CONV accuracy is positive)."""
    g = _game(results, "reversi")
    acc = accuracy_by_bot(g).set_index("bot")
    ds = _table(g, "dataset_stats.csv", "bot", "pairs").set_index("bot")
    bots = [b for b in acc.index if b in ds.index]
    if len(bots) < 3:
        raise Missing("reversi: the trend needs 3 or more bots")
    rho, p = _spearman([float(ds.loc[b, "pairs"]) for b in bots],
                       [float(acc.loc[b, "val_acc"]) for b in bots])
    return Verdict(HOLDS if rho > 0 else FAILS,
                   f"Spearman rho(pairs, val_acc) = {rho:.2f}, p = {p:.2g}, n = {len(bots)}",
                   significant=rho > 0 and p < 0.05)


def _net_gap(g: GameResults, a: str, b: str, col: str = "val_acc_mean") -> pd.Series:
    wide = _acc_table(g).pivot_table(index="bot", columns="net", values=col)
    if a not in wide.columns or b not in wide.columns:
        raise Missing(f"{g.game}: imitation_accuracy.csv needs {a} and {b}")
    return (wide[a] - wide[b]).astype(float)


@check("reversi_mlp_sizes_similar")
def reversi_mlp_sizes_similar(results: Results) -> Verdict:
    """Table 4.4: MLP-1 and MLP-2 differ little: their validation accuracies are within 2
    points on average over the bots."""
    gap = _net_gap(_game(results, "reversi"), "mlp2", "mlp1")
    m = float(gap.abs().mean())
    return Verdict(HOLDS if m < 2.0 else FAILS,
                   f"|MLP-2 - MLP-1| val_acc: mean {m:.2f} points (" + ", ".join(
                       f"{b} {v:+.2f}" for b, v in gap.items()) + ")")


@check("reversi_conv_val_about_90")
def reversi_conv_val_about_90(results: Results) -> Verdict:
    """Table 4.4: except bot 4, CONV reaches about 90 % (within 3 points) on every bot."""
    g = _game(results, "reversi")
    acc = accuracy_by_bot(g, "conv")
    acc = acc[acc["bot"].map(lambda b: g.thesis_no(b) not in (None, 4))]
    if acc.empty:
        raise Missing("reversi: no CONV accuracy of bots 1, 2, 3 or 5")
    off = acc[(acc["val_acc"] - 90.0).abs() > 3.0]
    return Verdict(HOLDS if off.empty else FAILS, "CONV val_acc %: " + ", ".join(
        f"{_label(g, r.bot)} {r.val_acc:.1f}" for r in acc.itertuples()))


@check("reversi_bot2_s1_high_s2_low")
def reversi_bot2_s1_high_s2_low(results: Results) -> Verdict:
    """Table 4.5: bot 2 has the highest S1 but the second-lowest S2, above only bot 3."""
    g = _game(results, "reversi")
    r = _s1s2(g, (1, 2, 3, 4, 5))
    s1 = {n: float(r[n]["S1"]) for n in r}
    s2 = sorted(r, key=lambda n: float(r[n]["S2"]))
    ok = max(s1, key=s1.get) == 2 and s2[:2] == [3, 2]
    return Verdict(HOLDS if ok else FAILS,
                   f"S1: {_show(r, 'S1')}; S2: {_show(r, 'S2')}")


@check("reversi_low_ranked_easier")
def reversi_low_ranked_easier(results: Results) -> Verdict:
    """Table 4.5: by S2 the low-ranked bots 4 and 5 are easier than bots 1, 2 and 3."""
    r = _s1s2(_game(results, "reversi"), (1, 2, 3, 4, 5))
    lo45 = min(float(r[4]["S2"]), float(r[5]["S2"]))
    hi123 = max(float(r[n]["S2"]) for n in (1, 2, 3))
    sig = min(float(r[n].get("S2_lo", r[n]["S2"])) for n in (4, 5)) > max(
        float(r[n].get("S2_hi", r[n]["S2"])) for n in (1, 2, 3))
    return Verdict(HOLDS if lo45 > hi123 else FAILS, f"S2: {_show(r, 'S2')}", significant=sig)


@check("reversi_depth_follows_rank")
def reversi_depth_follows_rank(results: Results) -> Verdict:
    """Tables 4.1/4.5 (the bots' search depths against their ladder ranks)."""
    return _not_a_result("a reading of the ladder bots' source code (Table 4.1), not an "
                         "imitation result; our zoo's depths follow it (config/bots/reversi.yaml,"
                         " docs/zoo.md)")


DEPTH_LIMIT = {1: math.inf, 2: 20, 3: 15, 4: 8}
"""Table 4.1's search depth limits of Reversi bots 1-4 (bot 1: unlimited)."""


@check("reversi_conjecture_shallow_easier")
def reversi_conjecture_shallow_easier(results: Results) -> Verdict:
    """4.4.2 (conjecture): the shallower a bot searches, the easier it is to imitate: over bots
    1-4, Spearman's rho between the depth limit and S2 is negative."""
    r = _s1s2(_game(results, "reversi"), (1, 2, 3, 4))
    nos = (1, 2, 3, 4)
    rho, p = _spearman([DEPTH_LIMIT[n] for n in nos], [float(r[n]["S2"]) for n in nos])
    return Verdict(HOLDS if rho < 0 else FAILS,
                   f"Spearman rho(depth limit, S2) = {rho:.2f} over bots 1-4 (limits inf, 20, "
                   f"15, 8); S2: {_show(r, 'S2', nos)}")


@check("reversi_conjecture_s2_above_s1")
def reversi_conjecture_s2_above_s1(results: Results) -> Verdict:
    """4.4.2 (conjecture): imitators' S2 is higher than their S1 (for most bots)."""
    r = _s1s2(_game(results, "reversi"), ())
    if not r:
        raise Missing("reversi: no imitator in s1s2_imitator.csv")
    above = [n for n in r if float(r[n]["S2"]) > float(r[n]["S1"])]
    return Verdict(HOLDS if len(above) > len(r) / 2 else FAILS,
                   f"S2 > S1 for {len(above)} of {len(r)} bots; S1: {_show(r, 'S1')}; "
                   f"S2: {_show(r, 'S2')}")


@check("reversi_bot4_shallow_easier")
def reversi_bot4_shallow_easier(results: Results) -> Verdict:
    """4.5.1: bot 4, searching shallower than bots 1 and 2, is easier to imitate (higher S2)."""
    r = _s1s2(_game(results, "reversi"), (1, 2, 4))
    ok = float(r[4]["S2"]) > max(float(r[1]["S2"]), float(r[2]["S2"]))
    sig = float(r[4].get("S2_lo", r[4]["S2"])) > max(float(r[n].get("S2_hi", r[n]["S2"]))
                                                     for n in (1, 2))
    return Verdict(HOLDS if ok else FAILS, f"S2: {_show(r, 'S2', (1, 2, 4))}", significant=sig)


@check("reversi_bots12_s2_poor")
def reversi_bots12_s2_poor(results: Results) -> Verdict:
    """4.5.1: the imitators of bots 1 and 2 copy single moves better than endgame outcomes:
    their S2 is below their S1."""
    r = _s1s2(_game(results, "reversi"), (1, 2))
    ok = all(float(r[n]["S2"]) < float(r[n]["S1"]) for n in (1, 2))
    return Verdict(HOLDS if ok else FAILS,
                   f"S1: {_show(r, 'S1', (1, 2))}; S2: {_show(r, 'S2', (1, 2))}")


def _within_vs_across(g: GameResults, metric: str, inner: tuple[int, ...],
                      outer: tuple[int, ...]) -> tuple[list[float], list[float]]:
    within = [_pair(g, metric, a, b) for i, a in enumerate(inner) for b in inner[i + 1:]]
    across = [_pair(g, metric, a, b) for a in inner for b in outer]
    return within, across


@check("reversi_s1_bots123_dissimilar")
def reversi_s1_bots123_dissimilar(results: Results) -> Verdict:
    """Table 4.6: by S1, bots 1, 2 and 3 are mutually dissimilar: each pair among them is less
    alike than bots 4 and 5 are."""
    g = _game(results, "reversi")
    within, _ = _within_vs_across(g, "S1", (1, 2, 3), ())
    s45 = _pair(g, "S1", 4, 5)
    return Verdict(HOLDS if max(within) < s45 else FAILS,
                   f"S1 % among bots 1-3: {', '.join(f'{x:.1f}' for x in within)}; "
                   f"bots 4-5: {s45:.1f}")


@check("reversi_s1_bots45_below_imitators")
def reversi_s1_bots45_below_imitators(results: Results) -> Verdict:
    """Table 4.6: bots 4 and 5 are alike by S1, but less than each is to its imitator."""
    g = _game(results, "reversi")
    s45 = _pair(g, "S1", 4, 5)
    r = _s1s2(g, (4, 5))
    ok = s45 < min(float(r[4]["S1"]), float(r[5]["S1"]))
    return Verdict(HOLDS if ok else FAILS,
                   f"S1 bots 4-5 {s45:.1f}; imitators: {_show(r, 'S1', (4, 5))}")


@check("reversi_s2_bots123_close")
def reversi_s2_bots123_close(results: Results) -> Verdict:
    """Table 4.7: by S2, bots 1, 2 and 3 are closer to each other than to bots 4 and 5."""
    g = _game(results, "reversi")
    within, across = _within_vs_across(g, "S2", (1, 2, 3), (4, 5))
    return Verdict(HOLDS if min(within) > max(across) else FAILS,
                   f"S2 % among bots 1-3: {', '.join(f'{x:.1f}' for x in within)}; bots 1-3 "
                   f"with 4-5: {', '.join(f'{x:.1f}' for x in across)}")


@check("reversi_originals_ladder_order")
def reversi_originals_ladder_order(results: Results) -> Verdict:
    """Table 4.8: the originals rank in their ladder order."""
    return _originals_order(results, "reversi")


@check("reversi_imitators_below_originals")
def reversi_imitators_below_originals(results: Results) -> Verdict:
    """Table 4.8: every imitator scores below its original."""
    return _below(results, "reversi")


@check("reversi_search_eval_affect_difficulty")
def reversi_search_eval_affect_difficulty(results: Results) -> Verdict:
    """4.6 (a hedged cause)."""
    return _not_a_result("a hedged cause ('may affect'), not a measurable claim; the depth "
                         "conjecture (reversi_conjecture_shallow_easier) and Table 6.1 carry "
                         "the numbers that bear on it")


@check("reversi_random_harder")
def reversi_random_harder(results: Results) -> Verdict:
    """4.6: bots with a random component (the statistical-sampling class) are harder to imitate
    than the deterministic ones: every one of them has a lower S2 than every deterministic bot."""
    g = _game(results, "reversi")
    t = _table(g, "s1s2_imitator.csv", "bot", "S2")
    cls = {b: g.bots[b].cls for b in t["bot"] if b in g.bots}
    rnd = t[t["bot"].map(cls.get) == "statistical sampling search"]
    det = t[t["bot"].map(cls.get).isin(["deterministic search", "rule-based"])]
    if rnd.empty or det.empty:
        raise Missing("reversi: needs random and deterministic targets")
    ok = float(rnd["S2"].max()) < float(det["S2"].min())
    def show(t: pd.DataFrame) -> str:
        return ", ".join(f"{b} {float(v):.1f}" for b, v in zip(t["bot"], t["S2"], strict=True))

    return Verdict(HOLDS if ok else FAILS,
                   f"S2 % random: {show(rnd)}; deterministic: {show(det)}")


@check("reversi_conv_beats_mlp_same_size")
def reversi_conv_beats_mlp_same_size(results: Results) -> Verdict:
    """4.6: at the same parameter scale (CONV 75k, MLP-2 79k) the convolutional net beats the
    fully connected one, on average and for most bots."""
    gap = _net_gap(_game(results, "reversi"), "conv", "mlp2")
    ok = float(gap.mean()) > 0 and int((gap > 0).sum()) > len(gap) / 2
    return Verdict(HOLDS if ok else FAILS,
                   f"CONV - MLP-2 val_acc: mean {gap.mean():+.2f} points, CONV ahead for "
                   f"{int((gap > 0).sum())} of {len(gap)} bots")


@check("reversi_imitation_effective")
def reversi_imitation_effective(results: Results) -> Verdict:
    """4.6: imitation works (above baseline), imitating stronger bots gives stronger imitators,
    and no imitator surpasses its original."""
    return _all_of(_beats_baseline(results, "reversi"), _imitators_follow(results, "reversi"),
                   _below(results, "reversi"))


# --- chapter 5, the rest --------------------------------------------------------------------
@check("ddz_conv2_underfits")
def ddz_conv2_underfits(results: Results) -> Verdict:
    """Table 5.6: CONV-2 falls below the random baseline (for most bots)."""
    g = _game(results, "doudizhu")
    acc = accuracy_by_bot(g, "ddz_conv2")
    below = acc[acc["val_acc"] < acc["baseline"]]
    return Verdict(HOLDS if len(below) > len(acc) / 2 else FAILS,
                   f"CONV-2 val_acc below baseline for {len(below)} of {len(acc)} bots: "
                   + ", ".join(f"{_label(g, r.bot)} {r.val_acc:.1f} vs {r.baseline:.1f}"
                               for r in acc.itertuples()))


@check("ddz_similarity_above_reversi")
def ddz_similarity_above_reversi(results: Results) -> Verdict:
    """Tables 5.7/4.5: Doudizhu's imitators are generally more similar to their originals than
    Reversi's (higher mean S1 and S2)."""
    d = _table(_game(results, "doudizhu"), "s1s2_imitator.csv", "S1", "S2")
    r = _table(_game(results, "reversi"), "s1s2_imitator.csv", "S1", "S2")
    ok = all(float(d[m].mean()) > float(r[m].mean()) for m in ("S1", "S2"))
    return Verdict(HOLDS if ok else FAILS,
                   f"mean S1 % Doudizhu {d['S1'].mean():.1f} vs Reversi {r['S1'].mean():.1f}; "
                   f"mean S2 % {d['S2'].mean():.1f} vs {r['S2'].mean():.1f}")


def _not_linear(results: Results, game: str) -> Verdict:
    """Pearson r^2 of the imitators' S1 and S2 over ``game``'s bots is under 0.5."""
    g = _game(results, game)
    t = _table(g, "s1s2_imitator.csv", "bot", "S1", "S2")
    if len(t) < 3:
        raise Missing(f"{game}: {len(t)} bots; a linear fit needs 3 or more")
    r = float(np.corrcoef(t["S1"].astype(float), t["S2"].astype(float))[0, 1])
    return Verdict(HOLDS if r * r < 0.5 else FAILS,
                   f"Pearson r(S1, S2) = {r:.2f} (r^2 = {r * r:.2f}) over {len(t)} bots: "
                   + "; ".join(f"{b} S1 {_fmt(float(s1))} S2 {_fmt(float(s2))}"
                               for b, s1, s2 in zip(t["bot"], t["S1"], t["S2"], strict=True)))


@check("ddz_s1_s2_not_linear")
def ddz_s1_s2_not_linear(results: Results) -> Verdict:
    """5.4.2: in Doudizhu too S1 and S2 are not linearly related (r^2 < 0.5)."""
    return _not_linear(results, "doudizhu")


@check("ddz_conjecture_order_irrelevant")
def ddz_conjecture_order_irrelevant(results: Results) -> Verdict:
    """5.4.2 (conjecture): some key positions are played differently with the same result. On
    one key set, an agent whose S2 exceeds its S1 has at least (S2 - S1) x n keys where its
    first play differs but the result is the same; holds when some agent shows one."""
    g = _game(results, "doudizhu")
    t = _table(g, "similarity.csv", "agent", "target", "n", "s1", "s2")
    gain = (t["s2"].astype(float) - t["s1"].astype(float)) / 100.0 * t["n"].astype(float)
    best = t.assign(keys=gain.round().astype(int)).sort_values("keys", ascending=False)
    top = best.iloc[0]
    if int(top["keys"]) >= 1:
        return Verdict(HOLDS, f"{top['agent']} on {top['target']}'s {int(top['n'])} keys: S1 "
                       f"{float(top['s1']):.1f} %, S2 {float(top['s2']):.1f} %: at least "
                       f"{int(top['keys'])} keys played differently with the same result")
    raise Missing("no agent's S2 exceeds its S1 on a key set, so these tables cannot show such "
                  "keys (per-key results would)")


def _apart(results: Results, game: str, thesis_no: int) -> Verdict:
    """By imitation similarity, the thesis's bot ``thesis_no`` forms its own cluster and the
    thesis's other bots share one (clusters.csv's cluster_imitation)."""
    g = _game(results, game)
    cl = _table(g, "clusters.csv", "bot", "cluster_imitation")
    c = {g.thesis_no(b): k for b, k in zip(cl["bot"], cl["cluster_imitation"], strict=True)
         if g.thesis_no(b) is not None}
    if thesis_no not in c or len(c) < 3:
        raise Missing(f"{game}: bot {thesis_no} and two more of the thesis's bots are needed "
                      "in clusters.csv")
    rest = {c[n] for n in c if n != thesis_no}
    return Verdict(HOLDS if c[thesis_no] not in rest and len(rest) == 1 else FAILS,
                   "clusters: " + ", ".join(f"bot {n} {c[n]}" for n in sorted(c)))


@check("ddz_cluster_rule_apart")
def ddz_cluster_rule_apart(results: Results) -> Verdict:
    """5.5.1: by imitation similarity, {1, 2, 3, 4} and {5}."""
    return _apart(results, "doudizhu", 5)


@check("ddz_s1_bots123_similar")
def ddz_s1_bots123_similar(results: Results) -> Verdict:
    """Table 5.8: by S1, bots 1, 2 and 3 are more alike than any pair with bot 4 or 5."""
    g = _game(results, "doudizhu")
    within, across = _within_vs_across(g, "S1", (1, 2, 3), (4, 5))
    across.append(_pair(g, "S1", 4, 5))
    return Verdict(HOLDS if min(within) > max(across) else FAILS,
                   f"S1 % among bots 1-3: {', '.join(f'{x:.1f}' for x in within)}; pairs with "
                   f"4 or 5: {', '.join(f'{x:.1f}' for x in across)}")


@check("ddz_imitator_closest_s2")
def ddz_imitator_closest_s2(results: Results) -> Verdict:
    """Table 5.9: by S2, each bot is generally (for most bots) closer to its imitator than to
    the other originals."""
    ok, text = _closest(results, "doudizhu", "S2")
    return Verdict(HOLDS if sum(ok) > len(ok) / 2 else FAILS, text)


@check("ddz_originals_ladder_order")
def ddz_originals_ladder_order(results: Results) -> Verdict:
    """Table 5.10: the originals rank in their ladder order."""
    return _originals_order(results, "doudizhu")


@check("ddz_imitators_rank_order")
def ddz_imitators_rank_order(results: Results) -> Verdict:
    """Table 5.10: the imitators rank in their originals' order (Kendall's tau > 0)."""
    return _imitators_follow(results, "doudizhu")


@check("ddz_key_endgame_example")
def ddz_key_endgame_example(results: Results) -> Verdict:
    """Table 5.11: a key endgame exists where the target wins, the other rule bots lose, and the
    imitator wins with the target's exact plays (our case study, case_study.csv)."""
    g = _game(results, "doudizhu")
    cs = _table(g, "case_study.csv", "agent", "role", "result", "same_as_target")
    by = cs.groupby("agent", sort=False).agg(role=("role", "first"), result=("result", "last"),
                                             same=("same_as_target", "all"))
    tgt = by[by["role"] == "target"]
    imi = by[by["role"] == "imitator"]
    refs = by[by["role"] == "reference"]
    if tgt.empty or imi.empty or refs.empty:
        raise Missing("doudizhu: the case study has no target, imitator and references")
    won = str(tgt["result"].iloc[0]) == "win"
    ok = (won and str(imi["result"].iloc[0]) == "win" and bool(imi["same"].iloc[0])
          and bool((refs["result"] != "win").all()))
    return Verdict(HOLDS if ok else FAILS, "; ".join(
        f"{a} ({r.role}) {r.result}{', every play as the target' if r.same else ''}"
        for a, r in by.iterrows()))


@check("ddz_simpler_rules_easier")
def ddz_simpler_rules_easier(results: Results) -> Verdict:
    """5.6: the simpler the rules, the easier to imitate: the rule-based class has a higher
    mean S2 than the search (split-enumerating) bots."""
    return _class_order(results, ("doudizhu",), "S2")


@check("ddz_imitation_effective")
def ddz_imitation_effective(results: Results) -> Verdict:
    """5.6: imitation works, stronger originals give stronger imitators, none surpasses its
    original."""
    return _all_of(_beats_baseline(results, "doudizhu"), _imitators_follow(results, "doudizhu"),
                   _below(results, "doudizhu"))


# --- chapter 6, the rest --------------------------------------------------------------------
@check("conv_beats_mlp")
def conv_beats_mlp(results: Results) -> Verdict:
    """6.1: at the same parameter scale convolutional nets beat fully connected ones: in
    Reversi (CONV vs MLP-2) and in Snake (the three CONVs' mean vs the two MLPs', all ~60k)."""
    parts, oks = [], []
    if "reversi" in results:
        v = reversi_conv_beats_mlp_same_size(results)
        parts.append(f"reversi: {v.numbers}")
        oks.append(v.status == HOLDS)
    if "snake" in results:
        acc = _acc_table(results["snake"])
        conv = acc[acc["net"].str.contains("conv")].groupby("bot")["val_acc_mean"].mean()
        mlp = acc[acc["net"].str.contains("mlp")].groupby("bot")["val_acc_mean"].mean()
        gap = (conv - mlp).dropna()
        if len(gap):
            ok = float(gap.mean()) > 0 and int((gap > 0).sum()) > len(gap) / 2
            parts.append(f"snake: CONVs - MLPs val_acc mean {gap.mean():+.2f} points, CONVs "
                         f"ahead for {int((gap > 0).sum())} of {len(gap)} bots")
            oks.append(ok)
    if not oks:
        raise Missing("no Reversi or Snake accuracy table")
    return Verdict(HOLDS if all(oks) else FAILS, "; ".join(parts))


@check("params_effect_differs")
def params_effect_differs(results: Results) -> Verdict:
    """6.1: parameter count mattered little for Reversi's MLPs but clearly for Doudizhu."""
    return _all_of(reversi_mlp_sizes_similar(results), ddz_params_matter(results))


@check("personality_follows_algorithm")
def personality_follows_algorithm(results: Results) -> Verdict:
    """6.1: the personality shows the algorithm: in each game, the clusters by imitation
    similarity split the thesis's bots exactly as their algorithm classes do."""
    parts, oks = [], []
    for game in ("reversi", "doudizhu"):
        if game not in results or results[game].get("clusters.csv") is None:
            continue
        g = results[game]
        cl = _table(g, "clusters.csv", "bot", "class", "cluster_imitation")
        cl = cl[[g.thesis_no(b) is not None for b in cl["bot"]]]
        if cl["class"].nunique() < 2:
            continue
        same = {(a, b) for a, b in zip(cl["class"], cl["cluster_imitation"], strict=True)}
        ok = len(same) == cl["class"].nunique() == cl["cluster_imitation"].nunique()
        oks.append(ok)
        parts.append(f"{game}: " + ", ".join(f"{b} {c} -> cluster {k}" for b, c, k in
                                             zip(cl["bot"], cl["class"],
                                                 cl["cluster_imitation"], strict=True)))
    if not oks:
        raise Missing("no game with the thesis's bots of two or more classes in clusters.csv")
    return Verdict(HOLDS if all(oks) else FAILS, "; ".join(parts))
