"""Diagnostic (reads the zoo entry; never part of an imitator): does the masked surrogate refit
(4 passes, as at d6b5494) keep a target's own weights?

    python refit_from_truth.py BOT IMITATOR DATASET mob,parity   (from the repository root)
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

import numpy as np
import yaml

sys.path[:0] = [str(Path(__file__).parent), "scripts"]
from climb_sample import climb_sample, mask_of  # noqa: E402
from search_oracle import table_weights  # noqa: E402

from ime.imitators.reversi_features import BASE_NAMES  # noqa: E402
from ime.imitators.search_fit import FitConfig, _masked_refit  # noqa: E402

bot, imitator, dataset, names = sys.argv[1:5]
c = climb_sample(imitator, dataset)
P, O, A, rows, score = c["P"], c["O"], c["A"], c["rows"], c["score"]
zoo = yaml.safe_load(Path("config/bots/reversi.yaml").read_text())
truth = table_weights(dict(zoo[bot]["params"]))
print("truth", score(np.append(truth, 0.0), 1), flush=True)
mask = mask_of(names.split(","), len(truth))
for n, (p_, o_, a_) in {"400": (P[rows], O[rows], A[rows]), "4000": (P, O, A)}.items():
    t = time.time()
    w = _masked_refit(truth, mask, c["st"], p_, o_, a_, FitConfig(loss="hinge"), passes=4)
    print(n, "refit from truth", score(np.append(w, 0.0), 1), f"{time.time() - t:.0f}s",
          {BASE_NAMES[i]: round(w[i] / w[0] * truth[0], 1) for i in np.flatnonzero(w)},
          flush=True)
