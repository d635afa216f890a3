"""Symmetry augmentation (optional, ``train.augment``) with the game encoder's symmetries.

Why only optionally: a bot's policy is symmetric only as far as its evaluation, move ordering and
tie-breaking are. Each game's encoder lists its groups and what they mean
(:meth:`ime.core.encoding.Encoder.symmetries`; e.g. a group that fixes the initial position, so a
transformed game is a legal game from the same start, and the full group of the board); the
default ``none`` trains on the logs as they are (thesis 6.2 lists symmetric positions as an open
question).

Each training batch is transformed by one symmetry drawn from the training generator, so an epoch
costs the same as without augmentation and runs stay deterministic. A symmetry permutes the
cells of every plane (``Symmetry.cells``) and, per action head, the codes of its mask and its
labels (``Symmetry.actions``); a label ``-1`` (head not used) stays ``-1``.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import torch

from ime.core.encoding import Encoder, Symmetry


class Symmetries:
    """The permutations of one encoder symmetry group, as index tensors on ``device``."""

    def __init__(self, symmetries: Sequence[Symmetry], device: torch.device):
        if not symmetries:
            raise ValueError("a symmetry group needs at least the identity")
        self.names = tuple(s.name for s in symmetries)
        # gather form: new[..., d] = old[..., src[d]]; labels map through dst
        self.src = [torch.from_numpy(np.argsort(s.cells)).to(device) for s in symmetries]
        self.head_src = [[torch.from_numpy(np.argsort(a)).to(device) for a in s.actions]
                         for s in symmetries]
        self.head_dst = [[torch.from_numpy(np.asarray(a)).to(device) for a in s.actions]
                         for s in symmetries]

    @classmethod
    def of(cls, encoder: Encoder, group: str, device: torch.device) -> Symmetries:
        """Group ``group`` of ``encoder`` (``train.augment``); unknown groups raise."""
        return cls(encoder.symmetries(group), device)

    def __len__(self) -> int:
        return len(self.names)

    def apply(self, k: int, planes: torch.Tensor, mask: torch.Tensor,
              action: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
        """Transform a one-head batch by symmetry ``k`` (0 is the identity)."""
        if k == 0:
            return planes, mask, action
        nb, c = planes.shape[:2]
        p = planes.reshape(nb, c, -1)[:, :, self.src[k]].reshape(planes.shape)
        return p, mask[:, self.head_src[k][0]], self.head_dst[k][0][action]

    def apply_heads(self, k: int, planes: torch.Tensor, masks: Sequence[torch.Tensor],
                    actions: torch.Tensor) -> tuple[torch.Tensor, list[torch.Tensor],
                                                    torch.Tensor]:
        """Transform a multi-head batch (``actions``: ``int64[B, heads]``, ``-1`` unused)."""
        if k == 0:
            return planes, list(masks), actions
        nb, c = planes.shape[:2]
        p = planes.reshape(nb, c, -1)[:, :, self.src[k]].reshape(planes.shape)
        ms = [m[:, src] for m, src in zip(masks, self.head_src[k], strict=True)]
        cols = []
        for h, dst in enumerate(self.head_dst[k]):
            y = actions[:, h]
            cols.append(torch.where(y >= 0, dst[y.clamp(min=0)], y))
        return p, ms, torch.stack(cols, dim=1)
