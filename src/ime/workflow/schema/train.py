"""``train``: k-fold training of the imitation nets (config/config.yaml)."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field, model_validator

from ime.workflow.schema.common import NonEmpty, Section


class Train(Section):
    nets: Annotated[list[str], NonEmpty]
    folds: int = Field(ge=2)
    run_folds: int | None = Field(ge=1)
    max_epochs: int = Field(ge=1)
    patience: int = Field(ge=0)
    monitor: Literal["val_acc", "val_loss"]
    batch_size: int = Field(ge=1)
    lr: float = Field(gt=0)
    lr_decay: float = Field(gt=0, le=1)
    weight_decay: float = Field(ge=0)
    seed: int
    device: Literal["auto", "cpu", "cuda", "mps"]
    gpu: bool
    threads: int = Field(ge=1)
    stack_bots: bool

    @model_validator(mode="after")
    def _run_folds_within_folds(self) -> Train:
        if self.run_folds is not None and self.run_folds > self.folds:
            raise ValueError(f"train.run_folds={self.run_folds} exceeds "
                             f"train.folds={self.folds}")
        return self
