"""What every conclusion check is made of: the verdict, the registry, and the lookups and
formatting the checks of all chapters share.

Why a module of its own: the chapters' checks (:mod:`.snake`, :mod:`.reversi`,
:mod:`.doudizhu`, :mod:`.chapter6`) and the claims several of them test (:mod:`.common`) read
tables and print numbers the same way, so that one verdict's numbers read like another's and a
missing table is always "cannot be tested", never an error.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, replace
from typing import Any

import numpy as np
import pandas as pd

from ime.thesis.results import GameResults

HOLDS = "holds"
FAILS = "does not hold"
UNTESTABLE = "cannot be tested"
POINT_STATUSES = (HOLDS, FAILS, UNTESTABLE)
"""A check's verdict on the point estimates (:attr:`Verdict.status`)."""
INCONCLUSIVE = "inconclusive"
FINAL_STATUSES = (HOLDS, FAILS, INCONCLUSIVE, UNTESTABLE)
"""A report's verdicts: :attr:`Verdict.final`, where a comparison the data cannot decide at
95 % is inconclusive whichever way its point estimates fall."""
STATUSES = FINAL_STATUSES
"""Every verdict a report's ``conclusions.csv`` can hold (the point statuses and
inconclusive)."""
ALPHA = 0.05


@dataclass(frozen=True)
class Verdict:
    """A check's outcome: the status, the numbers behind it (one line, CIs included), and
    whether the CIs back the ordering the conclusion states (None where no ordering)."""

    status: str
    """The verdict on the point estimates (holds, does not hold, cannot be tested): what the
    thesis's own printed numbers, which carry no spread, are judged by."""
    numbers: str
    significant: bool | None = None
    test: str = ""
    """The significance test behind :attr:`final`: its method, n and p ("" where the check
    compares nothing, e.g. a threshold or a reading of the bots' code)."""
    p: float | None = None
    n: int | None = None
    decided: bool | None = None
    """Whether the test decides :attr:`status` at 95 % (None: the check carries no test)."""

    def __post_init__(self) -> None:
        if self.status not in POINT_STATUSES:
            raise ValueError(f"unknown verdict status {self.status!r}: one of "
                             f"{POINT_STATUSES}")

    @property
    def final(self) -> str:
        """The verdict a report counts: :attr:`status`, but inconclusive where the check's test
        cannot decide it at 95 % (a difference inside the noise, or spread unknown)."""
        if self.status == UNTESTABLE or self.decided is None or self.decided:
            return self.status
        return INCONCLUSIVE


Results = Mapping[str, GameResults]
"""The games' results a check may read, by game name."""
CheckFn = Callable[[Results], Verdict]
CHECKS: dict[str, CheckFn] = {}
"""Every registered check by conclusion id (filled when :mod:`ime.thesis.checks` is imported)."""


def check(cid: str) -> Callable[[CheckFn], CheckFn]:
    """Register ``fn`` as the check of conclusion ``cid`` (an id of conclusions.csv)."""

    def deco(fn: CheckFn) -> CheckFn:
        if cid in CHECKS:
            raise ValueError(f"two checks for conclusion {cid!r}")
        CHECKS[cid] = fn
        return fn

    return deco


class Missing(Exception):
    """A table, game or bot a check needs is not in the results."""


def run_check(cid: str, results: Results) -> Verdict:
    """The verdict of conclusion ``cid``; a game the check needs that is absent from
    ``results`` makes it untestable (a :class:`Missing` raised inside the check)."""
    try:
        return CHECKS[cid](results)
    except Missing as e:
        return Verdict(UNTESTABLE, str(e))


def verdict(ok: bool, numbers: str, significant: bool | None = None) -> Verdict:
    """Holds when ``ok``, else does not hold."""
    return Verdict(HOLDS if ok else FAILS, numbers, significant)


def not_a_result(reason: str) -> Verdict:
    """A statement about the thesis's bots' source code, a hedged cause or a detail of the
    thesis's own example: no result table of an imitation run can decide it."""
    return Verdict(UNTESTABLE, reason)


def all_of(*verdicts: Verdict) -> Verdict:
    """A conclusion made of several: holds when all hold, untestable when any is. Its test is
    its parts' (an intersection-union rule, so no correction is needed): decided where it
    holds and every tested part is decided, or where it fails and a failing tested part is
    decided; a part that carries no test is decided on its point estimates."""
    text = " | ".join(v.numbers for v in verdicts)
    if any(v.status == UNTESTABLE for v in verdicts):
        return Verdict(UNTESTABLE, text)
    ok = all(v.status == HOLDS for v in verdicts)
    tested_parts = [v for v in verdicts if v.decided is not None]
    if not tested_parts:
        return verdict(ok, text)
    if ok:
        decided = all(bool(v.decided) for v in tested_parts)
        ps = [v.p for v in tested_parts]
        p = max(x for x in ps if x is not None) if ps and None not in ps else None
        rule = (f"all of {len(verdicts)} parts must hold (intersection-union): p = the largest "
                "of its tested parts' p")
    else:
        deciding = [v for v in verdicts if v.status == FAILS and v.decided is not False]
        decided = bool(deciding)
        failing = [v for v in (deciding or [v for v in verdicts if v.status == FAILS])
                   if v.p is not None]
        p = min(v.p for v in failing) if failing else None
        rule = (f"fails with any of its {len(verdicts)} parts: p = its failing part's p"
                + (" (an exact or untested part decides on its numbers)" if deciding
                   and not failing else ""))
    head = f"{rule}: " + ("n/a" if p is None else f"{p:.3g}")
    return Verdict(HOLDS if ok else FAILS, text, test=head + " | " + " | ".join(
        v.test for v in tested_parts), decided=decided, p=p,
        n=min(v.n for v in tested_parts if v.n is not None) if any(
            v.n is not None for v in tested_parts) else None)


# --- significance -----------------------------------------------------------------------------
SPREAD_UNKNOWN = ("spread unknown for {what} (no CI or a zero-width one: a single model whose "
                  "run predates the per-match counts that a bootstrap over validation matches "
                  "needs, a share of 0 or 100 % over a single match, or a table printed "
                  "without spread)")
"""Why a comparison decides nothing. A single model (Doudizhu's 9:1 split) has no fold spread;
a run that recorded its validation matches' counts gets a bootstrap CI over them instead
(:func:`acc_ci`), an archived run that did not keeps an unknown spread: never a certain one."""


PRINTED: ContextVar[bool] = ContextVar("printed_numbers", default=False)
"""Whether the checks run on the thesis's own printed tables (:func:`printed_numbers`)."""
PRINTED_NOTE = ("the thesis prints no spread: {what} taken at the printed point estimates (a "
                "test that needs no spread, a rank correlation or a sign-flip over bots, "
                "decides as on ours)")


@contextmanager
def printed_numbers() -> Iterator[None]:
    """Run checks on the thesis's own printed tables (:mod:`ime.thesis.own`) with the same
    tests as on ours. Why: a rank correlation over five printed numbers (rho 0.20, p 0.75) is
    no more a finding in the thesis than in our run, so its column must say inconclusive as
    ours would. What the thesis cannot give is a spread: a comparison that needs one (a CI,
    outcome counts) is taken at its printed point estimates there and the test says so, since
    reading every such comparison as inconclusive would hide where its numbers disagree with
    its text."""
    token = PRINTED.set(True)
    try:
        yield
    finally:
        PRINTED.reset(token)


@dataclass(frozen=True)
class Cmp:
    """One comparison a conclusion makes, signed so that ``diff`` > 0 is the direction it
    states; ``p`` its two-sided p-value (None: the spread is unknown, so it decides nothing)."""

    what: str
    diff: float
    p: float | None


def z_p(diff: float, se: float | None) -> float | None:
    """Two-sided p of a normal z-test of ``diff`` with standard error ``se`` (None when
    ``se`` is unknown: a zero spread is never taken as certainty)."""
    if se is None or not se > 0 or math.isnan(diff):
        return None
    from scipy import stats

    return float(2 * stats.norm.sf(abs(diff) / se))


def se_of_ci(lo: float | None, hi: float | None, x: float | None = None) -> float | None:
    """The standard error a 95 % CI implies (half-width / 1.96); None for a missing or
    zero-width CI (unknown spread, not none). With the estimate ``x`` at one end of its CI (a
    share of 0 or 100 % with Clopper-Pearson's interval), all the width lies on one side, so
    the whole width / 1.96: half of it would understate the spread where it matters."""
    if lo is None or hi is None or pd.isna(lo) or pd.isna(hi) or not hi > lo:
        return None
    width = float(hi) - float(lo)
    if x is not None and not pd.isna(x) and min(abs(float(x) - float(lo)),
                                                abs(float(hi) - float(x))) < 1e-9:
        return width / 1.96
    return width / 2 / 1.96


def ci_cmp(what: str, a: float, a_ci: tuple[float | None, float | None], b: float,
           b_ci: tuple[float | None, float | None] | None) -> Cmp:
    """``a`` > ``b`` tested by a two-sided z-test from their 95 % CIs (SE = half-width /
    1.96, the whole width for an estimate at an end of its CI: :func:`se_of_ci`; the two
    estimates taken as independent); ``b_ci`` None: ``b`` is a constant (a random-choice
    baseline, a stated threshold)."""
    sa = se_of_ci(*a_ci, a)
    sb = 0.0 if b_ci is None else se_of_ci(*b_ci, b)
    se = None if sa is None or sb is None else math.hypot(sa, sb)
    return Cmp(what, float(a) - float(b), z_p(float(a) - float(b), se))


CI_Z_TEST = ("two-sided z-test from the archived 95 % CIs (SE = half-width / 1.96, the whole "
             "width for a share at 0 or 100 %; estimates taken as independent)")


def tested(v: Verdict, cmps: list[Cmp], method: str, n: int | None) -> Verdict:
    """``v`` with the test of its comparisons ``cmps`` (each signed in the stated direction).
    A conclusion that states all of them holds at 95 % when every one is significant in its
    direction (intersection-union: each at 5 %); it fails at 95 % when one is significant
    against it after Bonferroni over the k comparisons (5 % / k); otherwise the data cannot
    decide (inconclusive), and a comparison of unknown spread never decides."""
    if v.status == UNTESTABLE or not cmps:
        return v
    k = len(cmps)
    unknown = [c.what for c in cmps if c.p is None]
    ps = [c.p for c in cmps if c.p is not None]
    printed = PRINTED.get()
    if v.status == HOLDS:
        decided = (not unknown or printed) and all(c.diff > 0 and c.p < ALPHA for c in cmps
                                                   if c.p is not None)
        p = max(ps) if ps and (not unknown or printed) else None
        rule = (f"holds at 95 % only if all {k} are significant (largest p)" if k > 1
                else "holds at 95 % if it is significant")
    else:
        against = [c.p for c in cmps if c.p is not None and c.diff <= 0]
        p = min(1.0, min(against) * k) if against else None
        decided = (p is not None and p < ALPHA) or (
            printed and any(c.p is None and c.diff <= 0 for c in cmps))
        rule = (f"fails at 95 % if one is significant against it (Bonferroni p over {k})"
                if k > 1 else "fails at 95 % if it is significant against it")
    text = (f"{method}; n = {n}; {k} comparison{'s' if k > 1 else ''}, {rule}: p = "
            + ("n/a" if p is None else f"{p:.3g}"))
    if unknown:
        text += "; " + (PRINTED_NOTE if printed else SPREAD_UNKNOWN).format(
            what=", ".join(unknown))
    return replace(v, test=text, p=p, n=n, decided=decided)


def trend_tested(v: Verdict, stat: float, p: float, name: str, n: int,
                 positive: bool = True) -> Verdict:
    """``v`` with a rank or correlation test: decided when its p < 0.05 (the sign stated by
    the conclusion, ``positive`` or not, for holds; the other sign for does not hold)."""
    if v.status == UNTESTABLE:
        return v
    right = (stat > 0) == positive
    decided = p < ALPHA and (right if v.status == HOLDS else not right)
    return replace(v, test=f"{name} = {fmt(stat, 2)}, two-sided p = {p:.3g}, n = {n}", p=p, n=n,
                   decided=decided)


def sign_flip_p(diffs: list[float], draws: int = 100_000, seed: int = 0) -> float:
    """Two-sided p of a sign-flip permutation test of the mean of paired differences: exact
    (every one of the 2^n sign patterns) up to 16 items, else ``draws`` random patterns from a
    seeded generator (so a report is reproducible). With n items the exact p cannot go below
    2 / 2^n (0.0625 for five bots)."""
    d = np.asarray(diffs, dtype=float)
    n = len(d)
    obs = abs(d.mean())
    if n <= 16:
        bits = (np.arange(2 ** n)[:, None] >> np.arange(n)) & 1
        signs = 1 - 2 * bits
    else:
        signs = np.random.default_rng(seed).choice((-1, 1), size=(draws, n))
    means = np.abs(signs @ d) / n
    return float(np.mean(means >= obs - 1e-12))


def ppg_se(row: Mapping[str, Any]) -> float | None:
    """The standard error of a tournament row's points per game from its outcome counts (win
    3, draw 1, loss 0, as every tournament table here scores; a Table 5.10 row has no draws);
    None where the row has no outcome counts."""
    g = float(row.get("games", 0) or 0)
    w = row.get("wins")
    if not g or w is None or pd.isna(w):
        return None
    d = row.get("draws", 0)
    d = 0.0 if d is None or pd.isna(d) else float(d)
    mean = (3 * float(w) + d) / g
    var = max((9 * float(w) + d) / g - mean * mean, 0.0)
    return math.sqrt(var / g) if var > 0 else None


PPG_Z_TEST = ("two-sided z-test of points per game from each player's per-game outcome counts "
              "(win 3 / draw 1 / loss 0; SE = sd / sqrt(games); players taken as independent)")


# --- reading the results ----------------------------------------------------------------------
def game_of(results: Results, game: str) -> GameResults:
    """``game``'s results (:class:`Missing` when the run has none)."""
    if game not in results:
        raise Missing(f"no {game} results")
    return results[game]


def table_of(g: GameResults, name: str, *cols: str) -> pd.DataFrame:
    """The table ``name`` with the columns ``cols`` (:class:`Missing` when either is absent)."""
    df = g.get(name)
    if df is None:
        raise Missing(f"{g.game}: no {name}")
    missing = [c for c in cols if c not in df.columns]
    if missing:
        raise Missing(f"{g.game}: {name} has no column(s) {missing}")
    return df


def numbered(g: GameResults, table: str, *cols: str, key: str = "bot") -> dict[int, Any]:
    """The rows of ``table`` by the thesis's bot number (bots the thesis has only)."""
    t = table_of(g, table, key, *cols)
    out = {}
    for _, r in t.iterrows():
        n = g.thesis_no(str(r[key]))
        if n is not None:
            out[n] = r
    return out


def need(rows: Mapping[int, Any], nos: tuple[int, ...], what: str) -> None:
    """:class:`Missing` unless every thesis bot of ``nos`` is in ``rows``."""
    missing = [n for n in nos if n not in rows]
    if missing:
        raise Missing(f"{what}: bot(s) {missing} not in this run")


def s1s2(g: GameResults, nos: tuple[int, ...]) -> dict[int, Any]:
    """The imitators' S1/S2 rows (s1s2_imitator.csv) by thesis number; ``nos`` must be there."""
    rows = numbered(g, "s1s2_imitator.csv", "S1", "S2")
    need(rows, nos, f"{g.game} s1s2_imitator.csv")
    return rows


def pair(g: GameResults, metric: str, a: int, b: int) -> float:
    """S1 or S2 (%) between the thesis's originals ``a`` and ``b`` (similarity_pairs.csv)."""
    t = table_of(g, "similarity_pairs.csv", "a", "b", metric.lower())
    ba, bb = g.bot_of(a), g.bot_of(b)
    hit = t[((t["a"] == ba) & (t["b"] == bb)) | ((t["a"] == bb) & (t["b"] == ba))]
    if ba is None or bb is None or hit.empty:
        raise Missing(f"{g.game}: no {metric} between bots {a} and {b}")
    return float(hit[metric.lower()].iloc[0])


def pair_ci(g: GameResults, metric: str, a: int, b: int) -> tuple[float | None, float | None]:
    """The 95 % CI of :func:`pair` (None, None where similarity_pairs.csv has none)."""
    t = table_of(g, "similarity_pairs.csv", "a", "b", metric.lower())
    lo, hi = f"{metric.lower()}_lo", f"{metric.lower()}_hi"
    ba, bb = g.bot_of(a), g.bot_of(b)
    hit = t[((t["a"] == ba) & (t["b"] == bb)) | ((t["a"] == bb) & (t["b"] == ba))]
    if hit.empty or lo not in t.columns or hi not in t.columns:
        return None, None
    return float(hit[lo].iloc[0]), float(hit[hi].iloc[0])


def pairs_cmps(g: GameResults, metric: str, high: list[tuple[int, int]],
               low: list[tuple[int, int]]) -> list[Cmp]:
    """Every pair of originals in ``high`` more alike by ``metric`` than every pair in ``low``
    (similarity_pairs.csv), each by :func:`ci_cmp`."""
    return [ci_cmp(f"{h[0]}-{h[1]} vs {lo[0]}-{lo[1]}", pair(g, metric, *h),
                   pair_ci(g, metric, *h), pair(g, metric, *lo), pair_ci(g, metric, *lo))
            for h in high for lo in low]


def fold_ci(mean: Any, std: Any, n: Any) -> tuple[float | None, float | None]:
    """The 95 % t interval of a mean over ``n`` folds with standard deviation ``std`` (None,
    None for one fold or no spread: unknown, as :func:`se_of_ci` reads it)."""
    from scipy import stats

    if any(x is None or pd.isna(x) for x in (mean, std, n)) or float(n) <= 1 or not std > 0:
        return None, None
    half = float(stats.t.ppf(0.975, float(n) - 1) * float(std) / math.sqrt(float(n)))
    return float(mean) - half, float(mean) + half


def acc_ci(row: Mapping[str, Any], col: str) -> tuple[float | None, float | None]:
    """The 95 % CI of an accuracy row's ``<col>_mean`` (``col``: ``train_acc`` or
    ``val_acc``): the table's own ``<col>_mean_lo``/``_hi`` where it has them (a single
    model's bootstrap over validation matches, :func:`ime.train.tables.table4_4`), else the t
    interval over folds (:func:`fold_ci`; None, None for one model without them: unknown)."""
    lo, hi = row.get(f"{col}_mean_lo"), row.get(f"{col}_mean_hi")
    if lo is not None and hi is not None and not pd.isna(lo) and not pd.isna(hi):
        return float(lo), float(hi)
    return fold_ci(row.get(f"{col}_mean"), row.get(f"{col}_std"), row.get("folds"))


def threshold_cmps(acc: pd.DataFrame, col: str, threshold: float) -> list[Cmp]:
    """Each row of an accuracy table: its ``col`` (``train_acc`` or ``val_acc``) above
    ``threshold`` %, tested from its 95 % CI (:func:`acc_ci`: over folds, or a single model's
    bootstrap over validation matches)."""
    return [ci_cmp(f"{r['bot']} {r['net']} {col} vs {threshold:g} %", float(r[f"{col}_mean"]),
                   acc_ci(r, col), threshold, None) for r in acc.to_dict("records")]


FOLD_Z_TEST = ("two-sided z-test of each (bot, net) against the stated threshold (a constant) "
               "from its 95 % t interval over folds (SE = half-width / 1.96)")


def significant(c: Cmp) -> bool:
    """Whether ``c`` is significant at 5 % (either way); on the thesis's printed numbers
    (:func:`printed_numbers`) a comparison without spread counts at its point estimate."""
    return (c.p is not None and c.p < ALPHA) or (PRINTED.get() and c.p is None)


def majority_tested(v: Verdict, cmps: list[Cmp], method: str, n: int) -> Verdict:
    """``v`` for a claim about most of ``cmps`` (each one bot's comparison, signed as stated):
    decided for holds when more than half are significant in the stated direction, for does
    not hold when at least half are significant against it (so no majority can be left).
    Its p is the deciding one: the m-th smallest p on the verdict's side, m the count the
    majority needs (k // 2 + 1 for holds, ceil(k / 2) against), so that p < 0.05 exactly when
    the majority is significant; n/a when fewer than m comparisons lie on that side."""
    if v.status == UNTESTABLE or not cmps:
        return v
    k = len(cmps)
    printed = PRINTED.get()
    pro = sum(1 for c in cmps if c.diff > 0 and significant(c))
    con = sum(1 for c in cmps if c.diff <= 0 and significant(c))
    holds = v.status == HOLDS
    need = k // 2 + 1 if holds else math.ceil(k / 2)
    decided = pro >= need if holds else con >= need
    side = sorted(c.p for c in cmps if c.p is not None and (c.diff > 0) == holds)
    p = side[need - 1] if len(side) >= need else None
    unknown = [c.what for c in cmps if c.p is None]
    text = (f"{method}; n = {n}; a majority claim: {pro} of {k} significant as stated, {con} "
            f"against, at 5 % each; p = the {need}{_nth(need)} smallest p "
            f"{'as stated' if holds else 'against'} (the majority needs {need} of {k}): "
            + ("n/a" if p is None else f"{p:.3g}"))
    if unknown:
        text += "; " + (PRINTED_NOTE if printed else SPREAD_UNKNOWN).format(
            what=", ".join(unknown))
    return replace(v, test=text, p=p, n=n, decided=decided)


def _nth(k: int) -> str:
    """The English ordinal suffix of ``k`` (1st, 2nd, 3rd, 4th, 11th)."""
    if 10 <= k % 100 <= 20:
        return "th"
    return {1: "st", 2: "nd", 3: "rd"}.get(k % 10, "th")


def acc_table(g: GameResults) -> pd.DataFrame:
    """imitation_accuracy.csv with the training and validation accuracy columns."""
    return table_of(g, "imitation_accuracy.csv", "bot", "net", "train_acc_mean",
                    "val_acc_mean")


def net_gap(g: GameResults, a: str, b: str, col: str = "val_acc_mean") -> pd.Series:
    """Per bot: net ``a``'s ``col`` minus net ``b``'s (points)."""
    wide = acc_table(g).pivot_table(index="bot", columns="net", values=col)
    if a not in wide.columns or b not in wide.columns:
        raise Missing(f"{g.game}: imitation_accuracy.csv needs {a} and {b}")
    return (wide[a] - wide[b]).astype(float)


def accuracy_by_bot(g: GameResults, net: str | None = None) -> pd.DataFrame:
    """Per bot: validation accuracy, its 95 % CI (t interval over folds, or a single model's
    bootstrap over validation matches where the table has one: :func:`acc_ci`), the baseline
    and the margin, for ``net`` (the evaluation net by default; ``"mean"``: every net's mean, as Fig
    2.7 averages Snake's five nets)."""
    from scipy import stats

    acc = table_of(g, "imitation_accuracy.csv", "bot", "net", "baseline", "val_acc_mean")
    net = net or g.eval_net
    if net == "mean":
        rows = acc.groupby("bot", sort=False).agg(
            baseline=("baseline", "first"), val_acc=("val_acc_mean", "mean"),
            sd=("val_acc_mean", "std"), n=("val_acc_mean", "size")).reset_index()
    else:
        rows = acc[acc["net"] == net]
        if rows.empty:
            raise Missing(f"{g.game}: no {net} rows in imitation_accuracy.csv")
        cis = [acc_ci(r, "val_acc") for r in rows.to_dict("records")]
        rows = pd.DataFrame({"bot": rows["bot"], "baseline": rows["baseline"],
                             "val_acc": rows["val_acc_mean"],
                             "sd": rows.get("val_acc_std", np.nan),
                             "n": rows.get("folds", np.nan)})
    half = []
    for sd, n in zip(rows["sd"], rows["n"], strict=True):
        ok = pd.notna(sd) and pd.notna(n) and n > 1
        # no spread: no CI (NaN), never a zero-width one that would print as certain
        half.append(float(stats.t.ppf(0.975, n - 1) * sd / math.sqrt(n)) if ok and sd > 0
                    else math.nan)
    out = rows[["bot", "baseline", "val_acc"]].reset_index(drop=True).astype(
        {"baseline": float, "val_acc": float})
    out["val_acc_lo"] = (out["val_acc"] - half).clip(lower=0.0)
    out["val_acc_hi"] = (out["val_acc"] + half).clip(upper=100.0)
    if net != "mean":  # a single model's bootstrap CI where the table has one
        for i, (lo, hi) in enumerate(cis):
            if lo is not None and hi is not None:
                out.loc[i, ["val_acc_lo", "val_acc_hi"]] = [max(lo, 0.0), min(hi, 100.0)]
    out["margin"] = out["val_acc"] - out["baseline"]
    return out


def game_accuracy(g: GameResults) -> pd.DataFrame:
    """:func:`accuracy_by_bot` as the thesis reads a game: Snake's mean over its five nets (Fig
    2.7), the evaluation net's elsewhere (Tables 4.4, 5.6)."""
    return accuracy_by_bot(g, "mean" if g.game == "snake" else None)


def thesis_value(table: str, game: str, subject: str, metric: str) -> float:
    """One number the thesis prints (config/thesis/numbers.csv)."""
    from ime.thesis.reference import value

    return float(value(table, game, subject, metric))


def spearman(x: list[float], y: list[float]) -> tuple[float, float]:
    """Spearman's rho and its p-value."""
    from scipy import stats

    r = stats.spearmanr(x, y)
    return float(r.statistic), float(r.pvalue)


# --- printing the numbers ---------------------------------------------------------------------
def round_half_away(x: float, nd: int = 1) -> float:
    """``x`` rounded to ``nd`` decimals half away from zero, on its shortest decimal form (7.55
    -> 7.6, 10.75 -> 10.8, -0.25 -> -0.3), where Python's format rounds the binary value
    (7.55 -> 7.5) and round() halves to even: the report shows every number one way."""
    from decimal import ROUND_HALF_UP, Decimal

    if math.isnan(x) or math.isinf(x):
        return x
    return float(Decimal(repr(float(x))).quantize(Decimal(1).scaleb(-nd),
                                                   rounding=ROUND_HALF_UP))


def fmt(x: float | None, nd: int = 1, sign: bool = False) -> str:
    """``x`` with ``nd`` decimals, rounded half away from zero (``nan`` for a missing value;
    ``sign``: a + before a positive one)."""
    if x is None or (isinstance(x, float) and math.isnan(x)):
        return "nan"
    return f"{round_half_away(float(x), nd):{'+' if sign else ''}.{nd}f}"


NO_CI = "no CI (spread unknown)"
"""What the report prints in place of a CI whose spread is unknown (a single model without
per-match counts, a share over a single match): never a zero-width "[93.1, 93.1]". A share
of 0 or 100 % over two or more key matches has Clopper-Pearson's interval instead
(:mod:`ime.thesis.boundary`)."""


def ci_text(row: Mapping[str, Any], col: str) -> str:
    """``x [lo, hi]`` of an estimate with CI columns; ``x (no CI (spread unknown))`` where the
    table has CI columns but this estimate's is missing or of zero width; just ``x`` for a
    table without CI columns."""
    if f"{col}_lo" not in row and f"{col}_hi" not in row:
        return fmt(float(row[col]))
    lo, hi = row.get(f"{col}_lo"), row.get(f"{col}_hi")
    if lo is None or hi is None or pd.isna(lo) or pd.isna(hi) or not float(hi) > float(lo):
        return f"{fmt(float(row[col]))} ({NO_CI})"
    return f"{fmt(float(row[col]))} [{fmt(float(lo))}, {fmt(float(hi))}]"


def lo_hi(row: Mapping[str, Any], col: str) -> tuple[float, float]:
    """The CI of ``col`` in ``row`` (the point estimate twice where the run has no CI)."""
    x = float(row[col])
    lo, hi = row.get(f"{col}_lo"), row.get(f"{col}_hi")
    return (x if lo is None or pd.isna(lo) else float(lo),
            x if hi is None or pd.isna(hi) else float(hi))


def label(g: GameResults, bot: str) -> str:
    """``rev1 (bot 1)``: our bot and the thesis's number of it."""
    n = g.thesis_no(bot)
    return f"{bot} (bot {n})" if n is not None else bot


def show(rows: Mapping[int, Any], col: str, nos: tuple[int, ...] | None = None) -> str:
    """``bot 1 x [lo, hi], bot 2 ...`` of ``col`` over the thesis's bots ``nos``."""
    nos = nos or tuple(sorted(rows))
    return ", ".join(f"bot {n} {ci_text(rows[n], col)}" for n in nos)
