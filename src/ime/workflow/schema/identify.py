"""``identify`` (config/identify/default.yaml): which bot played this? (issue 48,
:mod:`ime.evaluate.identify`, docs/identify.md).

The pipeline's identification table and ``ime identify`` read it; the CI level and the bootstrap
replicates are the evaluation's (``evaluate.ci``, ``evaluate.bootstrap``). Defaults are the YAML
file's.
"""

from __future__ import annotations

from typing import Annotated

from pydantic import AfterValidator, Field, PositiveInt

from ime.workflow.schema.common import NonEmpty, Section


def _distinct(v: list[int]) -> list[int]:
    if len(set(v)) != len(v):
        raise ValueError(f"has duplicates: {v}")
    return v


def _pool_sizes(v: list[int] | None) -> list[int] | None:
    if v is not None:
        _distinct(v)
        small = [s for s in v if s < 2]
        if small:
            raise ValueError(f"a pool holds at least 2 bots, got sizes {small}")
    return v


class Identify(Section):
    ks: Annotated[list[PositiveInt], NonEmpty, AfterValidator(_distinct)]
    """Matches per identification: the table's k curve."""
    pool_k: PositiveInt
    """The k of the pool-size curve."""
    pool_sizes: Annotated[list[int] | None, AfterValidator(_pool_sizes)]
    """Sub-pool sizes (null: every size from 2 to the pool's)."""
    pool_draws: PositiveInt
    """Random sub-pools per size."""
    epsilon: float = Field(ge=0, lt=1)
    """The uniform share mixed into every imitator's move distribution."""
    open_set_quantile: float = Field(ge=0, lt=1)
    """The held-out quantile of the true bot's mean per-move log-likelihood that sets the
    open-set threshold."""
    seed: int = Field(ge=0)
