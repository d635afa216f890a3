"""Many nets of one architecture as one: their weights stacked, their layers run together.

Why it looks like this (figures: ``ime bench <game> --only train`` and
:mod:`ime.train.ensemble`'s doc):

* Every weight, buffer and Adam moment of ``M`` members is one tensor ``[M, ...]``
  (:class:`StackState`); a batch is ``[M, B, ...]``, one index gather per step. A step can run
  on a subset of the members (:meth:`StackState.select` / :meth:`StackState.scatter`: a fold's
  shorter last batch, members out of batches), so a member outside it keeps its weights, Adam
  moments, step count and batch-norm statistics bit for bit.
* The interpreter reads the layers of a built :class:`ime.nets.MaskedPolicyNet` or
  :class:`ime.nets.MultiHeadPolicyNet` (linear, conv, batch norm incl. ``DenseNorm``, ReLU,
  flatten, zero padding), so the nets stay defined once, in :mod:`ime.nets`. Anything else
  (branch nets, whose rows depend on the data; dropout, whose masks come from the global
  generator) raises :class:`Unsupported`, and the caller trains those members alone.
* Three modes (:class:`StackedNet`). ``exact`` calls, member by member, the very kernels a lone
  net calls, on views of the stacked weights: on CPU bit-identical to ``train_fold``, and it
  still saves the per-member optimizer, zero-grad and gather work. ``loop`` runs dense layers
  as one ``baddbmm``, their batch norms as one ``batch_norm`` over ``M x units`` channels and
  the loss for all members at once (faster for MLPs on CPU, equal to float rounding).
  ``grouped`` also runs each convolution as one grouped convolution in ``[B, M x C, H, W]``
  layout (the CUDA default; on CPU oneDNN's grouped convolution, what ``vmap`` makes of a
  batched ``conv2d``, is 2-2.5x slower than one convolution per member).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import torch
from torch import nn
from torch.nn import functional as F

from ime.nets import MASK_VALUE, MaskedPolicyNet, MultiHeadPolicyNet
from ime.nets.layers import DenseNorm
from ime.train.loop import heads_correct, heads_loss


class Unsupported(ValueError):
    """A net the stacked interpreter cannot run (train it alone with ``train_fold``)."""


@dataclass(frozen=True)
class Op:
    """One layer: its kind, the indices of its parameters / buffers (``-1``: none) and its
    options."""

    kind: str  # conv | linear | bn | relu | flatten | pad
    params: tuple[int, ...] = ()  # weight, bias
    buffers: tuple[int, ...] = ()  # running_mean, running_var, num_batches_tracked
    stride: tuple[int, ...] = ()
    padding: tuple[int, ...] = ()
    pad: tuple[int, ...] = ()
    eps: float = 1e-5
    momentum: float = 0.1
    dense_norm: bool = False  # a training batch of one row uses the running statistics


@dataclass
class StackState:
    """The members' weights, buffers and Adam state, stacked on dim 0 (parameter order of
    ``model.named_parameters()``, buffer order of ``model.named_buffers()``)."""

    params: list[torch.Tensor]
    buffers: list[torch.Tensor]
    exp_avg: list[torch.Tensor]
    exp_avg_sq: list[torch.Tensor]
    step: torch.Tensor  # float64[M]: Adam steps taken by each member

    @property
    def members(self) -> int:
        return int(self.step.shape[0])

    def select(self, idx: torch.Tensor) -> StackState:
        """Copies of members ``idx`` (a new leaf per parameter)."""
        with torch.no_grad():
            return StackState(
                params=[p.index_select(0, idx).requires_grad_() for p in self.params],
                buffers=[b.index_select(0, idx) for b in self.buffers],
                exp_avg=[t.index_select(0, idx) for t in self.exp_avg],
                exp_avg_sq=[t.index_select(0, idx) for t in self.exp_avg_sq],
                step=self.step.index_select(0, idx))

    def scatter(self, idx: torch.Tensor, sub: StackState) -> None:
        """Write ``sub`` (from :meth:`select` with ``idx``) back into members ``idx``."""
        with torch.no_grad():
            for mine, theirs in ((self.params, sub.params), (self.buffers, sub.buffers),
                                 (self.exp_avg, sub.exp_avg), (self.exp_avg_sq, sub.exp_avg_sq),
                                 ([self.step], [sub.step])):
                for a, b in zip(mine, theirs, strict=True):
                    a.index_copy_(0, idx, b)


def _index(names: Sequence[str], name: str) -> int:
    return names.index(name) if name in names else -1


def _ops(seq: nn.Module, prefix: str, pnames: Sequence[str], bnames: Sequence[str]) -> list[Op]:
    ops: list[Op] = []
    for i, m in enumerate(seq.children()):
        name = f"{prefix}.{i}"
        w, b = _index(pnames, f"{name}.weight"), _index(pnames, f"{name}.bias")
        if isinstance(m, nn.Conv2d):
            if (m.groups != 1 or tuple(m.dilation) != (1, 1) or m.padding_mode != "zeros"
                    or isinstance(m.padding, str)):
                raise Unsupported(f"{name}: only plain convolutions stack")
            ops.append(Op("conv", (w, b), stride=tuple(m.stride), padding=tuple(m.padding)))
        elif isinstance(m, nn.Linear):
            ops.append(Op("linear", (w, b)))
        elif isinstance(m, nn.BatchNorm1d | nn.BatchNorm2d):
            if not m.track_running_stats or m.momentum is None:
                raise Unsupported(f"{name}: batch norm without running statistics")
            bufs = tuple(_index(bnames, f"{name}.{k}") for k in ("running_mean", "running_var",
                                                                 "num_batches_tracked"))
            ops.append(Op("bn", (w, b), bufs, eps=float(m.eps), momentum=float(m.momentum),
                          dense_norm=isinstance(m, DenseNorm)))
        elif isinstance(m, nn.ReLU):
            ops.append(Op("relu"))
        elif isinstance(m, nn.Flatten):
            if m.start_dim != 1 or m.end_dim != -1:
                raise Unsupported(f"{name}: flatten from dim 1 only")
            ops.append(Op("flatten"))
        elif isinstance(m, nn.ZeroPad2d):
            ops.append(Op("pad", pad=tuple(int(x) for x in m.padding)))
        elif isinstance(m, nn.Dropout) and m.p == 0:
            continue
        else:
            raise Unsupported(f"{name}: {type(m).__name__} does not stack")
    return ops


def signature(model: nn.Module) -> str:
    """Members with equal signatures stack (same layers, shapes and forward)."""
    return f"{type(model).__name__} mask_input={getattr(model, 'config', {}).get('mask_input')} " \
           f"{[(k, tuple(v.shape)) for k, v in model.state_dict().items()]} {model!r}"


MODES = ("exact", "loop", "grouped")


class StackedNet:
    """The forward pass and loss of ``M`` copies of one architecture over a
    :class:`StackState`.

    ``mode``: ``exact`` runs each member's layers with the kernels a lone net calls (on CPU
    bit-identical to ``train_fold``; one op per member and layer); ``loop`` runs dense layers,
    their batch norms and the loss for all members at once (``baddbmm``) and convolutions one
    per member; ``grouped`` also runs each convolution for all members as one grouped
    convolution (the CUDA default). ``auto``: ``exact`` on CPU, ``grouped`` on CUDA.
    """

    def __init__(self, template: nn.Module, device: torch.device, mode: str = "auto"):
        if not isinstance(template, MaskedPolicyNet | MultiHeadPolicyNet):
            raise Unsupported(f"{type(template).__name__} does not stack")
        self.pnames = [k for k, _ in template.named_parameters()]
        self.bnames = [k for k, _ in template.named_buffers()]
        self.mask_input = bool(template.config.get("mask_input", False))
        self.ops = _ops(template.body, "body", self.pnames, self.bnames)
        self.heads: list[tuple[int, int]] = []
        if isinstance(template, MultiHeadPolicyNet):
            for h, head in enumerate(template.heads):
                if not isinstance(head, nn.Linear):
                    raise Unsupported("heads must be linear layers")
                self.heads.append((self.pnames.index(f"heads.{h}.weight"),
                                   _index(self.pnames, f"heads.{h}.bias")))
        flat = [i for i, op in enumerate(self.ops) if op.kind == "flatten"]
        if len(flat) != 1 or any(op.kind in ("conv", "pad") for op in self.ops[flat[0]:]):
            raise Unsupported("a stacked net flattens once, after its convolutions")
        self.spatial, self.dense = self.ops[:flat[0]], self.ops[flat[0] + 1:]
        self.mode = ("grouped" if device.type == "cuda" else "exact") if mode == "auto" else mode
        if self.mode not in MODES:
            raise ValueError(f"mode must be auto or one of {MODES}, got {mode!r}")

    def stack(self, models: Sequence[nn.Module], device: torch.device) -> StackState:
        """The members' initial state: their weights and buffers, zero moments, step 0."""
        named = [dict(m.named_parameters()) for m in models]
        bufs = [dict(m.named_buffers()) for m in models]
        with torch.no_grad():
            params = [torch.stack([n[k].detach() for n in named]).to(device).requires_grad_()
                      for k in self.pnames]
            buffers = [torch.stack([b[k] for b in bufs]).to(device) for k in self.bnames]
        return StackState(params=params, buffers=buffers,
                          exp_avg=[torch.zeros_like(p) for p in params],
                          exp_avg_sq=[torch.zeros_like(p) for p in params],
                          step=torch.zeros(len(models), dtype=torch.float64, device=device))

    @torch.no_grad()
    def load_into(self, st: StackState, g: int, model: nn.Module) -> None:
        """Copy member ``g``'s weights and buffers into ``model`` (built from the same
        config), e.g. to evaluate it or save its checkpoint exactly as a lone run does."""
        for (_, p), q in zip(model.named_parameters(), st.params, strict=True):
            p.copy_(q[g])
        for (_, b), c in zip(model.named_buffers(), st.buffers, strict=True):
            b.copy_(c[g])

    def loss(self, st: StackState, x: torch.Tensor, masks: Sequence[torch.Tensor],
             y: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        """Training mode, per member: (mean over its rows of their cross-entropies summed over
        the heads each uses, as ``run_epoch``), and how many rows it got right."""
        b = x.shape[1]
        if self.mode != "exact":
            logits = self.forward(st, x, masks, train=True)
            with torch.no_grad():
                correct = rows_correct(logits, y).sum(1)
            return rows_loss(logits, y).mean(1), correct
        losses, correct = [], []
        for g, outs in enumerate(self._members(st, x, masks, train=True)):
            yg = y[g]
            if len(outs) == 1:  # the ops of run_epoch's one-head branch
                losses.append(F.cross_entropy(outs[0], yg[:, 0]))
                correct.append((outs[0].detach().argmax(dim=1) == yg[:, 0]).sum())
            else:
                losses.append(heads_loss(outs, yg) / b)
                correct.append(heads_correct([o.detach() for o in outs], yg).sum())
        return torch.stack(losses), torch.stack(correct)

    def _members(self, st: StackState, x: torch.Tensor, masks: Sequence[torch.Tensor],
                 train: bool) -> list[list[torch.Tensor]]:
        """``exact``: member by member, the ops of ``MaskedPolicyNet`` /
        ``MultiHeadPolicyNet`` and their layers, on views of the stacked weights."""
        m, b = x.shape[:2]
        w = [p.unbind(0) for p in st.params]
        out = []
        for g in range(m):
            h = x[g]
            if self.mask_input:
                h = torch.cat([h, masks[0][g].reshape(b, 1, *h.shape[2:])], 1)
            for op in self.ops:
                h = self._member_op(st, w, g, op, h, train)
            if not self.heads:
                out.append([h.masked_fill(masks[0][g] <= 0, MASK_VALUE)])
                continue
            out.append([F.linear(h, w[i][g], w[j][g] if j >= 0 else None)
                        .masked_fill(mask[g] <= 0, MASK_VALUE)
                        for (i, j), mask in zip(self.heads, masks, strict=True)])
        if train:
            for op in self.ops:
                if op.kind == "bn" and not (op.dense_norm and b == 1):
                    _count_batch(st, op)
        return out

    @staticmethod
    def _member_op(st: StackState, w: list[Sequence[torch.Tensor]], g: int, op: Op,
                   h: torch.Tensor, train: bool) -> torch.Tensor:
        wt = w[op.params[0]][g] if op.params and op.params[0] >= 0 else None
        bias = w[op.params[1]][g] if op.params and op.params[1] >= 0 else None
        if op.kind == "conv":
            return F.conv2d(h, wt, bias, op.stride, op.padding)
        if op.kind == "linear":
            return F.linear(h, wt, bias)
        if op.kind == "relu":
            return F.relu(h)
        if op.kind == "flatten":
            return h.flatten(1)
        if op.kind == "pad":
            return F.pad(h, op.pad, "constant", 0.0)
        rm, rv = st.buffers[op.buffers[0]][g], st.buffers[op.buffers[1]][g]
        if train and op.dense_norm and h.shape[0] == 1:  # DenseNorm's one-row batch
            return F.batch_norm(h, rm, rv, wt, bias, False, 0.0, op.eps)
        return F.batch_norm(h, rm, rv, wt, bias, train, op.momentum, op.eps)

    def forward(self, st: StackState, x: torch.Tensor, masks: Sequence[torch.Tensor],
                train: bool) -> list[torch.Tensor]:
        """Masked logits per head, ``[M, B, A_h]``, of planes ``x`` ``[M, B, C, H, W]``."""
        m, b = x.shape[:2]
        if self.mode == "exact":
            outs = self._members(st, x, masks, train)
            return [torch.stack([o[h] for o in outs]) for h in range(len(outs[0]))]
        if self.mask_input:
            x = torch.cat([x, masks[0].reshape(m, b, 1, *x.shape[3:])], 2)
        if not self.spatial:
            h = x.reshape(m, b, -1)
        elif self.mode == "loop":
            h = self._spatial_loop(st, x, train)
        else:
            h = self._spatial_grouped(st, x, train)
        for op in self.dense:
            h = self._dense(st, op, h, train)
        if not self.heads:
            return [h.masked_fill(masks[0] <= 0, MASK_VALUE)]
        return [_linear(st, (w, bias), h).masked_fill(mask <= 0, MASK_VALUE)
                for (w, bias), mask in zip(self.heads, masks, strict=True)]

    def _spatial_loop(self, st: StackState, x: torch.Tensor, train: bool) -> torch.Tensor:
        m, b = x.shape[:2]
        xs = list(x.unbind(0))
        for op in self.spatial:
            if op.kind == "relu":
                xs = [F.relu(v) for v in xs]
            elif op.kind == "pad":
                xs = [F.pad(v, op.pad) for v in xs]
            elif op.kind == "conv":
                ws, bs = _unbound(st, op.params[0], m), _unbound(st, op.params[1], m)
                xs = [F.conv2d(v, ws[g], bs[g], op.stride, op.padding) for g, v in enumerate(xs)]
            else:  # bn
                ws, bs = _unbound(st, op.params[0], m), _unbound(st, op.params[1], m)
                rm, rv = st.buffers[op.buffers[0]], st.buffers[op.buffers[1]]
                xs = [F.batch_norm(v, rm[g], rv[g], ws[g], bs[g], train, op.momentum, op.eps)
                      for g, v in enumerate(xs)]
                if train:
                    _count_batch(st, op)
        return torch.stack([v.reshape(b, -1) for v in xs])

    def _spatial_grouped(self, st: StackState, x: torch.Tensor, train: bool) -> torch.Tensor:
        m, b = x.shape[:2]
        h = x.transpose(0, 1).reshape(b, -1, *x.shape[3:])  # [B, M x C, H, W]
        for op in self.spatial:
            if op.kind == "relu":
                h = F.relu(h)
            elif op.kind == "pad":
                h = F.pad(h, op.pad)
            elif op.kind == "conv":
                w = st.params[op.params[0]]
                bias = st.params[op.params[1]].reshape(-1) if op.params[1] >= 0 else None
                h = F.conv2d(h, w.reshape(-1, *w.shape[2:]), bias, op.stride, op.padding,
                             groups=m)
            else:
                h = _batch_norm(st, op, h, train)
        return h.reshape(b, m, -1).transpose(0, 1)

    def _dense(self, st: StackState, op: Op, h: torch.Tensor, train: bool) -> torch.Tensor:
        if op.kind == "linear":
            return _linear(st, op.params, h)
        if op.kind == "relu":
            return F.relu(h)
        if op.kind != "bn":
            raise Unsupported(f"{op.kind} after flatten")
        m, b, units = h.shape
        flat = h.transpose(0, 1).reshape(b, m * units)
        return _batch_norm(st, op, flat, train).reshape(b, m, units).transpose(0, 1)


def _unbound(st: StackState, i: int, m: int) -> Sequence[torch.Tensor | None]:
    return st.params[i].unbind(0) if i >= 0 else [None] * m


def _linear(st: StackState, params: tuple[int, ...], h: torch.Tensor) -> torch.Tensor:
    w = st.params[params[0]]
    if params[1] < 0:
        return torch.bmm(h, w.transpose(1, 2))
    return torch.baddbmm(st.params[params[1]].unsqueeze(1), h, w.transpose(1, 2))


def _count_batch(st: StackState, op: Op) -> None:
    if op.buffers[2] >= 0:
        st.buffers[op.buffers[2]].add_(1)


def _batch_norm(st: StackState, op: Op, h: torch.Tensor, train: bool) -> torch.Tensor:
    """Batch norm of all members at once: ``h`` is ``[B, M x C, ...]``, the stacked statistics
    are viewed as ``M x C`` channels (updated in place)."""
    rm, rv = st.buffers[op.buffers[0]].view(-1), st.buffers[op.buffers[1]].view(-1)
    w = st.params[op.params[0]].reshape(-1) if op.params[0] >= 0 else None
    bias = st.params[op.params[1]].reshape(-1) if op.params[1] >= 0 else None
    if train and op.dense_norm and h.shape[0] == 1:  # DenseNorm: one row, running statistics
        return F.batch_norm(h, rm, rv, w, bias, False, 0.0, op.eps)
    if train:
        _count_batch(st, op)
    return F.batch_norm(h, rm, rv, w, bias, train, op.momentum, op.eps)


def rows_loss(logits: Sequence[torch.Tensor], y: torch.Tensor) -> torch.Tensor:
    """``[M, B]``: each row's cross-entropies summed over the heads it uses (label >= 0)."""
    total: Any = 0
    for h, lg in enumerate(logits):
        m, b, a = lg.shape
        ce = F.cross_entropy(lg.reshape(m * b, a), y[..., h].reshape(-1), ignore_index=-1,
                             reduction="none")
        total = total + ce.reshape(m, b)
    return total


def rows_correct(logits: Sequence[torch.Tensor], y: torch.Tensor) -> torch.Tensor:
    """``[M, B]``: is every head the row uses predicted right?"""
    ok = torch.ones(y.shape[:2], dtype=torch.bool, device=y.device)
    for h, lg in enumerate(logits):
        ok &= (lg.argmax(dim=2) == y[..., h]) | (y[..., h] < 0)
    return ok


__all__ = ["MODES", "Op", "StackState", "StackedNet", "Unsupported", "rows_correct", "rows_loss",
           "signature"]
