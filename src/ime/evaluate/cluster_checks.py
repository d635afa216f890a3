"""Do the clusters recover the algorithms? (Issue 48, Deliver 6; thesis 4.5.1 and Table 6.1.)

The thesis's claim is that a bot's "personality" follows from its algorithm class (statistical
sampling search, deterministic search, rules: Table 6.1) and shows in how hard it is to imitate.
Each metric gives a clustering of a game's targets (:mod:`ime.evaluate.clustering`: by the
imitator's (S1, S2), by the distances 1 - S1, 1 - S2, 1 - kappa and JSD between originals, by
imitation accuracy); this module scores them:

* **adjusted Rand index** (Hubert & Arabie 1985) between every two clusterings, and between each
  clustering and the classes: 1 for the same partition, about 0 for partitions no closer than
  chance given their cluster sizes (it can be negative). Computed from the contingency table:

      ARI = (sum_ij C(n_ij, 2) - E) / ((sum_i C(a_i, 2) + sum_j C(b_j, 2)) / 2 - E),
      E = sum_i C(a_i, 2) sum_j C(b_j, 2) / C(n, 2);

  two partitions that are both all-in-one (or all singletons) agree by definition (ARI 1).
* **purity** of a clustering against the classes: the share of bots that belong to their
  cluster's most common class, ``(1/n) sum_k max_c |cluster_k and class_c|``. It is 1 when no
  cluster mixes classes, and never below the share of the largest class (``purity_floor``: one
  cluster holding everything), so the floor is given beside it: a purity at the floor says
  nothing.

The classes are :func:`ime.evaluate.clustering.algorithm_class` of each bot's zoo spec (its
``class`` key, else its kind's class), the same source as Table 6.1's rows.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from math import comb

import pandas as pd

ARI_COLUMNS = ["a", "b", "bots", "ari"]
PURITY_COLUMNS = ["clustering", "bots", "clusters", "classes", "purity", "purity_floor",
                  "ari_classes"]
CLASSES = "class"
"""The name the classes go by in the ARI table (a clustering of its own)."""


def adjusted_rand(a: Sequence, b: Sequence) -> float:
    """The adjusted Rand index of two labelings of the same items (the module doc)."""
    if len(a) != len(b):
        raise ValueError(f"ARI needs two labelings of the same items: {len(a)} vs {len(b)}")
    n = len(a)
    if n < 2:
        return float("nan")
    table = pd.crosstab(pd.Series(list(a), dtype=str), pd.Series(list(b), dtype=str))
    index = sum(comb(int(x), 2) for x in table.to_numpy().ravel())
    sa = sum(comb(int(x), 2) for x in table.sum(axis=1))
    sb = sum(comb(int(x), 2) for x in table.sum(axis=0))
    expected = sa * sb / comb(n, 2)
    top = (sa + sb) / 2.0
    if top == expected:  # both trivial (one cluster, or all singletons): the same partition
        return 1.0 if index == expected else 0.0
    return float((index - expected) / (top - expected))


def purity(labels: Sequence, classes: Sequence) -> float:
    """Share of items in their cluster's most common class."""
    if len(labels) != len(classes) or not len(labels):
        raise ValueError("purity needs labels and classes for the same, non-empty items")
    table = pd.crosstab(pd.Series(list(labels), dtype=str), pd.Series(list(classes), dtype=str))
    return float(table.max(axis=1).sum() / len(labels))


def cluster_checks(clusterings: Mapping[str, Mapping[str, object]],
                   classes: Mapping[str, str]) -> tuple[pd.DataFrame, pd.DataFrame]:
    """``(ari, purity)`` tables of ``clusterings`` (name -> bot -> label) against each other and
    the ``classes`` (bot -> class). Each comparison uses the bots both sides label."""
    named = {**{k: dict(v) for k, v in clusterings.items()}, CLASSES: dict(classes)}
    names = list(named)
    ari_rows = []
    for i, x in enumerate(names):
        for y in names[i + 1:]:
            bots = [b for b in named[x] if b in named[y]]
            ari_rows.append({"a": x, "b": y, "bots": len(bots),
                             "ari": adjusted_rand([named[x][b] for b in bots],
                                                  [named[y][b] for b in bots])
                             if len(bots) >= 2 else float("nan")})
    pur_rows = []
    for name, lab in clusterings.items():
        bots = [b for b in lab if b in classes]
        if not bots:
            continue
        cl = [classes[b] for b in bots]
        lb = [lab[b] for b in bots]
        pur_rows.append({"clustering": name, "bots": len(bots), "clusters": len(set(lb)),
                         "classes": len(set(cl)), "purity": purity(lb, cl),
                         "purity_floor": purity([0] * len(bots), cl),
                         "ari_classes": adjusted_rand(lb, cl) if len(bots) >= 2
                         else float("nan")})
    return (pd.DataFrame(ari_rows, columns=ARI_COLUMNS),
            pd.DataFrame(pur_rows, columns=PURITY_COLUMNS))
