"""k-fold cross-validation split *by match* (never by row).

Why by match: consecutive decisions of one match are strongly correlated (the board changes by a
few discs per ply); a row-level split would put near-copies of validation positions into
training and overstate the imitation accuracy.

The split is a pure function of (the set of match ids, k, seed): the ids are sorted, permuted by a
generator seeded with :func:`ime.core.bot.derive_seed`, and dealt round-robin into k folds, so
every fold's size differs by at most one match and the same dataset always splits the same way.
"""

from __future__ import annotations

from collections.abc import Sequence

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
