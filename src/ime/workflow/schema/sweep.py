"""``sweep``: one config key swept over values (config/config.yaml, config/experiment/)."""

from __future__ import annotations

from typing import Annotated, Any

from pydantic import model_validator

from ime.workflow.schema.common import NonEmpty, Section


class Sweep(Section):
    key: str | None
    values: list[Any]
    nets: Annotated[list[str], NonEmpty]

    @model_validator(mode="after")
    def _values_when_swept(self) -> Sweep:
        if self.key is not None and not self.values:
            raise ValueError("sweep.values must be a non-empty list when sweep.key is set")
        return self
