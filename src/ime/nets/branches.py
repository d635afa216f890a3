"""Nets made of branches (``kind: branches``): separate bodies over slices of the input planes.

Why: a composite action whose heads read different inputs (the thesis's Doudizhu nets, Table
5.5: a *major* net over the ``4 x 15 x 6`` major planes and a *minor* net over ``4 x 15 x 4``
planes, applied once per kicker) is not one body with several output layers
(:class:`ime.nets.MultiHeadPolicyNet`). Here each branch is a whole small net (convolutions or
dense layers and its own output layer) over a slice of the planes, and serves one or more
consecutive heads. A branch with several heads applies the **same** net (shared weights) to
successive plane slices, one per head: slice ``j`` is ``planes[start + j * plane_stride :
end + j * plane_stride]``. So a minor net learns one kicker step and is reused for every step,
as the thesis calls its minor net repeatedly, and its parameters count once.

Config (``config/net/<name>.yaml``)::

    kind: branches
    branches:
      - {name: major, planes: [0, 6], heads: 1, kind: conv, channels: [32, 16], kernel: 3,
         batch_norm: each, hidden: [309]}
      - {name: minor, planes: [6, 10], heads: 5, plane_stride: 4, kind: conv,
         channels: [32, 16], kernel: 3, batch_norm: each, hidden: [28]}

``planes: [start, end]`` is a half-open range; the branches' ``heads`` add up to the encoder's
heads, in order, and the heads of one branch have one size. A ``conv`` branch is conv(k x k,
same padding) [-> batch norm] -> ReLU per entry of ``channels`` (``batch_norm``: ``each`` after
every convolution, ``last`` (or ``true``) after the last only, ``none`` (or ``false``)), then
flatten -> [dense(hidden) -> ReLU]* -> dense(head size); an ``mlp`` branch is flatten ->
[dense -> ReLU]* -> dense. Weights are initialised as :func:`ime.nets.init_weights` does, branch
by branch with one generator.

Forward: ``model(planes, [mask_0, ...]) -> [logits_0, ...]`` (as ``MultiHeadPolicyNet``), illegal
codes at :data:`ime.nets.MASK_VALUE`. A head runs only on the rows whose mask for it has a legal
code; other rows get ``MASK_VALUE`` everywhere. That skips the kicker steps a play does not use
(most rows), and keeps them out of the batch-norm statistics, which would otherwise be mostly
the all-zero planes of unused steps.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import torch
from torch import nn

from ime.nets import MASK_VALUE, head_sizes, init_weights

BN_MODES = {"each": "each", "last": "last", "none": "none", True: "last", False: "none"}


@dataclass(frozen=True)
class BranchSpec:
    """One branch, validated against the encoder's shapes."""

    name: str
    starts: tuple[int, ...]
    width: int
    size: int
    config: Mapping[str, Any]

    @property
    def heads(self) -> int:
        return len(self.starts)


def branch_specs(config: Mapping[str, Any], in_shape: Sequence[int],
                 num_actions: int | Sequence[int]) -> list[BranchSpec]:
    """The branches of ``config`` with their plane slices and head sizes; ValueError naming the
    branch when they do not fit ``in_shape`` and the heads."""
    sizes = head_sizes(num_actions)
    channels = int(in_shape[0])
    raw = list(config.get("branches") or [])
    if not raw:
        raise ValueError("a branches net needs a non-empty list `branches`")
    specs: list[BranchSpec] = []
    head = 0
    for i, b in enumerate(raw):
        name = str(b.get("name", f"branch{i}"))
        start, end = (int(x) for x in b["planes"])
        heads = int(b.get("heads", 1))
        stride = int(b.get("plane_stride", end - start))
        starts = tuple(start + j * stride for j in range(heads))
        if heads < 1 or not 0 <= start < end or starts[-1] + end - start > channels:
            raise ValueError(f"branch {name}: planes {[start, end]} x {heads} heads (stride "
                             f"{stride}) do not fit the {channels} input planes")
        mine = sizes[head:head + heads]
        if len(mine) != heads or len(set(mine)) != 1:
            raise ValueError(f"branch {name}: heads {head}..{head + heads - 1} of {sizes} must "
                             "exist and have one size (their output layer is shared)")
        if BN_MODES.get(b.get("batch_norm", "last")) is None:
            raise ValueError(f"branch {name}: batch_norm must be each, last or none")
        if b.get("kind") not in ("conv", "mlp"):
            raise ValueError(f"branch {name}: kind must be conv or mlp, got {b.get('kind')!r}")
        specs.append(BranchSpec(name, starts, end - start, mine[0], dict(b)))
        head += heads
    if head != len(sizes):
        raise ValueError(f"the branches serve {head} heads, the encoder has {len(sizes)}")
    return specs


def _body(spec: BranchSpec, h: int, w: int) -> nn.Sequential:
    cfg = spec.config
    layers: list[nn.Module] = []
    if cfg["kind"] == "conv":
        k = int(cfg.get("kernel", 3))
        chans = [int(x) for x in cfg["channels"]]
        bn = BN_MODES[cfg.get("batch_norm", "last")]
        prev = spec.width
        for i, ch in enumerate(chans):
            layers.append(nn.Conv2d(prev, ch, k, stride=1, padding=k // 2))
            if bn == "each" or (bn == "last" and i == len(chans) - 1):
                layers.append(nn.BatchNorm2d(ch))
            layers.append(nn.ReLU())
            prev = ch
        width = prev * h * w
    else:
        width = spec.width * h * w
    layers.append(nn.Flatten())
    for units in (int(x) for x in cfg.get("hidden", [])):
        layers += [nn.Linear(width, units), nn.ReLU()]
        width = units
    layers.append(nn.Linear(width, spec.size))
    return nn.Sequential(*layers)


class Branch(nn.Module):
    """One body applied to ``len(starts)`` plane slices of ``width`` planes, one per head."""

    def __init__(self, spec: BranchSpec, body: nn.Module):
        super().__init__()
        self.body = body
        self.name = spec.name
        self.starts = list(spec.starts)
        self.width = spec.width

    def forward(self, planes: torch.Tensor, masks: Sequence[torch.Tensor]) -> list[torch.Tensor]:
        used = [torch.nonzero(m.sum(dim=1) > 0).flatten() for m in masks]
        n_used = [int(u.numel()) for u in used]
        outs = [torch.full(m.shape, MASK_VALUE, dtype=planes.dtype, device=planes.device)
                for m in masks]
        if sum(n_used) == 0:
            return outs
        x = torch.cat([planes[u, s:s + self.width] for u, s in zip(used, self.starts,
                                                                        strict=True)])
        logits = torch.split(self.body(x), n_used)
        for j, (u, lg) in enumerate(zip(used, logits, strict=True)):
            if n_used[j]:
                lg = lg.masked_fill(masks[j][u] <= 0, MASK_VALUE)
                outs[j] = outs[j].index_put((u,), lg)
        return outs


class BranchNet(nn.Module):
    """Branches side by side; ``model(planes, [mask per head]) -> [masked logits per head]``."""

    def __init__(self, branches: Sequence[Branch], name: str, config: Mapping[str, Any]):
        super().__init__()
        self.branches = nn.ModuleList(branches)
        self.name = name
        self.config = dict(config)

    @property
    def num_heads(self) -> int:
        return sum(len(b.starts) for b in self.branches)

    def forward(self, planes: torch.Tensor,
                masks: Sequence[torch.Tensor]) -> list[torch.Tensor]:
        if len(masks) != self.num_heads:
            raise ValueError(f"{len(masks)} masks for a net with {self.num_heads} heads")
        out: list[torch.Tensor] = []
        for b in self.branches:
            out += b(planes, masks[len(out):len(out) + len(b.starts)])
        return out


def build_branches(config: Mapping[str, Any], in_shape: Sequence[int],
                   num_actions: int | Sequence[int], seed: int | None = None) -> BranchNet:
    """The :class:`BranchNet` of ``config`` (see the module doc); ``seed`` fixes the weights."""
    specs = branch_specs(config, in_shape, num_actions)
    if config.get("mask_input", False) or float(config.get("dropout", 0.0)) > 0:
        raise ValueError("a branches net takes no mask_input and no dropout")
    h, w = int(in_shape[1]), int(in_shape[2])
    gen = torch.Generator().manual_seed(int(seed)) if seed is not None else None
    branches = [make_branch(spec, h, w, config.get("init_std"), gen) for spec in specs]
    return BranchNet(branches, str(config.get("name", "branches")), config)


def make_branch(spec: BranchSpec, h: int, w: int, init_std: float | None,
                gen: torch.Generator | None) -> Branch:
    """One :class:`Branch` of ``spec`` over ``h x w`` planes, initialised from ``gen`` (the
    branch's own ``init_std`` before ``init_std``). Also the lookahead net's later heads
    (:mod:`ime.nets.lookahead`)."""
    body = _body(spec, h, w)
    init_weights(body, spec.config.get("init_std", init_std), gen)
    return Branch(spec, body)


def branch_params(model: BranchNet, buffers: bool = False) -> dict[str, int]:
    """Per branch (by name): trainable parameters, a shared body counted once. ``buffers``
    adds batch norm's running means and variances, which Keras's "Total params" counts as
    non-trainable parameters (see ``docs/games/doudizhu_encoding.md``)."""
    out = {}
    for b in model.branches:
        n = sum(p.numel() for p in b.parameters() if p.requires_grad)
        if buffers:
            n += sum(m.running_mean.numel() + m.running_var.numel() for m in b.modules()
                     if isinstance(m, nn.BatchNorm2d) and m.running_mean is not None)
        out[b.name] = int(n)
    return out


def describe_branches(config: Mapping[str, Any], in_shape: Sequence[int],
                      num_actions: int | Sequence[int]) -> str:
    """One line per Table 5.5 row, branches joined by `` | ``, with each branch's parameters:
    ``major 399219: conv3x3 6-32-16 + BN each + dense 960-309-309 | minor x5 shared ...``."""
    specs = branch_specs(config, in_shape, num_actions)
    counts = branch_params(build_branches(config, in_shape, num_actions))
    h, w = int(in_shape[1]), int(in_shape[2])
    parts = []
    for s in specs:
        who = s.name + (f" x{s.heads} shared" if s.heads > 1 else "")
        parts.append(f"{who} {counts[s.name]}: {branch_layers(s, h, w)}")
    return " | ".join(parts)


def branch_layers(spec: BranchSpec, h: int, w: int) -> str:
    """One branch's layers in Table 5.5's words: ``conv3x3 4-32-16 + BN each + dense
    960-28-28``."""
    cfg = spec.config
    hidden = [int(x) for x in cfg.get("hidden", [])]
    if cfg["kind"] == "conv":
        k = int(cfg.get("kernel", 3))
        chans = [int(x) for x in cfg["channels"]]
        bn = BN_MODES[cfg.get("batch_norm", "last")]
        return (f"conv{k}x{k} " + "-".join(str(x) for x in [spec.width, *chans])
                + ("" if bn == "none" else f" + BN {bn}") + " + dense "
                + "-".join(str(x) for x in [chans[-1] * h * w, *hidden, spec.size]))
    return "dense " + "-".join(str(x) for x in [spec.width * h * w, *hidden, spec.size])


__all__ = ["BN_MODES", "Branch", "BranchNet", "BranchSpec", "branch_layers", "branch_params",
           "branch_specs", "build_branches", "describe_branches", "make_branch"]
