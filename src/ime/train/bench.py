"""Training throughput (samples/s) of each Table 4.3 net, through the real training step.

``ime bench reversi --only train`` calls :func:`bench_training`. It builds a synthetic Reversi
dataset on the device (random disjoint own/opponent discs, 4-12 legal squares, the action one of
them: the cost of a step does not depend on the values), then times whole epochs of
``ime.train.loop.run_epoch`` (Adam, batch 64 by default, masked softmax) after one warm-up epoch.
The figure is rows per second of wall time, the way the training logs report it.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from typing import Any

import torch

from ime.config import default_config_dir, load_net_file
from ime.nets import build_net, count_params
from ime.train.loop import TensorData, pick_device, run_epoch, set_determinism


def synthetic_data(rows: int, device: torch.device, seed: int = 0,
                   shape: tuple[int, int, int] = (2, 8, 8)) -> TensorData:
    """``rows`` random (planes, legal mask, action) rows, all of them training rows."""
    g = torch.Generator().manual_seed(seed)
    c, h, w = shape
    n = h * w
    occupied = torch.rand(rows, n, generator=g) < 0.5
    own = occupied & (torch.rand(rows, n, generator=g) < 0.5)
    planes = torch.stack([own, occupied & ~own], dim=1).float().reshape(rows, c, h, w)
    scores = torch.rand(rows, n, generator=g)
    scores[occupied] = -1.0
    k = torch.randint(4, 13, (rows, 1), generator=g)
    thresh = scores.sort(dim=1, descending=True).values.gather(1, k - 1)
    mask = (scores >= thresh) & ~occupied
    pick = torch.where(mask, scores, torch.full_like(scores, -2.0)).argmax(dim=1)
    idx = torch.arange(rows)
    return TensorData(planes=planes.to(device), mask=mask.float().to(device),
                      action=pick.to(device), train_idx=idx.to(device),
                      val_idx=idx[:0].to(device), val_unseen_idx=idx[:0].to(device),
                      in_shape=shape, num_actions=n,
                      encoder_version="synthetic", game="reversi")


def bench_training(nets: Sequence[str] = ("mlp1", "mlp2", "conv"), rows: int = 20000,
                   epochs: int = 2, batch_size: int = 64, lr: float = 1e-3,
                   device: str = "cpu", threads: int = 1) -> dict[str, Any]:
    """Samples/s per net on ``device`` with ``threads`` torch threads (after a warm-up epoch)."""
    dev = pick_device(device)
    set_determinism(threads, dev)
    data = synthetic_data(rows, dev)
    out: dict[str, Any] = {"device": str(dev), "threads": threads, "rows": rows,
                           "batch_size": batch_size, "nets": {}}
    if dev.type == "cuda":
        out["gpu"] = torch.cuda.get_device_name(dev)
    cdir = default_config_dir()
    for name in nets:
        cfg = load_net_file(cdir, name)
        model = build_net(cfg, data.in_shape, data.num_actions, seed=0).to(dev)
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
    return out
