"""DMC on the seed's terms (issue 33): the relative-score objective, per-position networks, the
``seed`` preset (RMSprop, unroll x batch, epsilon) and a real actor+learner smoke run of it with
tiny network sizes."""

from __future__ import annotations

import csv
import json
import math

import numpy as np
import pytest
import torch

from ime.games.gongzhu import rules as R
from ime.games.gongzhu.agents.agent import DMCAgent
from ime.games.gongzhu.agents.dmc import (
    DMCConfig,
    Learner,
    episode_returns,
    load_preset,
    main,
    self_play_episode,
)

TINY = dict(width=16, depth=2, lstm_hidden=8, show_width=8, show_depth=1, unroll=16, batch=4,
            show_unroll=4, show_batch=4, num_buffers=8, actors=1, device="cpu")


def test_relative_returns_are_the_seed_relative_score():
    st = R.from_hands([list(range(13 * i, 13 * i + 13)) for i in range(4)])
    st.phase = "done"
    st.won = [R.mask_of([R.SQ]), 0, R.mask_of([R.DJ]), 0]  # scores -100, 0, +100, 0
    assert R.scores(st) == [-100, 0, 100, 0]
    assert episode_returns(st, "relative", 0.01) == pytest.approx([-4.0, 0.0, 4.0, 0.0])
    assert episode_returns(st, "score", 0.01) == pytest.approx([-1.0, 0.0, 1.0, 0.0])
    with pytest.raises(ValueError, match="relative"):
        episode_returns(st, "rank", 0.01)


@pytest.mark.slow
def test_seed_preset_is_the_seed_terms():
    p = load_preset("seed")
    cfg = DMCConfig(**p)
    assert (cfg.objective, cfg.optimizer, cfg.lr, cfg.unroll, cfg.batch, cfg.epsilon) == (
        "relative", "rmsprop", 1e-4, 130, 36, 0.01)
    assert (cfg.width, cfg.depth, cfg.lstm_hidden, cfg.per_position) == (512, 6, 128, True)
    assert cfg.actors == 0 and cfg.n_actors() >= 1 and cfg.device == "auto"
    opt = Learner(DMCConfig(**{**p, **TINY})).opts["play_A"]
    assert isinstance(opt, torch.optim.RMSprop)
    assert (opt.defaults["alpha"], opt.defaults["eps"]) == (0.99, 1e-5)
    with pytest.raises(ValueError, match="no DMC preset"):
        load_preset("nope")


def test_per_position_self_play_routes_each_seat_to_its_position_and_relative_targets():
    cfg = DMCConfig(**{**load_preset("seed"), **TINY})
    learner = Learner(cfg)
    assert sorted(learner.nets) == [f"{k}_{p}" for k in ("play", "show") for p in "ABCD"]
    agent = learner.agent()
    assert agent.per_position and len(agent.plays) == 4
    samples, scores = self_play_episode(agent, 5, 6, cfg)
    rel = R.relative_scores(scores)
    first = R.deal(5).first_seat
    for p, name in enumerate("ABCD"):
        seat = (first + p) % 4
        rows = samples[f"play_{name}"]
        assert len(rows) == 13 and all(r["position"] == p for r in rows)
        assert [r["target"] for r in rows] == pytest.approx([rel[seat] * 0.01] * 13)
        assert len(samples[f"show_{name}"]) == 1
    # the relative returns of a deal sum to zero
    assert sum(samples[f"play_{n}"][0]["target"] for n in "ABCD") == pytest.approx(0.0)


@pytest.mark.timeout(300)
@pytest.mark.slow
def test_seed_preset_smoke_run_trains_the_relative_objective(tmp_path, capsys):
    out = tmp_path / "run"
    flags = [f"--{k.replace('_', '-')}={v}" for k, v in TINY.items()]
    main(["train", "--preset", "seed", "--out", str(out), "--frames", "384",
          "--log-every", "64", "--save-every", "100000", *flags])
    cfg = json.loads((out / "config.json").read_text())
    # the preset's terms, with the tiny sizes of the command line on top
    assert cfg["objective"] == "relative" and cfg["optimizer"] == "rmsprop"
    assert cfg["per_position"] is True and cfg["lr"] == 1e-4 and cfg["epsilon"] == 0.01
    assert cfg["width"] == 16 and cfg["unroll"] == 16 and cfg["device"] == "cpu"
    rows = list(csv.DictReader((out / "curve.csv").open()))
    assert int(rows[-1]["frames"]) >= 384
    losses = [float(r["loss_play"]) for r in rows if r["loss_play"]]
    assert losses and all(math.isfinite(x) and x > 0 for x in losses)
    # every position's network learned (its stream filled batches and logged returns)
    assert all(rows[-1][f"mean_return_{p}"] != "" for p in "ABCD")
    bot = DMCAgent.load(str(out / "agent.pt"))
    assert bot.per_position and bot.play.config["width"] == 16
    st = R.deal(3)
    while not R.is_terminal(st):
        a = bot.act(st, st.to_move)
        assert a in R.legal_actions(st)
        R.apply(st, a)
    assert "learner on cpu" in capsys.readouterr().out


def test_learner_uses_cuda_when_asked_and_present():
    cfg = DMCConfig(**{**TINY, "device": "auto"})
    want = "cuda" if torch.cuda.is_available() else "cpu"
    learner = Learner(cfg)
    assert learner.device.type == want
    assert next(learner.nets["play"].parameters()).device.type == want
    samples, _ = self_play_episode(learner.agent(), 1, 2, cfg)
    rows = samples["play"][:16]
    batch = {"x": torch.from_numpy(np.stack([r["x"] for r in rows]).astype(np.int8)),
             "z": torch.from_numpy(np.stack([r["z"] for r in rows]).astype(np.int8)),
             "a": torch.from_numpy(np.stack([r["a"] for r in rows]).astype(np.int8)),
             "target": torch.tensor([r["target"] for r in rows])}
    assert math.isfinite(learner.step("play", batch))
