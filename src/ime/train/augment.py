"""Board-symmetry augmentation (optional, ``train.augment``), for square boards whose actions are
the squares (Reversi: 64 actions on 8x8).

Why only optionally, and why two groups: a bot's policy is symmetric only as far as its
evaluation, move ordering and tie-breaking are. ``sym4`` uses the four symmetries that fix
Reversi's initial position (identity, 180-degree rotation, the two diagonal reflections), so a
transformed game is a legal game from the same start; ``sym8`` adds the other four (the full
dihedral group). Thesis 6.2 lists symmetric positions as an open question; the default ``none``
trains on the logs as they are.

Each training batch is transformed by one symmetry drawn from the training generator, so an epoch
costs the same as without augmentation and runs stay deterministic.
"""

from __future__ import annotations

import numpy as np
import torch

GROUPS = {"none": ("id",), "sym4": ("id", "rot180", "diag", "antidiag"),
          "sym8": ("id", "rot90", "rot180", "rot270", "diag", "antidiag", "flipx", "flipy")}


def _grid_map(name: str, n: int) -> np.ndarray:
    """``src[y, x]`` goes to ``dst[out]``: the destination square index of every source square."""
    y, x = np.divmod(np.arange(n * n), n)
    m = n - 1
    ny, nx = {
        "id": (y, x), "rot90": (m - x, y), "rot180": (m - y, m - x), "rot270": (x, m - y),
        "diag": (x, y), "antidiag": (m - x, m - y), "flipx": (y, m - x), "flipy": (m - y, x),
    }[name]
    return ny * n + nx


class Symmetries:
    """Index permutations for one group on an ``n x n`` board, as tensors on ``device``."""

    def __init__(self, group: str, n: int, device: torch.device):
        if group not in GROUPS:
            raise ValueError(f"train.augment must be one of {list(GROUPS)}, got {group!r}")
        self.names = GROUPS[group]
        self.n = n
        dst = [_grid_map(g, n) for g in self.names]
        # gather form: new[..., d] = old[..., src[d]]
        self.src = [torch.from_numpy(np.argsort(d)).to(device) for d in dst]
        self.dst = [torch.from_numpy(d).to(device) for d in dst]

    def __len__(self) -> int:
        return len(self.names)

    def apply(self, k: int, planes: torch.Tensor, mask: torch.Tensor,
              action: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
        """Transform a batch by symmetry ``k`` (0 is the identity)."""
        if k == 0:
            return planes, mask, action
        nb, c = planes.shape[:2]
        src = self.src[k]
        p = planes.reshape(nb, c, -1)[:, :, src].reshape(planes.shape)
        return p, mask[:, src], self.dst[k][action]
