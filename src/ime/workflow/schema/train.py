"""``train``: training of the imitation nets, k-fold or one hold-out (config/config.yaml)."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field, model_validator

from ime.workflow.schema.common import NonEmpty, Section


class Train(Section):
    nets: Annotated[list[str], NonEmpty]
    split: Literal["kfold", "holdout"]
    folds: int = Field(ge=2)
    run_folds: int | None = Field(ge=1)
    # the validation share of a hold-out; at most half, so the model trains on most matches
    holdout: float = Field(gt=0, le=0.5)
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

    @model_validator(mode="after")
    def _holdout_trains_one_model(self) -> Train:
        # run_folds picks folds of a k-fold split; a hold-out has one model, so a value there
        # would be silently ignored (the quick scale sets run_folds: 2)
        if self.split == "holdout" and self.run_folds is not None:
            raise ValueError(f"train.split=holdout trains one model, but train.run_folds="
                             f"{self.run_folds} picks folds of a k-fold split: add "
                             "train.run_folds=null (or use train.split=kfold)")
        return self
