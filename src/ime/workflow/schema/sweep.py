"""``sweep``: config keys swept over values (config/config.yaml, config/experiment/).

One key is ``sweep.key`` + ``sweep.values``; several keys are ``sweep.grid`` (``{key: values}``),
whose every cell (the product of the values) is its own variant. The two forms are exclusive.
"""

from __future__ import annotations

from typing import Annotated, Any

from pydantic import model_validator

from ime.workflow.schema.common import NonEmpty, Section

NOT_SWEPT = ("game", "experiment", "run", "sweep", "seed")
"""Keys a sweep may not vary: another game is another results tree, an experiment is itself a
set of overrides, and ``run``/``sweep``/``seed`` name or define the sweep itself (sweep
``matches.seed`` or ``train.seed`` for seeds)."""

SWEPT_GAME_KEYS = ("game.augment",)
"""The game section's keys a sweep may vary all the same: they change how the nets are trained,
not which game or bots are played."""


class Sweep(Section):
    key: str | None
    values: list[Any]
    grid: dict[str, list[Any]] | None
    nets: Annotated[list[str], NonEmpty] | None
    fit_target: float | None

    @model_validator(mode="after")
    def _one_form(self) -> Sweep:
        if self.key is not None and self.grid is not None:
            raise ValueError("set either sweep.key + sweep.values (one key) or sweep.grid "
                             "(several keys), not both")
        if self.fit_target is not None and not 0 < self.fit_target < 100:
            raise ValueError(f"sweep.fit_target is an accuracy in %, strictly between 0 and 100; "
                             f"got {self.fit_target}")
        if self.key is not None and not self.values:
            raise ValueError("sweep.values must be a non-empty list when sweep.key is set")
        if self.key is None and self.values:
            raise ValueError("sweep.values is set but sweep.key is null: name the swept key")
        for k, vals in (self.grid or {}).items():
            if not vals:
                raise ValueError(f"sweep.grid.{k} must be a non-empty list of values")
        for k in ([self.key] if self.key else []) + list(self.grid or {}):
            if k.split(".")[0] in NOT_SWEPT and k not in SWEPT_GAME_KEYS:
                raise ValueError(f"sweep key {k!r} cannot be swept (not: {', '.join(NOT_SWEPT)}; "
                                 f"of the game's keys only {', '.join(SWEPT_GAME_KEYS)})")
        axes = [(self.key, self.values)] if self.key else list((self.grid or {}).items())
        for k, vals in axes:
            if len({repr(v) for v in vals}) != len(vals):
                raise ValueError(f"sweep values of {k!r} repeat: {vals}")
        return self
