"""Which bot played this? Identification by the likelihood of a player's moves (issue 48).

Given k matches of one player and a pool of bots with trained imitators, each pool bot's
imitator gives a probability to every move the player made; the bot whose imitator makes the
observed moves most likely is named (McIlroy-Young et al.'s behavioural stylometry, with the
imitators as the per-player models, as Maia's per-player nets are):

* **Per move**: ``log p_b(move | position)`` under pool bot ``b``'s imitator, summed over the
  heads the move uses (a Doudizhu major then its kicker: the chain rule, the kicker's mask given
  the major played, as the datasets store it). The imitator's distribution is mixed with the
  uniform one over the legal codes, ``(1 - epsilon) p + epsilon / #legal``, so that a confident
  imitator (a search imitator, nearly one-hot) that misses one move costs a bounded
  ``log(epsilon / #legal)`` instead of ``-inf``, which would let one move decide.
* **Over matches**: the log-likelihoods of all the player's moves in the k matches are summed
  (matches are independent given the bot); the probabilities over the pool are the softmax of
  those sums (a uniform prior over the pool).
* **Open set** ("none of them"): the score is the best bot's *mean log-likelihood per move*,
  and the player is called none of the pool when it falls below a threshold set on held-out
  matches: the ``quantile`` (default 5 %) of the true bot's mean per-move log-likelihood over
  groups of k held-out matches of every pool bot. So about that share of a pool bot's own
  k-match groups would be wrongly rejected; a threshold per k, since a mean over more moves
  scatters less.

Any imitator plugs in: the models are loaded by :class:`ime.bots.imitator.ImitatorBot` (policy
nets, ``search``, ``lookahead``: one call signature, ``model(planes, mask)``), and an ensemble
of folds is the mean of their softmax, as everywhere else.

The held-out protocol (the pipeline's table, :func:`heldout_scores`): every pool bot's dataset
is split by match exactly as its models were trained (:class:`ime.train.folds.Split`); a match
of bot ``b`` is scored only with the models of the fold that validated on it, for every pool
bot, so no model scoring a match ever trained on it (other bots' models never see ``b``'s
matches at all: datasets are per target). Groups of k matches are disjoint and drawn by a
seeded shuffle per bot, so trials are independent and the same config gives the same bytes.
"""

from __future__ import annotations

import logging
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from itertools import combinations
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from ime.core.seeding import derive_seed

log = logging.getLogger("ime.identify")

TOP = (1, 3)
"""The ranks reported: top-1 and top-3 accuracy."""


# --- a player's decisions ------------------------------------------------------------------------
@dataclass
class PlayerDecisions:
    """Encoded decisions of one player: what an imitator is asked about.

    ``planes`` ``[N, *state_shape]``; ``masks`` one ``[N, size]`` legal mask per action head;
    ``actions`` ``int64[N, heads]`` (the code played per head, ``-1`` where a head is unused);
    ``match_id`` ``object[N]``, the match of each decision."""

    planes: np.ndarray
    masks: list[np.ndarray]
    actions: np.ndarray
    match_id: np.ndarray

    def __len__(self) -> int:
        return int(self.actions.shape[0])

    @classmethod
    def from_arrays(cls, arr: Any, rows: np.ndarray | None = None) -> PlayerDecisions:
        """Rows of a dataset (:class:`ime.datasets.schema.DecisionArrays`), all by default."""
        r = np.arange(len(arr)) if rows is None else np.asarray(rows, dtype=np.int64)
        assert arr.actions is not None
        return cls(planes=arr.state[r], masks=[m[r] for m in arr.masks],
                   actions=np.asarray(arr.actions)[r].reshape(len(r), -1),
                   match_id=np.asarray(arr.match_id, dtype=object)[r])

    @classmethod
    def from_encoded(cls, enc: Mapping[str, Any], heads: Sequence[str],
                     match_id: Sequence[str], shape: Sequence[int]) -> PlayerDecisions:
        """The output of :func:`ime.datasets.extract.encode_decisions` (``heads``: the
        encoder's head names, the first one's columns being ``mask``/``action``)."""
        n = len(enc["action"])
        masks = [np.asarray(enc["mask"])]
        actions = [np.asarray(enc["action"], dtype=np.int64)]
        for name in heads[1:]:
            masks.append(np.asarray(enc[f"mask_{name}"]))
            actions.append(np.asarray(enc[f"action_{name}"], dtype=np.int64))
        return cls(planes=np.asarray(enc["state"]).reshape(n, *shape), masks=masks,
                   actions=np.stack(actions, axis=1),
                   match_id=np.asarray(list(match_id), dtype=object))


def move_loglik(model: Any, d: PlayerDecisions, *, epsilon: float,
                batch: int = 2048) -> np.ndarray:
    """``float64[N]``: each decision's log-likelihood under ``model`` (anything with the
    imitator's ``head_policy(Observation) -> [probs per head]``, e.g.
    :class:`ime.bots.imitator.ImitatorBot`), mixed with ``epsilon`` of the uniform choice
    among the legal codes (module doc), summed over the heads the decision uses."""
    from ime.core.encoding import Observation

    if not 0.0 <= epsilon < 1.0:
        raise ValueError(f"epsilon must be in [0, 1), got {epsilon}")
    n = len(d)
    out = np.zeros(n, dtype=np.float64)
    for lo in range(0, n, batch):
        hi = min(n, lo + batch)
        obs = Observation(d.planes[lo:hi], [m[lo:hi] for m in d.masks])
        probs = model.head_policy(obs)
        for h, p in enumerate(probs):
            code = d.actions[lo:hi, h]
            used = np.flatnonzero(code >= 0)
            if not len(used):
                continue
            legal = np.asarray(d.masks[h][lo:hi][used], dtype=np.float64).sum(axis=1)
            if (legal <= 0).any():
                raise ValueError("a decision's played code has no legal code in its mask")
            pm = np.asarray(p, dtype=np.float64)[used, code[used]]
            out[lo + used] += np.log((1.0 - epsilon) * pm + epsilon / legal)
    return out


def per_match(values: np.ndarray, match_id: np.ndarray) -> tuple[np.ndarray, np.ndarray,
                                                                   np.ndarray]:
    """``(ids sorted, sum of values per match, decisions per match)``."""
    ids, inv = np.unique(np.asarray(match_id).astype(str), return_inverse=True)
    sums = np.bincount(inv, weights=np.asarray(values, dtype=np.float64), minlength=len(ids))
    counts = np.bincount(inv, minlength=len(ids)).astype(np.int64)
    return ids, sums, counts


# --- one identification --------------------------------------------------------------------------
def softmax(x: np.ndarray) -> np.ndarray:
    """Probabilities from log-scores (over the last axis), stable for sums of thousands of
    log-likelihoods."""
    x = np.asarray(x, dtype=np.float64)
    z = x - x.max(axis=-1, keepdims=True)
    e = np.exp(z)
    return e / e.sum(axis=-1, keepdims=True)


@dataclass(frozen=True)
class Identification:
    """The verdict on one player: every pool bot's summed log-likelihood and probability."""

    bots: tuple[str, ...]
    loglik: tuple[float, ...]
    moves: int
    matches: int
    threshold: float | None = None
    """The open-set threshold on :attr:`mean_loglik` (None: not calibrated)."""
    threshold_k: int | None = None
    """The k (matches) the threshold was calibrated at."""

    @property
    def probabilities(self) -> np.ndarray:
        return softmax(np.asarray(self.loglik))

    @property
    def ranking(self) -> list[int]:
        """Pool indices, most likely first (ties: pool order)."""
        return sorted(range(len(self.bots)), key=lambda i: (-self.loglik[i], i))

    @property
    def best(self) -> str:
        return self.bots[self.ranking[0]]

    @property
    def mean_loglik(self) -> float:
        """The best bot's mean log-likelihood per move: the open-set score."""
        return self.loglik[self.ranking[0]] / max(self.moves, 1)

    @property
    def known(self) -> bool | None:
        """True: one of the pool; False: none of them; None: no threshold."""
        if self.threshold is None:
            return None
        return self.mean_loglik >= self.threshold

    def table(self) -> pd.DataFrame:
        """One row per pool bot, most likely first."""
        p = self.probabilities
        rows = [{"rank": r + 1, "bot": self.bots[i], "probability": float(p[i]),
                 "loglik": float(self.loglik[i]),
                 "mean_loglik": float(self.loglik[i]) / max(self.moves, 1)}
                for r, i in enumerate(self.ranking)]
        return pd.DataFrame(rows)

    def to_json(self) -> dict[str, Any]:
        return {"best": self.best, "known": self.known, "mean_loglik": self.mean_loglik,
                "threshold": self.threshold, "threshold_k": self.threshold_k,
                "matches": self.matches, "moves": self.moves,
                "pool": self.table().to_dict("records")}


def identify(models: Mapping[str, Any], d: PlayerDecisions, *, epsilon: float,
             threshold: float | None = None, threshold_k: int | None = None,
             batch: int = 2048) -> Identification:
    """Score ``d`` (one player's decisions) under every pool bot's model (``bot -> model``)."""
    if len(d) == 0:
        raise ValueError("no decisions to identify (every move was forced)")
    bots = tuple(models)
    ll = tuple(float(move_loglik(models[b], d, epsilon=epsilon, batch=batch).sum())
               for b in bots)
    return Identification(bots=bots, loglik=ll, moves=len(d),
                          matches=len(set(np.asarray(d.match_id).astype(str))),
                          threshold=threshold, threshold_k=threshold_k)


# --- the held-out protocol -----------------------------------------------------------------------
@dataclass
class HeldoutScores:
    """Every held-out match of every pool bot, scored under every pool bot's imitator.

    ``truth[m]`` indexes :attr:`bots` (who played match ``m``); ``loglik[m, b]`` is the summed
    log-likelihood of its moves under bot ``b``'s model of the fold ``fold[m]`` that validated
    on it; ``moves[m]`` its decisions."""

    bots: list[str]
    match_id: np.ndarray
    truth: np.ndarray
    fold: np.ndarray
    moves: np.ndarray
    loglik: np.ndarray
    skipped: dict[str, int] = field(default_factory=dict)
    """Per bot, matches no trained model held out (trained on by every model), left out."""

    def matches_of(self, b: int) -> np.ndarray:
        return np.flatnonzero(self.truth == b)

    def to_frame(self) -> pd.DataFrame:
        """Long form: one row per (match, scoring bot)."""
        m, b = np.meshgrid(np.arange(len(self.truth)), np.arange(len(self.bots)), indexing="ij")
        return pd.DataFrame({
            "match_id": self.match_id[m.ravel()],
            "bot": np.asarray(self.bots, dtype=object)[self.truth[m.ravel()]],
            "fold": self.fold[m.ravel()], "moves": self.moves[m.ravel()],
            "model": np.asarray(self.bots, dtype=object)[b.ravel()],
            "loglik": self.loglik.ravel()})


def heldout_scores(datasets: Mapping[str, str | Path],
                   checkpoints: Mapping[str, Sequence[str | Path]], split: Any, *,
                   game: str, game_params: Mapping[str, Any] | None, epsilon: float,
                   batch: int = 2048) -> HeldoutScores:
    """Score every pool bot's held-out matches (module doc). ``checkpoints[b][f]`` is bot
    ``b``'s model of fold ``f``; ``split`` the :class:`ime.train.folds.Split` they were
    trained with; the folds scored are those every pool bot has a model of."""
    from ime.bots.imitator import ImitatorBot
    from ime.datasets.schema import read_arrays

    bots = list(datasets)
    if len(bots) < 2:
        raise ValueError(f"identification needs a pool of at least 2 bots, got {bots}")
    missing = [b for b in bots if b not in checkpoints or not checkpoints[b]]
    if missing:
        raise ValueError(f"no checkpoints for {missing}")
    folds = min(len(checkpoints[b]) for b in bots)
    arrays = {b: read_arrays(datasets[b]) for b in bots}
    fold_of = {}
    skipped = {}
    for b in bots:
        table = split.match_table(arrays[b].match_id)
        f = np.array([table[str(m)] for m in arrays[b].match_id], dtype=np.int64)
        fold_of[b] = f
        skipped[b] = len({str(m) for m, x in zip(arrays[b].match_id, f, strict=True)
                          if x >= folds})
    ids, truth, fold_col, moves, ll = [], [], [], [], []
    for f in range(folds):
        models = {c: ImitatorBot.from_checkpoints(f"identify_{c}", [checkpoints[c][f]],
                                                  game=game, game_params=game_params)
                  for c in bots}
        for bi, b in enumerate(bots):
            rows = np.flatnonzero(fold_of[b] == f)
            if not len(rows):
                continue
            d = PlayerDecisions.from_arrays(arrays[b], rows)
            cols = []
            for c in bots:
                mid, sums, counts = per_match(
                    move_loglik(models[c], d, epsilon=epsilon, batch=batch), d.match_id)
                cols.append(sums)
            ids.append(mid)
            truth.append(np.full(len(mid), bi, dtype=np.int64))
            fold_col.append(np.full(len(mid), f, dtype=np.int64))
            moves.append(counts)
            ll.append(np.stack(cols, axis=1))
            log.info("fold %d: %s's %d held-out matches (%d moves) scored by %d models", f, b,
                     len(mid), int(counts.sum()), len(bots))
    if not ids:
        raise ValueError("no held-out matches: no trained model validates on any match")
    return HeldoutScores(bots=bots, match_id=np.concatenate(ids).astype(object),
                         truth=np.concatenate(truth), fold=np.concatenate(fold_col),
                         moves=np.concatenate(moves), loglik=np.concatenate(ll),
                         skipped=skipped)


def disjoint_groups(s: Any, k: int, seed: int, label: str = "identify-groups"
                    ) -> list[np.ndarray]:
    """Every bot's held-out matches, shuffled (seeded by ``label``, bot and k) and cut into
    ``floor(n / k)`` disjoint groups of ``k`` (the rest left out): independent trials. ``s``:
    :class:`HeldoutScores` or :class:`ime.evaluate.stylometry.FewShotScores` (``bots``,
    ``match_id``, ``matches_of``)."""
    if k < 1:
        raise ValueError(f"k must be >= 1, got {k}")
    out = []
    for b, bot in enumerate(s.bots):
        mine = s.matches_of(b)
        # sorted by match id first, so the groups do not depend on the order of scoring
        mine = mine[np.argsort(s.match_id[mine].astype(str), kind="stable")]
        rng = np.random.default_rng(derive_seed(label, seed, bot, k))
        mine = mine[rng.permutation(len(mine))]
        out += [mine[i:i + k] for i in range(0, len(mine) - k + 1, k)]
    return out


def group_scores(s: HeldoutScores, groups: Sequence[np.ndarray]
                 ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Per group: ``(summed log-likelihood [G, B], moves [G], true bot [G])``."""
    if not groups:
        z = np.zeros(0)
        return np.zeros((0, len(s.bots))), z.astype(np.int64), z.astype(np.int64)
    ll = np.stack([s.loglik[g].sum(axis=0) for g in groups])
    moves = np.array([int(s.moves[g].sum()) for g in groups], dtype=np.int64)
    truth = np.array([int(s.truth[g[0]]) for g in groups], dtype=np.int64)
    return ll, moves, truth


def true_rank(scores: np.ndarray, truth: np.ndarray) -> np.ndarray:
    """Per row, the true bot's rank (1 = best); a tie counts against it (the rank is the
    number of bots scoring at least as high), so a model that scores every bot alike
    identifies nobody."""
    t = scores[np.arange(len(truth)), truth]
    return (scores >= t[:, None]).sum(axis=1)


def open_set_threshold(true_mean: np.ndarray, quantile: float) -> float:
    """The ``quantile`` of the true bot's mean per-move log-likelihood on held-out groups
    (``method="lower"``: an observed value, so ties and tiny samples stay honest)."""
    v = np.asarray(true_mean, dtype=np.float64)
    if not len(v):
        raise ValueError("no held-out groups to set the open-set threshold on")
    if not 0.0 <= quantile < 1.0:
        raise ValueError(f"the open-set quantile must be in [0, 1), got {quantile}")
    return float(np.quantile(v, quantile, method="lower"))


def feasible_k(s: HeldoutScores, k: int) -> int:
    """The largest k' <= k at which every pool bot has a held-out group of k' matches."""
    least = min(len(s.matches_of(b)) for b in range(len(s.bots)))
    if least < 1:
        empty = [s.bots[b] for b in range(len(s.bots)) if not len(s.matches_of(b))]
        raise ValueError(f"no held-out matches of {empty}")
    return max(1, min(k, least))


def threshold_at(s: HeldoutScores, k: int, quantile: float, seed: int) -> tuple[float, int]:
    """``(threshold, k used)``: the open-set threshold for a player of ``k`` matches, from
    disjoint held-out groups of that many matches (fewer when a pool bot has fewer held-out
    matches: then the threshold is that of a smaller k, which rejects less)."""
    k_used = feasible_k(s, k)
    ll, moves, truth = group_scores(s, disjoint_groups(s, k_used, seed))
    true_mean = ll[np.arange(len(truth)), truth] / np.maximum(moves, 1)
    return open_set_threshold(true_mean, quantile), k_used


# --- the tables ----------------------------------------------------------------------------------
def _share(hits: np.ndarray, level: float) -> tuple[float, float, float]:
    from ime.core.intervals import wilson

    n = int(len(hits))
    if n == 0:
        return float("nan"), float("nan"), float("nan")
    lo, hi = wilson(int(np.sum(hits)), n, level)
    return float(np.mean(hits)), lo, hi


def topk_columns(rank: np.ndarray, n_bots: int, level: float) -> dict[str, float]:
    """Top-k shares of the groups whose true bot ranks ``rank`` (1 = named), with Wilson CIs
    and chance beside them: the k curve's columns for either method."""
    out: dict[str, float] = {}
    for top in TOP:
        est, lo, hi = _share(rank <= top, level)
        out.update({f"top{top}": est, f"top{top}_lo": lo, f"top{top}_hi": hi,
                    f"chance_top{top}": min(top, n_bots) / n_bots})
    return out


def confusion_rows(k: int, bots: Sequence[str], scores: np.ndarray, truth: np.ndarray
                   ) -> list[dict[str, Any]]:
    """Who each bot's groups were named as (the highest score; ties: pool order), one row per
    (bot, named) pair that occurs: ``identification_confusion.csv``'s rows for one k."""
    named = np.argmax(scores, axis=1)
    rows = []
    for t, bot in enumerate(bots):
        mine = truth == t
        for p, other in enumerate(bots):
            c = int(np.sum(named[mine] == p))
            if c:
                rows.append({"k": k, "bot": bot, "named": other, "trials": c,
                             "share": c / int(mine.sum())})
    return rows


def accuracy_by_k(s: HeldoutScores, ks: Sequence[int], *, quantile: float, seed: int,
                  level: float) -> tuple[pd.DataFrame, pd.DataFrame]:
    """Top-1/top-3 accuracy of the whole pool against k, with Wilson CIs over the disjoint
    groups, the open-set threshold per k, the share of the pool's own groups it accepts, and
    the share of an unknown bot's groups it rejects (each bot left out of the pool in turn, the
    threshold set again without it); and the confusion (true bot -> named bot) per k.
    A k at which some bot has fewer than k held-out matches is left out (logged)."""
    rows, conf = [], []
    n_bots = len(s.bots)
    least = min(len(s.matches_of(b)) for b in range(n_bots))
    for k in ks:
        if k > least:
            log.info("k=%d left out: a pool bot has only %d held-out matches", k, least)
            continue
        groups = disjoint_groups(s, k, seed)
        ll, moves, truth = group_scores(s, groups)
        rank = true_rank(ll, truth)
        mean = ll / np.maximum(moves, 1)[:, None]
        true_mean = mean[np.arange(len(truth)), truth]
        thr = open_set_threshold(true_mean, quantile)
        best_mean = mean.max(axis=1)
        rej = []
        for out in range(n_bots):  # bot `out` unknown: left out of the pool and the threshold
            keep = [b for b in range(n_bots) if b != out]
            thr_out = open_set_threshold(true_mean[truth != out], quantile)
            rej.append(mean[truth == out][:, keep].max(axis=1) < thr_out)
        rejected = np.concatenate(rej)
        row: dict[str, Any] = {"curve": "k", "k": k, "pool_size": n_bots, "pools": 1,
                               "trials": len(groups), "moves_mean": float(moves.mean())}
        row.update(topk_columns(rank, n_bots, level))
        row["threshold"] = thr
        row["known_accepted"] = float(np.mean(best_mean >= thr))
        est, lo, hi = _share(rejected, level)
        row.update({"unknown_rejected": est, "unknown_rejected_lo": lo,
                    "unknown_rejected_hi": hi})
        rows.append(row)
        conf += confusion_rows(k, s.bots, ll, truth)
    return pd.DataFrame(rows), pd.DataFrame(conf, columns=["k", "bot", "named", "trials",
                                                           "share"])


def sub_pools(n: int, size: int, draws: int, seed: int) -> list[tuple[int, ...]]:
    """``draws`` distinct random sub-pools of ``size`` of ``n`` bots (seeded), or all of
    them when there are no more than ``draws``."""
    total = math.comb(n, size)
    if total <= draws:
        return list(combinations(range(n), size))
    rng = np.random.default_rng(derive_seed("identify-pools", seed, n, size))
    seen: dict[tuple[int, ...], None] = {}
    while len(seen) < draws:
        seen.setdefault(tuple(sorted(int(x) for x in rng.choice(n, size, replace=False))))
    return list(seen)


def accuracy_by_pool_size(s: HeldoutScores, k: int, sizes: Sequence[int] | None, *, draws: int,
                          seed: int, level: float, bootstrap: int) -> pd.DataFrame:
    """Top-1/top-3 accuracy at ``k`` matches against the pool's size: random sub-pools of each
    size (seeded); every k-match group of a sub-pool's bot is identified within the sub-pool.
    CIs: percentile bootstrap over the groups (a group in several sub-pools is one cluster)."""
    from ime.evaluate.similarity import cluster_bootstrap_ci

    n_bots = len(s.bots)
    k = feasible_k(s, k)
    groups = disjoint_groups(s, k, seed)
    ll, moves, truth = group_scores(s, groups)
    rows = []
    for size in sizes if sizes is not None else range(2, n_bots + 1):
        if not 2 <= size <= n_bots:
            log.info("pool size %d left out: the pool has %d bots", size, n_bots)
            continue
        pools = sub_pools(n_bots, size, draws, seed)
        hits: dict[int, list[np.ndarray]] = {t: [] for t in TOP}
        cluster = []
        for pool in pools:
            members = np.asarray(pool)
            mine = np.flatnonzero(np.isin(truth, members))
            local = np.searchsorted(members, truth[mine])
            rank = true_rank(ll[mine][:, members], local)
            for t in TOP:
                hits[t].append(rank <= t)
            cluster.append(mine)
        clusters = np.concatenate(cluster)
        row: dict[str, Any] = {"curve": "pool_size", "k": k, "pool_size": size,
                               "pools": len(pools), "trials": len(np.unique(clusters)),
                               "moves_mean": float(moves.mean())}
        for t in TOP:
            h = np.concatenate(hits[t]).astype(np.float64)
            lo, hi = cluster_bootstrap_ci(h, clusters, n_boot=bootstrap, level=level,
                                          seed=seed, salt=f"identify-pool-{size}-top{t}")
            row.update({f"top{t}": float(h.mean()), f"top{t}_lo": lo, f"top{t}_hi": hi,
                        f"chance_top{t}": min(t, size) / size})
        rows.append(row)
    return pd.DataFrame(rows)


TABLE_COLUMNS = ["method", "curve", "k", "pool_size", "pools", "trials", "moves_mean",
                 "references",
                 "top1", "top1_lo", "top1_hi", "top3", "top3_lo", "top3_hi",
                 "chance_top1", "chance_top3", "ci", "threshold", "known_accepted",
                 "unknown_rejected", "unknown_rejected_lo", "unknown_rejected_hi"]
PERCENT_COLUMNS = ("top1", "top3", "chance_top1", "chance_top3", "known_accepted",
                   "unknown_rejected")
"""The table's shares, written in percent (their CIs follow; :mod:`ime.report.columns`)."""


def identification_table(s: HeldoutScores, *, ks: Sequence[int], pool_k: int,
                         pool_sizes: Sequence[int] | None, pool_draws: int, quantile: float,
                         seed: int, level: float, bootstrap: int
                         ) -> tuple[pd.DataFrame, pd.DataFrame]:
    """``identification.csv`` (the k curve, then the pool-size curve; shares as fractions)
    and ``identification_confusion.csv``."""
    by_k, conf = accuracy_by_k(s, ks, quantile=quantile, seed=seed, level=level)
    by_pool = accuracy_by_pool_size(s, pool_k, pool_sizes, draws=pool_draws, seed=seed,
                                    level=level, bootstrap=bootstrap)
    if len(by_k):
        by_k["ci"] = "wilson"
    if len(by_pool):
        by_pool["ci"] = "bootstrap"
    table = pd.concat([by_k, by_pool], ignore_index=True).reindex(columns=TABLE_COLUMNS)
    table["method"] = METHOD_LIKELIHOOD
    conf.insert(0, "method", METHOD_LIKELIHOOD)
    return table, conf


METHOD_LIKELIHOOD = "likelihood"
"""Method (a): the summed log-likelihood under each pool bot's imitator (this module)."""
METHOD_EMBEDDING = "embedding"
"""Method (b): the few-shot GE2E embedding (:mod:`ime.evaluate.stylometry`)."""
