"""Confidence intervals of a proportion, shared by the stages that count successes in trials.

Why here: a share of independent trials (identifications, games won) needs an interval that
stays inside [0, 1] and behaves at 0 % and 100 %, which the normal approximation does not; the
Wilson score interval does, and has no random draws, so the same counts always give the same
bytes. (Connect Four's and Big-2's studies carry a 95 % copy of their own.) A share of 0 or
100 % that would otherwise get a collapsed bootstrap interval gets :func:`clopper_pearson`'s.
"""

from __future__ import annotations

import math
from statistics import NormalDist


def z_of(level: float) -> float:
    """The two-sided normal quantile of a CI ``level`` (0.95 -> 1.95996...)."""
    if not 0.0 < level < 1.0:
        raise ValueError(f"a CI level is strictly between 0 and 1, got {level}")
    return NormalDist().inv_cdf(0.5 + level / 2.0)


def wilson(successes: float, n: int, level: float = 0.95) -> tuple[float, float]:
    """Wilson score interval of the proportion ``successes / n``, as fractions.

    ``n == 0`` gives ``(nan, nan)``: no trials say nothing, and a table must not show an
    interval for them."""
    if n < 0 or successes < 0 or successes > n:
        raise ValueError(f"wilson: need 0 <= successes <= n, got {successes} of {n}")
    if n == 0:
        return float("nan"), float("nan")
    z = z_of(level)
    p = successes / n
    den = 1.0 + z * z / n
    mid = (p + z * z / (2.0 * n)) / den
    half = z * math.sqrt(p * (1.0 - p) / n + z * z / (4.0 * n * n)) / den
    return max(0.0, mid - half), min(1.0, mid + half)


def clopper_pearson(successes: int, n: int, level: float = 0.95) -> tuple[float, float]:
    """Clopper-Pearson's exact interval of the proportion ``successes / n``, as fractions.

    Why beside :func:`wilson`: a share of 0 or 100 % that a bootstrap resamples gives the same
    share every time, a zero-width interval that reads as certainty. The exact interval is the
    one a referee expects there: at ``n`` of ``n`` its lower end is ``(alpha / 2) ** (1 / n)``
    (128 of 128: 97.2 %), with no random draws. ``n == 0`` gives ``(nan, nan)``."""
    if n < 0 or successes < 0 or successes > n:
        raise ValueError(f"clopper_pearson: need 0 <= successes <= n, got {successes} of {n}")
    if n == 0:
        return float("nan"), float("nan")
    half = (1.0 - level) / 2.0
    if not 0.0 < half < 0.5:
        raise ValueError(f"a CI level is strictly between 0 and 1, got {level}")
    if successes == 0:
        return 0.0, 1.0 - half ** (1.0 / n)
    if successes == n:
        return half ** (1.0 / n), 1.0
    from scipy.stats import beta  # only between the ends: the ends have a closed form

    return (float(beta.ppf(half, successes, n - successes + 1)),
            float(beta.ppf(1.0 - half, successes + 1, n - successes)))


def newcombe(successes1: float, n1: int, successes2: float, n2: int,
             level: float = 0.95) -> tuple[float, float]:
    """Newcombe's hybrid score interval of the difference of two proportions ``p1 - p2``
    (Newcombe 1998, method 10), from each proportion's :func:`wilson` interval.

    It stays inside [-1, 1], behaves near 0 % and 100 %, and is conservative when the two
    samples are paired (the same openings and seats played twice) rather than independent.
    Either ``n`` being 0 gives ``(nan, nan)``."""
    if n1 == 0 or n2 == 0:
        return float("nan"), float("nan")
    p1, p2 = successes1 / n1, successes2 / n2
    l1, u1 = wilson(successes1, n1, level)
    l2, u2 = wilson(successes2, n2, level)
    d = p1 - p2
    lo = d - math.sqrt((p1 - l1) ** 2 + (u2 - p2) ** 2)
    hi = d + math.sqrt((u1 - p1) ** 2 + (p2 - l2) ** 2)
    return max(-1.0, lo), min(1.0, hi)
