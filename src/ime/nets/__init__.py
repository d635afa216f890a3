"""The network zoo (thesis Table 4.3) and the checkpoint format.

Every net maps ``(planes[N, C, H, W], mask[N, A]) -> masked logits[N, A]``: illegal actions get a
large negative logit before the softmax, so they get no probability and the net never has to
learn the rules (thesis 3.1; the thesis multiplies a 0/1 mask into the last layer, which would
leave illegal actions with logit 0, i.e. *some* probability; a large negative value is what that
multiplication is meant to achieve). ``C, H, W`` and ``A`` are the encoder's ``state_shape`` and
head sizes; nothing here knows a game.

**Action heads.** ``num_actions`` is one size (one head: a board's squares) or a list of head
sizes (:class:`ime.core.encoding.ActionHead`). A one-head net is built exactly as it always was
(same layers, same initialisation order, so the same seed gives the same weights). A multi-head
net (:class:`MultiHeadPolicyNet`) shares the body and puts one output layer per head on its
last hidden features: ``model(planes, [mask_0, mask_1, ...]) -> [logits_0, logits_1, ...]``.

Architectures are plain dicts (``config/net/<name>.yaml``):

* ``kind: mlp``: flatten -> dense(hidden[0]) -> ReLU -> ... -> dense(A);
* ``kind: conv``: conv(k x k, channels[0], same padding) -> ReLU -> ... -> conv(channels[-1])
  -> batch norm -> ReLU -> flatten -> [dense(hidden) -> ReLU]* -> dense(A);
* ``kind: resnet``: a residual tower (``blocks`` x ``width``) with a 1x1 policy head, deeper
  than the thesis's nets (issue 16's capacity question): :mod:`ime.nets.resnet`;
* ``kind: lookahead``: each legal move scored by a learned value of the position it leads to
  (the game's afterstates; the imitator of issue 46's Deliver 3): :mod:`ime.nets.lookahead`;
* ``kind: branches``: separate small nets over slices of the planes, each serving one or more
  heads (the thesis's Doudizhu major and minor nets): :mod:`ime.nets.branches`.
* ``kernels`` / ``strides`` / ``padding`` / ``batch_norm: all`` on an mlp or conv: per-layer
  kernels and strides, Keras-style padding, batch norm after every hidden layer (the thesis's
  Snake nets, Table 2.2): :mod:`ime.nets.layers`. Nets without these keys are built as above.

Initialisation (thesis: "standard normal, never all zero"): weights ~ N(0, std^2) with
``std = init_std`` when given, else He's ``sqrt(2 / fan_in)`` (a literal N(0, 1) saturates a
128-wide input layer); biases start at 0.
"""

from __future__ import annotations

import math
import numbers
import sys
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import torch
from torch import nn

MASK_VALUE = -1.0e9
CHECKPOINT_FORMAT = 1


class MaskedPolicyNet(nn.Module):
    """A body producing one logit per action, with illegal actions masked out."""

    def __init__(self, body: nn.Module, name: str, config: Mapping[str, Any]):
        super().__init__()
        self.body = body
        self.name = name
        self.config = dict(config)

    def forward(self, planes: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
        if self.config.get("mask_input", False):
            planes = torch.cat([planes, mask.reshape(planes.shape[0], 1, *planes.shape[2:])], 1)
        logits = self.body(planes)
        return logits.masked_fill(mask <= 0, MASK_VALUE)


class MultiHeadPolicyNet(nn.Module):
    """A shared body and one masked output layer per action head."""

    def __init__(self, body: nn.Module, heads: Sequence[nn.Module], name: str,
                 config: Mapping[str, Any]):
        super().__init__()
        self.body = body
        self.heads = nn.ModuleList(heads)
        self.name = name
        self.config = dict(config)

    def forward(self, planes: torch.Tensor,
                masks: Sequence[torch.Tensor]) -> list[torch.Tensor]:
        if len(masks) != len(self.heads):
            raise ValueError(f"{len(masks)} masks for a net with {len(self.heads)} heads")
        if self.config.get("mask_input", False):
            planes = torch.cat([planes, masks[0].reshape(planes.shape[0], 1, *planes.shape[2:])],
                               1)
        features = self.body(planes)
        return [head(features).masked_fill(m <= 0, MASK_VALUE)
                for head, m in zip(self.heads, masks, strict=True)]


def head_sizes(num_actions: int | Sequence[int]) -> list[int]:
    """``num_actions`` (one size, or one per head) as a list of head sizes."""
    if isinstance(num_actions, numbers.Integral):
        return [int(num_actions)]
    return [int(x) for x in num_actions]


def build_net(
    config: Mapping[str, Any],
    in_shape: Sequence[int],
    num_actions: int | Sequence[int],
    seed: int | None = None,
) -> MaskedPolicyNet | MultiHeadPolicyNet:
    """Build a net from its architecture dict; ``seed`` makes the initial weights reproducible.

    ``in_shape``: the encoder's ``state_shape`` ``(C, H, W)``; ``num_actions``: the first head's
    size, or every head's size (a list of one size builds the one-head net).
    """
    sizes = head_sizes(num_actions)
    kind = config.get("kind")
    from ime.imitators.family import build_imitator
    from ime.imitators.kinds import is_fitted

    if is_fitted(config):  # an imitator family's fitted module (ime.imitators.family)
        return build_imitator(config)  # type: ignore[return-value]
    if kind == "branches":  # separate nets over plane slices (ime.nets.branches)
        from ime.nets.branches import build_branches

        return build_branches(config, in_shape, sizes, seed)
    if kind == "lookahead":  # a value of each legal move's afterstate (ime.nets.lookahead)
        from ime.nets.lookahead import build_lookahead

        return build_lookahead(config, in_shape, sizes, seed)  # type: ignore[return-value]
    from ime.nets.layers import build_layered, uses_layers

    if uses_layers(config):  # per-layer kernels/strides/padding, BN everywhere (ime.nets.layers)
        return build_layered(config, in_shape, sizes, seed)  # type: ignore[return-value]
    c, h, w = (int(x) for x in in_shape)
    if config.get("mask_input", False):
        if sizes[0] != h * w:
            raise ValueError("mask_input needs one first-head action per board cell")
        c += 1
    hidden = [int(x) for x in config.get("hidden", [])]
    layers: list[nn.Module] = []
    if kind == "resnet":  # residual tower (ime.nets.resnet); hidden layers are in the trunk
        from ime.nets.resnet import resnet_trunk

        trunk_seq, width = resnet_trunk(config, in_shape)
        layers, hidden = list(trunk_seq), []
    elif kind == "mlp":
        layers.append(nn.Flatten())
        width = c * h * w
    elif kind == "conv":
        k = int(config.get("kernel", 3))
        chans = [int(x) for x in config["channels"]]
        prev = c
        for i, ch in enumerate(chans):
            layers.append(nn.Conv2d(prev, ch, k, stride=1, padding=k // 2))
            last = i == len(chans) - 1
            if last and config.get("batch_norm", True):
                layers.append(nn.BatchNorm2d(ch))
            layers.append(nn.ReLU())
            prev = ch
        layers.append(nn.Flatten())
        width = prev * h * w
    else:
        raise ValueError(f"unknown net kind {kind!r} (expected mlp, conv, resnet, lookahead or "
                         f"branches)")
    for units in hidden:
        layers += [nn.Linear(width, units), nn.ReLU()]
        width = units
    if float(config.get("dropout", 0.0)) > 0:
        layers.append(nn.Dropout(float(config["dropout"])))
    gen = torch.Generator().manual_seed(int(seed)) if seed is not None else None
    name = str(config.get("name", kind))
    if len(sizes) == 1:
        layers.append(nn.Linear(width, sizes[0]))
        body = nn.Sequential(*layers)
        init_weights(body, config.get("init_std"), gen)
        return MaskedPolicyNet(body, name, config)
    trunk = nn.Sequential(*layers)
    outputs = [nn.Linear(width, size) for size in sizes]
    init_weights(trunk, config.get("init_std"), gen)
    for out in outputs:
        init_weights(out, config.get("init_std"), gen)
    return MultiHeadPolicyNet(trunk, outputs, name, config)


def init_weights(module: nn.Module, std: float | None, gen: torch.Generator | None) -> None:
    """Normal weights (He-scaled unless ``std`` is given), zero biases, unit batch-norm scale."""
    with torch.no_grad():
        for m in module.modules():
            if isinstance(m, nn.Linear | nn.Conv2d):
                fan_in = m.weight[0].numel()
                s = float(std) if std is not None else math.sqrt(2.0 / fan_in)
                m.weight.copy_(torch.randn(m.weight.shape, generator=gen) * s)
                if m.bias is not None:
                    m.bias.zero_()
            elif isinstance(m, nn.BatchNorm2d) and m.affine:
                m.weight.fill_(1.0)
                m.bias.zero_()


def count_params(model: nn.Module) -> int:
    """Trainable parameters (what Table 4.3 lists)."""
    return sum(p.numel() for p in model.parameters() if p.requires_grad)


def describe(config: Mapping[str, Any], in_shape: Sequence[int],
             num_actions: int | Sequence[int]) -> str:
    """A one-line layer description for Table 4.3 (heads joined by ``+``: ``309+28``)."""
    if config.get("kind") == "lookahead":
        from ime.nets.lookahead import describe_lookahead

        return describe_lookahead(config, in_shape)
    if config.get("kind") == "branches":
        from ime.nets.branches import describe_branches

        return describe_branches(config, in_shape, num_actions)
    from ime.nets.layers import describe_layered, uses_layers

    if uses_layers(config):
        return describe_layered(config, in_shape, head_sizes(num_actions))
    if config.get("kind") == "resnet":
        from ime.nets.resnet import describe_resnet

        return describe_resnet(config, in_shape, head_sizes(num_actions))
    c, h, w = in_shape
    out = "+".join(str(s) for s in head_sizes(num_actions))
    hidden = list(config.get("hidden", []))
    if config.get("kind") == "mlp":
        dims = [c * h * w, *hidden, out]
        return "dense " + "-".join(str(d) for d in dims)
    k = config.get("kernel", 3)
    chans = list(config["channels"])
    bn = " + BN" if config.get("batch_norm", True) else ""
    dense = [chans[-1] * h * w, *hidden, out]
    return (f"conv{k}x{k} " + "-".join(str(x) for x in [c, *chans]) + bn
            + " + dense " + "-".join(str(d) for d in dense))


def save_checkpoint(
    path: str | Path,
    model: MaskedPolicyNet | MultiHeadPolicyNet,
    *,
    game: str,
    encoder_version: str,
    fold: int,
    in_shape: Sequence[int],
    num_actions: int | Sequence[int],
    extra: Mapping[str, Any] | None = None,
) -> None:
    """``torch.save`` the checkpoint dict that :func:`load_checkpoint` reads back.

    ``num_actions`` is stored as the first head's size; a multi-head net also stores
    ``head_sizes`` (every head's).
    """
    sizes = head_sizes(num_actions)
    ckpt = {
        "format": CHECKPOINT_FORMAT,
        "net": model.name,
        "net_config": dict(model.config),
        "state_dict": {k: v.detach().cpu() for k, v in model.state_dict().items()},
        "game": game,
        "encoder_version": encoder_version,
        "fold": int(fold),
        "in_shape": [int(x) for x in in_shape],
        "num_actions": sizes[0],
        **({"head_sizes": sizes} if len(sizes) > 1 else {}),
        **dict(extra or {}),
    }
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(path.name + ".tmp")
    torch.save(_interned(ckpt), tmp)
    tmp.replace(path)


def _interned(obj: Any) -> Any:
    """``obj`` with every string of its dicts, lists and tuples interned (tensors and other
    values kept). Why: pickle writes a string once and refers back to it where the *same object*
    recurs, so the bytes of a checkpoint depended on which equal strings happened to be one
    object: a config that came through a worker process (unpickled, so no longer sharing objects
    with the code's literals) gave other bytes for the same content. Interned, equal strings are
    one object, and the bytes follow the content alone."""
    kind = type(obj)  # exact types: a str, dict or tuple subclass is kept as it is
    if kind is str:
        return sys.intern(obj)
    if kind is dict:
        return {_interned(k): _interned(v) for k, v in obj.items()}
    if kind is list:
        return [_interned(v) for v in obj]
    if kind is tuple:
        return tuple(_interned(v) for v in obj)
    return obj


def load_checkpoint(path: str | Path,
                    device: str | torch.device = "cpu") -> MaskedPolicyNet | MultiHeadPolicyNet:
    """The trained net in eval mode on ``device``.

    ``model(planes_float[N, *in_shape], mask_float[N, A]) -> masked logits[N, A]`` (a multi-head
    net takes and returns one per head); the checkpoint dict itself is on ``model.checkpoint``
    (minus the weights) for its game / encoder / fold / bot.
    """
    ckpt = torch.load(path, map_location="cpu", weights_only=True)
    model = build_net(ckpt["net_config"], ckpt["in_shape"],
                      ckpt.get("head_sizes") or int(ckpt["num_actions"]))
    model.load_state_dict(ckpt["state_dict"])
    model.checkpoint = {k: v for k, v in ckpt.items() if k != "state_dict"}  # type: ignore[attr-defined]
    return model.to(device).eval()


__all__ = ["MASK_VALUE", "MaskedPolicyNet", "MultiHeadPolicyNet", "build_net", "count_params",
           "describe", "head_sizes", "load_checkpoint", "save_checkpoint"]
