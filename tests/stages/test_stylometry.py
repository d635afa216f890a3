"""Method (b) of identification: the GE2E embedding of a player's matches (issue 48).

Synthetic players (no game engine): each decision shows random planes and a random legal
subset of 16 moves, and player p picks a legal move with probability proportional to
``exp(bias_p[move])``, biases differing by player. The tests check that GE2E training lowers
the loss and separates the players, and that the few-shot protocol names players the encoder
never saw from their reference matches well above chance, with the same bytes twice, with and
without the population policy and dropout.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

import numpy as np
import pytest

from ime.evaluate.identify import PlayerDecisions
from ime.evaluate.stylometry import (
    EmbeddingConfig,
    bot_folds,
    centroid,
    fewshot_accuracy_by_k,
    fewshot_scores,
    fit_policy,
    ge2e_loss,
    make_encoder,
    match_features,
    move_features,
    train_encoder,
)

ACTIONS = 16
MOVES = 20


@dataclass
class _Synthetic:
    state: np.ndarray
    masks: list[np.ndarray]
    actions: np.ndarray
    match_id: np.ndarray


def synthetic_player(bias: np.ndarray, matches: int, seed: int, name: str) -> _Synthetic:
    """``matches`` matches of ``MOVES`` decisions by a player with move preferences ``bias``."""
    rng = np.random.default_rng(seed)
    n = matches * MOVES
    state = rng.integers(0, 2, size=(n, 2, 4, 4), dtype=np.uint8)
    mask = (rng.random((n, ACTIONS)) < 0.4).astype(np.uint8)
    mask[np.arange(n), rng.integers(0, ACTIONS, n)] = 1  # at least one legal move
    logits = np.where(mask > 0, bias[None, :], -np.inf)
    p = np.exp(logits - logits.max(axis=1, keepdims=True))
    p /= p.sum(axis=1, keepdims=True)
    action = np.array([rng.choice(ACTIONS, p=row) for row in p], dtype=np.int64)
    ids = np.repeat([f"{name}-{m:04d}" for m in range(matches)], MOVES).astype(object)
    return _Synthetic(state, [mask], action.reshape(-1, 1), ids)


def pool(n_players: int, matches: int, seed: int = 0) -> dict[str, _Synthetic]:
    rng = np.random.default_rng(1000 + seed)
    return {f"p{i}": synthetic_player(rng.normal(0.0, 1.5, ACTIONS), matches, seed * 100 + i,
                                      f"p{i}") for i in range(n_players)}


FAST = EmbeddingConfig(hidden=32, dim=16, steps=120, bots_per_batch=8, matches_per_bot=6,
                       lr=3e-3, device="cpu")
FAST_POLICY = replace(FAST, dropout=0.5, policy_steps=80)


def test_move_features_one_hot_and_mask() -> None:
    planes = np.array([[[1, 0], [0, 2]]], dtype=np.uint8)
    mask = np.array([[1, 1, 0]], dtype=np.uint8)
    kick = np.array([[0, 1]], dtype=np.uint8)
    x = move_features(planes, [mask, kick], np.array([[1, -1]]))
    assert x.tolist() == [[1, 0, 0, 2, 0, 1, 0, 1, 1, 0, 0, 0, 0, 1]]
    with pytest.raises(ValueError, match="heads"):
        move_features(planes, [mask], np.array([[1, 0]]))


def test_head_layout_and_policy_relative_features() -> None:
    import torch

    players = pool(2, 3)
    f = match_features(players)
    assert f.heads == ((32, 48, ACTIONS),)  # planes 2x4x4, then one-hot and mask of one head
    model = make_encoder(f.n_features, 16, 8, f.heads, policy=True)
    x = torch.from_numpy(f.x[:40].astype(np.float32))
    x[-1, 32:48] = 0.0  # a decision whose head is unused
    feats = model.inputs(x)
    assert feats.shape == (40, f.n_features + ACTIONS + 3)
    assert torch.equal(feats[:, :f.n_features], x)
    resid, mine, entropy, above = (feats[:, f.n_features:f.n_features + ACTIONS],
                                   *feats[:, f.n_features + ACTIONS:].T)
    legal = x[:, 48:64] > 0
    # the move played minus the policy's distribution, which lies on the legal moves only
    assert torch.allclose(resid[:-1].sum(-1), torch.zeros(39), atol=1e-5)
    assert torch.all(resid[~legal] == 0)
    logp = model.policy_logp(x)[0]
    played = x[:, 32:48].argmax(-1)
    assert torch.allclose(mine[:-1], logp[torch.arange(39), played[:-1]])
    assert torch.all(entropy[:-1] >= 0) and torch.all((above >= 0) & (above <= 1))
    assert float(mine[-1]) == float(entropy[-1]) == float(above[-1]) == 0.0
    assert torch.all(resid[-1] == 0)
    with pytest.raises(ValueError, match="heads"):
        make_encoder(f.n_features, 16, 8, (), policy=True)


def test_population_policy_fits_the_moves_and_is_frozen() -> None:
    players = pool(3, 20)
    f = match_features(players)
    model = make_encoder(f.n_features, 32, 8, f.heads, policy=True)
    losses = fit_policy(model, f, np.arange(len(f.bot)), 150, 3e-3, seed=0, device="cpu")
    # the players' preferences are learnt: well below the uniform choice among ~6 legal moves
    assert np.mean(losses[-10:]) < 0.85 * np.mean(losses[:10]), (losses[:10], losses[-10:])
    assert not any(p.requires_grad for p in model.policy.parameters())
    assert all(p.requires_grad for p in model.move.parameters())


def test_ge2e_loss_prefers_separated_embeddings() -> None:
    import torch

    w, b = torch.tensor(10.0), torch.tensor(-5.0)
    apart = torch.nn.functional.normalize(torch.eye(3).repeat_interleave(4, 0).reshape(3, 4, 3)
                                          + 0.05 * torch.randn(3, 4, 3,
                                                               generator=torch.Generator()
                                                               .manual_seed(0)), dim=-1)
    mixed = torch.nn.functional.normalize(torch.randn(3, 4, 3, generator=torch.Generator()
                                                      .manual_seed(1)), dim=-1)
    assert ge2e_loss(apart, w, b) < 0.1 < ge2e_loss(mixed, w, b)
    with pytest.raises(ValueError, match="2 bots"):
        ge2e_loss(apart[:1], w, b)


def test_ge2e_training_lowers_the_loss_and_separates_three_players() -> None:
    players = pool(3, 60)
    f = match_features(players)
    train = {b: f.matches_of(b)[:40] for b in range(3)}
    enc = train_encoder(f, train, FAST, seed=0)
    first, last = np.mean(enc.losses[:10]), np.mean(enc.losses[-10:])
    assert last < 0.6 * first, (first, last)
    # unseen matches of each player go to their own player's centroid of 10 other unseen ones
    prints = np.stack([centroid(enc.embed(f, f.matches_of(b)[40:50])) for b in range(3)])
    hits = [int(np.argmax(prints @ e) == b) for b in range(3)
            for e in enc.embed(f, f.matches_of(b)[50:])]
    assert np.mean(hits) >= 0.9, np.mean(hits)


@pytest.mark.parametrize("cfg", [FAST, FAST_POLICY], ids=["plain", "policy"])
def test_fewshot_names_held_out_players_above_chance_and_repeats_bytes(cfg) -> None:
    players = pool(6, 40, seed=1)
    f = match_features({k: PlayerDecisions(v.state, v.masks, v.actions, v.match_id)
                        for k, v in players.items()})
    heldout = {name: sorted({str(m) for m in v.match_id})[:25] for name, v in players.items()}
    s = fewshot_scores(f, heldout, folds=3, references=10, cfg=cfg, seed=3)
    # each bot is identified only by the encoder of the fold that held it out
    folds = bot_folds(6, 3, 3)
    assert all(folds[t] == fo for t, fo in zip(s.truth, s.fold, strict=True))
    table, conf = fewshot_accuracy_by_k(s, [1, 5], seed=3, level=0.95)
    assert table["k"].tolist() == [1, 5]
    assert table["trials"].tolist() == [6 * 15, 6 * 3]
    at5 = table.set_index("k").loc[5]
    assert at5["chance_top1"] == pytest.approx(1 / 6)
    assert at5["top1"] >= 0.6 and at5["top1_lo"] > 1 / 6, at5.to_dict()
    assert conf.groupby("k")["trials"].sum().tolist() == [90, 18]
    again = fewshot_scores(f, heldout, folds=3, references=10, cfg=cfg, seed=3)
    assert np.array_equal(s.emb, again.emb)


def test_fewshot_clear_errors() -> None:
    players = pool(3, 12)
    f = match_features(players)
    with pytest.raises(ValueError, match="too few"):
        fewshot_scores(f, {n: sorted({str(m) for m in v.match_id})[:5]
                           for n, v in players.items()}, folds=3, references=10, cfg=FAST,
                       seed=0)
    with pytest.raises(ValueError, match="bot folds"):
        bot_folds(3, 4, 0)
    with pytest.raises(ValueError, match="at least 2 bots"):
        train_encoder(f, {0: f.matches_of(0)}, FAST, seed=0)
