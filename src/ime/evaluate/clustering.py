"""Clustering bots by similarity (thesis 4.5.1 and 6.1).

Two views, both hierarchical (scipy, average linkage by default):

* **by imitation similarity**: each bot is a point (S1, S2) of *its imitator against it* (Table
  4.5); bots that are equally hard to imitate fall together. The thesis finds {1,2,4,5}
  (deterministic search) vs {3} (MCTS) this way.
* **by pairwise distance**: ``d(i, j) = 1 - S(i, j)`` between originals (Tables 4.6/4.7); bots that
  play alike fall together.

Cluster labels are renumbered in order of first appearance in the given bot order, so the same
partition always gets the same labels (fcluster's own numbering is arbitrary).
"""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np
import pandas as pd
from scipy.cluster.hierarchy import fcluster, linkage
from scipy.spatial.distance import pdist, squareform

ALGORITHM_CLASSES: Mapping[str, str] = {
    "mcts": "statistical sampling search",
    "uct": "statistical sampling search",
    "alphabeta": "deterministic search",
    "solver": "deterministic search",
    "noisy": "search with random noise",
    "greedy": "rule-based",
    "positional": "rule-based",
    "random": "random",
    "imitator": "imitation network",
}


def algorithm_class(spec: Mapping) -> str:
    """The thesis's class (Table 6.1) of a bot spec: its ``class`` key, else from its kind."""
    return str(spec.get("class") or ALGORITHM_CLASSES.get(str(spec.get("kind")), "other"))


def _relabel(raw: np.ndarray) -> np.ndarray:
    seen: dict[int, int] = {}
    return np.array([seen.setdefault(int(x), len(seen) + 1) for x in raw])


def _cut(z: np.ndarray, n: int, k: int) -> np.ndarray:
    if n == 0:
        return np.zeros(0, dtype=int)
    if n == 1:
        return np.ones(1, dtype=int)
    return _relabel(fcluster(z, t=min(k, n), criterion="maxclust"))


def cluster_points(points: pd.DataFrame, k: int = 2,
                   method: str = "average") -> tuple[pd.DataFrame, np.ndarray]:
    """Cluster rows of ``points`` (index = bot, columns = features, e.g. s1, s2).

    Returns ``(labels, Z)``: a ``bot, cluster`` table and the linkage matrix for a dendrogram.
    """
    x = points.to_numpy(dtype=float)
    if np.isnan(x).any():
        raise ValueError("cannot cluster bots with missing similarities: "
                         f"{list(points.index[np.isnan(x).any(axis=1)])}")
    z = linkage(pdist(x), method=method) if len(x) > 1 else np.zeros((0, 4))
    return pd.DataFrame({"bot": list(points.index), "cluster": _cut(z, len(x), k)}), z


def cluster_matrix(similarity: pd.DataFrame, k: int = 2,
                   method: str = "average") -> tuple[pd.DataFrame, np.ndarray]:
    """Cluster bots by the distance ``1 - S`` of a symmetric similarity matrix."""
    s = similarity.to_numpy(dtype=float)
    if np.isnan(s).any():
        raise ValueError("similarity matrix has missing pairs; score every pair first")
    if not np.allclose(s, s.T):
        raise ValueError("similarity matrix must be symmetric")
    d = 1.0 - s
    np.fill_diagonal(d, 0.0)
    d = np.clip(d, 0.0, None)
    z = linkage(squareform(d, checks=False), method=method) if len(d) > 1 else np.zeros((0, 4))
    return pd.DataFrame({"bot": list(similarity.index), "cluster": _cut(z, len(d), k)}), z


def clusters_table(by_imitation: pd.DataFrame, by_distance: Mapping[str, pd.DataFrame],
                   classes: Mapping[str, str]) -> pd.DataFrame:
    """One row per bot: its class and its cluster under each view (``cluster_imitation``, ...)."""
    out = by_imitation.rename(columns={"cluster": "cluster_imitation"})
    for name, labels in by_distance.items():
        out = out.merge(labels.rename(columns={"cluster": f"cluster_{name}"}), on="bot",
                        how="outer")
    out.insert(1, "class", [classes.get(b, "other") for b in out["bot"]])
    return out


ACCURACY_CLUSTER_COLUMNS = ["bot", "baseline", "val_acc", "val_acc_min", "val_acc_max",
                            "above_baseline", "nets", "cluster"]


def accuracy_clusters(table: pd.DataFrame, bots: list[str] | None = None, k: int = 2,
                      method: str = "average") -> pd.DataFrame:
    """Bots grouped by how well they are imitated (thesis Fig 2.7 and its two-way split).

    ``table`` is the imitation-accuracy table (Table 4.4: one row per bot and net). Each bot's
    point is its validation accuracy averaged over the nets (``val_acc``; the spread over nets is
    ``val_acc_min``/``val_acc_max``), and the bots are cut into ``k`` clusters of that one
    feature, hierarchically as the other views are. ``above_baseline`` is ``val_acc`` minus the
    random baseline, in points. Rows follow ``bots`` (default: the table's order).
    """
    order = bots if bots is not None else list(dict.fromkeys(table["bot"]))
    grouped = table.groupby("bot")
    missing = [b for b in order if b not in grouped.groups]
    if missing:
        raise ValueError(f"no imitation accuracy for bots {missing}")
    rows = []
    for b in order:
        g = grouped.get_group(b)
        acc = g["val_acc_mean"].astype(float)
        rows.append({"bot": b, "baseline": float(g["baseline"].iloc[0]),
                     "val_acc": round(float(acc.mean()), 2),
                     "val_acc_min": float(acc.min()), "val_acc_max": float(acc.max()),
                     "nets": len(g)})
    out = pd.DataFrame(rows)
    out["above_baseline"] = (out["val_acc"] - out["baseline"]).round(2)
    labels, _ = cluster_points(out.set_index("bot")[["val_acc"]], k=k, method=method)
    out["cluster"] = labels["cluster"].to_numpy()
    return out[ACCURACY_CLUSTER_COLUMNS]
