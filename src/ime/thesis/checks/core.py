"""What every conclusion check is made of: the verdict, the registry, and the lookups and
formatting the checks of all chapters share.

Why a module of its own: the chapters' checks (:mod:`.snake`, :mod:`.reversi`,
:mod:`.doudizhu`, :mod:`.chapter6`) and the claims several of them test (:mod:`.common`) read
tables and print numbers the same way, so that one verdict's numbers read like another's and a
missing table is always "cannot be tested", never an error.
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
    """A conclusion made of several: holds when all hold, untestable when any is. It claims
    no significance: its parts' CIs, where they have any, back only their own part."""
    text = " | ".join(v.numbers for v in verdicts)
    if any(v.status == UNTESTABLE for v in verdicts):
        return Verdict(UNTESTABLE, text)
    return verdict(all(v.status == HOLDS for v in verdicts), text)


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
    """Per bot: validation accuracy, its 95 % CI over folds (t interval), the baseline and the
    margin, for ``net`` (the evaluation net by default; ``"mean"``: every net's mean, as Fig
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
def fmt(x: float | None, nd: int = 1) -> str:
    """``x`` with ``nd`` decimals (``nan`` for a missing value)."""
    return "nan" if x is None or (isinstance(x, float) and math.isnan(x)) else f"{x:.{nd}f}"


def ci_text(row: Mapping[str, Any], col: str) -> str:
    """``x [lo, hi]`` of an estimate with CI columns (just ``x`` without them)."""
    lo, hi = row.get(f"{col}_lo"), row.get(f"{col}_hi")
    if lo is None or hi is None or pd.isna(lo) or pd.isna(hi):
        return fmt(float(row[col]))
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
