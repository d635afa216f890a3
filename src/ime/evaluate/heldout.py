"""Held-out imitation similarity: each key is played by a model that never trained on its match.

Key endgames come from the target's own matches, and so does the imitator's training data: an
ensemble of all folds has seen (in 4 of 5 folds) the very position it is tested on, which
inflates S1/S2 (the thesis lists "key positions from the training data or disjoint?" among its
open questions, 6.2). The held-out score answers it with the cross-validation already there:
for a key from match m, the imitator is the model of the fold whose *validation* set holds m
(the split is :class:`ime.train.folds.Split` over the dataset's match ids, as in training).

With ``train.split=holdout`` one model is trained (fold 0) and validated on ``train.holdout`` of
the matches: the keys from those matches are played by it, and the keys from the other 90 %
(its training matches, :data:`ime.train.folds.TRAIN_ONLY`) are left out, since no model held them
out.

Keys whose match fell into a fold that was not trained (``train.run_folds`` < ``train.folds``)
are left out; keys whose match is in no dataset at all (``dataset.matches`` truncation) were never
trained on by any fold, so the ensemble plays them.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # annotations only: the workflow names fold agents while Snakemake builds
    import numpy as np
    import pandas as pd  # the DAG, where pandas would cost 0.5 s

FOLD_SEP = "@fold"


def fold_agent_id(imitator: str, fold: int) -> str:
    """The provider id of one fold's imitator (``imit_rev1@fold2``)."""
    return f"{imitator}{FOLD_SEP}{fold}"


def dataset_match_folds(dataset_path: str | Path, folds: int, seed: int,
                        holdout: float | None = None) -> dict[str, int]:
    """``match id -> fold`` exactly as training split the target's dataset: the k-fold split
    into ``folds``, or with ``holdout`` (``train.split=holdout``'s share) fold 0 for the
    validation matches and :data:`ime.train.folds.TRAIN_ONLY` for the training ones."""
    from ime.datasets.integrity import read_parquet
    from ime.train.folds import Split

    ids = read_parquet(dataset_path, columns=["match_id"]).column("match_id").to_pylist()
    split = (Split("kfold", int(folds), 0.0, int(seed)) if holdout is None
             else Split("holdout", 1, float(holdout), int(seed)))
    return split.match_table(ids)


def heldout_agents(keys: pd.DataFrame, fold_of: Mapping[str, int], trained: Sequence[int],
                   imitator: str) -> list[str | None]:
    """Per key: the imitator of the fold that held its match out (or None / the ensemble)."""
    ok = set(int(f) for f in trained)
    out: list[str | None] = []
    for m in keys["match_id"].astype(str):
        f = fold_of.get(m)
        if f is None:
            out.append(imitator)  # never in any training set: every fold is held out
        elif f in ok:
            out.append(fold_agent_id(imitator, f))
        else:
            out.append(None)
    return out


def keys_seen_in_training(planes: np.ndarray, match_ids: Sequence[str],
                          dataset_path: str | Path, fold_of: Mapping[str, int]) -> np.ndarray:
    """Per key: whether its position occurs in the training rows of the model that plays it
    held out (every row of the other folds' matches; any row for a key of no fold).

    Why: a held-out key's *match* was never trained on, but its *position* may have been, from
    another match (60-90 % of Reversi's thesis-scale keys: openings and lines a deterministic
    pair repeats). A model may answer those from memory, a policy net's weights or a search
    imitator's book alike; Maia's protocol reports agreement on the others apart. Positions
    compare as the unseen columns of Table 4.4 do: the encoder's position planes, exactly
    (:func:`ime.datasets.schema.position_part`, :func:`ime.datasets.build.state_keys`)."""
    import numpy as np

    from ime.datasets.build import state_keys
    from ime.datasets.schema import position_part, read_arrays

    arr = read_arrays(dataset_path)
    dkeys = state_keys(position_part(arr.state, arr.metadata))
    kpos = position_part(np.asarray(planes).astype(arr.state.dtype).reshape(len(planes), -1),
                         arr.metadata)
    kkeys = state_keys(kpos)
    dfold = np.array([fold_of.get(str(m), -1) for m in arr.match_id])
    kfold = np.array([fold_of.get(str(m), -1) for m in match_ids])
    seen = np.zeros(len(kkeys), dtype=bool)
    for f in np.unique(kfold):
        part = kfold == f
        train = dfold != f if f >= 0 else np.ones(len(dfold), dtype=bool)
        seen[part] = np.isin(kkeys[part], dkeys[train])
    return seen
