"""Intervals of a proportion (ime.core.intervals): Clopper-Pearson's exact interval, the one a
share of 0 or 100 % gets where a bootstrap would collapse to a point."""

from __future__ import annotations

import math

import pytest

from ime.core.intervals import clopper_pearson, wilson


def test_clopper_pearson_matches_its_closed_forms_and_published_values() -> None:
    # n of n: lower end (alpha / 2) ** (1 / n); 0 of n: the mirror image
    lo, hi = clopper_pearson(128, 128)
    assert hi == 1.0 and lo == pytest.approx(0.025 ** (1 / 128)) and 0.971 < lo < 0.972
    lo, hi = clopper_pearson(0, 10)
    assert lo == 0.0 and hi == pytest.approx(0.3085, abs=1e-4)
    # 5 of 10 at 95 %: [0.1871, 0.8129] (Clopper & Pearson 1934; any exact binomial table)
    lo, hi = clopper_pearson(5, 10)
    assert (lo, hi) == (pytest.approx(0.1871, abs=1e-4), pytest.approx(0.8129, abs=1e-4))
    # exact is never narrower than Wilson's score interval at the ends
    assert clopper_pearson(30, 30)[0] < wilson(30, 30)[0]


def test_clopper_pearson_of_no_trials_is_undefined_and_bad_counts_are_errors() -> None:
    assert all(math.isnan(x) for x in clopper_pearson(0, 0))
    with pytest.raises(ValueError, match="0 <= successes <= n"):
        clopper_pearson(11, 10)
    with pytest.raises(ValueError, match="strictly between 0 and 1"):
        clopper_pearson(5, 10, level=1.0)
