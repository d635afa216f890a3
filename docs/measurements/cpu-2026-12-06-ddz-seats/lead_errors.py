"""What a Doudizhu imitator gets wrong when leading: the bot's combination kind against the net's,
and whether the net chose the same kind at another rank (fold-0 validation rows).

    python lead_errors.py DATASET CHECKPOINT [SCALE]
"""
import sys
from collections import Counter

import numpy as np
import torch

from ime.games.doudizhu.actions import MAJOR_CHAIN, MAJOR_KIND, MAJOR_RANK
from ime.games.doudizhu.combos import ComboType
from ime.nets import load_checkpoint
from ime.train.folds import Split
from ime.train.loop import load_dataset, split_fold
from ime.workflow.compose import compose_plain

path, ck = sys.argv[1], sys.argv[2]
scale = sys.argv[3] if len(sys.argv) > 3 else "quick"
c = compose_plain(["game=doudizhu", f"scale={scale}"])
data, arr = load_dataset(path, torch.device("cpu"))
d = split_fold(data, arr, 0, Split.of(c["train"]))
m = load_checkpoint(ck).eval()
va = d.val_idx
x = d.planes[va]
ms = [d.mask[va], *[e[va] for e in d.extra_masks]]
with torch.no_grad():
    out = m(x, ms)
pred = out[0].argmax(1).numpy()
y = d.action[va].numpy()
xs = x.numpy()
lead = (xs[:, 4].sum((1, 2)) == 0) & (xs[:, 5].sum((1, 2)) == 0) & (ms[0].sum(1).numpy() > 1)
kind = lambda code: f"{ComboType(int(MAJOR_KIND[code])).name}{'' if MAJOR_CHAIN[code] <= 1 else MAJOR_CHAIN[code]}"
err = lead & (pred != y)
print(f"leading with a choice: {lead.sum()} rows, {err.sum()} errors ({100 * err.sum() / lead.sum():.1f} %)")
same = err & (MAJOR_KIND[pred] == MAJOR_KIND[y]) & (MAJOR_CHAIN[pred] == MAJOR_CHAIN[y])
print(f"  same kind, other rank: {same.sum()} (net higher {(same & (MAJOR_RANK[pred] > MAJOR_RANK[y])).sum()})")
pairs = Counter((kind(y[i]), kind(pred[i])) for i in np.flatnonzero(err & ~same))
print("  other kind (bot -> net):")
for (a, b), n in pairs.most_common(15):
    print(f"    {a:>16s} -> {b:<16s} {n}")
bot_kinds = Counter(kind(y[i]) for i in np.flatnonzero(lead))
acc = {k: 1 - sum(1 for i in np.flatnonzero(err) if kind(y[i]) == k) / n for k, n in bot_kinds.items()}
print("  the bot's kind: rows, accuracy")
for k, n in bot_kinds.most_common(12):
    print(f"    {k:>16s} {n:5d} {100 * acc[k]:5.1f} %")
