"""Which bot played this, method (b): a learned embedding of a player's matches (issue 48).

McIlroy-Young et al. (NeurIPS 2021, "behavioral stylometry") embed a player's games with an
encoder trained by the generalised end-to-end (GE2E) loss of speaker verification (Wan et al.,
ICASSP 2018), and identify players the encoder never saw from a few reference games: the
centroid of the references' embeddings is the player's print, a new game goes to the nearest
print by cosine. Method (a) (:mod:`ime.evaluate.identify`) needs an imitator per pool bot; this
one needs only ten reference matches of a new bot, and the same encoder serves any pool.

* **A move** is its position and what was played, from the dataset as every stage reads it
  (:class:`ime.datasets.schema.DecisionArrays`): the encoder's planes (flattened), then per
  action head the one-hot code played and the legal mask. No game is named: any encoder's
  planes and heads serve.
* **The move played against a population policy.** Before the encoder is trained, a small
  *population policy* (an MLP from the planes and legal masks to each head's move
  distribution) is fitted to every training bot's moves pooled (``policy_steps``), then frozen.
  Each move then also shows how it stands against that policy: per head the one-hot code played
  minus the policy's distribution over the legal moves, the policy's log-probability of the
  move played, its entropy, and the share of legal moves it ranks above the one played. Which
  position arose depends on the opponent; the policy-relative features take out, to first
  order, what any bot would have played there, and leave how this one differs.
* **A match** is embedded by a small net: an MLP per move (with ``dropout``), the mean over the
  match's moves, a linear map to ``dim`` and an L2 normalisation (a bag of moves: style is in
  which moves are chosen where, not in their order).
* **GE2E loss** over a batch of ``N`` bots x ``M`` matches: ``S[j,i,k] = w cos(e_ji, c_k) + b``
  with ``c_k`` the centroid of bot ``k``'s matches in the batch (``e_ji`` left out of its own
  bot's centroid, as in the paper), ``w > 0`` and ``b`` learnt; the loss is the softmax
  cross-entropy of each match against its bot over the ``N`` centroids.
* **Few-shot protocol** (:func:`fewshot_scores`): the pool's bots are dealt (seeded) into
  ``bot_folds`` folds; for each fold an encoder is trained on the *other* bots only, so a fold's
  bots are unseen by the encoder that identifies them. Every pool bot's print is the centroid of
  ``references`` of its held-out matches (those method (a) uses: no imitator trained on them;
  drawn by a seeded shuffle, never trained on by any encoder). A held-out bot's other held-out
  matches are cut into disjoint groups of k (seeded), a group's embedding is the normalised mean
  of its matches', and it is named among the *whole* pool's prints by cosine: the same pool,
  queries and chance level as method (a).

Seeded throughout (``seed``): the bot folds, the references, the batches, the initial weights;
on CPU with one thread and deterministic kernels the same config gives the same bytes.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import pandas as pd

from ime.core.seeding import derive_seed
from ime.evaluate.identify import confusion_rows, disjoint_groups, topk_columns, true_rank

log = logging.getLogger("ime.identify")


# --- matches as move features --------------------------------------------------------------------
@dataclass
class MatchFeatures:
    """Every match of a pool as move features (``uint8``, so a big pool fits in memory).

    ``x`` ``uint8[moves, F]`` holds the matches' moves contiguously; match ``m`` is rows
    ``start[m]:start[m] + length[m]``, played by pool bot ``bot[m]`` (an index into
    :attr:`bots`), id ``match_id[m]``."""

    bots: list[str]
    x: np.ndarray
    start: np.ndarray
    length: np.ndarray
    bot: np.ndarray
    match_id: np.ndarray
    heads: tuple[tuple[int, int, int], ...] = ()
    """Per action head ``(one-hot column, mask column, size)``: where :func:`move_features`
    put the head's code played and its legal mask (the planes are the columns before the
    first)."""

    @property
    def n_features(self) -> int:
        return int(self.x.shape[1])

    def matches_of(self, b: int) -> np.ndarray:
        return np.flatnonzero(self.bot == b)


def move_features(planes: np.ndarray, masks: Sequence[np.ndarray],
                  actions: np.ndarray) -> np.ndarray:
    """``uint8[N, F]``: per decision the flattened planes, then per head the one-hot code played
    (all zero where the head is unused, ``-1``) and the legal mask."""
    n = int(planes.shape[0])
    acts = np.asarray(actions, dtype=np.int64).reshape(n, -1)
    if acts.shape[1] != len(masks):
        raise ValueError(f"{acts.shape[1]} action columns for {len(masks)} heads")
    parts = [np.asarray(planes).reshape(n, -1)]
    if parts[0].size and (parts[0].min() < 0 or parts[0].max() > 255):
        raise ValueError("move features are stored as uint8: the planes must lie in 0..255")
    for h, mask in enumerate(masks):
        onehot = np.zeros((n, mask.shape[1]), dtype=np.uint8)
        used = np.flatnonzero(acts[:, h] >= 0)
        onehot[used, acts[used, h]] = 1
        parts += [onehot, np.asarray(mask).reshape(n, -1)]
    return np.concatenate([p.astype(np.uint8, copy=False) for p in parts], axis=1)


def match_features(per_bot: Mapping[str, Any]) -> MatchFeatures:
    """A pool's matches from each bot's decisions (``bot ->`` anything with ``state``,
    ``masks``, ``actions`` and ``match_id``: a :class:`~ime.datasets.schema.DecisionArrays` or
    a :class:`~ime.evaluate.identify.PlayerDecisions`). Matches are sorted by id per bot, so the
    result does not depend on the rows' order."""
    bots = list(per_bot)
    xs, starts, lengths, owner, ids = [], [], [], [], []
    offset = 0
    for b, name in enumerate(bots):
        a = per_bot[name]
        planes = a.state if hasattr(a, "state") else a.planes
        mid = np.asarray(a.match_id).astype(str)
        order = np.lexsort((np.arange(len(mid)), mid))  # by match, rows' order kept within
        feats = move_features(planes[order], [m[order] for m in a.masks],
                              np.asarray(a.actions)[order])
        u, first, counts = np.unique(mid[order], return_index=True, return_counts=True)
        xs.append(feats)
        starts.append(offset + first)
        lengths.append(counts)
        owner.append(np.full(len(u), b, dtype=np.int64))
        ids.append(u.astype(object))
        offset += len(feats)
        if not len(u):
            raise ValueError(f"bot {name!r} has no decisions to embed")
    return MatchFeatures(bots=bots, x=np.concatenate(xs), start=np.concatenate(starts),
                         length=np.concatenate(lengths), bot=np.concatenate(owner),
                         match_id=np.concatenate(ids), heads=head_layout(per_bot[bots[0]]))


def head_layout(a: Any) -> tuple[tuple[int, int, int], ...]:
    """``(one-hot column, mask column, size)`` per action head in the rows of
    :func:`move_features` for decisions ``a`` (``state`` or ``planes``, ``masks``)."""
    planes = a.state if hasattr(a, "state") else a.planes
    col = int(np.prod(np.asarray(planes).shape[1:]))
    out = []
    for mask in a.masks:
        size = int(np.asarray(mask).shape[1])
        out.append((col, col + size, size))
        col += 2 * size
    return tuple(out)


# --- the encoder and the GE2E loss ---------------------------------------------------------------
@dataclass(frozen=True)
class EmbeddingConfig:
    """``identify.embedding`` (config/identify/default.yaml; docs/identify.md)."""

    hidden: int = 128
    dim: int = 64
    steps: int = 400
    bots_per_batch: int = 8
    matches_per_bot: int = 8
    lr: float = 1e-3
    device: str = "auto"
    dropout: float = 0.0
    """Dropout after each layer of the per-move MLP while training (0 here: none; the
    pipeline's value is the YAML file's)."""
    policy_steps: int = 0
    """Adam steps fitting the population policy before GE2E (0 here: no policy-relative
    features; the pipeline's value is the YAML file's)."""

    @classmethod
    def of(cls, cfg: Mapping[str, Any]) -> EmbeddingConfig:
        keys = ("hidden", "dim", "steps", "bots_per_batch", "matches_per_bot", "lr", "device",
                "dropout", "policy_steps")
        return cls(**{k: cfg[k] for k in keys if k in cfg})


POLICY_BATCH = 512
"""Moves per step when fitting the population policy (drawn from every training bot's
matches)."""


def _torch() -> Any:
    import torch

    return torch


def make_encoder(n_features: int, hidden: int, dim: int,
                 heads: Sequence[tuple[int, int, int]] = (), *, dropout: float = 0.0,
                 policy: bool = False) -> Any:
    """The match encoder: an MLP per move, the mean over the match's moves, a linear map to
    ``dim``, L2-normalised. ``forward(x [B, L, F], mask [B, L]) -> [B, dim]``.

    With ``policy`` (``heads``: :attr:`MatchFeatures.heads`) it holds a population policy
    (``policy_logp``; fitted by :func:`fit_policy`, then frozen) and each move's input gains,
    per head, the one-hot code played minus the policy's distribution, the policy's
    log-probability of the move played, its entropy and the share of the other legal moves it
    ranks above the one played (all zero where the head is unused)."""
    torch = _torch()
    nn = torch.nn
    if policy and not heads:
        raise ValueError("policy-relative features need the action heads' columns")
    n_planes = heads[0][0] if heads else n_features
    n_in = n_features + (sum(n + 3 for _, _, n in heads) if policy else 0)

    class MatchEncoder(nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.move = nn.Sequential(nn.Linear(n_in, hidden), nn.ReLU(), nn.Dropout(dropout),
                                      nn.Linear(hidden, hidden), nn.ReLU(), nn.Dropout(dropout))
            self.out = nn.Linear(hidden, dim)
            self.policy = (nn.Sequential(
                nn.Linear(n_planes + sum(n for _, _, n in heads), hidden), nn.ReLU(),
                nn.Linear(hidden, hidden), nn.ReLU(),
                nn.Linear(hidden, sum(n for _, _, n in heads))) if policy else None)

        def policy_logp(self, x: Any) -> list[Any]:
            """Per head the population policy's log-probabilities ``[..., size]`` over the
            legal moves (a head without a legal move: uniform, and unused)."""
            legal = [x[..., m:m + n] for _, m, n in heads]
            logits = self.policy(torch.cat([x[..., :n_planes], *legal], dim=-1))
            out, lo = [], 0
            for (_, _, n), lg in zip(heads, legal, strict=True):
                out.append(torch.log_softmax(logits[..., lo:lo + n].masked_fill(lg == 0, -1e9),
                                             dim=-1))
                lo += n
            return out

        def inputs(self, x: Any) -> Any:
            if self.policy is None:
                return x
            parts = [x]
            with torch.no_grad():
                logps = self.policy_logp(x)
            for (o, m, n), logp in zip(heads, logps, strict=True):
                played, legal = x[..., o:o + n], x[..., m:m + n]
                used = played.sum(-1, keepdim=True)
                p = logp.exp() * legal
                mine = (played * logp).sum(-1, keepdim=True)
                above = ((logp > mine) & (legal > 0)).sum(-1, keepdim=True)
                others = (legal.sum(-1, keepdim=True) - 1).clamp(min=1.0)
                parts += [played - used * p, mine, -(p * logp).sum(-1, keepdim=True) * used,
                          used * above / others]
            return torch.cat(parts, dim=-1)

        def forward(self, x: Any, mask: Any) -> Any:
            h = self.move(self.inputs(x)) * mask.unsqueeze(-1)
            pooled = h.sum(dim=1) / mask.sum(dim=1, keepdim=True).clamp(min=1.0)
            return nn.functional.normalize(self.out(pooled), dim=-1)

    return MatchEncoder()


def ge2e_loss(emb: Any, w: Any, b: Any) -> Any:
    """The GE2E softmax loss of ``emb`` ``[N bots, M matches, D]`` (unit vectors; M >= 2):
    each match's scaled cosine to every bot's centroid, its own bot's centroid computed
    without it, cross-entropy against its bot (Wan et al. 2018, eq. 6 and 8)."""
    torch = _torch()
    n, m, _ = emb.shape
    if n < 2 or m < 2:
        raise ValueError(f"GE2E needs at least 2 bots x 2 matches per batch, got {n} x {m}")
    total = emb.sum(dim=1)                                       # [N, D]
    centroids = torch.nn.functional.normalize(total / m, dim=-1)
    own = torch.nn.functional.normalize((total.unsqueeze(1) - emb) / (m - 1), dim=-1)
    cos = torch.einsum("jid,kd->jik", emb, centroids)            # [N, M, N]
    self_cos = (emb * own).sum(-1)                               # [N, M]
    eye = torch.eye(n, dtype=torch.bool, device=emb.device).unsqueeze(1)
    cos = torch.where(eye, self_cos.unsqueeze(-1), cos)
    logits = w.clamp(min=1e-6) * cos + b
    target = torch.arange(n, device=emb.device).repeat_interleave(m)
    return torch.nn.functional.cross_entropy(logits.reshape(n * m, n), target)


def _batch(f: MatchFeatures, matches: np.ndarray, device: Any) -> tuple[Any, Any]:
    """Padded ``(x [B, L, F] float, mask [B, L])`` of ``matches``."""
    torch = _torch()
    lens = f.length[matches]
    L = int(lens.max())
    x = np.zeros((len(matches), L, f.n_features), dtype=np.float32)
    mask = np.zeros((len(matches), L), dtype=np.float32)
    for i, (s, n) in enumerate(zip(f.start[matches], lens, strict=True)):
        x[i, :n] = f.x[s:s + n]
        mask[i, :n] = 1.0
    return torch.from_numpy(x).to(device), torch.from_numpy(mask).to(device)


def _device(name: str) -> Any:
    from ime.train.loop import pick_device

    d = pick_device(name)
    return d if d.type != "mps" else _torch().device("cpu")  # MPS: no deterministic kernels


@dataclass
class TrainedEncoder:
    """An encoder and its training curves (the GE2E loss per step, and the population
    policy's cross-entropy per step, empty without one)."""

    model: Any
    losses: list[float]
    device: Any
    policy_losses: list[float] = field(default_factory=list)

    def embed(self, f: MatchFeatures, matches: np.ndarray, batch: int = 256) -> np.ndarray:
        """``float64[len(matches), dim]`` unit vectors."""
        torch = _torch()
        out = []
        self.model.eval()
        with torch.no_grad():
            for lo in range(0, len(matches), batch):
                x, mask = _batch(f, matches[lo:lo + batch], self.device)
                out.append(self.model(x, mask).double().cpu().numpy())
        return np.concatenate(out) if out else np.zeros((0, self.model.out.out_features))


def fit_policy(model: Any, f: MatchFeatures, matches: np.ndarray, steps: int, lr: float,
               seed: int, device: Any) -> list[float]:
    """Fit ``model``'s population policy to the moves of ``matches`` (every training bot's,
    pooled): ``steps`` Adam steps of :data:`POLICY_BATCH` moves drawn (seeded) with
    replacement, cross-entropy of the code played per used head. Then frozen. Returns the
    loss per step."""
    torch = _torch()
    rows = np.concatenate([np.arange(s, s + n) for s, n in
                           zip(f.start[matches], f.length[matches], strict=True)])
    params = list(model.policy.parameters())
    opt = torch.optim.Adam(params, lr=lr)
    rng = np.random.default_rng(derive_seed("identify-embedding-policy", seed))
    losses = []
    for _ in range(steps):
        x = torch.from_numpy(f.x[np.sort(rng.choice(rows, POLICY_BATCH))]
                             .astype(np.float32)).to(device)
        loss = x.new_zeros(())
        for (o, _, n), logp in zip(f.heads, model.policy_logp(x), strict=True):
            played = x[:, o:o + n]
            loss = loss - (played * logp).sum() / played.sum().clamp(min=1.0)
        opt.zero_grad()
        loss.backward()
        opt.step()
        losses.append(float(loss.detach().cpu()))
    for p in params:
        p.requires_grad_(False)
    return losses


def train_encoder(f: MatchFeatures, train: Mapping[int, np.ndarray], cfg: EmbeddingConfig,
                  seed: int) -> TrainedEncoder:
    """Train an encoder by GE2E on ``train`` (``bot index -> its training matches``, at least
    2 bots with 2 matches each): every step draws ``bots_per_batch`` of the bots and
    ``matches_per_bot`` of each one's matches (with replacement when it has fewer). With
    ``policy_steps``, the population policy is fitted to the same matches first
    (:func:`fit_policy`)."""
    from ime.train.loop import set_determinism

    torch = _torch()
    bots = sorted(b for b, m in train.items() if len(m) >= 2)
    if len(bots) < 2:
        raise ValueError(f"the embedding trains on at least 2 bots with 2 matches each, got "
                         f"{[f.bots[b] for b in bots]}")
    device = _device(cfg.device)
    set_determinism(1, device)
    torch.manual_seed(derive_seed("identify-embedding-init", seed) % (2**63))
    model = make_encoder(f.n_features, cfg.hidden, cfg.dim, f.heads, dropout=cfg.dropout,
                         policy=cfg.policy_steps > 0).to(device)
    policy_losses: list[float] = []
    if cfg.policy_steps > 0:
        policy_losses = fit_policy(model, f, np.concatenate([train[b] for b in bots]),
                                   cfg.policy_steps, cfg.lr, seed, device)
    w = torch.nn.Parameter(torch.tensor(10.0, device=device))
    b = torch.nn.Parameter(torch.tensor(-5.0, device=device))
    opt = torch.optim.Adam([*(p for p in model.parameters() if p.requires_grad), w, b],
                           lr=cfg.lr)
    rng = np.random.default_rng(derive_seed("identify-embedding-batches", seed))
    n_bots = min(cfg.bots_per_batch, len(bots))
    losses = []
    model.train()
    for _ in range(cfg.steps):
        chosen = rng.choice(len(bots), n_bots, replace=False)
        picks = []
        for c in sorted(chosen):
            pool = train[bots[c]]
            picks.append(rng.choice(pool, cfg.matches_per_bot,
                                    replace=len(pool) < cfg.matches_per_bot))
        x, mask = _batch(f, np.concatenate(picks), device)
        emb = model(x, mask).reshape(n_bots, cfg.matches_per_bot, -1)
        loss = ge2e_loss(emb, w, b)
        opt.zero_grad()
        loss.backward()
        opt.step()
        losses.append(float(loss.detach().cpu()))
    return TrainedEncoder(model=model, losses=losses, device=device,
                          policy_losses=policy_losses)


# --- few-shot identification ---------------------------------------------------------------------
def centroid(e: np.ndarray) -> np.ndarray:
    """The unit-length mean of unit vectors (rows)."""
    c = np.asarray(e, dtype=np.float64).mean(axis=0)
    norm = np.linalg.norm(c)
    return c / norm if norm > 0 else c


def bot_folds(n_bots: int, folds: int, seed: int) -> np.ndarray:
    """``int[n_bots]``: each bot's fold (a seeded deal, sizes differing by at most one)."""
    if not 2 <= folds <= n_bots:
        raise ValueError(f"bot folds must be in [2, {n_bots}] (the pool's size), got {folds}")
    order = np.random.default_rng(derive_seed("identify-embedding-folds", seed, n_bots)
                                  ).permutation(n_bots)
    out = np.empty(n_bots, dtype=np.int64)
    out[order] = np.arange(n_bots) % folds
    return out


@dataclass
class FewShotScores:
    """Every held-out bot's query matches embedded by the encoder that never saw it, and the
    pool's prints (reference centroids) under that encoder.

    ``emb[q]`` (unit) is query match ``q`` of bot ``truth[q]``; ``prints[q]`` ``[B, D]`` the
    pool's prints under the same encoder (every bot's ``references`` reference matches)."""

    bots: list[str]
    truth: np.ndarray
    match_id: np.ndarray
    emb: np.ndarray
    fold: np.ndarray
    prints: dict[int, np.ndarray]
    references: int
    losses: dict[int, list[float]]

    def matches_of(self, b: int) -> np.ndarray:
        return np.flatnonzero(self.truth == b)


def fewshot_scores(f: MatchFeatures, heldout: Mapping[str, Sequence[str]], *,
                   folds: int, references: int, cfg: EmbeddingConfig,
                   seed: int) -> FewShotScores:
    """The few-shot protocol of the module doc. ``heldout[bot]``: the ids of ``bot``'s matches
    no imitator trained on (the pool's query and reference matches); every other match of a
    bot the encoder trains on is training data, and its references are never trained on."""
    n = len(f.bots)
    fold_of = bot_folds(n, folds, seed)
    refs: dict[int, np.ndarray] = {}
    queries: dict[int, np.ndarray] = {}
    for b, name in enumerate(f.bots):
        mine = f.matches_of(b)
        held = set(map(str, heldout.get(name, ())))
        cand = mine[np.isin(f.match_id[mine].astype(str), list(held))]
        cand = cand[np.argsort(f.match_id[cand].astype(str), kind="stable")]
        cand = cand[np.random.default_rng(derive_seed("identify-embedding-refs", seed, name)
                                          ).permutation(len(cand))]
        if len(cand) < references + 1:
            raise ValueError(f"{name} has {len(cand)} held-out matches: too few for "
                             f"{references} references and a query")
        refs[b], queries[b] = cand[:references], cand[references:]
    truth, ids, embs, fold_col = [], [], [], []
    prints: dict[int, np.ndarray] = {}
    losses: dict[int, list[float]] = {}
    for fo in range(folds):
        train = {b: np.setdiff1d(f.matches_of(b), refs[b])
                 for b in range(n) if fold_of[b] != fo}
        enc = train_encoder(f, train, cfg, derive_seed("identify-embedding-fold", seed, fo))
        losses[fo] = enc.losses
        prints[fo] = np.stack([centroid(enc.embed(f, refs[b])) for b in range(n)])
        for b in np.flatnonzero(fold_of == fo):
            q = queries[int(b)]
            embs.append(enc.embed(f, q))
            truth.append(np.full(len(q), int(b), dtype=np.int64))
            ids.append(f.match_id[q])
            fold_col.append(np.full(len(q), fo, dtype=np.int64))
        if enc.policy_losses:
            log.info("embedding fold %d: population policy cross-entropy %.3f -> %.3f over "
                     "%d steps", fo, enc.policy_losses[0],
                     float(np.mean(enc.policy_losses[-20:])), len(enc.policy_losses))
        log.info("embedding fold %d: trained on %s (GE2E loss %.3f -> %.3f over %d steps), "
                 "identifies %s", fo, [f.bots[b] for b in sorted(train)], enc.losses[0],
                 float(np.mean(enc.losses[-20:])), len(enc.losses),
                 [f.bots[b] for b in np.flatnonzero(fold_of == fo)])
    return FewShotScores(bots=list(f.bots), truth=np.concatenate(truth),
                         match_id=np.concatenate(ids).astype(object),
                         emb=np.concatenate(embs), fold=np.concatenate(fold_col),
                         prints=prints, references=references, losses=losses)


def fewshot_groups(s: FewShotScores, k: int, seed: int) -> list[np.ndarray]:
    """Each bot's query matches shuffled (seeded by bot and k) into disjoint groups of k: method
    (a)'s grouping (:func:`ime.evaluate.identify.disjoint_groups`) with its own seed label."""
    return disjoint_groups(s, k, seed, label="identify-embedding-groups")


def fewshot_group_scores(s: FewShotScores, groups: Sequence[np.ndarray]
                         ) -> tuple[np.ndarray, np.ndarray]:
    """Per group: ``(cosine to every pool bot's print [G, B], true bot [G])``."""
    if not groups:
        return np.zeros((0, len(s.bots))), np.zeros(0, dtype=np.int64)
    cos = np.stack([s.prints[int(s.fold[g[0]])] @ centroid(s.emb[g]) for g in groups])
    truth = np.array([int(s.truth[g[0]]) for g in groups], dtype=np.int64)
    return cos, truth


def fewshot_accuracy_by_k(s: FewShotScores, ks: Sequence[int], *, seed: int, level: float
                          ) -> tuple[pd.DataFrame, pd.DataFrame]:
    """Top-1/top-3 few-shot accuracy of the held-out bots' query groups against k, named among
    the whole pool's prints, with Wilson CIs over the disjoint groups (the columns of
    :data:`ime.evaluate.identify.TABLE_COLUMNS`; no open set), and the confusion per k. A k
    at which some bot has fewer than k query matches is left out (logged)."""
    rows, conf = [], []
    n_bots = len(s.bots)
    least = min(len(s.matches_of(b)) for b in range(n_bots))
    for k in ks:
        if k > least:
            log.info("embedding: k=%d left out: a pool bot has only %d query matches", k, least)
            continue
        groups = fewshot_groups(s, k, seed)
        cos, truth = fewshot_group_scores(s, groups)
        rank = true_rank(cos, truth)
        row: dict[str, Any] = {"curve": "k", "k": k, "pool_size": n_bots, "pools": 1,
                               "trials": len(groups),
                               "references": s.references}
        row.update(topk_columns(rank, n_bots, level))
        rows.append(row)
        conf += confusion_rows(k, s.bots, cos, truth)
    return pd.DataFrame(rows), pd.DataFrame(conf, columns=["k", "bot", "named", "trials",
                                                           "share"])


def embedding_table(datasets: Mapping[str, Any], heldout: Mapping[str, Sequence[str]], *,
                    cfg: Mapping[str, Any], ks: Sequence[int], seed: int, level: float
                    ) -> tuple[pd.DataFrame, pd.DataFrame, FewShotScores | None]:
    """Method (b)'s rows of ``identification.csv`` and ``identification_confusion.csv``
    (``method`` = ``embedding``; empty for a pool of fewer than 3 bots, where no encoder has
    2 bots to train on when one is held out). ``datasets``: ``bot -> Parquet path`` (or
    decision arrays); ``heldout``: ``bot -> ids`` of the matches no imitator trained on;
    ``cfg``: ``identify.embedding``. ``bot_folds`` is capped so that every encoder trains on
    at least 2 bots."""
    from ime.datasets.schema import read_arrays
    from ime.evaluate.identify import METHOD_EMBEDDING, TABLE_COLUMNS

    bots = list(datasets)
    empty = (pd.DataFrame(columns=TABLE_COLUMNS),
             pd.DataFrame(columns=["method", "k", "bot", "named", "trials", "share"]), None)
    if len(bots) < 3:
        log.info("embedding: a pool of %d bots is too small (an encoder needs 2 bots besides "
                 "the held-out one)", len(bots))
        return empty
    folds = min(int(cfg["bot_folds"]), len(bots))
    while folds > 2 and len(bots) - -(-len(bots) // folds) < 2:
        folds -= 1
    arrays = {b: read_arrays(p) if isinstance(p, (str, bytes)) or hasattr(p, "__fspath__")
              else p for b, p in datasets.items()}
    f = match_features(arrays)
    s = fewshot_scores(f, heldout, folds=folds, references=int(cfg["references"]),
                       cfg=EmbeddingConfig.of(cfg), seed=seed)
    table, conf = fewshot_accuracy_by_k(s, ks, seed=seed, level=level)
    table = table.reindex(columns=TABLE_COLUMNS)
    table["method"] = METHOD_EMBEDDING
    table["ci"] = "wilson"
    conf.insert(0, "method", METHOD_EMBEDDING)
    return table, conf, s
