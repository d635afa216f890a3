"""``evaluate`` (config/evaluate/default.yaml): key endgames, S1/S2, tournament, clustering.

The defaults are that YAML file's; scales lower the counts. Game-specific settings (the reference
pool, the tournament's opening balance) are in the game's section.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BeforeValidator, Field

from ime.workflow.schema.common import Section


def _workers(v: Any) -> Any:
    from ime.core.workers import check_workers

    return check_workers(v)


def _fold(v: Any) -> Any:
    if v == "ensemble" or (isinstance(v, int) and not isinstance(v, bool) and v >= 0):
        return v
    raise ValueError(f"evaluate.imitator.fold must be 'ensemble' or a fold number, got {v!r}")


class Imitator(Section):
    net: str
    """Whose checkpoints make the imitators (a trained net)."""
    fold: Annotated[Any, BeforeValidator(_fold)]
    """An int fold, or "ensemble": the mean of the trained folds' softmax."""
    heldout: bool


class Tournament(Section):
    rounds: int = Field(ge=1)
    opening_plies: int = Field(ge=0)
    points: Annotated[list[float], Field(min_length=3, max_length=3)]
    """Win / draw / loss."""
    lineups: Literal["rotations", "sides"]
    """rotations: each pair in every seat rotation; sides: each fills one side of a team game."""


class Agreement(Section):
    """The metrics beside S1/S2 (ime.evaluate.agreement, distributions, clones)."""

    samples: int = Field(ge=2)
    """Draws of each stochastic agent on each key for the move distributions (JSD)."""
    clone_sigma: float = Field(gt=0)
    """The clone test's threshold, in sample standard deviations above the other pairs."""


class Evaluate(Section):
    targets: list[str] | None
    """The targets evaluated (a subset of game.targets; null: every one)."""
    n_keys: int = Field(ge=1)
    max_candidates: int | None = Field(ge=1)
    min_legal: int = Field(ge=1)
    agents: list[str]
    """Extra bot ids scored on every key set."""
    workers: Annotated[int | Literal["auto"], BeforeValidator(_workers)]
    """Worker processes per evaluation job: "auto" (what Snakemake's --cores allows, within
    ime.core.workers' caps) or an int. A runtime setting: in no name, tag or job param."""
    seed: int = Field(ge=0)
    bootstrap: int = Field(ge=0)
    ci: float = Field(gt=0, lt=1)
    imitator: Imitator
    tournament: Tournament
    self_agreement: int = Field(ge=0)
    """Decisions per target re-asked of the bot itself (Table 4.4's ceiling; 0: none)."""
    ceiling_repeats: int = Field(ge=1)
    """Re-asks of a stochastic target at each of those decisions, for the top-1 ceiling
    (``top1_mode`` / ``top1_max``; a deterministic target is asked once). In the ceiling's tag
    as ``_r<n>`` when not 1."""
    clusters: int = Field(ge=1)
    agreement: Agreement


