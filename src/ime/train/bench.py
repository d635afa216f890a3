"""Training throughput (samples/s) of a game's nets, through the real training steps.

``ime bench <game> --only train`` calls :func:`bench_training` with the nets, batch size and
learning rate the game's train jobs use (``ime.cli.bench.train_setup``: Table 4.3's three nets
for Reversi, Table 2.2's five at batch 32 for Snake). It builds a synthetic dataset in
the shapes of the game's encoder on the device (each cell holds at most one plane's bit, 4-12
legal codes per head, the label one of them: the cost of a step does not depend on the values),
then times, after a warm-up:

* one model alone: whole epochs of ``ime.train.loop.run_epoch`` (Adam, batch 64 by default,
  masked softmax), the path a lone ``train_fold`` takes;
* ``M`` members at once (``members``): ``ime.train.ensemble.train_epoch`` on a stack of ``M``
  differently seeded copies of the net, each over its own random rows, ``rows x epochs / M``
  rows per member (at least 8 batches; 100 on a GPU, where fewer measure start-up), so every
  ``M`` trains about as many samples in all; in each of the stack's modes
  (:class:`ime.train.stacked.StackedNet`: ``exact``, the CPU default, and ``loop`` on CPU;
  ``grouped`` on CUDA).

The figure is rows per second of wall time in total (all members together), the way the
training logs report it; same process, same thread count.
"""

from __future__ import annotations

import time
from collections.abc import Mapping, Sequence
from typing import Any

import torch

from ime.core.registry import get_encoder
from ime.nets import build_net, count_params
from ime.train.loop import TensorData, pick_device, run_epoch, set_determinism
from ime.train.stacked import StackedNet, Unsupported


def _legal(rows: int, size: int, g: torch.Generator) -> tuple[torch.Tensor, torch.Tensor]:
    """A 0/1 mask with 4..12 legal codes per row (fewer on a small head) and one legal label."""
    scores = torch.rand(rows, size, generator=g)
    lo, hi = min(4, size), min(12, size)
    k = torch.randint(lo, hi + 1, (rows, 1), generator=g)
    thresh = scores.sort(dim=1, descending=True).values.gather(1, k - 1)
    mask = scores >= thresh
    pick = torch.where(mask, scores, torch.full_like(scores, -2.0)).argmax(dim=1)
    return mask.float(), pick


def synthetic_data(rows: int, device: torch.device, seed: int = 0, *, game: str,
                   game_params: Mapping[str, Any] | None = None) -> TensorData:
    """``rows`` random (planes, legal masks, labels) rows of ``game``'s encoder shapes, all of
    them training rows."""
    enc = get_encoder(game, game_params)
    g = torch.Generator().manual_seed(seed)
    c, cells = int(enc.state_shape[0]), int(torch.tensor(enc.state_shape[1:]).prod())
    occupied = torch.rand(rows, cells, generator=g) < 0.5
    plane = torch.randint(0, c, (rows, cells), generator=g)
    planes = torch.stack([occupied & (plane == k) for k in range(c)], dim=1).float()
    heads = [_legal(rows, h.size, g) for h in enc.heads]
    idx = torch.arange(rows)
    extra_actions = (torch.stack([a for _, a in heads[1:]], dim=1).to(device)
                     if len(heads) > 1 else None)
    return TensorData(planes=planes.reshape(rows, *enc.state_shape).to(device),
                      mask=heads[0][0].to(device), action=heads[0][1].to(device),
                      train_idx=idx.to(device), val_idx=idx[:0].to(device),
                      val_unseen_idx=idx[:0].to(device),
                      in_shape=tuple(int(x) for x in enc.state_shape),
                      num_actions=enc.num_actions, encoder_version=enc.version, game=game,
                      extra_masks=[m.to(device) for m, _ in heads[1:]],
                      extra_actions=extra_actions,
                      game_params=dict(game_params) if game_params else None)


def load_net(name: str) -> dict[str, Any]:
    """The architecture in ``config/net/<name>.yaml`` as it stands, named ``name``."""
    from omegaconf import OmegaConf

    from ime.paths import config_dir

    arch = OmegaConf.to_container(OmegaConf.load(config_dir() / "net" / f"{name}.yaml"),
                                  resolve=True)
    assert isinstance(arch, dict)
    arch.setdefault("name", name)
    return arch


def bench_training(nets: Sequence[str] | Mapping[str, Mapping[str, Any]] = ("mlp1", "mlp2",
                                                                              "conv"),
                   rows: int = 20000, epochs: int = 2, batch_size: int = 64, lr: float = 1e-3,
                   device: str = "cpu", threads: int = 1, *, game: str,
                   game_params: Mapping[str, Any] | None = None,
                   members: Sequence[int] = (), modes: Sequence[str] = ()) -> dict[str, Any]:
    """Samples/s per net on ``device`` with ``threads`` torch threads (after a warm-up epoch):
    one model alone, and (``members``) that many members trained at once in each of ``modes``
    (:class:`ime.train.stacked.StackedNet`; default ``exact`` and ``loop`` on CPU, ``grouped``
    on CUDA): ``nets[name]["ensemble"][mode][M]``.

    ``nets``: names of ``config/net/*.yaml`` files, or ``name -> architecture`` dicts.
    """
    dev = pick_device(device)
    set_determinism(threads, dev)
    data = synthetic_data(rows, dev, game=game, game_params=game_params)
    out: dict[str, Any] = {"device": str(dev), "threads": threads, "rows": rows,
                           "batch_size": batch_size, "game": game, "nets": {}}
    if dev.type == "cuda":
        out["gpu"] = torch.cuda.get_device_name(dev)
    archs = dict(nets) if isinstance(nets, Mapping) else {n: load_net(n) for n in nets}
    for name, cfg in archs.items():
        model = build_net(cfg, data.in_shape, data.head_sizes, seed=0).to(dev)
        opt = torch.optim.Adam(model.parameters(), lr=lr)
        gen = torch.Generator().manual_seed(0)
        run_epoch(model, opt, data, data.train_idx[: batch_size * 20], batch_size)  # warm-up
        t = time.perf_counter()
        for _ in range(epochs):
            perm = data.train_idx[torch.randperm(rows, generator=gen).to(dev)]
            run_epoch(model, opt, data, perm, batch_size)
        dt = time.perf_counter() - t
        out["nets"][name] = {"params": count_params(model), "seconds": dt,
                             "samples_per_s": rows * epochs / dt}
        if members:
            out["nets"][name]["ensemble"] = {
                mode: {int(m): bench_ensemble(cfg, data, int(m), rows * epochs, batch_size, lr,
                                              mode) for m in members}
                for mode in (modes or (("grouped",) if dev.type == "cuda" else ("exact",
                                                                                  "loop")))}
    return out


def bench_ensemble(cfg: Mapping[str, Any], data: TensorData, members: int, samples: int,
                   batch_size: int = 64, lr: float = 1e-3, mode: str = "auto"
                   ) -> dict[str, Any]:
    """Samples/s in total of ``members`` copies of ``cfg`` trained at once (one stack run in
    ``mode``), about ``samples`` rows in all; ``{"unsupported": why}`` for a net that does not
    stack."""
    from ime.train.ensemble import train_epoch

    dev = data.planes.device
    models = [build_net(cfg, data.in_shape, data.head_sizes, seed=s).to(dev)
              for s in range(members)]
    try:
        net = StackedNet(models[0], dev, mode)
    except Unsupported as e:
        return {"unsupported": str(e)}
    st = net.stack(models, dev)
    # A GPU figure over a few steps is mostly start-up (cuDNN's first calls, the allocator): on
    # an H200, 75 CONV members gave 9.1x one model at 12 steps each and 28.7x at 100.
    n = max(100 if dev.type == "cuda" else 8, samples // members // batch_size) * batch_size
    gen = torch.Generator().manual_seed(1)
    rows = int(data.train_idx.numel())
    perms = [data.train_idx[torch.randint(rows, (n,), generator=gen).to(dev)]
             for _ in range(members)]
    train_epoch(net, st, data, [p[: 2 * batch_size] for p in perms], batch_size, lr)  # warm-up
    if dev.type == "cuda":
        torch.cuda.synchronize()
    t = time.perf_counter()
    train_epoch(net, st, data, perms, batch_size, lr)
    if dev.type == "cuda":
        torch.cuda.synchronize()
    dt = time.perf_counter() - t
    return {"members": members, "rows_per_member": n, "seconds": dt, "mode": net.mode,
            "samples_per_s": members * n / dt}
