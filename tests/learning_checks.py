"""Does an imitator learn? Per-head accuracy against chance on the matches it never trained on.

The tables give one accuracy per imitator (every head right at once) beside the random baseline.
A multi-head net (Doudizhu's and Big-2's major + kicker) could hide a head that learnt nothing
behind one that did, so this helper re-measures each head on its own, on the validation fold of
a checkpoint, against that head's own chance (the mean of 1/legal choices over the rows that use
it). It reads only what training wrote: the dataset, the checkpoint and its metrics JSON.

Imported by tests in several folders (``pythonpath = ["tests"]`` in pyproject.toml).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import torch

from ime.datasets.schema import read_arrays
from ime.nets import load_checkpoint
from ime.train.folds import Split


@dataclass(frozen=True)
class HeadScore:
    """One head's accuracy (%) on the validation rows that use it, beside chance (%)."""

    head: str
    rows: int
    accuracy: float
    chance: float


def head_scores(dataset: Path, checkpoint: Path,
                metrics: dict[str, Any] | None = None) -> list[HeadScore]:
    """Each head's validation accuracy and chance for the fold ``checkpoint`` was trained on
    (fold and split, k-fold or hold-out, from its metrics: ``metrics``, or the JSON beside it)."""
    if metrics is None:
        metrics = json.loads(checkpoint.with_suffix(".json").read_text())
    train = metrics["config"]["train"]
    arr = read_arrays(dataset)
    _, va = Split.of(train).indices(arr.match_id, int(metrics["fold"]))
    model = load_checkpoint(checkpoint)
    planes = torch.from_numpy(np.ascontiguousarray(arr.state[va])).float()
    masks = [torch.from_numpy(np.ascontiguousarray(m[va])).float() for m in arr.masks]
    with torch.no_grad():
        outs = model(planes, masks) if len(masks) > 1 else [model(planes, masks[0])]
    assert arr.actions is not None
    scores = []
    for h, (name, _) in enumerate(arr.heads):
        label = arr.actions[va, h]
        used = label >= 0
        pred = outs[h].argmax(dim=1).numpy()
        legal = arr.masks[h][va][used].sum(axis=1)
        scores.append(HeadScore(
            head=str(name), rows=int(used.sum()),
            accuracy=100 * float((pred[used] == label[used]).mean()) if used.any() else 0.0,
            chance=100 * float((1 / np.maximum(legal, 1)).mean()) if used.any() else 0.0))
    return scores
