"""The clone test of Dailey, Hair & Watkins ("Move similarity analysis in chess programs").

They measured how often each of about 100 chess engines chose the same move on fixed positions
and flagged a pair whose match rate lies more than 5 standard deviations above the mean of all
pairs as a likely clone (one program derived from the other). Here the rate is S1 between two
originals on the key positions (``similarity_pairs.csv``: pooled over both key sets).

**Leave-one-out.** With a pool of ``P`` pairs, one pair's z-score against a mean and standard
deviation that include that pair can never exceed ``(P - 1) / sqrt(P)`` (2.8 for the ten pairs
of five bots), so a 5-sigma flag would be impossible for every zoo smaller than ~27 pairs. Each
pair is therefore scored against the *other* pairs:

    z(p) = (S1(p) - mean_{q != p} S1(q)) / sd_{q != p} S1(q)        (sample sd, ddof 1)

and flagged when ``z(p) > sigma`` (``evaluate.agreement.clone_sigma``, default 5). A pool with
fewer than three other pairs, or with no spread, gives no z (NaN) and no flag.

**Imitators as positive controls.** Each imitator against its original (``similarity.csv``) is
scored against the whole originals' pool (it is not part of it): an imitator built to copy a bot
should read as its clone, and how far above the pool it lies says how much of a clone it is.
"""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np
import pandas as pd

from ime.evaluate.agents import imitator_id

CLONE_COLUMNS = ["a", "b", "kind", "s1", "pool_pairs", "pool_mean", "pool_sd", "z", "clone"]


def _z(x: float, pool: np.ndarray) -> tuple[float, float, float]:
    """(mean, sd, z) of ``x`` against ``pool``; NaN when the pool is too small or flat."""
    if len(pool) < 3:
        return float("nan"), float("nan"), float("nan")
    mean, sd = float(pool.mean()), float(pool.std(ddof=1))
    return mean, sd, (float((x - mean) / sd) if sd > 0 else float("nan"))


def clone_test(pairs: pd.DataFrame, imitators: Mapping[str, float] | None = None, *,
               sigma: float = 5.0, column: str = "s1") -> pd.DataFrame:
    """Every pair of ``pairs`` (``a, b, <column>``) scored against the rest of the pool, then
    every ``imitators`` entry (original -> its imitator's S1 on the original's keys) against the
    whole pool (the module doc). ``clone`` is ``z > sigma``."""
    if sigma <= 0:
        raise ValueError(f"clone test: sigma must be positive, got {sigma}")
    missing = {"a", "b", column} - set(pairs.columns)
    if missing:
        raise ValueError(f"clone test: the pairs table lacks {sorted(missing)}")
    s = pairs[column].astype(float).to_numpy()
    ok = np.isfinite(s)
    rows = []
    for i, r in enumerate(pairs.itertuples(index=False)):
        if not ok[i]:
            continue
        others = s[ok & (np.arange(len(s)) != i)]
        mean, sd, z = _z(s[i], others)
        rows.append({"a": r.a, "b": r.b, "kind": "originals", "s1": s[i],
                     "pool_pairs": len(others), "pool_mean": mean, "pool_sd": sd, "z": z})
    pool = s[ok]
    for target, value in (imitators or {}).items():
        if value is None or not np.isfinite(value):
            continue
        mean, sd, z = _z(float(value), pool)
        rows.append({"a": target, "b": imitator_id(target), "kind": "imitator",
                     "s1": float(value), "pool_pairs": len(pool), "pool_mean": mean,
                     "pool_sd": sd, "z": z})
    out = pd.DataFrame(rows, columns=CLONE_COLUMNS)
    out["clone"] = (out["z"] > sigma).fillna(False).astype(bool)
    return out
