"""Train one (bot, net, fold): Adam, mini-batches, early stopping, masked cross-entropy.

Why it looks like this:

* The whole dataset lives on the device as tensors (uint8 planes and masks are < 200 bytes per
  row: the thesis scale's ~175k rows are ~35 MB), batches are index gathers, and there is no
  per-sample Python loop, so one epoch costs a few hundred small matrix products.
* Deterministic on CPU: seeds derived from (train.seed, bot, net, fold) drive the initial weights
  and the epoch shuffles, ``torch.use_deterministic_algorithms(True)`` and a fixed thread count
  (the rule's ``threads``) make the same config give the same metrics. GPUs are used when present
  (``train.device=auto``) and are fast but not bit-reproducible.
* Early stopping watches the validation loss with ``patience`` epochs (the thesis's Keras setup)
  and restores the best epoch's weights; the reported accuracies are that epoch's, measured in
  eval mode on the whole training and validation folds.
* Action heads come from the dataset (:mod:`ime.datasets.schema`). With one head the loss is the
  masked cross-entropy of the played code; with several it is, per row, the sum of the heads'
  masked cross-entropies over the heads the row uses (label ``>= 0``), averaged over rows, and a
  row counts as right when every head it uses is right.
* Symmetry augmentation (``train.augment``) uses the symmetries of the game's encoder, found by
  the dataset's ``game`` (and ``game_params``) metadata.
"""

from __future__ import annotations

import copy
import dataclasses
import json
import logging
import sys
import time
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import torch
from torch import nn
from tqdm.auto import tqdm

from ime.core.registry import get_encoder
from ime.core.seeding import derive_seed
from ime.datasets.build import state_keys
from ime.datasets.schema import DecisionArrays, position_part, read_arrays
from ime.nets import (
    MaskedPolicyNet,
    MultiHeadPolicyNet,
    build_net,
    count_params,
    save_checkpoint,
)
from ime.train.augment import Symmetries
from ime.train.folds import Split

log = logging.getLogger("ime.train")


def pick_device(name: str = "auto") -> torch.device:
    """``auto``: CUDA if available, else Apple MPS, else CPU."""
    if name == "auto":
        if torch.cuda.is_available():
            return torch.device("cuda")
        if getattr(torch.backends, "mps", None) is not None and torch.backends.mps.is_available():
            return torch.device("mps")
        return torch.device("cpu")
    if name == "cuda" and not torch.cuda.is_available():
        raise RuntimeError("train.device=cuda but no CUDA device is visible")
    return torch.device(name)


def set_determinism(threads: int, device: torch.device) -> None:
    """Fixed threads and deterministic kernels (bit-identical CPU runs)."""
    torch.set_num_threads(max(1, int(threads)))
    try:
        torch.set_num_interop_threads(1)
    except RuntimeError:  # already set in this process
        pass
    deterministic_kernels(warn_only=device.type != "cpu")
    if device.type == "cuda":
        torch.backends.cudnn.benchmark = False


def deterministic_kernels(warn_only: bool) -> None:
    """``torch.use_deterministic_algorithms(True, warn_only=...)`` without its import of
    ``torch._inductor.config``.

    Why: that public call also sets inductor's ``deterministic`` flag, for ``torch.compile``,
    and importing inductor's config costs a process about 1.5 s (torch 2.13), which every train
    job paid, at every scale. IME never calls ``torch.compile``, so only the kernels' switch
    (``torch._C._set_deterministic_algorithms``, what the public call sets for eager kernels) is
    set. Where inductor is loaded already, or a torch lacks that switch, the public call runs.
    """
    switch = getattr(torch._C, "_set_deterministic_algorithms", None)
    if switch is None or "torch._inductor.config" in sys.modules:
        torch.use_deterministic_algorithms(True, warn_only=warn_only)
    else:
        switch(True, warn_only=warn_only)


DECISION_SAMPLE = 200
"""Validation rows timed one at a time for a model's ``timing.ms_per_decision``."""
OPENING_PLIES = 10
"""Plies of a match counted as its opening (Maia drops its first 10 plies); the validation rows
before it are scored apart (``val_acc_opening``)."""


@dataclass
class TensorData:
    """A dataset on the device: planes/masks as float, actions as int64, rows by match fold.

    ``mask``/``action`` are the first head's; a multi-head dataset adds ``extra_masks`` (one per
    later head) and ``extra_actions`` (``int64[N, heads - 1]``, ``-1`` where a head is unused).
    """

    planes: torch.Tensor
    mask: torch.Tensor
    action: torch.Tensor
    train_idx: torch.Tensor
    val_idx: torch.Tensor
    val_unseen_idx: torch.Tensor  # validation rows whose exact state never occurs in training
    in_shape: tuple[int, ...]
    num_actions: int
    encoder_version: str
    game: str
    extra_masks: list[torch.Tensor] = field(default_factory=list)
    extra_actions: torch.Tensor | None = None
    game_params: dict[str, Any] | None = None
    first_head: str = "action"
    """The first head's name (``major`` for Doudizhu): multi-head metrics report its own
    accuracy as ``train_acc_<name>`` / ``val_acc_<name>``."""
    val_unseen_distinct_idx: torch.Tensor | None = None
    """Maia's protocol: the unseen validation rows counted once per distinct position (the
    first occurrence; ``val_acc_unseen_distinct``)."""
    val_opening_idx: torch.Tensor | None = None
    """Validation rows of the opening (ply < :data:`OPENING_PLIES`), apart
    (``val_acc_opening``)."""
    val_match_id: np.ndarray | None = None
    """The match of each validation row (``val_idx``'s order): the metrics count correct rows
    per validation match (``val_matches``), so that a single model's accuracy gets a bootstrap
    CI over matches (:func:`ime.train.tables.table4_4`)."""

    @property
    def num_heads(self) -> int:
        return 1 + len(self.extra_masks)

    @property
    def head_sizes(self) -> list[int]:
        return [self.num_actions, *(int(m.shape[1]) for m in self.extra_masks)]

    def batch(self, i: torch.Tensor) -> tuple[torch.Tensor, Any, torch.Tensor]:
        """Rows ``i``: planes, the mask (a list of masks with several heads) and the labels
        (``int64[B]``, or ``int64[B, heads]`` with several heads)."""
        if not self.extra_masks:
            return self.planes[i], self.mask[i], self.action[i]
        assert self.extra_actions is not None
        masks = [self.mask[i], *(m[i] for m in self.extra_masks)]
        return self.planes[i], masks, torch.cat([self.action[i, None], self.extra_actions[i]], 1)


def heads_loss(logits: list[torch.Tensor], y: torch.Tensor) -> torch.Tensor:
    """Summed over rows: each row's masked cross-entropies of the heads it uses (label >= 0)."""
    return sum((nn.functional.cross_entropy(lg, y[:, h], ignore_index=-1, reduction="sum")
                for h, lg in enumerate(logits)), torch.zeros((), device=y.device))


def heads_correct(logits: list[torch.Tensor], y: torch.Tensor) -> torch.Tensor:
    """Per row: is every head the row uses predicted right?"""
    ok = torch.ones(y.shape[0], dtype=torch.bool, device=y.device)
    for h, lg in enumerate(logits):
        ok &= (lg.argmax(dim=1) == y[:, h]) | (y[:, h] < 0)
    return ok


def load_dataset(path: str | Path, device: torch.device) -> tuple[TensorData, DecisionArrays]:
    """Read a dataset file once into device tensors (no fold yet: empty row indices) and the
    arrays :func:`split_fold` needs; the ensemble trainer splits one load into many folds."""
    arr = read_arrays(path)
    if len(arr) == 0:
        raise ValueError(f"{path}: empty dataset (no decisions of this bot)")
    planes = torch.from_numpy(np.require(arr.state, requirements=["C", "W"])).to(device).float()
    mask = torch.from_numpy(np.require(arr.mask, requirements=["C", "W"])).to(device).float()
    action = torch.from_numpy(arr.action.astype(np.int64)).to(device)
    extra_masks = [torch.from_numpy(np.require(m, requirements=["C", "W"])).to(device).float()
                   for m in arr.masks[1:]]
    assert arr.actions is not None
    extra_actions = (torch.from_numpy(np.ascontiguousarray(arr.actions[:, 1:])).to(device)
                     if extra_masks else None)
    game_params = arr.metadata.get("game_params")
    none = torch.zeros(0, dtype=torch.int64, device=device)
    data = TensorData(
        planes=planes, mask=mask, action=action,
        train_idx=none, val_idx=none, val_unseen_idx=none,
        in_shape=tuple(arr.state.shape[1:]), num_actions=int(arr.mask.shape[1]),
        encoder_version=str(arr.metadata.get("encoder_version")),
        game=str(arr.metadata.get("game")),
        extra_masks=extra_masks, extra_actions=extra_actions,
        game_params=dict(game_params) if game_params else None,
        first_head=str(arr.heads[0][0]),
    )
    return data, arr


def split_fold(data: TensorData, arr: DecisionArrays, fold: int, split: Split) -> TensorData:
    """``data`` with the rows of model ``fold`` of ``split`` (by match: a k-fold's fold, or the
    hold-out's one model) as its indices; the tensors are shared, not copied."""
    position = position_part(arr.state, arr.metadata)
    tr, va, unseen = split.unseen(position, arr.match_id, fold)
    _, first = np.unique(state_keys(position[unseen]), return_index=True)
    distinct = unseen[np.sort(first)]
    opening = va[np.asarray(arr.ply)[va] < OPENING_PLIES]
    device = data.planes.device

    def t(rows: np.ndarray) -> torch.Tensor:
        return torch.from_numpy(np.ascontiguousarray(rows, dtype=np.int64)).to(device)

    return dataclasses.replace(data, train_idx=t(tr), val_idx=t(va), val_unseen_idx=t(unseen),
                               val_unseen_distinct_idx=t(distinct), val_opening_idx=t(opening),
                               val_match_id=np.asarray(arr.match_id, dtype=object)[va])


def load_fold(path: str | Path, fold: int, split: Split, device: torch.device) -> TensorData:
    """Read a dataset file and split it by match for model ``fold`` of ``split``."""
    data, arr = load_dataset(path, device)
    return split_fold(data, arr, fold, split)


@torch.no_grad()
def evaluate(model: nn.Module, data: TensorData, idx: torch.Tensor,
             batch: int = 4096) -> tuple[float, float]:
    """(mean cross-entropy, accuracy in %) of ``model`` on rows ``idx``, in eval mode."""
    model.eval()
    loss_sum = 0.0
    correct = 0
    n = int(idx.numel())
    if n == 0:
        return float("nan"), float("nan")
    for b in range(0, n, batch):
        i = idx[b:b + batch]
        if data.num_heads > 1:
            x, ms, y = data.batch(i)
            outs = model(x, ms)
            loss_sum += float(heads_loss(outs, y))
            correct += int(heads_correct(outs, y).sum())
            continue
        logits = model(data.planes[i], data.mask[i])
        loss_sum += float(nn.functional.cross_entropy(logits, data.action[i], reduction="sum"))
        correct += int((logits.argmax(dim=1) == data.action[i]).sum())
    return loss_sum / n, 100.0 * correct / n


@torch.no_grad()
def val_match_counts(model: nn.Module, data: TensorData,
                     batch: int = 4096) -> dict[str, list[Any]] | None:
    """Per validation match (sorted by id): its rows and how many ``model`` predicts right,
    as three parallel lists (``id``, ``correct``, ``rows``). Why: a single model (a hold-out
    split) has no fold spread, and its accuracy's CI comes from a bootstrap over these matches
    (rows of one match are not independent, so the match is the unit resampled). None when the
    split did not record the validation rows' matches."""
    if data.val_match_id is None or len(data.val_match_id) != int(data.val_idx.numel()):
        return None
    model.eval()
    ok = []
    for b in range(0, int(data.val_idx.numel()), batch):
        i = data.val_idx[b:b + batch]
        if data.num_heads > 1:
            x, ms, y = data.batch(i)
            ok.append(heads_correct(model(x, ms), y).cpu().numpy())
        else:
            logits = model(data.planes[i], data.mask[i])
            ok.append((logits.argmax(dim=1) == data.action[i]).cpu().numpy())
    correct = np.concatenate(ok) if ok else np.zeros(0, dtype=bool)
    ids, inv = np.unique(data.val_match_id.astype(str), return_inverse=True)
    return {"id": [str(m) for m in ids],
            "correct": np.bincount(inv, weights=correct, minlength=len(ids)).astype(int).tolist(),
            "rows": np.bincount(inv, minlength=len(ids)).astype(int).tolist()}


@torch.no_grad()
def ms_per_decision(model: nn.Module, data: TensorData, idx: torch.Tensor,
                    n: int = DECISION_SAMPLE) -> float | None:
    """Milliseconds per decision of ``model`` asked one position at a time (as the imitator bot
    asks it in S1/S2 and tournaments), over the first ``n`` rows of ``idx``; None without rows.
    A timing: it varies run to run and stays out of every deterministic field. A search
    family's decision memo is set aside meanwhile: these rows were decided moments before, and
    a lookup is not what a decision costs (:class:`ime.imitators.family.DecisionMemo`)."""
    model.eval()
    rows = idx[:n]
    if int(rows.numel()) == 0:
        return None
    memo = getattr(model, "memo", None)
    if memo is not None:
        model.memo = None
    try:
        t = time.perf_counter()
        for i in rows:
            j = i.reshape(1)
            if data.num_heads > 1:
                x, ms, _ = data.batch(j)
                model(x, ms)
            else:
                model(data.planes[j], data.mask[j])
        return (time.perf_counter() - t) / int(rows.numel()) * 1000
    finally:
        if memo is not None:
            model.memo = memo


@torch.no_grad()
def first_head_accuracy(model: nn.Module, data: TensorData, idx: torch.Tensor,
                        batch: int = 4096) -> float:
    """Accuracy in % of the first head alone on rows ``idx`` (a multi-head net): Doudizhu's
    "major-only" accuracy beside the one that needs every kicker right."""
    model.eval()
    n = int(idx.numel())
    if n == 0:
        return float("nan")
    correct = 0
    for b in range(0, n, batch):
        x, ms, y = data.batch(idx[b:b + batch])
        correct += int((model(x, ms)[0].argmax(dim=1) == y[:, 0]).sum())
    return 100.0 * correct / n


def run_epoch(model: nn.Module, opt: torch.optim.Optimizer, data: TensorData,
              perm: torch.Tensor, batch_size: int, sym: Symmetries | None = None,
              ks: list[int] | None = None) -> tuple[torch.Tensor, torch.Tensor]:
    """One pass of Adam steps over rows ``perm`` in batches; returns (summed loss, correct).

    Everything stays on the data's device (no per-sample Python work); ``ks[j]`` is batch j's
    symmetry when augmenting. Shared by ``train_fold`` and ``ime.train.bench``, so the benchmark
    times exactly the training code.
    """
    model.train()
    device = data.planes.device
    run_loss = torch.zeros((), device=device)
    run_correct = torch.zeros((), dtype=torch.long, device=device)
    for j, b in enumerate(range(0, int(perm.numel()), batch_size)):
        i = perm[b:b + batch_size]
        if data.num_heads > 1:
            x, ms, yh = data.batch(i)
            if ks is not None and sym is not None:
                x, ms, yh = sym.apply_heads(ks[j], x, ms, yh)
            outs = model(x, ms)
            loss = heads_loss(outs, yh) / i.numel()
            opt.zero_grad(set_to_none=True)
            loss.backward()
            opt.step()
            run_loss += loss.detach() * i.numel()
            run_correct += heads_correct([o.detach() for o in outs], yh).sum()
            continue
        x, m, y = data.planes[i], data.mask[i], data.action[i]
        if ks is not None and sym is not None:
            x, m, y = sym.apply(ks[j], x, m, y)
        logits = model(x, m)
        loss = nn.functional.cross_entropy(logits, y)
        opt.zero_grad(set_to_none=True)
        loss.backward()
        opt.step()
        run_loss += loss.detach() * i.numel()
        run_correct += (logits.detach().argmax(dim=1) == y).sum()
    if device.type == "cuda":
        torch.cuda.synchronize()
    return run_loss, run_correct


def monitor_of(train_cfg: Mapping[str, Any]) -> str:
    """``train.monitor`` (``val_loss`` by default), checked."""
    monitor = str(train_cfg.get("monitor", "val_loss"))
    if monitor not in ("val_loss", "val_acc"):
        raise ValueError(f"train.monitor must be val_loss or val_acc, got {monitor!r}")
    return monitor


@dataclass
class EarlyStopping:
    """Keras's ``EarlyStopping(patience)`` on ``train.monitor``, for one run: the best epoch so
    far, and whether ``patience`` epochs have passed without a better score (shared by the lone
    and the stacked trainers, so both stop at the same epoch)."""

    monitor: str
    patience: int
    best_score: float = float("-inf")
    best_epoch: int = 0
    wait: int = 0

    def update(self, epoch: int, val_loss: float, val_acc: float) -> bool:
        """Record ``epoch``'s validation figures; True when it is the best so far."""
        score = -val_loss if self.monitor == "val_loss" else val_acc
        if score > self.best_score:
            self.best_score, self.best_epoch, self.wait = score, epoch, 0
            return True
        self.wait += 1
        return False

    @property
    def stop(self) -> bool:
        return self.wait >= max(1, self.patience)


def train_fold(
    dataset_path: str | Path,
    net_config: Mapping[str, Any],
    train_cfg: Mapping[str, Any],
    *,
    bot: str,
    fold: int,
    checkpoint_path: str | Path,
    metrics_path: str | Path,
    threads: int = 1,
    progress: bool = True,
) -> dict[str, Any]:
    """Train one fold, write the checkpoint and the metrics JSON, return the metrics."""
    device = pick_device(str(train_cfg.get("device", "auto")))
    set_determinism(threads, device)
    split = Split.of(train_cfg)
    folds, seed = split.models, split.seed
    net_name = str(net_config.get("name", net_config.get("kind")))
    data = load_fold(dataset_path, fold, split, device)
    run_seed = derive_seed("train", seed, bot, net_name, fold)
    torch.manual_seed(run_seed)
    model = build_net(net_config, data.in_shape, data.head_sizes, seed=run_seed).to(device)
    opt = torch.optim.Adam(model.parameters(), lr=float(train_cfg["lr"]),
                           weight_decay=float(train_cfg.get("weight_decay", 0.0)))
    # the thesis's Snake nets: "lr 0.02, decaying" -> lr * lr_decay ** (epoch - 1)
    sched = torch.optim.lr_scheduler.ExponentialLR(opt, float(train_cfg.get("lr_decay", 1.0)))
    bs = int(train_cfg["batch_size"])
    max_epochs = int(train_cfg["max_epochs"])
    stopper = EarlyStopping(monitor_of(train_cfg), int(train_cfg["patience"]))
    gen = torch.Generator().manual_seed(derive_seed("shuffle", run_seed))
    n_tr = int(data.train_idx.numel())
    augment = str(train_cfg.get("augment", "none"))
    sym = (Symmetries.of(get_encoder(data.game, data.game_params), augment, device)
           if augment != "none" else None)
    log.info("%s %s fold %d/%d: %d train rows, %d validation rows, %d params, device %s, "
             "%d thread(s)", bot, net_name, fold, folds, n_tr, int(data.val_idx.numel()),
             count_params(model), device, threads)
    history: list[dict[str, Any]] = []
    best_state = copy.deepcopy(model.state_dict())
    train_time = 0.0
    samples = 0
    bar = tqdm(total=max_epochs, desc=f"{bot}/{net_name}/fold{fold}", unit="epoch",
               disable=not progress, mininterval=1.0)
    for epoch in range(1, max_epochs + 1):
        t0 = time.perf_counter()
        lr_now = float(opt.param_groups[0]["lr"])
        perm = data.train_idx[torch.randperm(n_tr, generator=gen).to(device)]
        ks = (torch.randint(len(sym), (n_tr // bs + 1,), generator=gen).tolist()
              if sym is not None else None)
        run_loss, run_correct = run_epoch(model, opt, data, perm, bs, sym, ks)
        sched.step()
        dt = time.perf_counter() - t0
        train_time += dt
        samples += n_tr
        val_loss, val_acc = evaluate(model, data, data.val_idx)
        rec = {"epoch": epoch, "lr": lr_now, "train_loss": float(run_loss) / n_tr,
               "train_acc_running": 100.0 * float(run_correct) / n_tr,
               "val_loss": val_loss, "val_acc": val_acc}
        history.append(rec)
        improved = stopper.update(epoch, val_loss, val_acc)
        if improved:
            best_state = copy.deepcopy(model.state_dict())
        log.info("%s %s fold %d epoch %d: train loss %.4f acc %.2f%% | val loss %.4f acc "
                 "%.2f%%%s | %.0f samples/s", bot, net_name, fold, epoch, rec["train_loss"],
                 rec["train_acc_running"], val_loss, val_acc, " *" if improved else "",
                 n_tr / dt if dt > 0 else float("nan"))
        bar.update()
        bar.set_postfix(val_acc=f"{val_acc:.1f}")
        if stopper.stop:
            break
    bar.close()
    model.load_state_dict(best_state)
    return write_fold(model, data, bot=bot, net_config=net_config,
                      train_cfg=train_cfg, fold=fold, history=history,
                      best_epoch=stopper.best_epoch,
                      timing={"device": str(device), "threads": threads,
                              "train_seconds": train_time, "samples": samples},
                      checkpoint_path=checkpoint_path, metrics_path=metrics_path)


def write_fold(model: MaskedPolicyNet | MultiHeadPolicyNet, data: TensorData, *, bot: str,
               net_config: Mapping[str, Any], train_cfg: Mapping[str, Any], fold: int,
               history: list[dict[str, Any]], best_epoch: int, timing: Mapping[str, Any],
               checkpoint_path: str | Path, metrics_path: str | Path,
               train_acc_idx: torch.Tensor | None = None) -> dict[str, Any]:
    """Measure ``model`` (the best epoch's weights) on the whole fold in eval mode, write its
    checkpoint and metrics JSON, return the metrics. Shared by :func:`train_fold` and the
    ensemble trainer (:mod:`ime.train.ensemble`), so both write the same files.

    ``timing``: device, threads, train_seconds and samples (rows trained on, over all epochs).
    ``train_acc_idx``: the training rows that score ``train_acc``/``train_loss`` when not all do
    (a search family's ``net.search.max_train_acc``); their count is then ``train_acc_rows``.
    """
    acc_idx = data.train_idx if train_acc_idx is None else train_acc_idx
    train_loss, train_acc = evaluate(model, data, acc_idx)
    val_loss, val_acc = evaluate(model, data, data.val_idx)
    _, val_acc_unseen = evaluate(model, data, data.val_unseen_idx)
    maia: dict[str, Any] = {}  # Maia's columns, where the split made them (not a bench's)
    if data.val_unseen_distinct_idx is not None and data.val_opening_idx is not None:
        maia = {"val_unseen_positions": int(data.val_unseen_distinct_idx.numel()),
                "val_acc_unseen_distinct": evaluate(model, data,
                                                    data.val_unseen_distinct_idx)[1],
                "val_opening_rows": int(data.val_opening_idx.numel()),
                "val_acc_opening": evaluate(model, data, data.val_opening_idx)[1],
                "opening_plies": OPENING_PLIES}
    folds = Split.of(train_cfg).models  # models of the split: k, or 1 for a hold-out
    net_name = str(net_config.get("name", net_config.get("kind")))
    n_tr = int(data.train_idx.numel())
    n_va = int(data.val_idx.numel())
    n_unseen = int(data.val_unseen_idx.numel())
    train_time, samples = float(timing["train_seconds"]), timing["samples"]
    metrics = {
        "bot": bot,
        "net": net_name,
        "fold": fold,
        "folds": folds,
        "game": data.game,
        "encoder_version": data.encoder_version,
        "params": count_params(model),
        "train_rows": n_tr,
        "val_rows": n_va,
        "train_acc": train_acc,
        **({"train_acc_rows": int(acc_idx.numel())} if train_acc_idx is not None else {}),
        "val_acc": val_acc,
        # accuracy on the validation rows whose position is not in the training rows, and the
        # share of validation rows that is (repeated openings and games): not in the thesis
        "val_unseen_rows": n_unseen,
        "val_acc_unseen": val_acc_unseen,
        "val_seen_share": 100.0 * (n_va - n_unseen) / n_va if n_va else float("nan"),
        # Maia's protocol (issue 46): each distinct unseen position once, the opening apart
        **maia,
        "train_loss": train_loss,
        "val_loss": val_loss,
        # per validation match: rows and correct ones (a single model's bootstrap CI)
        **({"val_matches": vm} if (vm := val_match_counts(model, data)) is not None else {}),
        **({f"train_acc_{data.first_head}": first_head_accuracy(model, data, data.train_idx),
            f"val_acc_{data.first_head}": first_head_accuracy(model, data, data.val_idx)}
           if data.num_heads > 1 else {}),
        "best_epoch": best_epoch,
        "epochs": len(history),
        "history": history,
        "config": {"net": dict(net_config), "train": dict(train_cfg)},
        # timing differs run to run; everything above is deterministic on CPU
        "timing": {"device": str(timing["device"]), "threads": timing["threads"],
                   "train_seconds": train_time,
                   "samples_per_s": samples / train_time if train_time > 0 else None,
                   "ms_per_decision": ms_per_decision(model, data, data.val_idx)},
    }
    extra: dict[str, Any] = {"bot": bot, "metrics": {k: metrics[k] for k in (
        "train_acc", "val_acc", "best_epoch", "epochs", "folds")}}
    if data.game_params:
        extra["game_params"] = data.game_params
    save_checkpoint(checkpoint_path, model, game=data.game, encoder_version=data.encoder_version,
                    fold=fold, in_shape=data.in_shape, num_actions=data.head_sizes, extra=extra)
    Path(metrics_path).parent.mkdir(parents=True, exist_ok=True)
    Path(metrics_path).write_text(json.dumps(metrics, indent=1, sort_keys=True) + "\n")
    log.info("%s %s fold %d: best epoch %d, train acc %.2f%%, val acc %.2f%% (%.2f%% on the "
             "%d validation rows whose position is not in training; %.1f%% are), %.0f samples/s",
             bot, net_name, fold, best_epoch, train_acc, val_acc,
             val_acc_unseen, n_unseen, metrics["val_seen_share"],
             metrics["timing"]["samples_per_s"] or 0)
    return metrics
