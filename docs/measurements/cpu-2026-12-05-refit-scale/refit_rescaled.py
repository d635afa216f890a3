"""Diagnostic: the masked surrogate refit of the round-value stage's sparse start (the square
table and the leading features) from a saved imitator's weights, one pass at a time, on the
climb's 400 positions or on all 4,000 fit positions, each pass scored on the climb's positions.
The first pass puts the weights on the surrogate's scale (``mmto.best_scale``).

    python refit_rescaled.py IMITATOR DATASET 400|4000   (from the repository root)
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

import numpy as np

sys.path[:0] = [str(Path(__file__).parents[1] / "cpu-2026-12-05-sparse-start")]
from climb_sample import climb_sample, mask_of  # noqa: E402

from ime.imitators.reversi_features import BASE_NAMES  # noqa: E402
from ime.imitators.search_fit import FitConfig, _masked_refit, leading_features  # noqa: E402

imitator, dataset, n = sys.argv[1], sys.argv[2], int(sys.argv[3])
c = climb_sample(imitator, dataset)
P, O, A, rows, score, st = c["P"], c["O"], c["A"], c["rows"], c["score"], c["st"]
imi = c["imi"]
w = imi.weights.reshape(imi.settings.phases, -1).mean(axis=0)
print("dense", score(np.append(w, 0.0), 1), flush=True)
mask = mask_of([], len(w)) | leading_features(w, st, P[rows], O[rows], 0.1)
print("mask", [BASE_NAMES[i] for i in np.flatnonzero(mask)], flush=True)
refit = rows if n == len(rows) else np.arange(min(n, len(P)))
w = np.where(mask, w, 0.0)
for k in range(10):
    t = time.time()
    w = _masked_refit(w, mask, st, P[refit], O[refit], A[refit], FitConfig(loss="hinge"),
                      passes=1)
    print(k, score(np.append(w, 0.0), 1), f"{time.time() - t:.0f}s",
          {BASE_NAMES[i]: round(w[i] / abs(w[0]) * 100, 1) for i in np.flatnonzero(w)},
          flush=True)
