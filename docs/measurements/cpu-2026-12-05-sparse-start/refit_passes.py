"""Diagnostic: the masked surrogate refit from a saved imitator's weights (phases averaged), one
pass at a time, each scored on the round-value climb's positions.

    python refit_passes.py IMITATOR DATASET mob,parity|lead   (from the repository root)
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

import numpy as np

sys.path[:0] = [str(Path(__file__).parent)]
from climb_sample import climb_sample, mask_of  # noqa: E402

from ime.imitators.reversi_features import BASE_NAMES  # noqa: E402
from ime.imitators.search_fit import FitConfig, _masked_refit, leading_features  # noqa: E402

imitator, dataset, names = sys.argv[1:4]
c = climb_sample(imitator, dataset)
P, O, A, rows, score, st = c["P"], c["O"], c["A"], c["rows"], c["score"], c["st"]
imi = c["imi"]
w = imi.weights.reshape(imi.settings.phases, -1).mean(axis=0)
print("dense", score(np.append(w, 0.0), 1), flush=True)
mask = mask_of([] if names == "lead" else names.split(","), len(w))
if names == "lead":
    mask |= leading_features(w, st, P[rows], O[rows], 0.1)
print("mask", [BASE_NAMES[i] for i in np.flatnonzero(mask)])
w = np.where(mask, w, 0.0)
for k in range(10):
    t = time.time()
    w = _masked_refit(w, mask, st, P[rows], O[rows], A[rows], FitConfig(loss="hinge"), passes=1)
    print(k, score(np.append(w, 0.0), 1), f"{time.time() - t:.0f}s",
          {BASE_NAMES[i]: round(w[i] / abs(w[0]) * 100, 1) for i in np.flatnonzero(w)},
          flush=True)
