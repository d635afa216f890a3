"""The two similarities of the thesis (section 3.2) and their confidence intervals.

* S1, single-step action similarity (eq. 3-1): ``S1 = (1/N) sum_i IsSame(A_i0, A_i1)``, the
  fraction of key states on which the agent picks the target's action.
* S2, endgame win/loss similarity (eq. 3-2): ``S2 = (1/N) sum_i IsSame(W_i0, W_i1)``, the fraction
  of key endgames that the agent, finishing the game in the target's seat against the stored
  opponent, ends with the target's result (win, draw or loss compared as categories).

The thesis's pseudo-code (Fig 3.5) counts ``action_i != action``, i.e. ``1 - S1``; that contradicts
its own equation and its tables (an imitator's S1 is 60-80 %, far above its disagreement), so the
equation is what is implemented here, and a unit test pins it.

Confidence intervals are percentile bootstraps *clustered by match*: several keys can come from
one match and share its opening and opponent, so resampling keys independently would understate
the uncertainty. Resampling whole matches (with replacement) keeps that correlation.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass
from typing import Any

import numpy as np
import pandas as pd

from ime.core.intervals import clopper_pearson
from ime.core.seeding import derive_seed


def is_same(a: Sequence | np.ndarray, b: Sequence | np.ndarray) -> np.ndarray:
    """Elementwise ``IsSame`` of eq. (3-1)/(3-2): 1.0 where equal, else 0.0."""
    a = np.asarray(a)
    b = np.asarray(b)
    if a.shape != b.shape:
        raise ValueError(f"IsSame needs aligned arrays, got shapes {a.shape} and {b.shape}")
    return (a == b).astype(np.float64)


def _actions(col: pd.Series) -> np.ndarray:
    """Stored actions for ``IsSame``: integer codes as ``int``, other actions (canonical JSON
    strings, :func:`ime.evaluate.forks.action_key`) as strings."""
    if pd.api.types.is_numeric_dtype(col):
        return col.astype(int).to_numpy()
    return col.astype(str).to_numpy()


def s1(agent_actions: Sequence | np.ndarray, target_actions: Sequence | np.ndarray) -> float:
    """Eq. (3-1): mean agreement of single-step actions on the same states."""
    same = is_same(agent_actions, target_actions)
    if same.size == 0:
        raise ValueError("S1 of an empty state set is undefined")
    return float(same.mean())


def s2(agent_outcomes: Sequence | np.ndarray, target_outcomes: Sequence | np.ndarray) -> float:
    """Eq. (3-2): mean agreement of endgame outcomes (win / draw / loss) on the same endgames."""
    same = is_same(agent_outcomes, target_outcomes)
    if same.size == 0:
        raise ValueError("S2 of an empty endgame set is undefined")
    return float(same.mean())


def cluster_bootstrap_ci(
    values: Sequence[float] | np.ndarray,
    clusters: Sequence | np.ndarray,
    *,
    n_boot: int = 1000,
    level: float = 0.95,
    seed: int = 0,
    salt: str = "",
) -> tuple[float, float]:
    """Percentile CI of the mean of ``values``, resampling whole clusters with replacement.

    Each replicate draws as many clusters as there are, with replacement, and takes the mean of
    all their values (a ratio estimator, so clusters of different sizes weigh by their size).

    Fewer than two clusters give no interval (NaN, NaN): resampling one cluster returns it
    every time, a zero-width interval that would read as certainty. It happens where a score
    rests on one match, as a quick run's held-out keys can (all 23 of snk14's are plies of
    one match), and the keys of one match are one observation, not 23.

    Values that are all 1 (or all 0), a share of 100 % (or 0 %), get :func:`clopper_pearson`'s
    exact interval over the clusters instead: their resampling would collapse to a zero-width
    interval, and the checks would then read the spread as unknown although ``m`` clusters
    that all agree do bound it (119 of 119 matches: [96.9, 100] %).
    """
    v = np.asarray(values, dtype=np.float64)
    if v.size == 0:
        return (float("nan"), float("nan"))
    _, inv = np.unique(np.asarray(clusters), return_inverse=True)
    sums = np.bincount(inv, weights=v)
    counts = np.bincount(inv).astype(np.float64)
    m = len(sums)
    if m < 2:
        return (float("nan"), float("nan"))
    if (v == v[0]).all() and v[0] in (0.0, 1.0):
        # every key agrees (or none does): resampling returns the same share every time, a
        # zero-width interval that reads as certainty. Clopper-Pearson over the clusters, each
        # one observation (conservative: a match's keys are not independent of each other)
        k = m if v[0] == 1.0 else 0
        return clopper_pearson(k, m, level)
    rng = np.random.default_rng(derive_seed("bootstrap", seed, salt))
    reps = np.empty(n_boot)
    step = max(1, 2_000_000 // max(m, 1))
    for lo in range(0, n_boot, step):
        hi = min(n_boot, lo + step)
        idx = rng.integers(0, m, size=(hi - lo, m))
        reps[lo:hi] = sums[idx].sum(axis=1) / counts[idx].sum(axis=1)
    alpha = (1.0 - level) / 2.0
    q = np.quantile(reps, [alpha, 1.0 - alpha])
    return float(q[0]), float(q[1])


@dataclass
class Similarity:
    """S1/S2 of one agent against one target on the target's key set, with CIs."""

    agent: str
    target: str
    n: int
    n_matches: int
    s1: float
    s1_lo: float
    s1_hi: float
    s2: float
    s2_lo: float
    s2_hi: float
    baseline: float  # random-choice S1 (thesis eq. 4-1): mean of 1 / #legal on these states

    def to_row(self) -> dict:
        return asdict(self)


def similarity(
    keys: pd.DataFrame,
    scores: pd.DataFrame,
    *,
    agent: str,
    target: str,
    n_boot: int = 1000,
    level: float = 0.95,
    seed: int = 0,
) -> Similarity:
    """S1 and S2 of ``scores`` (an agent's rows) against the key set's target columns.

    ``keys`` needs ``match_id, ply, seat, action, target_outcome, n_legal``; ``scores`` needs
    ``match_id, ply, seat, action, outcome``. Rows are matched on (match_id, ply, seat), so
    order does not matter, but every key must have a score.
    """
    on = ["match_id", "ply", "seat"]
    merged = keys[[*on, "action", "target_outcome", "n_legal"]].merge(
        scores[[*on, "action", "outcome"]], on=on, how="left", suffixes=("_target", "_agent"),
        validate="one_to_one")
    if merged["outcome"].isna().any():
        missing = int(merged["outcome"].isna().sum())
        raise ValueError(f"{agent} on {target}: {missing} key(s) have no score")
    same1 = is_same(_actions(merged["action_agent"]), _actions(merged["action_target"]))
    same2 = is_same(merged["outcome"].astype(int), merged["target_outcome"].astype(int))
    clusters = merged["match_id"].to_numpy()
    salt = f"{agent}|{target}"
    lo1, hi1 = cluster_bootstrap_ci(same1, clusters, n_boot=n_boot, level=level, seed=seed,
                                    salt=salt + "|s1")
    lo2, hi2 = cluster_bootstrap_ci(same2, clusters, n_boot=n_boot, level=level, seed=seed,
                                    salt=salt + "|s2")
    return Similarity(
        agent=agent, target=target, n=len(merged), n_matches=int(pd.unique(clusters).size),
        s1=float(same1.mean()), s1_lo=lo1, s1_hi=hi1,
        s2=float(same2.mean()), s2_lo=lo2, s2_hi=hi2,
        baseline=float((1.0 / merged["n_legal"].astype(float)).mean()),
    )


def heldout_similarity(keys: pd.DataFrame, scores: pd.DataFrame, *, agent: str, target: str,
                       **boot: Any) -> Similarity | None:
    """S1/S2 of a held-out score file (``imit_<bot>@heldout``): on the keys a fold that never
    trained on the key's match could play (the scores' rows; a key whose match every fold saw
    has none). None when no key is held out."""
    if not len(scores):
        return None
    on = ["match_id", "ply", "seat"]
    subset = keys.merge(scores[on], on=on)
    return similarity(subset, scores, agent=agent, target=target, **boot)


def pairwise_similarity(
    keys: Mapping[str, pd.DataFrame],
    scores: Mapping[tuple[str, str], pd.DataFrame],
    bots: Sequence[str],
    *,
    n_boot: int = 1000,
    level: float = 0.95,
    seed: int = 0,
) -> pd.DataFrame:
    """Symmetric S1/S2 between every two bots: pooled over *both* bots' key sets.

    ``scores[(agent, target)]`` is the agent's score table on ``keys[target]``. For a pair
    (i, j) the sample is j's rows on i's keys (compared with i's stored action/result) plus i's
    rows on j's keys (compared with j's), so S(i, j) = S(j, i) by construction, as in the
    thesis's Tables 4.6/4.7 (which list one number per pair). Bootstrap clusters are matches.
    Returns a long table: ``a, b, s1, s1_lo, s1_hi, s2, s2_lo, s2_hi, n``.
    """
    rows = []
    on = ["match_id", "ply", "seat"]
    for ia, a in enumerate(bots):
        for b in bots[ia + 1:]:
            parts = []
            for tgt, agt in ((a, b), (b, a)):
                if tgt not in keys or (agt, tgt) not in scores:
                    continue
                k = keys[tgt][[*on, "action", "target_outcome"]]
                m = k.merge(scores[(agt, tgt)][[*on, "action", "outcome"]], on=on,
                            suffixes=("_t", "_a"), validate="one_to_one")
                m["same1"] = is_same(_actions(m["action_a"]), _actions(m["action_t"]))
                m["same2"] = is_same(m["outcome"].astype(int), m["target_outcome"].astype(int))
                parts.append(m[["same1", "same2", "match_id"]])
            if not parts:
                continue
            df = pd.concat(parts, ignore_index=True)
            # a match between the two bots appears in both key sets: one cluster, not two
            cl = df["match_id"].to_numpy()
            salt = f"pair|{a}|{b}"
            lo1, hi1 = cluster_bootstrap_ci(df["same1"], cl, n_boot=n_boot, level=level,
                                            seed=seed, salt=salt + "|s1")
            lo2, hi2 = cluster_bootstrap_ci(df["same2"], cl, n_boot=n_boot, level=level,
                                            seed=seed, salt=salt + "|s2")
            rows.append({"a": a, "b": b, "s1": float(df["same1"].mean()), "s1_lo": lo1,
                         "s1_hi": hi1, "s2": float(df["same2"].mean()), "s2_lo": lo2,
                         "s2_hi": hi2, "n": len(df), "sets": len(parts)})
    return pd.DataFrame(rows, columns=["a", "b", "s1", "s1_lo", "s1_hi", "s2", "s2_lo", "s2_hi",
                                       "n", "sets"])


def to_matrix(pairs: pd.DataFrame, bots: Sequence[str], column: str,
              diagonal: float = 1.0) -> pd.DataFrame:
    """Square symmetric matrix from :func:`pairwise_similarity`'s long table (NaN if missing)."""
    mat = pd.DataFrame(np.nan, index=list(bots), columns=list(bots))
    for b in bots:
        mat.loc[b, b] = diagonal
    for r in pairs.itertuples(index=False):
        v = getattr(r, column)
        if r.a in mat.index and r.b in mat.index:
            mat.loc[r.a, r.b] = v
            mat.loc[r.b, r.a] = v
    return mat
