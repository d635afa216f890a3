"""``kind: resnet``: a deeper net than the thesis's, to ask whether capacity limits imitation.

AlphaZero's policy tower, scaled down: a 3x3 stem convolution to ``width`` planes, ``blocks``
residual blocks (conv 3x3 -> BN -> ReLU -> conv 3x3 -> BN, plus the block's input, -> ReLU), then
the policy head: a 1x1 convolution to ``head_channels`` planes -> BN -> ReLU -> flatten ->
[dense(hidden) -> ReLU]* -> dense(A) per action head. Every convolution keeps the board size
(same padding, stride 1), so any encoder's ``(C, H, W)`` works.

The residual additions are not a chain of layers, so the stacked trainer
(:mod:`ime.train.stacked`) does not run it: each member trains alone (``Unsupported``), with the
same metrics and checkpoints.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import torch
from torch import nn

RESNET_DEFAULTS = {"blocks": 6, "width": 64, "head_channels": 2}


class ResidualBlock(nn.Module):
    """conv-BN-ReLU-conv-BN plus the input, then ReLU (He et al. 2016, AlphaZero)."""

    def __init__(self, channels: int):
        super().__init__()
        self.conv1 = nn.Conv2d(channels, channels, 3, padding=1, bias=False)
        self.bn1 = nn.BatchNorm2d(channels)
        self.conv2 = nn.Conv2d(channels, channels, 3, padding=1, bias=False)
        self.bn2 = nn.BatchNorm2d(channels)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        y = torch.relu(self.bn1(self.conv1(x)))
        return torch.relu(self.bn2(self.conv2(y)) + x)


def resnet_trunk(config: Mapping[str, Any], in_shape: Sequence[int]) -> tuple[nn.Module, int]:
    """The tower and policy-head features up to (not including) the output layers, and the
    feature width the output layers take."""
    c, h, w = (int(x) for x in in_shape)
    if config.get("mask_input", False):
        c += 1
    width = int(config.get("width", RESNET_DEFAULTS["width"]))
    blocks = int(config.get("blocks", RESNET_DEFAULTS["blocks"]))
    head = int(config.get("head_channels", RESNET_DEFAULTS["head_channels"]))
    layers: list[nn.Module] = [nn.Conv2d(c, width, 3, padding=1, bias=False),
                               nn.BatchNorm2d(width), nn.ReLU()]
    layers += [ResidualBlock(width) for _ in range(blocks)]
    layers += [nn.Conv2d(width, head, 1, bias=False), nn.BatchNorm2d(head), nn.ReLU(),
               nn.Flatten()]
    features = head * h * w
    for units in [int(x) for x in config.get("hidden", [])]:
        layers += [nn.Linear(features, units), nn.ReLU()]
        features = units
    return nn.Sequential(*layers), features


def describe_resnet(config: Mapping[str, Any], in_shape: Sequence[int],
                    sizes: Sequence[int]) -> str:
    """Table 4.3's one-line description."""
    c, h, w = (int(x) for x in in_shape)
    width = int(config.get("width", RESNET_DEFAULTS["width"]))
    blocks = int(config.get("blocks", RESNET_DEFAULTS["blocks"]))
    head = int(config.get("head_channels", RESNET_DEFAULTS["head_channels"]))
    dense = [head * h * w, *[int(x) for x in config.get("hidden", [])],
             "+".join(str(s) for s in sizes)]
    return (f"conv3x3 {c}-{width} + BN, {blocks} residual blocks x (2 conv3x3 {width} + BN), "
            f"conv1x1 {head} + BN, dense " + "-".join(str(d) for d in dense))
