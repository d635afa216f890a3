"""The round-value climb's sample of a quick dataset's fold 0, drawn as ``scripts/search_imitator.py
--max-fit 4000 --round-positions 400`` draws it (the fit rows of the inner split, 4,000 of them,
400 of those), and the climb's scorer under a saved imitator's settings with one phase."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import numpy as np

from ime.imitators.data import fold_indices, load_decisions
from ime.imitators.search_fit import SearchImitator, round_scorer, subsample
from ime.train.folds import Split


def climb_sample(imitator: str, dataset: str) -> dict[str, Any]:
    """The imitator, its 1-phase settings ``st``, the 4,000 fit positions ``P, O, A``, the
    climb's ``rows`` among them and its ``score(v, phases)``."""
    imi = SearchImitator.load(imitator)
    st = replace(imi.settings, phases=1)
    d = load_decisions(dataset)
    train = d.subset(fold_indices(d, 0, 5, 0)[0])
    fit_rows = train.subset(Split("kfold", 5, 0.0, 1).indices(train.match_id, 0)[0])
    idx = subsample(len(fit_rows), 4000, 0)
    P, O, A = fit_rows.P[idx], fit_rows.O[idx], fit_rows.action[idx]
    rows = subsample(len(P), 400, 2)
    return {"imi": imi, "st": st, "P": P, "O": O, "A": A, "rows": rows,
            "score": round_scorer(P[rows], O[rows], A[rows], st)}


def mask_of(names: list[str], size: int) -> np.ndarray:
    """The square-class features and ``names``."""
    from ime.imitators.reversi_features import BASE_NAMES, TABLE_FEATURES

    mask = np.zeros(size, dtype=bool)
    mask[TABLE_FEATURES] = True
    mask[[BASE_NAMES.index(n) for n in names]] = True
    return mask
