"""Decisions for the search imitator: bitboards and moves from the pipeline's Parquet datasets.

Why a module of its own: the nets read a dataset as planes (``ime.train.loop``); a search needs
the position back as the engine's two ``uint64`` boards. The dataset rows are already from the
side to move's view (plane 0: its discs, plane 1: the opponent's), which is all a Reversi search
needs: colour plays no part in the rules beyond whose turn it is.

The split is the pipeline's (:class:`ime.train.folds.Split`, by match), so a search imitator's
fold ``k`` validates on the same matches as the nets' ``fold<k>.pt``. The "unseen" validation
set follows Maia's protocol: validation positions that never occur in the training rows,
counted once each (deduplicated), with the share of validation rows that *were* seen reported
beside it.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import numpy as np

from ime.datasets.schema import read_arrays
from ime.train.folds import Split


@dataclass
class Decisions:
    """One target's decisions: side to move's discs ``P``, the opponent's ``O``, the square
    played, and the match each came from (for splits by match)."""

    P: np.ndarray  # uint64[N]
    O: np.ndarray  # uint64[N]
    action: np.ndarray  # int64[N], square y * 8 + x
    match_id: np.ndarray  # object[N]

    def __len__(self) -> int:
        return len(self.action)

    def subset(self, idx: np.ndarray) -> Decisions:
        """The rows ``idx`` (a copy)."""
        idx = np.asarray(idx)
        return Decisions(self.P[idx], self.O[idx], self.action[idx], self.match_id[idx])

    def empties(self) -> np.ndarray:
        """Empty squares of every position (``int64[N]``)."""
        return empties(self.P, self.O)


def empties(P: np.ndarray, O: np.ndarray) -> np.ndarray:
    """Empty squares of every position given as bitboards (``int64[N]``)."""
    filled = np.asarray(P, dtype=np.uint64) | np.asarray(O, dtype=np.uint64)
    bits = np.unpackbits(filled.astype("<u8").view(np.uint8).reshape(-1, 8), axis=1)
    return 64 - bits.sum(axis=1).astype(np.int64)


def planes_to_bitboards(state: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``uint8[N, 2, 8, 8]`` planes (``[y, x]`` = square ``y * 8 + x``) -> (own, opp) ``uint64[N]``
    (the inverse of :func:`ime.games.reversi.encode.bits_to_planes`)."""
    s = np.asarray(state, dtype=np.uint8).reshape(len(state), 2, 64)
    packed = np.packbits(s, axis=2, bitorder="little")  # [N, 2, 8] bytes, little-endian words
    words = np.ascontiguousarray(packed).view("<u8").reshape(len(state), 2)
    return words[:, 0].astype(np.uint64), words[:, 1].astype(np.uint64)


def load_decisions(path: str | Path) -> Decisions:
    """A pipeline dataset (``data/reversi/datasets/<tag>/<bot>.parquet``), verified on read."""
    arr = read_arrays(path)
    if tuple(arr.state.shape[1:]) != (2, 8, 8):
        raise ValueError(f"{path}: state shape {arr.state.shape[1:]} is not Reversi's (2, 8, 8)")
    P, O = planes_to_bitboards(arr.state)
    return Decisions(P, O, arr.action.astype(np.int64), arr.match_id)


def fold_indices(d: Decisions, fold: int, folds: int = 5, seed: int = 0) -> tuple[np.ndarray,
                                                                                    np.ndarray]:
    """(train rows, validation rows) of the pipeline's k-fold split by match (``train.folds``,
    ``train.seed``)."""
    return Split("kfold", folds, 0.0, seed).indices(d.match_id, fold)


def position_keys(d: Decisions) -> np.ndarray:
    """One integer pair per row identifying the position, as a structured key array."""
    keys = np.empty(len(d), dtype=[("p", "<u8"), ("o", "<u8")])
    keys["p"] = d.P
    keys["o"] = d.O
    return keys


@dataclass
class UnseenSet:
    """The validation rows of never-seen positions, one row per distinct position."""

    rows: np.ndarray  # row indices into the validation decisions (first occurrence)
    seen_share: float  # percent of validation rows whose position occurs in training
    val_rows: int  # all validation rows
    conflicting: int  # unseen positions played with more than one move in validation


def unseen_positions(train: Decisions, val: Decisions) -> UnseenSet:
    """Maia's protocol: validation positions that never occur in ``train``, deduplicated."""
    tk = position_keys(train)
    vk = position_keys(val)
    seen = np.isin(vk, tk)
    unseen_rows = np.flatnonzero(~seen)
    _, first = np.unique(vk[unseen_rows], return_index=True)
    rows = np.sort(unseen_rows[first])
    pairs = np.unique(np.stack([np.unique(vk[unseen_rows], return_inverse=True)[1].ravel(),
                                val.action[unseen_rows]], axis=1), axis=0)
    per_pos = np.bincount(pairs[:, 0]) if len(pairs) else np.zeros(0, dtype=np.int64)
    share = 100.0 * float(seen.mean()) if len(val) else float("nan")
    return UnseenSet(rows, share, len(val), int((per_pos > 1).sum()))


def unseen_validation(d: Decisions, fold: int, folds: int = 5, seed: int = 0) -> Decisions:
    """The fold's validation decisions at positions its training rows never hold, each position
    once (Maia's protocol; :func:`unseen_positions`): what the diagnostics score an imitator on."""
    tr, va = fold_indices(d, fold, folds, seed)
    return d.subset(va).subset(unseen_positions(d.subset(tr), d.subset(va)).rows)
