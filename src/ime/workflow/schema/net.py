"""``net`` and ``config/net/<name>.yaml``: one imitation net's architecture."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field, NonNegativeInt, PositiveInt, model_validator

from ime.workflow.schema.common import Section


class Branch(Section):
    """One branch of a ``kind: branches`` net (:mod:`ime.nets.branches`)."""

    name: str | None = None
    planes: Annotated[list[NonNegativeInt], Field(min_length=2, max_length=2)]
    """``[start, end)``: the input planes of the branch's first head."""
    heads: PositiveInt = 1
    plane_stride: PositiveInt | None = None
    kind: Literal["mlp", "conv"]
    hidden: list[PositiveInt] = []
    channels: Annotated[list[PositiveInt], Field(min_length=1)] | None = None
    kernel: int | None = Field(default=None, ge=1)
    batch_norm: Literal["each", "last", "none"] | bool | None = None
    init_std: float | None = Field(default=None, gt=0)

    @model_validator(mode="after")
    def _fits(self) -> Branch:
        if self.planes[1] <= self.planes[0]:
            raise ValueError(f"planes {self.planes} must be [start, end) with start < end")
        if self.kind == "conv" and (not self.channels or self.kernel is None
                                    or self.kernel % 2 != 1):
            raise ValueError("a conv branch needs channels and an odd kernel")
        return self


class Net(Section):
    name: str
    kind: Literal["mlp", "conv", "resnet", "branches"]
    branches: Annotated[list[Branch], Field(min_length=1)] | None = None
    """branches only: the branches, in head order."""
    hidden: list[PositiveInt]
    channels: Annotated[list[PositiveInt], Field(min_length=1)] | None = None
    """conv only: the convolutions' output channels."""
    kernel: int | None = Field(default=None, ge=1)
    """conv only: an odd kernel size (same padding)."""
    kernels: Annotated[list[PositiveInt], Field(min_length=1)] | None = None
    """conv only: one kernel size per convolution, any size (:mod:`ime.nets.layers`)."""
    strides: Annotated[list[PositiveInt], Field(min_length=1)] | None = None
    """conv only: one stride per convolution (default 1)."""
    padding: Literal["same", "valid"] | None = None
    """conv only: Keras-style ``same`` (default) or ``valid`` padding."""
    batch_norm: bool | Literal["all"] | None = None
    """``true``: after the last convolution; ``all``: after every hidden layer, without learnt
    scale and shift (:mod:`ime.nets.layers`)."""
    blocks: PositiveInt | None = None
    """resnet only: residual blocks (:mod:`ime.nets.resnet`)."""
    width: PositiveInt | None = None
    """resnet only: the tower's channels."""
    head_channels: PositiveInt | None = None
    """resnet only: channels of the 1x1 policy-head convolution."""
    thesis_params: int | list[int] | None = None
    """The parameter count the thesis lists (Table 4.3), for comparison; a branches net lists
    one per branch (Table 5.5)."""
    init_std: float | None = Field(gt=0)
    mask_input: bool
    dropout: float = Field(ge=0, lt=1)

    @model_validator(mode="after")
    def _kind_fits(self) -> Net:
        if self.kind == "branches":
            if not self.branches:
                raise ValueError("a branches net needs branches: a non-empty list")
            if self.mask_input or self.dropout:
                raise ValueError("a branches net takes no mask_input and no dropout")
        elif self.branches is not None:
            raise ValueError("branches is for kind: branches only")
        if self.kind == "mlp" and not self.hidden:
            raise ValueError("an mlp needs at least one hidden layer")
        if self.kind == "conv":
            if not self.channels:
                raise ValueError("a conv net needs channels: a non-empty list of positive ints")
            if self.kernels is not None:
                if len(self.kernels) != len(self.channels) or (
                        self.strides is not None and len(self.strides) != len(self.channels)):
                    raise ValueError("kernels and strides need one entry per channels entry")
            elif self.kernel is None or self.kernel % 2 != 1:
                raise ValueError(f"kernel must be an odd int >= 1 (same padding), "
                                 f"got {self.kernel!r}")
        elif self.kernels is not None or self.strides is not None or self.padding is not None:
            raise ValueError("kernels, strides and padding are for kind: conv only")
        resnet_keys = (self.blocks, self.width, self.head_channels)
        if self.kind == "resnet":
            if any(k is None for k in resnet_keys):
                raise ValueError("a resnet needs blocks, width and head_channels")
            if self.channels or self.kernels or self.strides or self.padding or self.batch_norm:
                raise ValueError("a resnet takes blocks/width/head_channels, not channels, "
                                 "kernels, strides, padding or batch_norm (it has BN throughout)")
        elif any(k is not None for k in resnet_keys):
            raise ValueError("blocks, width and head_channels are for kind: resnet only")
        if self.batch_norm == "all" and self.mask_input:
            raise ValueError("batch_norm: all takes no mask_input")
        return self
