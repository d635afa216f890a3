"""Tests for the claims that neither order nor compare two estimates: a clustering or split
("bot 3 forms a cluster of its own"), a closeness ("differ little", "about 90 %") and a claim
about one recorded trace.

Why a module of its own: a z-test of a difference does not fit these claims, and deciding them
on the point estimates alone says nothing of whether the data could have said otherwise.

* **Clusters and splits** are redrawn: a parametric bootstrap draws each bot's estimates
  (S1/S2, or each net's validation accuracy) from a normal with the standard error its archived
  95 % CI implies (SE = half-width / 1.96, the estimates independent), and the pipeline's own
  clustering (:func:`ime.evaluate.clustering.cluster_points`) or split
  (:func:`ime.games.snake.results.bisect_by_count`) is drawn again each time. The claim holds
  when it appears in at least 95 % of the :data:`RESAMPLES` seeded resamples, does not hold
  when it appears in at most 5 %, and is inconclusive between: a partition that flips with
  noise of the size the CIs show is not a finding.
* **Closeness claims** are equivalence tests against a margin stated in the check's docstring:
  the claim holds only when the data exclude a difference as large as the margin (one-sided
  at 5 %, TOST for a two-sided band), and does not hold only when they exclude one as small.
* **One recorded trace, or an exact count** (the case study's key endgame, a baseline computed
  over every decision of a dataset) has nothing sampled to test over; the test column says so
  (:func:`exact`) and the verdict stays decided.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace

import numpy as np
import pandas as pd

from ime.thesis.checks.core import (
    ALPHA,
    HOLDS,
    PRINTED,
    PRINTED_NOTE,
    SPREAD_UNKNOWN,
    UNTESTABLE,
    Verdict,
    fmt,
    se_of_ci,
)

RESAMPLES = 2000
"""Parametric bootstrap resamples of a cluster, split or closeness check."""
SEED = 0
"""The resamples' seed, so that a report is reproducible."""
STABLE = 0.95
"""The share of resamples in which a claimed partition must appear for it to hold (and at most
1 - STABLE for it not to hold)."""
EXACT = "exact: "
"""How a test column begins whose verdict rests on one recorded trace or an exact count."""


def exact(v: Verdict, why: str, n: int | None = None) -> Verdict:
    """``v`` with its test column saying why no test applies (``why``: one recorded trace, a
    count over a whole dataset); it stays decided on its numbers."""
    if v.status == UNTESTABLE:
        return v
    return replace(v, test=EXACT + why, n=n, decided=None)


def spread_unknown(v: Verdict, method: str, unknown: Sequence[str]) -> Verdict:
    """``v`` undecided: the estimates ``unknown`` have no CI (or a zero-width one), so nothing
    can be redrawn or bounded."""
    if v.status == UNTESTABLE:
        return v
    if PRINTED.get():  # the thesis's printed tables: decided on them, as the test says
        return replace(v, test=f"{method}: " + PRINTED_NOTE.format(what=", ".join(unknown)),
                       decided=None)
    return replace(v, test=f"{method}: " + SPREAD_UNKNOWN.format(what=", ".join(unknown)),
                   decided=False)


def draws(means: np.ndarray, ses: np.ndarray, n: int = RESAMPLES,
          seed: int = SEED) -> np.ndarray:
    """``n`` seeded normal draws of the estimates ``means`` with standard errors ``ses``
    (shape ``(n, *means.shape)``)."""
    rng = np.random.default_rng(seed)
    return means + ses * rng.standard_normal((n, *np.shape(means)))


def share_tested(v: Verdict, hits: np.ndarray, method: str, n_items: int,
                 point_share: float | None = None, seed: int = SEED) -> Verdict:
    """``v`` with the share of resamples in which its claim appears (``hits``, one bool per
    resample): decided when the share is at least :data:`STABLE` for holds, at most
    1 - :data:`STABLE` for does not hold; ``p`` is the share of resamples against the verdict.

    ``point_share``: the share of resamples that reproduce the partition of the point
    estimates. Under noise so large that every partition is scrambled, any one partition, the
    claimed one included, appears rarely; that is no evidence against the claim. So does not
    hold also needs the point estimates' own partition to recur in more than 1 - STABLE of
    the resamples: the data must show another partition, not none."""
    if v.status == UNTESTABLE:
        return v
    share = float(np.mean(hits))
    scrambled = point_share is not None and point_share <= 1 - STABLE
    decided = (share >= STABLE if v.status == HOLDS
               else share <= 1 - STABLE and not scrambled)
    p = 1 - share if v.status == HOLDS else share
    test = (f"{method}; the claim appears in {fmt(100 * share)} % of {len(hits)} resamples "
            f"(seed {seed}; holds at >= {100 * STABLE:g} %, does not hold at <= "
            f"{100 * (1 - STABLE):g} %)")
    if point_share is not None:
        test += (f", the point estimates' own partition in {fmt(100 * point_share)} %"
                 + (" (scrambled by noise: decides nothing against the claim)" if scrambled
                    and v.status != HOLDS else ""))
    return replace(v, test=test + f"; n = {n_items}", p=p, n=n_items, decided=decided)


def partition(groups: Mapping[str, object]) -> frozenset[frozenset[str]]:
    """The partition a bot -> label mapping makes, whatever the labels' names: two clusterings
    agree when they group the same bots together."""
    by: dict[object, set[str]] = {}
    for b, x in groups.items():
        by.setdefault(x, set()).add(b)
    return frozenset(frozenset(s) for s in by.values())


# --- clusters by imitation similarity -------------------------------------------------------
CLUSTER_METHOD = ("parametric bootstrap: each bot's (S1, S2) redrawn from its 95 % CI (normal, "
                  "SE = half-width / 1.96, the whole width for a share at 0 or 100 %, "
                  "independent) and clustered again by the pipeline's "
                  "clustering (ime.evaluate.clustering.cluster_points, average linkage, as "
                  "many clusters as clusters.csv)")


def cluster_draws(s1s2: pd.DataFrame, bots: Sequence[str], k: int, n: int = RESAMPLES,
                  seed: int = SEED) -> tuple[list[dict[str, int]] | None, list[str]]:
    """The clusters of ``bots`` (each resample's bot -> cluster) from ``n`` redraws of their
    imitators' S1/S2 (``s1s2``: s1s2_imitator.csv, CI columns ``S1_lo`` ...); None and the
    estimates without a usable CI when some have none."""
    from ime.evaluate.clustering import cluster_points

    t = s1s2.set_index("bot")
    means, ses, unknown = [], [], []
    for b in bots:
        row = []
        for m in ("S1", "S2"):
            se = se_of_ci(t.loc[b].get(f"{m}_lo"), t.loc[b].get(f"{m}_hi"), t.loc[b, m])
            if se is None:
                unknown.append(f"{b} {m}")
            row.append((float(t.loc[b, m]), se or 0.0))
        means.append([x for x, _ in row])
        ses.append([s for _, s in row])
    if unknown:
        return None, unknown
    d = draws(np.asarray(means), np.asarray(ses), n, seed)
    out = []
    for x in d:
        labels, _ = cluster_points(pd.DataFrame(x, index=list(bots), columns=["S1", "S2"]), k)
        out.append(dict(zip(labels["bot"], (int(c) for c in labels["cluster"]), strict=True)))
    return out, []


def cluster_claim_share(s1s2: pd.DataFrame | None, clusters: pd.DataFrame,
                        claim: Callable[[Mapping[str, int]], bool]
                        ) -> tuple[np.ndarray | None, np.ndarray | None, list[str]]:
    """Per resample: whether ``claim`` (of a bot -> cluster mapping) holds on the clusters
    redrawn from ``s1s2`` for the bots of ``clusters`` (clusters.csv, with as many clusters as
    it has), and whether they are clusters.csv's own partition; None, None and the reason
    where the S1/S2 CIs are missing."""
    bots = [str(b) for b in clusters["bot"]]
    if s1s2 is None or not set(bots) <= set(s1s2["bot"]):
        return None, None, ["the clustered bots' S1/S2"]
    k = int(clusters["cluster_imitation"].nunique())
    redrawn, unknown = cluster_draws(s1s2, bots, k)
    if redrawn is None:
        return None, None, unknown
    point = partition(dict(zip(bots, clusters["cluster_imitation"], strict=True)))
    return (np.array([claim(c) for c in redrawn]),
            np.array([partition(c) == point for c in redrawn]), [])


def alone(c: Mapping[str, int], bot: str, others: Sequence[str]) -> bool:
    """``bot``'s cluster holds none of ``others``, and ``others`` share one cluster."""
    rest = {c[o] for o in others}
    return c[bot] not in rest and len(rest) == 1


# --- closeness: equivalence tests -------------------------------------------------------------
def equivalence_below(v: Verdict, stat: Callable[[np.ndarray], np.ndarray],
                      means: np.ndarray, ses: np.ndarray, margin: float, method: str,
                      n_items: int) -> Verdict:
    """``v`` (a closeness claim: ``stat`` of the estimates is under ``margin``) with a
    parametric bootstrap equivalence test: the estimates ``means`` are redrawn with their
    standard errors ``ses``; ``stat`` maps an array of shape ``(resamples, *means.shape)`` to
    one value per resample. A spread or an absolute gap is biased upward by noise (near zero
    the redrawn gaps are all larger than the point's), so each bound is taken on its safe side:
    the upper bound U is the 95th percentile of the redrawn statistic (noise only raises it),
    the lower bound L = 2 x point - U (the basic bootstrap's, which noise only lowers). Holds
    when U is under ``margin`` (p = the share of redrawn statistics at or above it); does not
    hold when L is above it (p = the share of the basic distribution at or below it): both
    one-sided at 5 %, and conservative where the noise is large."""
    if v.status == UNTESTABLE:
        return v
    point = float(stat(means[None, ...])[0])
    redrawn = stat(draws(means, ses))
    hi = float(np.quantile(redrawn, 1 - ALPHA))
    lo = 2 * point - hi
    if v.status == HOLDS:
        p, decided = float(np.mean(redrawn >= margin)), hi < margin
    else:
        p, decided = float(np.mean(2 * point - redrawn <= margin)), lo > margin
    test = (f"{method}; equivalence margin {fmt(margin, 2)} points: one-sided 95 % bounds "
            f"[{fmt(lo, 2)}, {fmt(hi, 2)}] (upper: the redrawn statistic's 95th percentile; "
            "lower: 2 x point - upper; holds if the upper is below the margin, does not hold "
            f"if the lower is above; {RESAMPLES} resamples, seed {SEED}); p = {p:.3g}; "
            f"n = {n_items}")
    return replace(v, test=test, p=p, n=n_items, decided=decided)


def tost_band(v: Verdict, items: Sequence[tuple[str, float, float | None]], lo: float,
              hi: float, method: str) -> Verdict:
    """``v`` (every item's estimate inside [``lo``, ``hi``]) with two one-sided tests per item
    (normal, SE given; None: unknown spread). Holds when every item's TOST p (the larger of
    its two one-sided p's) is under 5 % (intersection-union: the 90 % CI of each inside the
    band); does not hold when one item is significantly outside it (one-sided, Bonferroni over
    the items)."""
    from scipy import stats

    if v.status == UNTESTABLE or not items:
        return v
    unknown = [w for w, _, se in items if se is None or not se > 0]
    k = len(items)
    p_in, p_out = [], []
    for _, m, se in items:
        if se is None or not se > 0:
            continue
        p_in.append(max(float(stats.norm.sf((m - lo) / se)), float(stats.norm.sf((hi - m) / se))))
        if m < lo:
            p_out.append(float(stats.norm.sf((lo - m) / se)))
        elif m > hi:
            p_out.append(float(stats.norm.sf((m - hi) / se)))
    printed = PRINTED.get()  # the thesis's printed tables: an item without spread, as printed
    if v.status == HOLDS:
        p = max(p_in) if p_in and (printed or not unknown) else None
        decided = (p is not None and p < ALPHA) or (printed and not p_in)
        rule = f"holds if every one of the {k} is inside at 5 % (largest TOST p)"
    else:
        p = min(1.0, min(p_out) * k) if p_out else None
        outside = [w for w, m, se in items if w in unknown and not lo <= m <= hi]
        decided = (p is not None and p < ALPHA) or (printed and bool(outside))
        rule = f"does not hold if one is outside at 5 % (one-sided, Bonferroni over {k})"
    text = (f"{method}; band [{fmt(lo)}, {fmt(hi)}]: {rule}: p = "
            + ("n/a" if p is None else f"{p:.3g}") + f"; n = {k}")
    if unknown:
        text += "; " + (PRINTED_NOTE if printed else SPREAD_UNKNOWN).format(
            what=", ".join(unknown))
    return replace(v, test=text, p=p, n=k, decided=decided)

