"""``identify`` (config/identify/default.yaml): which bot played this? (issue 48,
:mod:`ime.evaluate.identify`, docs/identify.md).

The pipeline's identification table and ``ime identify`` read it; the CI level and the bootstrap
replicates are the evaluation's (``evaluate.ci``, ``evaluate.bootstrap``). Defaults are the YAML
file's.
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import AfterValidator, Field, PositiveInt

from ime.workflow.schema.common import BotIds, NonEmpty, Section


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


class Embedding(Section):
    """``identify.embedding``: method (b), the GE2E embedding (:mod:`ime.evaluate.stylometry`)."""

    enabled: bool
    """False: only method (a), the imitators' likelihood."""
    bot_folds: Annotated[int, Field(ge=2)]
    """Encoders per pool, each identifying the bots of its fold (capped at the pool's size)."""
    references: PositiveInt
    """Held-out reference matches per bot (its print is their centroid)."""
    hidden: PositiveInt
    """The per-move MLP's width."""
    dim: PositiveInt
    """The embedding's size."""
    steps: PositiveInt
    """GE2E steps per encoder."""
    bots_per_batch: Annotated[int, Field(ge=2)]
    """Bots per GE2E batch."""
    matches_per_bot: Annotated[int, Field(ge=2)]
    """Matches per bot per GE2E batch."""
    lr: float = Field(gt=0)
    """Adam's learning rate."""
    dropout: float = Field(ge=0, lt=1)
    """Dropout after each layer of the per-move MLP while training."""
    policy_steps: Annotated[int, Field(ge=0)]
    """Adam steps fitting the population policy before GE2E (0: no policy-relative move
    features)."""
    device: Literal["auto", "cpu", "cuda"]
    """auto: CUDA when present, else the CPU (the same bytes for the same config)."""


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
    """The groups' shuffles, the sub-pools and the bootstrap."""
    extra_bots: BotIds = []
    """Zoo bots added to the identification pool beside ``game.targets`` (a hard pool), each
    with its own logs, dataset and imitators built by the targets' rules."""
    embedding: Embedding | None = None
    """Method (b), the few-shot GE2E embedding (absent: off)."""
