"""DMC: Monte-Carlo targets, the learner step, checkpoint/resume, and a real actor+learner run."""

from __future__ import annotations

import csv
import dataclasses

import numpy as np
import pytest
import torch
from gz_agent_helpers import positions

from ime.games.gongzhu import rules as R
from ime.games.gongzhu.agents.agent import DMCAgent
from ime.games.gongzhu.agents.dmc import (
    DMCConfig,
    Learner,
    Progress,
    _write,
    create_buffers,
    get_batch,
    restore,
    save_checkpoint,
    self_play_episode,
    train,
)

SMALL = dict(width=32, depth=2, lstm_hidden=16, show_width=16, show_depth=1, unroll=16, batch=4,
             show_unroll=8, show_batch=2, num_buffers=8)


def _batches(cfg: DMCConfig, n_episodes: int = 6, seed: int = 0):
    """Two play batches and one show batch from real self-play deals, through the buffers."""
    agent = Learner(cfg).agent()
    samples = {"play": [], "show": []}
    for e in range(n_episodes):
        s, _ = self_play_episode(agent, seed + e, 1000 + e, cfg)
        for k in s:
            samples[k] += s[k]
    bufs = create_buffers(cfg)
    out = []
    for kind, t, b, first in (("play", cfg.unroll, cfg.batch, 0), ("play", cfg.unroll, cfg.batch,
                              cfg.batch), ("show", cfg.show_unroll, cfg.show_batch, 0)):
        for m in range(first, first + b):
            _write(bufs[kind], m, samples[kind][m * t : (m + 1) * t])
        out.append((kind, get_batch(bufs[kind], list(range(first, first + b)))))
    return out


def test_self_play_targets_are_each_seats_final_score():
    cfg = DMCConfig(**SMALL)
    agent = Learner(cfg).agent()
    samples, scores = self_play_episode(agent, deal_seed=5, explore_seed=6, cfg=cfg)
    assert len(samples["play"]) == 52 and len(samples["show"]) == 4
    targets = sorted({round(s["target"], 6) for s in samples["play"]})
    assert targets == sorted({round(x * cfg.reward_scale, 6) for x in scores})
    done = [s for s in samples["play"] if s["done"]]
    assert len(done) == 4 and sorted(d["position"] for d in done) == [0, 1, 2, 3]
    assert sorted(round(d["episode_return"], 6) for d in done) == sorted(
        round(x / 100, 6) for x in scores)
    # each seat's 13 play samples are contiguous and share one target
    for i in range(4):
        block = samples["play"][13 * i : 13 * i + 13]
        assert len({b["target"] for b in block}) == 1 and block[-1]["done"]


def test_greedy_and_epsilon_pick_legal_actions():
    cfg = DMCConfig(**SMALL)
    agent = Learner(cfg).agent()
    rng = np.random.default_rng(0)
    n = 0
    for state, seat in positions(6, seed=1, every=2):
        legal = R.legal_actions(state)
        assert agent.act(state, seat) in legal
        assert agent.decide(state, seat, epsilon=0.5, rng=rng).action in legal
        n += 1
    assert n > 100


@pytest.mark.slow
def test_learner_steps_reduce_loss_on_a_fixed_batch():
    cfg = DMCConfig(**SMALL, lr=1e-3)
    learner = Learner(cfg)
    for kind, batch in _batches(cfg)[::2]:
        with torch.no_grad():
            before = float(learner.loss(kind, batch))
        for _ in range(100):
            learner.step(kind, batch)
        with torch.no_grad():
            after = float(learner.loss(kind, batch))
        assert after < 0.5 * before, (kind, before, after)


def test_checkpoint_resume_reproduces_the_next_update(tmp_path):
    cfg = DMCConfig(**SMALL, out=str(tmp_path))
    (k1, b1), (k2, b2), (k3, b3) = _batches(cfg)
    a = Learner(cfg)
    a.step(k1, b1)
    a.step(k3, b3)
    counters = torch.tensor([7], dtype=torch.int64)
    save_checkpoint(tmp_path, cfg, a, Progress(frames=123), counters)
    a.step(k2, b2)
    b = Learner(dataclasses.replace(cfg, seed=99))  # different init: everything must come back
    restored = torch.zeros(2, dtype=torch.int64)
    prog = restore(tmp_path / "model.tar", b, restored)
    assert prog.frames == 123 and restored.tolist() == [7, 7]
    b.step(k2, b2)
    for kind in ("play", "show"):
        for (n1, p1), (n2, p2) in zip(a.nets[kind].state_dict().items(),
                                      b.nets[kind].state_dict().items(), strict=True):
            assert n1 == n2 and torch.equal(p1, p2), n1
    # the bot checkpoint written beside it holds the weights saved before the last step
    bot = DMCAgent.load(str(tmp_path / "agent.pt"))
    assert bot.play.config == {"width": 32, "depth": 2, "lstm_hidden": 16}


@pytest.mark.timeout(120)
@pytest.mark.slow
def test_tiny_actor_learner_run_and_resume(tmp_path):
    cfg = DMCConfig(**SMALL, out=str(tmp_path), frames=640, actors=1, log_every=128,
                    save_every=320, eval_every=0)
    prog = train(cfg, log=lambda s: None)
    assert prog.frames >= 640 and prog.steps["play"] >= 10 and prog.steps["show"] >= 1
    for f in ("model.tar", "agent.pt", "curve.csv", "curve.png", "config.json"):
        assert (tmp_path / f).exists(), f
    rows = list(csv.DictReader((tmp_path / "curve.csv").open()))
    assert int(rows[-1]["frames"]) == prog.frames and float(rows[-1]["loss_play"]) > 0
    prog2 = train(dataclasses.replace(cfg, frames=960, resume=True), log=lambda s: None)
    assert prog2.frames >= 960 and prog2.steps["play"] > prog.steps["play"]
    rows2 = list(csv.DictReader((tmp_path / "curve.csv").open()))
    assert [r["frames"] for r in rows2[: len(rows)]] == [r["frames"] for r in rows]
    assert int(rows2[-1]["frames"]) == prog2.frames


@pytest.mark.timeout(180)
@pytest.mark.slow
def test_the_curve_evaluates_the_seeds_metric_against_rules_and_cnns(tmp_path):
    """eval_vs=rules,cnn: the evaluation rows carry the seed's metric (relative score > 0) and
    the mean relative score against the rule styles and against 3 x the shipped CNN, and the
    rule styles' win share; a mistyped opponent is refused before any actor starts."""
    from ime.games.gongzhu.agents.dmc import CURVE_FIELDS

    cfg = DMCConfig(**SMALL, out=str(tmp_path), frames=320, actors=1, log_every=10_000,
                    save_every=10_000, eval_every=320, eval_deals=2, eval_vs="rules,cnn")
    train(cfg, log=lambda s: None)
    rows = list(csv.DictReader((tmp_path / "curve.csv").open()))
    assert list(rows[0]) == CURVE_FIELDS
    last = rows[-1]
    for o in ("rules", "cnn"):
        assert 0.0 <= float(last[f"eval_rel_win_{o}"]) <= 1.0
        assert float(last[f"eval_rel_win_ci_{o}"]) >= 0.0  # a CI over the 2 deals
        float(last[f"eval_mean_rel_{o}"])
    assert 0.0 <= float(last["eval_win_rate"]) <= 1.0
    assert (tmp_path / "curve.png").stat().st_size > 0
    with pytest.raises(ValueError, match=r"eval_vs='rules,cnns'"):
        train(dataclasses.replace(cfg, out=str(tmp_path / "bad"), eval_vs="rules,cnns"),
              log=lambda s: None)
    assert not (tmp_path / "bad" / "curve.csv").exists()
