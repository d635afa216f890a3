"""Bradley-Terry ratings on an Elo scale, with bootstrap CIs (a companion to Table 4.8's points).

Points (3/1/0) depend on who played whom how often; a Bradley-Terry fit turns the same games into
one strength per bot, ``P(i beats j) = 1 / (1 + 10^((R_j - R_i) / 400))``, the Elo convention.
Draws count as half a win for each side.

A weak Gaussian prior on the log-strengths (``prior_elo`` standard deviation, default 1000 Elo)
keeps a bot that won or lost every game at a finite rating instead of infinity; with any real
data it moves ratings by far less than their CI. Ratings are centred on 1500.

CIs resample whole rounds (each round is one opening played by every pair both ways), so the
correlation between games from the same opening is kept.

Games of more than two seats count as one comparison per pair of different bots at the table:
the bot with the better outcome (:func:`ime.evaluate.tournament.bot_outcomes`) beats the other,
equal outcomes are a draw. For two seats that is the plain head-to-head result.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pandas as pd
from scipy.optimize import minimize

from ime.core.seeding import derive_seed

ELO_PER_NAT = 400.0 / np.log(10.0)
CENTER = 1500.0


def win_matrix(results: pd.DataFrame, players: Sequence[str]) -> np.ndarray:
    """``W[i, j]`` = wins of i over j plus half the draws between them."""
    from ime.evaluate.tournament import bot_outcomes

    idx = {p: k for k, p in enumerate(players)}
    w = np.zeros((len(players), len(players)))
    for game in bot_outcomes(results):
        bots = [p for p in game if p in idx]
        for x, a in enumerate(bots):
            for b in bots[x + 1:]:
                d = game[a] - game[b]  # win 1, draw 0.5, loss 0
                w[idx[a], idx[b]] += (1 + np.sign(d)) / 2.0
                w[idx[b], idx[a]] += (1 - np.sign(d)) / 2.0
    return w


def fit_bradley_terry(w: np.ndarray, prior_elo: float = 1000.0) -> np.ndarray:
    """Elo ratings (mean 1500) maximising the BT likelihood of win matrix ``w`` plus the prior."""
    n = w.shape[0]
    if n == 0:
        return np.zeros(0)
    sigma = prior_elo / ELO_PER_NAT
    total = w + w.T

    def nll(beta: np.ndarray) -> tuple[float, np.ndarray]:
        d = beta[:, None] - beta[None, :]
        # log sigmoid(d) = -log(1 + exp(-d)), stable via logaddexp
        ll = -(w * np.logaddexp(0.0, -d)).sum()
        p = 1.0 / (1.0 + np.exp(-d))
        grad = (w - total * p).sum(axis=1)
        ll -= (beta ** 2).sum() / (2 * sigma ** 2)
        grad -= beta / sigma ** 2
        return -ll, -grad

    res = minimize(nll, np.zeros(n), jac=True, method="L-BFGS-B",
                   options={"maxiter": 1000, "gtol": 1e-10})
    beta = res.x - res.x.mean()
    return CENTER + ELO_PER_NAT * beta


def bradley_terry(
    results: pd.DataFrame,
    players: Sequence[str],
    *,
    n_boot: int = 1000,
    level: float = 0.95,
    seed: int = 0,
    prior_elo: float = 1000.0,
) -> pd.DataFrame:
    """Ratings with percentile CIs from resampling rounds: ``bot, elo, elo_lo, elo_hi``."""
    players = list(players)
    elo = fit_bradley_terry(win_matrix(results, players), prior_elo)
    rounds = sorted(results["round"].unique()) if len(results) else []
    per_round = np.stack([win_matrix(results[results["round"] == r], players) for r in rounds]) \
        if rounds else np.zeros((0, len(players), len(players)))
    rng = np.random.default_rng(derive_seed("bt-bootstrap", seed))
    reps = np.empty((n_boot, len(players)))
    for b in range(n_boot):
        counts = np.bincount(rng.integers(0, len(rounds), len(rounds)), minlength=len(rounds)) \
            if rounds else np.zeros(0)
        reps[b] = fit_bradley_terry(np.tensordot(counts, per_round, axes=1), prior_elo)
    alpha = (1 - level) / 2
    lo, hi = (np.quantile(reps, [alpha, 1 - alpha], axis=0) if n_boot and rounds
              else (np.full(len(players), np.nan), np.full(len(players), np.nan)))
    return pd.DataFrame({"bot": players, "elo": elo, "elo_lo": lo, "elo_hi": hi})
