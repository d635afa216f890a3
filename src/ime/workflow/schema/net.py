"""``net`` and ``config/net/<name>.yaml``: one imitation net's architecture."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field, PositiveInt, model_validator

from ime.workflow.schema.common import Section


class Net(Section):
    name: str
    kind: Literal["mlp", "conv"]
    hidden: list[PositiveInt]
    channels: Annotated[list[PositiveInt], Field(min_length=1)] | None = None
    """conv only: the convolutions' output channels."""
    kernel: int | None = Field(default=None, ge=1)
    """conv only: an odd kernel size (same padding)."""
    batch_norm: bool | None = None
    thesis_params: int | None = None
    """The parameter count the thesis lists (Table 4.3), for comparison."""
    init_std: float | None = Field(gt=0)
    mask_input: bool
    dropout: float = Field(ge=0, lt=1)

    @model_validator(mode="after")
    def _kind_fits(self) -> Net:
        if self.kind == "mlp" and not self.hidden:
            raise ValueError("an mlp needs at least one hidden layer")
        if self.kind == "conv":
            if not self.channels:
                raise ValueError("a conv net needs channels: a non-empty list of positive ints")
            if self.kernel is None or self.kernel % 2 != 1:
                raise ValueError(f"kernel must be an odd int >= 1 (same padding), "
                                 f"got {self.kernel!r}")
        return self
