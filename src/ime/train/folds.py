"""The training split *by match* (never by row): k-fold cross-validation, or one hold-out.

Why by match: consecutive decisions of one match are strongly correlated (the board changes by a
few discs per ply); a row-level split would put near-copies of validation positions into
training and overstate the imitation accuracy.

The split is a pure function of (the set of match ids, k, seed): the ids are sorted, permuted by a
generator seeded with :func:`ime.core.bot.derive_seed`, and dealt round-robin into k folds, so
every fold's size differs by at most one match and the same dataset always splits the same way.

The thesis (ch. 4.3, 5.4) trains once on a 9:1 split instead: ``train.split=holdout`` holds out
``train.holdout`` of the matches (rounded, at least one, at least one left to train on), drawn by
its own seeded permutation of the sorted ids. Both are described by one :class:`Split`, so the
trainer, the held-out evaluation and the tables ask the same object which rows validate a model:
k-fold trains ``k`` models (folds ``0..k-1``), hold-out trains one (fold 0, the same file layout),
whose validation matches are fold 0's and whose training-only matches are :data:`TRAIN_ONLY`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from ime.core.seeding import derive_seed


def match_folds(match_ids: Sequence[str] | np.ndarray, k: int, seed: int) -> dict[str, int]:
    """``match id -> fold`` in ``[0, k)``."""
    if k < 2:
        raise ValueError(f"need k >= 2 folds, got {k}")
    uniq = sorted(set(str(m) for m in match_ids))
    if len(uniq) < k:
        raise ValueError(f"cannot split {len(uniq)} matches into {k} folds")
    rng = np.random.default_rng(derive_seed("kfold", seed, k))
    order = rng.permutation(len(uniq))
    return {uniq[int(j)]: pos % k for pos, j in enumerate(order)}


def row_folds(match_ids: Sequence[str] | np.ndarray, k: int, seed: int) -> np.ndarray:
    """The fold of every row (``int64[N]``), rows of one match always in the same fold."""
    ids = np.asarray(match_ids, dtype=object)
    uniq, inv = np.unique(ids.astype(str), return_inverse=True)
    table = match_folds(uniq, k, seed)
    per_uniq = np.fromiter((table[u] for u in uniq), dtype=np.int64, count=len(uniq))
    return per_uniq[inv]


def split_indices(match_ids: Sequence[str] | np.ndarray, k: int, fold: int,
                  seed: int) -> tuple[np.ndarray, np.ndarray]:
    """(train rows, validation rows) for ``fold``: validation = the matches dealt to ``fold``."""
    if not 0 <= fold < k:
        raise ValueError(f"fold {fold} not in [0, {k})")
    f = row_folds(match_ids, k, seed)
    return np.flatnonzero(f != fold), np.flatnonzero(f == fold)


def trained_models(train_cfg: Mapping[str, Any]) -> int:
    """How many models a ``train`` config trains (checkpoints ``fold0 ..``): a hold-out's one,
    or ``run_folds`` (when set) / ``folds`` of a k-fold split."""
    if train_cfg.get("split", "kfold") == "holdout":
        return 1
    run = train_cfg.get("run_folds")
    return int(run) if run is not None else int(train_cfg["folds"])


def split_label(train_cfg: Mapping[str, Any]) -> str:
    """The tables' ``split`` column for a ``train`` config: ``5-fold`` (k of the k-fold split,
    however many of its folds ran) or ``holdout 10%``."""
    if train_cfg.get("split", "kfold") == "holdout":
        return f"holdout {100 * float(train_cfg['holdout']):g}%"
    return f"{int(train_cfg['folds'])}-fold"


TRAIN_ONLY = 1
"""The "fold" of a hold-out split's training matches: no model validates on them (only fold 0 is
trained), so the held-out evaluation leaves their keys out."""


def holdout_count(n_matches: int, share: float) -> int:
    """Validation matches of a hold-out: ``share`` of ``n_matches`` rounded half up, at least one,
    and at most ``n_matches - 1`` (a model needs a match to train on)."""
    if n_matches < 2:
        raise ValueError(f"cannot hold out matches of {n_matches} match(es): need at least 2")
    if not 0 < share < 1:
        raise ValueError(f"hold-out share must be in (0, 1), got {share}")
    return min(n_matches - 1, max(1, int(np.floor(share * n_matches + 0.5))))


def holdout_matches(match_ids: Sequence[str] | np.ndarray, share: float, seed: int) -> set[str]:
    """The validation matches of a hold-out split: a seeded choice of :func:`holdout_count` of
    the sorted distinct ids (a pure function of the ids, the share and the seed)."""
    uniq = sorted(set(str(m) for m in match_ids))
    n_val = holdout_count(len(uniq), share)
    rng = np.random.default_rng(derive_seed("holdout", seed, f"{share:.12g}"))
    order = rng.permutation(len(uniq))
    return {uniq[int(j)] for j in order[:n_val]}


@dataclass(frozen=True)
class Split:
    """How ``train.*`` splits a dataset by match: ``kind`` ``kfold`` (``folds`` models) or
    ``holdout`` (one model, ``holdout`` of the matches validating it)."""

    kind: str
    folds: int
    holdout: float
    seed: int

    @classmethod
    def of(cls, train_cfg: Mapping[str, Any]) -> Split:
        """The split of a ``train`` config (``split`` absent: k-fold, as before the option)."""
        kind = str(train_cfg.get("split", "kfold"))
        seed = int(train_cfg["seed"])
        if kind == "kfold":
            return cls("kfold", int(train_cfg["folds"]), 0.0, seed)
        if kind == "holdout":
            share = train_cfg.get("holdout")
            if share is None:
                raise ValueError("train.split=holdout needs train.holdout (the validation share)")
            return cls("holdout", 1, float(share), seed)
        raise ValueError(f"train.split must be kfold or holdout, got {kind!r}")

    @property
    def models(self) -> int:
        """How many models the split defines (checkpoints ``fold0 ..``): k, or 1."""
        return self.folds

    @property
    def label(self) -> str:
        """What the tables say ran: ``5-fold`` or ``holdout 10%`` (:func:`split_label`)."""
        return split_label({"split": self.kind, "folds": self.folds, "holdout": self.holdout})

    def match_table(self, match_ids: Sequence[str] | np.ndarray) -> dict[str, int]:
        """``match id -> fold`` whose model validates on it (hold-out: 0 for the validation
        matches, :data:`TRAIN_ONLY` for the rest)."""
        if self.kind == "kfold":
            return match_folds(match_ids, self.folds, self.seed)
        val = holdout_matches(match_ids, self.holdout, self.seed)
        return {m: (0 if m in val else TRAIN_ONLY) for m in sorted(set(str(x) for x in match_ids))}

    def indices(self, match_ids: Sequence[str] | np.ndarray,
                fold: int) -> tuple[np.ndarray, np.ndarray]:
        """(train rows, validation rows) of model ``fold``, rows of a match never split."""
        if self.kind == "kfold":
            return split_indices(match_ids, self.folds, fold, self.seed)
        if fold != 0:
            raise ValueError(f"a hold-out split trains one model (fold 0), not fold {fold}")
        ids = np.asarray(match_ids, dtype=object).astype(str)
        is_val = np.isin(ids, sorted(holdout_matches(ids, self.holdout, self.seed)))
        return np.flatnonzero(~is_val), np.flatnonzero(is_val)

    def unseen(self, position: np.ndarray, match_ids: Sequence[str] | np.ndarray,
               fold: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """(train rows, validation rows, unseen validation rows) of model ``fold``: the unseen
        ones are the validation rows whose exact ``position`` (the dataset's position part, one
        row per decision) never occurs among the training rows, the rows Table 4.4's
        ``val_acc_unseen`` and the unseen ceiling are measured on."""
        from ime.datasets.build import seen_states

        tr, va = self.indices(match_ids, fold)
        return tr, va, va[~seen_states(position, tr, va)]
