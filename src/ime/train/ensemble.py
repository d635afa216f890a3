"""Train many (net, fold) members of one game's bots at once, each exactly as its lone run.

Why: the imitators are small (30-80k weights); a lone run of one pays, per step of 64 rows, the
Python and dispatch cost of every layer, of zero-grad and of a per-parameter Adam, and on a GPU
a kernel launch for each. Members of one architecture (the folds of a net; nets that differ
only in name) are stacked into one model (:mod:`ime.train.stacked`) and take their steps
together, with one gather of their rows and one Adam update for all of them; different
architectures are trained one group after another in the same process, from one load of the
dataset. :func:`train_bots` stacks several bots' members too, over their datasets concatenated
on the device (a zoo's folds of one net as one stack). ``ime bench <game> --only train``
measures it against ``run_epoch``.

What stays as in :func:`ime.train.loop.train_fold` (``tests/stages/test_ensemble.py`` checks
it against serial runs):

* seeds and data order: ``run_seed = derive_seed("train", seed, bot, net, fold)`` builds the
  initial weights, and each member's own generator draws the same ``randperm`` and symmetry
  ``randint`` per epoch as a lone run;
* each member's own fold, so members have different numbers of batches and last-batch sizes:
  steps where every member has a whole batch run on the whole stack, and the tail of an epoch
  runs one step per batch size on the members that have one (:func:`train_epoch`); a member
  outside a step is untouched (weights, Adam moments and step count, batch-norm statistics);
* per-member early stopping (Keras's patience, ``train.monitor``), the best epoch's weights
  restored, a stopped member frozen and left out of later epochs; ``train.lr_decay`` per epoch;
  ``train.augment`` with each member's own symmetry per batch; several action heads;
* evaluation and files: each member is evaluated, and its checkpoint and metrics JSON written,
  by the lone run's own code (:func:`ime.train.loop.evaluate`,
  :func:`ime.train.loop.write_fold`) on a net holding its weights.

In mode ``exact`` (the CPU default) every member's files are byte-identical to its
``train_fold`` run's; the batched modes (``loop``, ``grouped``: the CUDA default) agree to float
rounding. Adam: ``exact`` uses ``_foreach`` ops in ``torch.optim.Adam``'s single-tensor order
(bit-identical on CPU); the batched modes use torch's fused kernel, one view per (parameter,
member) with that member's step count (2-3x faster than the ``_foreach`` ops at 15-75 members).
Nets the stacked interpreter cannot run (branch nets, dropout) are trained one by one with
``train_fold``. ``timing`` in a member's metrics is its group's wall time over the epochs the
member trained, so ``samples_per_s`` is the member's share, not the group's total.
"""

from __future__ import annotations

import dataclasses
import logging
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import torch
from torch import nn
from tqdm.auto import tqdm

from ime.core.registry import get_encoder
from ime.core.seeding import derive_seed
from ime.imitators.family import fit_members
from ime.imitators.kinds import is_fitted
from ime.nets import MaskedPolicyNet, MultiHeadPolicyNet, build_net
from ime.train.augment import Symmetries
from ime.train.folds import Split
from ime.train.loop import (
    EarlyStopping,
    TensorData,
    evaluate,
    load_dataset,
    monitor_of,
    pick_device,
    set_determinism,
    split_fold,
    train_fold,
    write_fold,
)
from ime.train.stacked import StackedNet, StackState, Unsupported, signature

log = logging.getLogger("ime.train")
BETAS = (0.9, 0.999)  # torch.optim.Adam's defaults
EPS = 1e-8


@dataclass(frozen=True)
class Member:
    """One (net, fold) to train, and where its checkpoint and metrics JSON go."""

    net_config: Mapping[str, Any]
    fold: int
    checkpoint_path: str | Path
    metrics_path: str | Path


@dataclass
class _Run:
    """A member's data, generator and early-stopping bookkeeping."""

    member: Member
    bot: str
    net_name: str
    data: TensorData
    model: nn.Module
    gen: torch.Generator
    stopper: EarlyStopping
    history: list[dict[str, Any]] = field(default_factory=list)
    train_time: float = 0.0
    samples: int = 0

    @property
    def n_tr(self) -> int:
        return int(self.data.train_idx.numel())


def train_members(dataset_path: str | Path, members: Sequence[Member],
                  train_cfg: Mapping[str, Any], *, bot: str, threads: int = 1,
                  progress: bool = True, mode: str = "auto") -> list[dict[str, Any]]:
    """Train every member on ``dataset_path``, write each one's checkpoint and metrics JSON as
    :func:`ime.train.loop.train_fold` would, and return the metrics in ``members`` order.

    ``mode``: how a group runs (:class:`ime.train.stacked.StackedNet`): ``auto`` is ``exact``
    on CPU (each member's results bit-identical to its ``train_fold`` run) and ``grouped`` on
    CUDA; ``loop`` batches the dense layers on CPU too (faster for MLPs, equal to float
    rounding).
    """
    return train_bots({bot: (dataset_path, members)}, train_cfg, threads=threads,
                      progress=progress, mode=mode)[bot]


def train_bots(jobs: Mapping[str, tuple[str | Path, Sequence[Member]]],
               train_cfg: Mapping[str, Any], *, threads: int = 1, progress: bool = True,
               mode: str = "auto") -> dict[str, list[dict[str, Any]]]:
    """:func:`train_members` for several bots at once: ``jobs[bot] = (dataset, members)``.

    Members of one architecture are stacked across bots too (a zoo's folds of one net are one
    stack on a GPU: Snake's 22 bots x 5 folds), each with its own bot's rows, seeds, split and
    files, exactly as if its bot were trained alone. The datasets are concatenated on the device
    (one gather per step for every member); they must share the encoder's shapes.
    """
    families = [(bot, m) for bot, (_, ms) in jobs.items() for m in ms if is_fitted(m.net_config)]
    if families:  # imitator families are fitted (ime.imitators.family), the nets trained here
        net_jobs = {bot: (path, [m for m in ms if not is_fitted(m.net_config)])
                    for bot, (path, ms) in jobs.items()}
        net_jobs = {bot: job for bot, job in net_jobs.items() if job[1]}
        trained = {bot: iter(ms) for bot, ms in (train_bots(
            net_jobs, train_cfg, threads=threads, progress=progress, mode=mode)
            if net_jobs else {}).items()}
        fits = fit_members([(jobs[bot][0], m.net_config, m.fold, m.checkpoint_path,
                             m.metrics_path, train_cfg, bot) for bot, m in families],
                           workers=threads)  # a family's folds: ``threads`` at once
        fitted = {id(m): r for (_, m), r in zip(families, fits, strict=True)}
        return {bot: [fitted[id(m)] if id(m) in fitted else next(trained[bot]) for m in ms]
                for bot, (_, ms) in jobs.items()}
    device = pick_device(str(train_cfg.get("device", "auto")))
    set_determinism(threads, device)
    split = Split.of(train_cfg)  # k-fold or hold-out: each bot split by its own match ids
    seed = split.seed
    monitor = monitor_of(train_cfg)
    loaded = {bot: load_dataset(path, device) for bot, (path, _) in jobs.items()}
    arrs = {bot: arr for bot, (_, arr) in loaded.items()}
    base, offsets = _concat({bot: data for bot, (data, _) in loaded.items()})
    del loaded  # several bots: their rows live on in ``base`` alone (one copy on the device)
    groups: dict[str, list[int]] = {}
    alone: list[int] = []
    runs: list[_Run] = []
    for bot, (_, members) in jobs.items():
        splits: dict[int, TensorData] = {}
        for mem in members:
            if mem.fold not in splits:
                splits[mem.fold] = _shifted(split_fold(base, arrs[bot], mem.fold, split),
                                            offsets[bot])
            net_name = str(mem.net_config.get("name", mem.net_config.get("kind")))
            run_seed = derive_seed("train", seed, bot, net_name, mem.fold)
            torch.manual_seed(run_seed)
            model = build_net(mem.net_config, base.in_shape, base.head_sizes,
                              seed=run_seed).to(device)
            gen = torch.Generator().manual_seed(derive_seed("shuffle", run_seed))
            runs.append(_Run(mem, bot, net_name, splits[mem.fold], model, gen,
                             EarlyStopping(monitor, int(train_cfg["patience"]))))
            try:
                StackedNet(model, device, mode)
            except Unsupported as e:
                log.info("%s %s fold %d trains alone: %s", bot, net_name, mem.fold, e)
                alone.append(len(runs) - 1)
                continue
            groups.setdefault(signature(model), []).append(len(runs) - 1)
    out: list[dict[str, Any] | None] = [None] * len(runs)
    for idx in groups.values():
        metrics = _train_group([runs[i] for i in idx], base, train_cfg, device=device,
                               threads=threads, progress=progress, mode=mode)
        for i, m in zip(idx, metrics, strict=True):
            out[i] = m
    for i in alone:
        r = runs[i]
        out[i] = train_fold(jobs[r.bot][0], r.member.net_config, train_cfg, bot=r.bot,
                            fold=r.member.fold, checkpoint_path=r.member.checkpoint_path,
                            metrics_path=r.member.metrics_path, threads=threads,
                            progress=progress)
    assert all(m is not None for m in out)
    result: dict[str, list[dict[str, Any]]] = {bot: [] for bot in jobs}
    for r, m in zip(runs, out, strict=True):
        result[r.bot].append(m)  # type: ignore[arg-type]
    return result


def _concat(datas: Mapping[str, TensorData]) -> tuple[TensorData, dict[str, int]]:
    """One dataset of every bot's rows, and where each bot's rows start (one bot: itself)."""
    items = list(datas.items())
    first = items[0][1]
    offsets, at = {}, 0
    for bot, d in items:
        if (d.in_shape, d.head_sizes, d.game, d.encoder_version) != (
                first.in_shape, first.head_sizes, first.game, first.encoder_version):
            raise ValueError(f"{bot}'s dataset ({d.game}, {d.encoder_version}, {d.in_shape}) "
                             f"does not stack with {items[0][0]}'s ({first.game}, "
                             f"{first.encoder_version}, {first.in_shape})")
        offsets[bot], at = at, at + int(d.planes.shape[0])
    if len(items) == 1:
        return first, offsets

    ds = [d for _, d in items]
    return dataclasses.replace(
        first, planes=torch.cat([d.planes for d in ds]), mask=torch.cat([d.mask for d in ds]),
        action=torch.cat([d.action for d in ds]),
        extra_masks=[torch.cat([d.extra_masks[h] for d in ds])
                     for h in range(len(first.extra_masks))],
        extra_actions=(torch.cat([d.extra_actions for d in ds])  # type: ignore[misc]
                       if first.extra_actions is not None else None)), offsets


def _shifted(split: TensorData, offset: int) -> TensorData:
    """A bot's fold (row indices of its own dataset) as rows of the concatenated dataset."""
    if offset == 0:
        return split
    return dataclasses.replace(
        split, train_idx=split.train_idx + offset, val_idx=split.val_idx + offset,
        val_unseen_idx=split.val_unseen_idx + offset,
        val_unseen_distinct_idx=(None if split.val_unseen_distinct_idx is None
                                 else split.val_unseen_distinct_idx + offset),
        val_opening_idx=(None if split.val_opening_idx is None
                         else split.val_opening_idx + offset))


def _train_group(runs: list[_Run], base: TensorData, cfg: Mapping[str, Any], *,
                 device: torch.device, threads: int, progress: bool,
                 mode: str) -> list[dict[str, Any]]:
    """Train one stack of same-architecture members to the end and write their files."""
    net = StackedNet(runs[0].model, device, mode)
    st = net.stack([r.model for r in runs], device)
    best_p = [p.detach().clone() for p in st.params]
    best_b = [b.clone() for b in st.buffers]
    bs, max_epochs = int(cfg["batch_size"]), int(cfg["max_epochs"])
    lr, gamma = float(cfg["lr"]), float(cfg.get("lr_decay", 1.0))
    wd = float(cfg.get("weight_decay", 0.0))
    augment = str(cfg.get("augment", "none"))
    sym = (Symmetries.of(get_encoder(base.game, base.game_params), augment, device)
           if augment != "none" else None)
    ssym = StackedSymmetries(sym) if sym is not None else None
    names = sorted({f"{r.bot}/{r.net_name}/fold{r.member.fold}" for r in runs})
    bots = "+".join(dict.fromkeys(r.bot for r in runs))
    log.info("%s: training %d members at once (%s) on %s, %d thread(s), mode %s", bots,
             len(runs), ", ".join(names), device, threads, net.mode)
    bar = tqdm(total=max_epochs, desc=f"{bots}/{runs[0].net_name} x{len(runs)}", unit="epoch",
               disable=not progress, mininterval=1.0)
    for epoch in range(1, max_epochs + 1):
        live = [g for g, r in enumerate(runs) if not r.stopper.stop]
        if not live:
            break
        t0 = time.perf_counter()
        perms, ks = [], []
        for g in live:
            r = runs[g]
            perms.append(r.data.train_idx[torch.randperm(r.n_tr, generator=r.gen).to(device)])
            ks.append(torch.randint(len(sym), (r.n_tr // bs + 1,), generator=r.gen).tolist()
                      if sym is not None else [])
        idx = torch.tensor(live, device=device)
        sub = st if len(live) == len(runs) else st.select(idx)
        loss, correct = train_epoch(net, sub, base, perms, bs, lr, wd, ssym,
                                    ks if sym is not None else None)
        loss_l, correct_l = loss.tolist(), correct.tolist()
        dt = time.perf_counter() - t0
        if sub is not st:
            st.scatter(idx, sub)
        improved = []
        for j, g in enumerate(live):
            r = runs[g]
            r.train_time += dt
            r.samples += r.n_tr
            net.load_into(sub, j, r.model)  # evaluated as a lone run evaluates
            val_loss, val_acc = evaluate(r.model, r.data, r.data.val_idx)
            rec = {"epoch": epoch, "lr": lr, "train_loss": loss_l[j] / r.n_tr,
                   "train_acc_running": 100.0 * correct_l[j] / r.n_tr,
                   "val_loss": val_loss, "val_acc": val_acc}
            r.history.append(rec)
            better = r.stopper.update(epoch, val_loss, val_acc)
            if better:
                improved.append(g)
            log.info("%s %s fold %d epoch %d: train loss %.4f acc %.2f%% | val loss %.4f acc "
                     "%.2f%%%s", r.bot, r.net_name, r.member.fold, epoch, rec["train_loss"],
                     rec["train_acc_running"], val_loss, val_acc, " *" if better else "")
        if improved:
            at = torch.tensor(improved, device=device)
            with torch.no_grad():
                for mine, cur in ((best_p, st.params), (best_b, st.buffers)):
                    for a, b in zip(mine, cur, strict=True):
                        a.index_copy_(0, at, b.detach().index_select(0, at))
        lr = lr * gamma  # ExponentialLR's step
        bar.update()
        bar.set_postfix(live=len(live), samples_s=f"{sum(runs[g].n_tr for g in live) / dt:.0f}")
    bar.close()
    best = StackState(params=best_p, buffers=best_b, exp_avg=[], exp_avg_sq=[], step=st.step)
    out = []
    for g, r in enumerate(runs):
        model = r.model
        assert isinstance(model, MaskedPolicyNet | MultiHeadPolicyNet)
        net.load_into(best, g, model)
        out.append(write_fold(
            model, r.data, bot=r.bot, net_config=r.member.net_config, train_cfg=cfg,
            fold=r.member.fold, history=r.history, best_epoch=r.stopper.best_epoch,
            timing={"device": str(device), "threads": threads, "train_seconds": r.train_time,
                    "samples": r.samples},
            checkpoint_path=r.member.checkpoint_path, metrics_path=r.member.metrics_path))
    return out


def train_epoch(net: StackedNet, st: StackState, data: TensorData, perms: Sequence[torch.Tensor],
                batch_size: int, lr: float, weight_decay: float = 0.0,
                sym: StackedSymmetries | None = None, ks: Sequence[Sequence[int]] | None = None
                ) -> tuple[torch.Tensor, torch.Tensor]:
    """One epoch of Adam steps of every member of ``st``, member ``g`` over rows ``perms[g]``
    in batches (``ks[g][j]``: its batch j's symmetry); returns per member (summed loss,
    correct). Shared by the trainer and ``ime.train.bench``.

    Steps where every member has a whole batch run on the whole stack; the tail of an epoch,
    where folds of different sizes have a shorter last batch or none, runs one step per batch
    size on the members that have it (:meth:`StackState.select`), so nobody else moves.
    """
    m, device = st.members, data.planes.device
    sizes = [int(p.numel()) for p in perms]
    width = max(sizes)
    rows = torch.zeros((m, width), dtype=torch.long, device=device)
    for g, p in enumerate(perms):
        rows[g, :sizes[g]] = p
    kk = None
    if sym is not None and ks is not None:
        steps = max(len(k) for k in ks)
        kk = torch.tensor([list(k) + [0] * (steps - len(k)) for k in ks], device=device)
    loss = torch.zeros(m, device=device)
    correct = torch.zeros(m, dtype=torch.long, device=device)
    full = min(sizes) // batch_size
    for j in range(-(-width // batch_size)):
        lo = j * batch_size
        if j < full:
            l, c = _step(net, st, data, rows[:, lo:lo + batch_size], lr, weight_decay, sym,
                         kk[:, j] if kk is not None else None)
            loss += l
            correct += c
            continue
        by_size: dict[int, list[int]] = {}
        for g, n in enumerate(sizes):
            if n > lo:
                by_size.setdefault(min(batch_size, n - lo), []).append(g)
        for size, members in sorted(by_size.items(), reverse=True):
            idx = torch.tensor(members, device=device)
            sub = st if len(members) == m else st.select(idx)
            l, c = _step(net, sub, data, rows[idx, lo:lo + size], lr, weight_decay, sym,
                         kk[idx, j] if kk is not None else None)
            if sub is not st:
                st.scatter(idx, sub)
            loss[idx] += l
            correct[idx] += c
    return loss, correct


def _step(net: StackedNet, st: StackState, data: TensorData, rows: torch.Tensor, lr: float,
          weight_decay: float, sym: StackedSymmetries | None,
          k: torch.Tensor | None) -> tuple[torch.Tensor, torch.Tensor]:
    """One Adam step of every member of ``st`` on its rows ``rows[g]``: per member, the mean
    over its rows of their (summed over heads) cross-entropies, as ``run_epoch``."""
    x, masks, y = gather_rows(data, rows)
    if sym is not None and k is not None:
        x, masks, y = sym.apply(k, x, masks, y)
    loss, correct = net.loss(st, x, masks, y)
    for p in st.params:
        p.grad = None
    loss.sum().backward()
    adam_step(st, lr, weight_decay, fused=net.mode != "exact")  # exact: torch's own op order
    return loss.detach() * rows.shape[1], correct


def adam_step(st: StackState, lr: float, weight_decay: float = 0.0, fused: bool = True) -> None:
    """One Adam step of every member of ``st`` from the gradients on ``st.params``:
    ``torch.optim.Adam``'s arithmetic (L2 weight decay) with each member's own step count.

    ``fused``: torch's fused Adam kernel over one view per (parameter, member), each with its
    member's step count (2-3x faster than the ``_foreach`` ops on CPU, measured at 15 and 75
    members, but not bit-identical to ``torch.optim.Adam``'s default single-tensor path); else,
    or where the kernel is missing (torch < 2.4), ``_foreach`` ops in the single-tensor path's
    order, which on CPU give its bits exactly.
    """
    with torch.no_grad():
        st.step += 1
        if fused and _FUSED is not None:
            try:
                _fused(st, lr, weight_decay)
                return
            except NotImplementedError:  # no fused kernel for this device
                pass
        _foreach(st, lr, weight_decay)


_FUSED = getattr(torch, "_fused_adam_", None)


def _fused(st: StackState, lr: float, weight_decay: float) -> None:
    def views(ts: Sequence[torch.Tensor]) -> list[torch.Tensor]:
        return [v for t in ts for v in t.unbind(0)]

    steps = st.step.to(torch.float32).unbind(0) * len(st.params)
    grads = [p.grad if p.grad is not None else torch.zeros_like(p) for p in st.params]
    assert _FUSED is not None
    _FUSED(views([p.detach() for p in st.params]), views(grads), views(st.exp_avg),
           views(st.exp_avg_sq), [], list(steps), amsgrad=False, lr=lr, beta1=BETAS[0],
           beta2=BETAS[1], weight_decay=weight_decay, eps=EPS, maximize=False)


def _foreach(st: StackState, lr: float, weight_decay: float) -> None:
    """``torch.optim.Adam``'s single-tensor step, op for op, with each member's bias
    corrections broadcast over its slice; a few members at a time (about 2 MB of each state
    tensor), so their tensors stay in cache between the ops (at 75 CONV members, 10 ms a step
    against 27 ms all at once)."""
    beta1, beta2 = BETAS
    bc1 = 1 - torch.pow(beta1, st.step)
    step_size = (lr / bc1).neg().to(st.params[0].dtype)
    bc2_sqrt = torch.sqrt(1 - torch.pow(beta2, st.step)).to(st.params[0].dtype)
    shapes = [(-1,) + (1,) * (p.dim() - 1) for p in st.params]
    m = st.members
    chunk = max(1, (1 << 19) // max(1, sum(p[0].numel() for p in st.params)))
    for lo in range(0, m, chunk):
        hi = min(m, lo + chunk)
        params = [p[lo:hi] for p in st.params]
        grads = [p.grad[lo:hi] if p.grad is not None else torch.zeros_like(p[lo:hi])
                 for p in st.params]
        exp_avg = [t[lo:hi] for t in st.exp_avg]
        exp_avg_sq = [t[lo:hi] for t in st.exp_avg_sq]
        if weight_decay != 0:
            grads = torch._foreach_add(grads, params, alpha=weight_decay)
        torch._foreach_lerp_(exp_avg, grads, 1 - beta1)
        torch._foreach_mul_(exp_avg_sq, beta2)
        torch._foreach_addcmul_(exp_avg_sq, grads, grads, value=1 - beta2)
        denom = torch._foreach_sqrt(exp_avg_sq)
        torch._foreach_div_(denom, [bc2_sqrt[lo:hi].view(s) for s in shapes])
        torch._foreach_add_(denom, EPS)
        # (-step_size * exp_avg) / denom, then +: addcdiv_'s rounding steps exactly
        update = torch._foreach_mul(exp_avg, [step_size[lo:hi].view(s) for s in shapes])
        torch._foreach_div_(update, denom)
        torch._foreach_add_(params, update)


class StackedSymmetries:
    """A symmetry group's permutations stacked, so each member's batch takes its own one."""

    def __init__(self, sym: Symmetries):
        self.src = torch.stack(sym.src)
        self.head_src = [torch.stack(list(hs)) for hs in zip(*sym.head_src, strict=True)]
        self.head_dst = [torch.stack(list(hd)) for hd in zip(*sym.head_dst, strict=True)]

    def apply(self, k: torch.Tensor, x: torch.Tensor, masks: Sequence[torch.Tensor],
              y: torch.Tensor) -> tuple[torch.Tensor, list[torch.Tensor], torch.Tensor]:
        """Member ``g``'s rows by symmetry ``k[g]``; labels ``-1`` (head unused) stay ``-1``."""
        m, b, c = x.shape[:3]
        src = self.src[k]
        xx = x.reshape(m, b, c, -1)
        xx = xx.gather(3, src[:, None, None, :].expand_as(xx)).reshape(x.shape)
        ms = [mask.gather(2, hs[k][:, None, :].expand_as(mask))
              for mask, hs in zip(masks, self.head_src, strict=True)]
        cols = []
        for h, hd in enumerate(self.head_dst):
            yh = y[..., h]
            cols.append(torch.where(yh >= 0, hd[k].gather(1, yh.clamp(min=0)), yh))
        return xx, ms, torch.stack(cols, -1)


def gather_rows(data: TensorData, rows: torch.Tensor
                ) -> tuple[torch.Tensor, list[torch.Tensor], torch.Tensor]:
    """Planes ``[M, B, ...]``, masks per head and labels ``[M, B, heads]`` of rows ``[M, B]``."""
    flat, lead = rows.reshape(-1), tuple(rows.shape)
    x = data.planes.index_select(0, flat).view(*lead, *data.planes.shape[1:])
    masks = [m.index_select(0, flat).view(*lead, -1) for m in (data.mask, *data.extra_masks)]
    y = data.action.index_select(0, flat).view(*lead, 1)
    if data.extra_actions is not None:
        y = torch.cat([y, data.extra_actions.index_select(0, flat).view(*lead, -1)], -1)
    return x, masks, y


__all__ = ["Member", "StackedSymmetries", "adam_step", "gather_rows", "train_bots",
           "train_epoch", "train_members"]
