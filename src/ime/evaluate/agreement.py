"""Cohen's kappa: S1 corrected for the agreement two agents reach by chance (issue 48).

S1 (eq. 3-1) counts the key positions where two agents pick the same move. Part of that is
chance: on a position with two legal moves, two agents that ignore the position agree half the
time, on one with twenty a twentieth. Key sets differ in how many moves their positions offer
(Doudizhu's rule bots often have a handful, Reversi's middle game ten or more), so raw S1 is not
comparable across targets or games. Cohen's kappa rescales it so that 0 is chance and 1 is
complete agreement (Geirhos et al. 2020 do the same for error consistency):

    kappa = (S1 - p_e) / (1 - p_e)

**The chance model (``kappa``, the headline column).** ``p_e`` is the agreement expected of two
agents that play *uniformly at random among the legal moves*, independently, on the same keys:

    p_e = (1/N) sum_i sum_a (1/L_i) (1/L_i) = (1/N) sum_i 1 / L_i

with ``L_i`` the number of legal moves on key ``i`` (the key set's ``n_legal``). That is exactly
the thesis's random-choice baseline (eq. 4-1), so ``kappa`` says how far S1 is above that
baseline, as a share of the way to 1. Why uniform play and not each agent's own move frequencies:
every key is a different position and each agent plays it once, so there is no per-position
marginal to estimate, and the legal moves are the one thing both agents are given.

**A second model (``kappa_marginal``).** Cohen's classic estimate pools each agent's choices over
all keys into one distribution over action codes (``p_a(c)``: the share of keys on which agent
``a`` played code ``c``) and takes ``p_e = sum_c p_a(c) p_b(c)``. On a board game that credits
two bots that both favour corners with "chance" agreement, so it removes a shared *style*, not
only luck; it is given beside the headline for that contrast, as a point estimate.

**CIs** are percentile bootstraps clustered by match, as S1's own (:mod:`ime.evaluate.similarity`):
each replicate resamples whole matches and recomputes both S1 and ``p_e`` on the resampled keys,
then kappa from the two (a ratio of means, so not the mean of per-key kappas). Seeded by
``(seed, salt)`` through :func:`ime.core.seeding.derive_seed`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np
import pandas as pd

from ime.core.seeding import derive_seed
from ime.evaluate.similarity import _actions, is_same

ON = ["match_id", "ply", "seat"]
AGREEMENT_COLUMNS = ["agent", "target", "n", "s1", "p_e", "kappa", "kappa_lo", "kappa_hi",
                     "p_e_marginal", "kappa_marginal"]
PAIR_COLUMNS = ["a", "b", "n", "s1", "p_e", "kappa", "kappa_lo", "kappa_hi", "p_e_marginal",
                "kappa_marginal"]


def chance_uniform(n_legal: Sequence[int] | np.ndarray) -> np.ndarray:
    """Per key, the agreement of two independent uniform players: ``1 / L_i``."""
    n = np.asarray(n_legal, dtype=np.float64)
    if n.size and (n < 1).any():
        raise ValueError(f"a key with {int(n.min())} legal moves: chance needs at least one")
    return 1.0 / n


def kappa_of(s1: float | np.ndarray, p_e: float | np.ndarray) -> float | np.ndarray:
    """``(S1 - p_e) / (1 - p_e)``; NaN where ``p_e`` is 1 (every key forced: nothing to tell)."""
    s1 = np.asarray(s1, dtype=np.float64)
    p_e = np.asarray(p_e, dtype=np.float64)
    with np.errstate(divide="ignore", invalid="ignore"):
        out = np.where(p_e < 1.0, (s1 - p_e) / (1.0 - p_e), np.nan)
    return float(out) if out.ndim == 0 else out


def marginal_chance(a: Sequence | np.ndarray, b: Sequence | np.ndarray) -> float:
    """Cohen's pooled chance agreement ``sum_c p_a(c) p_b(c)`` of two aligned action columns."""
    a = np.asarray(a)
    b = np.asarray(b)
    if a.shape != b.shape or a.size == 0:
        raise ValueError(f"marginal chance needs two aligned, non-empty columns: {a.shape}, "
                         f"{b.shape}")
    ca = pd.Series(a).value_counts(normalize=True)
    cb = pd.Series(b).value_counts(normalize=True)
    both = ca.index.intersection(cb.index)
    return float((ca[both] * cb[both]).sum())


def cluster_bootstrap_means(columns: np.ndarray, clusters: Sequence | np.ndarray, *,
                            n_boot: int, seed: int, salt: str) -> np.ndarray:
    """``(n_boot, k)`` replicate means of each of ``columns``' ``k`` columns (rows = keys),
    resampling whole clusters with replacement (a ratio estimator, as
    :func:`ime.evaluate.similarity.cluster_bootstrap_ci`); every column sees the same draw."""
    v = np.asarray(columns, dtype=np.float64)
    if v.ndim != 2 or len(v) == 0:
        raise ValueError(f"need a non-empty (keys, k) array, got shape {v.shape}")
    _, inv = np.unique(np.asarray(clusters), return_inverse=True)
    m = int(inv.max()) + 1
    sums = np.stack([np.bincount(inv, weights=v[:, j], minlength=m) for j in range(v.shape[1])],
                    axis=1)
    counts = np.bincount(inv, minlength=m).astype(np.float64)
    rng = np.random.default_rng(derive_seed("bootstrap", seed, salt))
    reps = np.empty((n_boot, v.shape[1]))
    step = max(1, 2_000_000 // max(m * v.shape[1], 1))
    for lo in range(0, n_boot, step):
        hi = min(n_boot, lo + step)
        idx = rng.integers(0, m, size=(hi - lo, m))
        reps[lo:hi] = sums[idx].sum(axis=1) / counts[idx].sum(axis=1)[:, None]
    return reps


def kappa_estimate(same: np.ndarray, chance: np.ndarray, clusters: Sequence | np.ndarray, *,
                   n_boot: int = 1000, level: float = 0.95, seed: int = 0,
                   salt: str = "") -> dict[str, float]:
    """S1, ``p_e`` and kappa of per-key verdicts ``same`` and chances ``chance``, with kappa's
    bootstrap CI (NaN bounds when ``n_boot`` is 0)."""
    same = np.asarray(same, dtype=np.float64)
    chance = np.asarray(chance, dtype=np.float64)
    if same.shape != chance.shape or same.size == 0:
        raise ValueError(f"kappa needs aligned, non-empty verdicts and chances: {same.shape}, "
                         f"{chance.shape}")
    s1, p_e = float(same.mean()), float(chance.mean())
    lo = hi = float("nan")
    if n_boot:
        reps = cluster_bootstrap_means(np.stack([same, chance], axis=1), clusters,
                                       n_boot=n_boot, seed=seed, salt=salt + "|kappa")
        k = kappa_of(reps[:, 0], reps[:, 1])
        k = k[np.isfinite(k)]
        if k.size:
            alpha = (1.0 - level) / 2.0
            lo, hi = (float(x) for x in np.quantile(k, [alpha, 1.0 - alpha]))
    return {"s1": s1, "p_e": p_e, "kappa": kappa_of(s1, p_e), "kappa_lo": lo, "kappa_hi": hi}


def key_verdicts(keys: pd.DataFrame, scores: pd.DataFrame) -> pd.DataFrame:
    """Per key of ``keys`` (a target's key set): ``match_id``, the target's and the agent's
    action, ``same`` (eq. 3-1's IsSame) and ``chance`` (``1 / n_legal``). Every key needs a
    score, as for S1."""
    merged = keys[[*ON, "action", "n_legal"]].merge(
        scores[[*ON, "action"]], on=ON, how="left", suffixes=("_target", "_agent"),
        validate="one_to_one", indicator=True)
    if (merged["_merge"] != "both").any():
        raise ValueError(f"{int((merged['_merge'] != 'both').sum())} key(s) have no score")
    ta, aa = _actions(merged["action_target"]), _actions(merged["action_agent"])
    return pd.DataFrame({"match_id": merged["match_id"].to_numpy(), "target_action": ta,
                         "agent_action": aa, "same": is_same(aa, ta),
                         "chance": chance_uniform(merged["n_legal"])})


def _row(v: pd.DataFrame, *, n_boot: int, level: float, seed: int, salt: str) -> dict:
    est = kappa_estimate(v["same"].to_numpy(), v["chance"].to_numpy(), v["match_id"].to_numpy(),
                         n_boot=n_boot, level=level, seed=seed, salt=salt)
    pm = marginal_chance(v["agent_action"].astype(str), v["target_action"].astype(str))
    return {"n": len(v), **est, "p_e_marginal": pm, "kappa_marginal": kappa_of(est["s1"], pm)}


def agreement_table(keys: Mapping[str, pd.DataFrame],
                    scores: Mapping[tuple[str, str], pd.DataFrame], *, n_boot: int = 1000,
                    level: float = 0.95, seed: int = 0) -> pd.DataFrame:
    """Kappa of every scored ``(agent, target)`` (``scores[(agent, target)]`` on
    ``keys[target]``), rows sorted by (target, agent); targets without keys are left out."""
    rows = []
    for agent, target in sorted(scores, key=lambda p: (p[1], p[0])):
        if not len(keys.get(target, ())):
            continue
        v = key_verdicts(keys[target], scores[(agent, target)])
        rows.append({"agent": agent, "target": target,
                     **_row(v, n_boot=n_boot, level=level, seed=seed,
                            salt=f"{agent}|{target}")})
    return pd.DataFrame(rows, columns=AGREEMENT_COLUMNS)


def pairwise_agreement(keys: Mapping[str, pd.DataFrame],
                       scores: Mapping[tuple[str, str], pd.DataFrame], bots: Sequence[str], *,
                       n_boot: int = 1000, level: float = 0.95, seed: int = 0) -> pd.DataFrame:
    """Symmetric kappa between every two of ``bots``, pooled over both key sets exactly as
    :func:`ime.evaluate.similarity.pairwise_similarity` pools S1 (b on a's keys plus a on b's),
    so that its ``s1`` column is that table's."""
    rows = []
    for ia, a in enumerate(bots):
        for b in bots[ia + 1:]:
            parts = []
            for t, g in ((a, b), (b, a)):
                if not len(keys.get(t, ())) or (g, t) not in scores:
                    continue
                v = key_verdicts(keys[t], scores[(g, t)])
                if t == b:  # a's moves in one column, b's in the other (the marginals' roles)
                    v = v.rename(columns={"target_action": "agent_action",
                                          "agent_action": "target_action"})
                parts.append(v)
            if not parts:
                continue
            v = pd.concat(parts, ignore_index=True)
            rows.append({"a": a, "b": b, **_row(v, n_boot=n_boot, level=level, seed=seed,
                                                salt=f"pair|{a}|{b}")})
    return pd.DataFrame(rows, columns=PAIR_COLUMNS)
