"""Per-layer options for ``kind: mlp`` and ``kind: conv`` nets: kernels, strides, padding, and
batch norm after every hidden layer.

Why: the thesis's Snake nets (Table 2.2) mix 2x2 and 3x3 kernels with strides up to 2 and apply
batch norm "in all networks", which the plain builder in :mod:`ime.nets` (one odd kernel, stride
1, batch norm after the last convolution) cannot express. These options are opt-in: a config
that sets none of them is built by :func:`ime.nets.build_net` exactly as before.

Keys (``config/net/<name>.yaml``), any of which routes the net here:

* ``kernels: [3, 2, 3]``: one kernel size per convolution (``kernel`` gives one for all);
* ``strides: [1, 2, 2]``: one stride per convolution (default 1);
* ``padding: same | valid``: ``same`` (default) pads with zeros as TensorFlow/Keras do, so a
  layer's output is ``ceil(n / stride)`` (for an even kernel or a stride of 2 the extra row and
  column go at the bottom and right); ``valid`` does not pad (``(n - k) // stride + 1``);
* ``batch_norm: all``: after every hidden layer (each convolution and each hidden dense layer)
  comes ReLU and then a batch norm *without* learnt scale and shift (``affine=False``). The next
  layer's weights and bias absorb any scale and shift such a norm could learn, so the net can
  express what an affine norm after the ReLU could, and its trainable parameters are exactly its
  convolutions' and dense layers' (the counts the thesis lists). ``batch_norm: true`` keeps the
  plain builder's meaning (one affine norm after the last convolution, before its ReLU).

Layout: ``[pad] conv -> [BN] -> ReLU -> [BN] ... -> flatten -> [dense -> ReLU -> [BN]]* ->
[dropout] -> dense(A)`` (a multi-head net puts one output layer per head on the last features,
as :class:`ime.nets.MultiHeadPolicyNet` does). Weights are initialised layer by layer in build
order with :func:`ime.nets.init_weights`.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import torch
from torch import nn
from torch.nn import functional as F

LAYER_KEYS = ("kernels", "strides", "padding")


def uses_layers(config: Mapping[str, Any]) -> bool:
    """Whether ``config`` asks for an option of this module (so the plain builder must not
    build it)."""
    return (any(config.get(k) is not None for k in LAYER_KEYS)
            or config.get("batch_norm") == "all")


class DenseNorm(nn.BatchNorm1d):
    """Batch norm over dense features that accepts a training batch of one row (the last batch
    of an epoch may have one); such a batch is normalised with the running statistics."""

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        if self.training and x.shape[0] == 1:
            return F.batch_norm(x, self.running_mean, self.running_var, self.weight, self.bias,
                                False, 0.0, self.eps)
        return super().forward(x)


@dataclass(frozen=True)
class ConvSpec:
    """One convolution: its kernel, stride, output channels, padding and output size."""

    kernel: int
    stride: int
    channels: int
    pad: tuple[int, int, int, int]  # left, right, top, bottom (ZeroPad2d order)
    out_hw: tuple[int, int]


def same_pad(n: int, k: int, s: int) -> tuple[int, int]:
    """TensorFlow's ``same`` padding of one dimension: (before, after), the extra one after."""
    total = max((math.ceil(n / s) - 1) * s + k - n, 0)
    return total // 2, total - total // 2


def conv_specs(config: Mapping[str, Any], h: int, w: int) -> list[ConvSpec]:
    """The convolutions of ``config`` on an ``h x w`` input; ValueError naming the key when the
    lists disagree or a layer would leave no cell."""
    chans = [int(c) for c in config.get("channels") or []]
    if not chans:
        raise ValueError("a conv net needs channels: a non-empty list")
    kernels = config.get("kernels")
    kernels = ([int(config.get("kernel") or 3)] * len(chans) if kernels is None
               else [int(k) for k in kernels])
    strides = config.get("strides")
    strides = [1] * len(chans) if strides is None else [int(s) for s in strides]
    padding = config.get("padding") or "same"
    if len(kernels) != len(chans) or len(strides) != len(chans):
        raise ValueError(f"kernels {kernels} and strides {strides} need one entry per channel "
                         f"count {chans}")
    if padding not in ("same", "valid"):
        raise ValueError(f"padding must be same or valid, got {padding!r}")
    specs = []
    for k, s, c in zip(kernels, strides, chans, strict=True):
        if k < 1 or s < 1:
            raise ValueError(f"kernel {k} and stride {s} must be >= 1")
        if padding == "same":
            top, bottom = same_pad(h, k, s)
            left, right = same_pad(w, k, s)
            h, w = math.ceil(h / s), math.ceil(w / s)
        else:
            top = bottom = left = right = 0
            h, w = (h - k) // s + 1, (w - k) // s + 1
        if h < 1 or w < 1:
            raise ValueError(f"conv {k}x{k} stride {s} ({padding}) leaves no cell "
                             f"(kernels {kernels}, strides {strides})")
        specs.append(ConvSpec(k, s, c, (left, right, top, bottom), (h, w)))
    return specs


def _bn_mode(config: Mapping[str, Any], kind: str) -> str:
    bn = config.get("batch_norm")
    if bn == "all":
        return "all"
    if bn is None:
        bn = kind == "conv"  # the plain builder's default
    if isinstance(bn, bool):
        return "last" if bn and kind == "conv" else "none"
    raise ValueError(f"batch_norm must be true, false or all, got {bn!r}")


def body_layers(config: Mapping[str, Any], in_shape: Sequence[int]
                ) -> tuple[list[nn.Module], int]:
    """The hidden layers of ``config`` for planes ``in_shape`` and their output width."""
    kind = config.get("kind")
    c, h, w = (int(x) for x in in_shape)
    bn = _bn_mode(config, str(kind))
    layers: list[nn.Module] = []
    if kind == "conv":
        specs = conv_specs(config, h, w)
        prev = c
        for i, sp in enumerate(specs):
            if any(sp.pad):
                layers.append(nn.ZeroPad2d(sp.pad))
            layers.append(nn.Conv2d(prev, sp.channels, sp.kernel, stride=sp.stride))
            if bn == "last" and i == len(specs) - 1:
                layers.append(nn.BatchNorm2d(sp.channels))
            layers.append(nn.ReLU())
            if bn == "all":
                layers.append(nn.BatchNorm2d(sp.channels, affine=False))
            prev = sp.channels
        width = prev * specs[-1].out_hw[0] * specs[-1].out_hw[1]
    elif kind == "mlp":
        width = c * h * w
    else:
        raise ValueError(f"per-layer options are for kind mlp or conv, not {kind!r}")
    layers.append(nn.Flatten())
    for units in (int(x) for x in config.get("hidden") or []):
        layers += [nn.Linear(width, units), nn.ReLU()]
        if bn == "all":
            layers.append(DenseNorm(units, affine=False))
        width = units
    if float(config.get("dropout") or 0.0) > 0:
        layers.append(nn.Dropout(float(config["dropout"])))
    return layers, width


def _init(module: nn.Module, std: float | None, gen: torch.Generator | None) -> None:
    from ime.nets import init_weights

    for m in module.modules():
        if isinstance(m, nn.Linear | nn.Conv2d):
            init_weights(m, std, gen)
        elif isinstance(m, nn.BatchNorm2d) and m.affine:
            init_weights(m, std, gen)


def build_layered(config: Mapping[str, Any], in_shape: Sequence[int], sizes: Sequence[int],
                  seed: int | None = None) -> nn.Module:
    """The net of ``config`` (see the module doc): a :class:`ime.nets.MaskedPolicyNet` for one
    head, a :class:`ime.nets.MultiHeadPolicyNet` for several."""
    from ime.nets import MaskedPolicyNet, MultiHeadPolicyNet

    if config.get("mask_input", False):
        raise ValueError("per-layer options take no mask_input")
    layers, width = body_layers(config, in_shape)
    gen = torch.Generator().manual_seed(int(seed)) if seed is not None else None
    std = config.get("init_std")
    name = str(config.get("name", config.get("kind")))
    if len(sizes) == 1:
        body = nn.Sequential(*layers, nn.Linear(width, int(sizes[0])))
        _init(body, std, gen)
        return MaskedPolicyNet(body, name, config)
    trunk = nn.Sequential(*layers)
    outputs = [nn.Linear(width, int(s)) for s in sizes]
    _init(trunk, std, gen)
    for out in outputs:
        _init(out, std, gen)
    return MultiHeadPolicyNet(trunk, outputs, name, config)


def layer_params(model: nn.Module) -> int:
    """Weights and biases of the convolutions and dense layers (what Table 2.2 counts)."""
    return sum(p.numel() for m in model.modules() if isinstance(m, nn.Linear | nn.Conv2d)
               for p in m.parameters(recurse=False))


def describe_layered(config: Mapping[str, Any], in_shape: Sequence[int],
                     sizes: Sequence[int]) -> str:
    """One line: ``conv 4-64(3x3)-64(2x2/2)-64(3x3/2) same + BN all + dense 576-4``."""
    c, h, w = (int(x) for x in in_shape)
    out = "+".join(str(s) for s in sizes)
    hidden = [int(x) for x in config.get("hidden") or []]
    bn = _bn_mode(config, str(config.get("kind")))
    bn_txt = {"all": " + BN all", "last": " + BN", "none": ""}[bn]
    if config.get("kind") == "mlp":
        return "dense " + "-".join(str(d) for d in [c * h * w, *hidden, out]) + bn_txt
    specs = conv_specs(config, h, w)
    convs = "-".join([str(c)] + [f"{s.channels}({s.kernel}x{s.kernel}"
                                 + (f"/{s.stride})" if s.stride > 1 else ")") for s in specs])
    flat = specs[-1].channels * specs[-1].out_hw[0] * specs[-1].out_hw[1]
    return (f"conv {convs} {config.get('padding') or 'same'}{bn_txt} + dense "
            + "-".join(str(d) for d in [flat, *hidden, out]))


__all__ = ["ConvSpec", "DenseNorm", "LAYER_KEYS", "body_layers", "build_layered", "conv_specs",
           "describe_layered", "layer_params", "same_pad", "uses_layers"]
