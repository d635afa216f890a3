"""The tournament split into a transitive and a cyclic part (Balduzzi et al., "Re-evaluating
evaluation", NeurIPS 2018: the Hodge / Schur decomposition behind multidimensional Elo).

A round-robin's results form an antisymmetric matrix ``A`` (``A[i, j] = -A[j, i]``): how much
``i`` beats ``j``. Any such matrix splits, orthogonally in the Frobenius inner product, into

    A = grad(r) + C,     grad(r)[i, j] = r_i - r_j,

a *transitive* part (one rating per player explains it: the Elo / Bradley-Terry picture) and a
*cyclic* part ``C`` with no divergence (rock-paper-scissors: no rating can explain it). On a
complete tournament ``r = (1/n) A 1`` (each row's mean); with pairs that never met, ``r`` is the
least-squares fit on the pairs that did (the graph Laplacian's solve, which is the row mean when
every pair met). Because the parts are orthogonal, ``||A||^2 = ||grad r||^2 + ||C||^2`` and the
*transitive share* ``||grad r||^2 / ||A||^2`` and *cyclic share* ``||C||^2 / ||A||^2`` add up to
1. The cyclic part's real Schur form is a sum of 2-D rotations (its singular values come in
equal pairs); ``cyclic_top_share`` is the share of ``||C||^2`` in the largest, the dominant
rock-paper-scissors component that multidimensional Elo would add first.

Two matrices, from the games as :func:`ime.evaluate.ratings.win_matrix` counts them (a draw half
a win each; in games of more seats, one comparison per pair of different bots at the table):

* ``logit``: ``A[i, j] = logit(p_ij)`` with ``p_ij = (W_ij + 1/2) / (N_ij + 1)``, the win share
  shrunk by half a game each way so that a pair that always won has a finite entry (the
  Jeffreys prior's estimate). Its ratings ``r`` are in natural log-odds (``elo = 1500 +
  400/ln 10 * r``), the Bradley-Terry scale.
* ``margin``: ``A[i, j] = (W_ij - W_ji) / N_ij``, the mean win margin in [-1, 1], with no
  shrinkage.

Shares' CIs resample whole rounds, as the Bradley-Terry ratings' do (:mod:`ime.evaluate.ratings`).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pandas as pd

from ime.core.seeding import derive_seed
from ime.evaluate.ratings import CENTER, ELO_PER_NAT, win_matrix

MATRICES = ("logit", "margin")
SHARE_COLUMNS = ["matrix", "players", "pairs", "transitive_share", "transitive_share_lo",
                 "transitive_share_hi", "cyclic_share", "cyclic_share_lo", "cyclic_share_hi",
                 "cyclic_top_share"]
RATING_COLUMNS = ["bot", "rating_logit", "elo_hodge", "rating_margin"]


def antisymmetric(w: np.ndarray, kind: str) -> tuple[np.ndarray, np.ndarray]:
    """``(A, played)`` from a win matrix (``W[i, j]`` wins of i over j): the ``kind`` matrix
    (``logit`` or ``margin``, the module doc) and the mask of pairs that played (the diagonal
    never counts)."""
    w = np.asarray(w, dtype=np.float64)
    if w.ndim != 2 or w.shape[0] != w.shape[1]:
        raise ValueError(f"a win matrix is square, got shape {w.shape}")
    if (w < 0).any():
        raise ValueError("a win matrix counts games: no negative entries")
    n_ij = w + w.T
    played = n_ij > 0
    np.fill_diagonal(played, False)
    a = np.zeros_like(w)
    if kind == "logit":
        p = (w + 0.5) / (n_ij + 1.0)
        a[played] = np.log(p[played] / (1.0 - p[played]))
    elif kind == "margin":
        a[played] = (w - w.T)[played] / n_ij[played]
    else:
        raise ValueError(f"unknown matrix kind {kind!r}; one of {MATRICES}")
    return a, played


def decompose(a: np.ndarray, played: np.ndarray | None = None) -> dict[str, np.ndarray | float]:
    """The Hodge decomposition of an antisymmetric ``a`` on the pairs ``played`` (default every
    pair): ratings ``r`` (mean 0), ``transitive = grad(r)``, ``cyclic = a - transitive`` (both
    zero off ``played``), and the shares of ``||a||^2`` (NaN for an all-zero ``a``)."""
    a = np.asarray(a, dtype=np.float64)
    n = a.shape[0]
    if a.shape != (n, n) or not np.allclose(a, -a.T, atol=1e-9):
        raise ValueError("the decomposition needs a square antisymmetric matrix")
    if played is None:
        played = ~np.eye(n, dtype=bool)
    m = np.asarray(played, dtype=np.float64)
    # least squares min sum_{played} (a_ij - r_i + r_j)^2: L r = div, L the graph Laplacian
    lap = np.diag(m.sum(axis=1)) - m
    div = (a * m).sum(axis=1)
    r = np.linalg.lstsq(lap, div, rcond=None)[0] if n else np.zeros(0)
    r = r - r.mean() if n else r
    grad = (r[:, None] - r[None, :]) * m
    cyc = a * m - grad
    total = float((a * m * a).sum())
    t2, c2 = float((grad ** 2).sum()), float((cyc ** 2).sum())
    top = float("nan")
    if c2 > 1e-12 * max(total, 1e-300):
        s = np.linalg.svd(cyc, compute_uv=False)
        top = float((s[:2] ** 2).sum() / (s ** 2).sum())
    nan = float("nan")
    return {"ratings": r, "transitive": grad, "cyclic": cyc,
            "transitive_share": t2 / total if total > 0 else nan,
            "cyclic_share": c2 / total if total > 0 else nan, "cyclic_top_share": top}


def _shares(w: np.ndarray, kind: str) -> tuple[float, float]:
    d = decompose(*antisymmetric(w, kind))
    return float(d["transitive_share"]), float(d["cyclic_share"])


def tournament_decomposition(results: pd.DataFrame, players: Sequence[str], *,
                             n_boot: int = 1000, level: float = 0.95,
                             seed: int = 0) -> tuple[pd.DataFrame, pd.DataFrame]:
    """The decomposition of a tournament's games (``tournament_games.csv``'s rows, with a
    ``round`` column): ``(shares, ratings)``, one shares row per matrix kind with round-resampled
    CIs, one ratings row per player."""
    players = list(players)
    w = win_matrix(results, players)
    rounds = sorted(results["round"].unique()) if len(results) else []
    per_round = (np.stack([win_matrix(results[results["round"] == r], players) for r in rounds])
                 if rounds else np.zeros((0, len(players), len(players))))
    rows, ratings = [], {}
    alpha = (1.0 - level) / 2.0
    for kind in MATRICES:
        a, played = antisymmetric(w, kind)
        d = decompose(a, played)
        ratings[kind] = d["ratings"]
        lo_t = hi_t = lo_c = hi_c = float("nan")
        if n_boot and rounds:
            rng = np.random.default_rng(derive_seed("hodge-bootstrap", seed, kind))
            reps = np.empty((n_boot, 2))
            for b in range(n_boot):
                counts = np.bincount(rng.integers(0, len(rounds), len(rounds)),
                                     minlength=len(rounds))
                reps[b] = _shares(np.tensordot(counts, per_round, axes=1), kind)
            ok = np.isfinite(reps).all(axis=1)
            if ok.any():
                (lo_t, lo_c), (hi_t, hi_c) = np.quantile(reps[ok], [alpha, 1 - alpha], axis=0)
        rows.append({"matrix": kind, "players": len(players),
                     "pairs": int(played.sum() // 2),
                     "transitive_share": d["transitive_share"], "transitive_share_lo": lo_t,
                     "transitive_share_hi": hi_t, "cyclic_share": d["cyclic_share"],
                     "cyclic_share_lo": lo_c, "cyclic_share_hi": hi_c,
                     "cyclic_top_share": d["cyclic_top_share"]})
    rat = pd.DataFrame({"bot": players, "rating_logit": ratings["logit"],
                        "elo_hodge": CENTER + ELO_PER_NAT * np.asarray(ratings["logit"]),
                        "rating_margin": ratings["margin"]}, columns=RATING_COLUMNS)
    return pd.DataFrame(rows, columns=SHARE_COLUMNS), rat
