"""Deep Monte-Carlo (DMC) self-play training for Gongzhu, after the GZero seed and DouZero.

Layout (DouZero's ``douzero/dmc``, on one machine with ``torch.multiprocessing``):

* ``K`` actor processes play self-play deals with the current Q-networks (epsilon-greedy, the same
  network in all four seats), and write every decision into shared-memory buffers of ``T``
  samples (``unroll``): one stream for the play phase, one for the show phase (the seed handles
  the show phase apart, with its 1x4 show vector). A buffer is taken from a *free* queue and
  handed back full on the *full* queue.
* The learner (this process) takes ``B`` full buffers of one stream (``batch``), fits Q(s, a) to
  the Monte-Carlo target -- the deciding seat's final score of that deal times ``reward_scale``
  (the seed plots score / 100) -- by mean-squared error, and copies its weights into the actors'
  shared models after every step.

Departures from the seed, all config: one network shared by the four seats (the seed keeps one per
position A..D; sharing gives each net four times the data on a small budget, and the position
is an input feature), and a smaller MLP (``width`` x ``depth`` = 256 x 3 by default instead of
512 x 6; the LSTM has 64 units) because training runs on two shared CPU cores.

The seed's terms (issue 33), all config; ``--preset seed`` (``dmc_presets.yaml``) sets them:

* ``objective: relative``: the return is the seed's relative score ``3 * s_i - sum_{j != i} s_j``
  times ``reward_scale`` (the quantity the seed's "win" counts the sign of), not the own score;
* ``per_position: true``: one Q-network pair per position A..D (A = the club-2 holder), each
  learning from its own buffers and batches, as the seed's learner keeps four global networks;
* ``optimizer: rmsprop`` (lr 1e-4, alpha 0.99, eps 1e-5), ``unroll`` 130 x ``batch`` 36,
  ``epsilon`` 0.01, the MLP 512 x 6 of the seed's text with GZero's LSTM of 128;
* ``rules``: ``default`` (today's, which the shipped agent learned) or ``seed`` (HA-only doubling,
  free first lead);
* ``actors: 0`` starts one actor per core (``os.cpu_count()``, less one for the learner when it
  runs on the CPU); ``device: auto`` puts the learner on CUDA when torch sees a GPU.

What the actor count changes: deals are keyed by (actor, episode) and the learner takes buffers in
the order they fill, so a different count plays other deals in another order, with networks of
another staleness; the learner step on a given batch does not depend on it.

Budgets are sample counts (``--frames``: samples consumed by the learner), never wall time.
Every deal and every exploration draw is seeded (``derive_seed(seed, actor, episode)``); the
order in which the learner sees actors' buffers depends on process scheduling, so two runs with
``--actors 2`` are not bit-identical (the learner step itself is: see the tests).

Command::

    python -m ime.games.gongzhu.agents.dmc train --out runs/gz_dmc --frames 2000000 --actors 1
    python -m ime.games.gongzhu.agents.dmc train --out runs/gz_dmc --frames 3000000 --resume

``--out`` receives ``model.tar`` (resumable: weights, optimizers, counters, curve state),
``agent.pt`` (the small bot checkpoint), ``curve.csv`` and ``curve.png``.
"""

from __future__ import annotations

import argparse
import csv
import json
import os
import queue
import shutil
import time
from collections import deque
from dataclasses import asdict, dataclass, field, fields
from pathlib import Path

import numpy as np
import torch
from torch import multiprocessing as mp
from torch import nn

from ime.core.seeding import derive_seed
from ime.games.gongzhu import rules as R
from ime.games.gongzhu.agents.agent import DMCAgent
from ime.games.gongzhu.agents.features import (
    DMC_X_DIM,
    DMC_Z_SHAPE,
    PLAY_ACTION_DIM,
    SHOW_ACTION_DIM,
    SHOW_X_DIM,
)
from ime.games.gongzhu.agents.models import PlayQNet, ShowQNet

KINDS = ("play", "show")
POSITIONS = "ABCD"


@dataclass
class DMCConfig:
    """Every knob of a DMC run (written into ``model.tar`` and ``config.json``)."""

    out: str = "runs/gz_dmc"
    frames: int = 200_000
    actors: int = 1
    seed: int = 0
    width: int = 256
    depth: int = 3
    lstm_hidden: int = 64
    show_width: int = 128
    show_depth: int = 2
    epsilon: float = 0.01
    objective: str = "score"  # "score": score * reward_scale; "relative": the seed's relative
    #                            score * reward_scale; "win": 1/k for the k top scorers
    reward_scale: float = 0.01
    unroll: int = 32
    batch: int = 8
    show_unroll: int = 16
    show_batch: int = 4
    num_buffers: int = 24
    optimizer: str = "adam"
    lr: float = 3e-4
    max_grad_norm: float = 40.0
    log_every: int = 10_000
    save_every: int = 100_000
    eval_every: int = 0
    eval_deals: int = 50
    eval_seed: int = 9_000_000
    eval_vs: str = "rules"  # whom the curve's evaluation plays, comma-separated: "rules" (duck,
    #                         shoot, low) and/or "cnn" (three copies of the shipped CNN agent)
    keep_snapshots: bool = False  # also keep each saved bot checkpoint as
    #                               snapshots/agent_<samples>.pt, for learning_curve.py
    per_position: bool = False  # one network pair per position A..D (the seed) or one shared
    rules: str = "default"  # "default" (today's rules) or "seed" (HA-only doubling, free lead)
    device: str = "cpu"  # learner device: "cpu", "cuda" or "auto" (cuda when available)
    resume: bool = False

    def sizes(self, stream: str) -> tuple[int, int]:
        """(unroll T, batch B) of a stream (``play``/``show``, or ``play_A`` ... per position)."""
        if stream_kind(stream) == "play":
            return self.unroll, self.batch
        return self.show_unroll, self.show_batch

    def streams(self) -> list[str]:
        """The buffer streams: one per kind, or one per kind and position."""
        if self.per_position:
            return [f"{k}_{p}" for k in KINDS for p in POSITIONS]
        return list(KINDS)

    def rule_options(self) -> R.RuleOptions:
        if self.rules not in RULE_SETS:
            raise ValueError(f"DMC rules={self.rules!r}: must be one of {sorted(RULE_SETS)}")
        return RULE_SETS[self.rules]

    def check_buffers(self) -> None:
        """Refuse a buffer layout under which the learner could wait forever.

        The learner steps on a stream once it holds ``batch`` full buffers of it, and hands them
        back only then; the actors block while a stream has no free buffer. So with
        ``num_buffers >= batch`` every buffer of a stream an actor waits for is free, being
        written, queued or held by the learner, and the learner can always complete a batch:
        the layout cannot deadlock whatever the number of actors. With ``num_buffers < batch``
        the learner ends up holding every buffer of the stream, short of a batch, and the run
        stalls silently (every actor waiting for that stream) -- so it is an error here.
        """
        if self.num_buffers < 1:
            raise ValueError(f"DMC num_buffers={self.num_buffers}: must be at least 1")
        for st in self.streams():
            t, b = self.sizes(st)
            if t < 1 or b < 1:
                raise ValueError(f"DMC stream {st}: unroll {t} and batch {b} must be at least 1")
            if self.num_buffers < b:
                raise ValueError(
                    f"DMC stream {st}: num_buffers={self.num_buffers} is less than its batch of "
                    f"{b} buffers, so the learner would hold all {self.num_buffers} buffers of "
                    f"{st} waiting for a batch that can never fill and every actor would wait "
                    f"for a free one; set --num-buffers >= {b}")

    def n_actors(self) -> int:
        """``actors``, or for 0 one per core (less one for a CPU learner)."""
        if self.actors > 0:
            return self.actors
        n = os.cpu_count() or 1
        return max(1, n if learner_device(self.device).type == "cuda" else n - 1)


RULE_SETS = {"default": R.DEFAULT_RULES, "seed": R.SEED_RULES}


def stream_kind(stream: str) -> str:
    """``play`` or ``show`` of a stream name."""
    return stream.split("_", 1)[0]


def stream_of(kind: str, position: int, per_position: bool) -> str:
    return f"{kind}_{POSITIONS[position]}" if per_position else kind


def learner_device(spec: str) -> torch.device:
    """The learner's device: ``auto`` is CUDA when torch sees one, else the CPU."""
    if spec == "auto":
        return torch.device("cuda" if torch.cuda.is_available() else "cpu")
    if spec not in ("cpu", "cuda"):
        raise ValueError(f"DMC device={spec!r}: must be cpu, cuda or auto")
    return torch.device(spec)


PRESETS_FILE = Path(__file__).with_name("dmc_presets.yaml")


def load_preset(name: str) -> dict:
    """The overrides of preset ``name`` in ``dmc_presets.yaml`` (unknown keys are an error)."""
    import yaml

    presets = yaml.safe_load(PRESETS_FILE.read_text())
    if name not in presets:
        raise ValueError(f"{PRESETS_FILE}: no DMC preset {name!r}; known: {sorted(presets)}")
    known = {f.name for f in fields(DMCConfig)}
    bad = set(presets[name]) - known
    if bad:
        raise ValueError(f"{PRESETS_FILE}: preset {name!r} sets unknown DMC knob(s) "
                         f"{sorted(bad)}")
    return dict(presets[name])


# ---- returns ----------------------------------------------------------------------------------


def episode_returns(state: R.GongzhuState, objective: str, reward_scale: float) -> list[float]:
    """Each seat's Monte-Carlo return of a finished deal."""
    scores = R.scores(state)
    if objective == "score":
        return [s * reward_scale for s in scores]
    if objective == "relative":
        return [r * reward_scale for r in R.relative_scores(scores)]
    if objective == "win":
        top = R.winners(state)
        return [1.0 / len(top) if s in top else 0.0 for s in range(4)]
    raise ValueError(f"unknown objective {objective!r} (score, relative or win)")


# ---- buffers ----------------------------------------------------------------------------------


def buffer_specs(cfg: DMCConfig) -> dict[str, dict[str, tuple[tuple[int, ...], torch.dtype]]]:
    """Shape and dtype of every field of one buffer, per kind."""
    t, ts = cfg.unroll, cfg.show_unroll
    common = {
        "target": (), "done": (), "episode_return": (), "position": (),
    }
    dtypes = {"target": torch.float32, "done": torch.bool, "episode_return": torch.float32,
              "position": torch.int8}
    play = {k: ((t, *s), dtypes[k]) for k, s in common.items()}
    play.update({
        "x": ((t, DMC_X_DIM), torch.int8),
        "z": ((t, *DMC_Z_SHAPE), torch.int8),
        "a": ((t, PLAY_ACTION_DIM), torch.int8),
    })
    show = {k: ((ts, *s), dtypes[k]) for k, s in common.items()}
    show.update({"x": ((ts, SHOW_X_DIM), torch.int8), "a": ((ts, SHOW_ACTION_DIM), torch.int8)})
    return {"play": play, "show": show}


def create_buffers(cfg: DMCConfig) -> dict[str, dict[str, list[torch.Tensor]]]:
    """``num_buffers`` shared-memory buffers per stream (DouZero's ``create_buffers``)."""
    out: dict[str, dict[str, list[torch.Tensor]]] = {}
    specs = buffer_specs(cfg)
    for stream in cfg.streams():
        spec = specs[stream_kind(stream)]
        out[stream] = {
            key: [torch.zeros(shape, dtype=dt).share_memory_() for _ in range(cfg.num_buffers)]
            for key, (shape, dt) in spec.items()
        }
    return out


def get_batch(buffers: dict[str, list[torch.Tensor]],
              indices: list[int]) -> dict[str, torch.Tensor]:
    """Stack buffers ``indices`` into one batch, time folded into the batch dimension."""
    return {key: torch.cat([bufs[m] for m in indices], dim=0) for key, bufs in buffers.items()}


# ---- self-play --------------------------------------------------------------------------------


def self_play_episode(agent: DMCAgent, deal_seed: int, explore_seed: int, cfg: DMCConfig):
    """One self-play deal; returns ``{stream: [sample dict, ...]}`` in seat-major order (each
    seat's decisions contiguous, the last one flagged ``done`` with the seat's return)."""
    state = R.deal(deal_seed, cfg.rule_options())
    rng = np.random.default_rng(explore_seed)
    per_seat: list[list] = [[] for _ in range(4)]
    while not R.is_terminal(state):
        seat = state.to_move
        d = agent.decide(state, seat, cfg.epsilon, rng)
        per_seat[seat].append(d)
        R.apply(state, d.action)
    rets = episode_returns(state, cfg.objective, cfg.reward_scale)
    samples: dict[str, list[dict]] = {k: [] for k in cfg.streams()}
    for seat in range(4):
        pos = (seat - state.first_seat) % 4
        for kind in KINDS:
            ds = [d for d in per_seat[seat] if d.kind == kind]
            for j, d in enumerate(ds):
                last = j == len(ds) - 1
                s = {"x": d.x, "a": d.a, "target": rets[seat], "done": last,
                     "episode_return": rets[seat] if last else 0.0, "position": pos}
                if kind == "play":
                    s["z"] = d.z
                samples[stream_of(kind, pos, cfg.per_position)].append(s)
    return samples, R.scores(state)


def _write(buffers: dict[str, list[torch.Tensor]], index: int, rows: list[dict]) -> None:
    for key, bufs in buffers.items():
        vals = [r[key] for r in rows]
        if isinstance(vals[0], np.ndarray):
            bufs[index][...] = torch.from_numpy(np.stack(vals).astype(np.int8))
        else:
            bufs[index][...] = torch.tensor(vals, dtype=bufs[index].dtype)


PLAYING = -1
"""``actor_wait`` value of an actor that is playing (otherwise: the index in ``cfg.streams()``
of the stream whose free queue it is blocked on)."""


def actor_main(actor_id: int, cfg: DMCConfig, nets: dict[str, nn.Module], free_queues,
               full_queue, buffers, episode_counter: torch.Tensor, stop,
               actor_wait: torch.Tensor | None = None,
               deal_started: torch.Tensor | None = None) -> None:
    """An actor process: self-play with the shared ``nets`` (one per stream) until ``stop`` is
    set or a free queue yields ``None``, handing full buffers to the learner. ``actor_wait``
    (shared, one slot per actor) says whether it plays or waits for a free buffer of which
    stream, and ``deal_started`` (shared) when its current deal began (``time.time()``), for
    the learner's stall and progress reports."""
    torch.set_num_threads(1)
    full_queue.cancel_join_thread()  # exit without waiting for the learner to drain the queue
    agent = agent_of(nets, cfg.per_position)
    streams = cfg.streams()
    pending: dict[str, list[dict]] = {k: [] for k in streams}
    ep = int(episode_counter[actor_id])
    while not stop.is_set():
        if deal_started is not None:
            deal_started[actor_id] = time.time()
        samples, _ = self_play_episode(
            agent, derive_seed(cfg.seed, "dmc-deal", actor_id, ep),
            derive_seed(cfg.seed, "dmc-explore", actor_id, ep), cfg)
        ep += 1
        episode_counter[actor_id] = ep
        for st in streams:
            pending[st].extend(samples[st])
            t, _ = cfg.sizes(st)
            while len(pending[st]) >= t:
                if actor_wait is not None:
                    actor_wait[actor_id] = streams.index(st)
                index = free_queues[st].get()
                if actor_wait is not None:
                    actor_wait[actor_id] = PLAYING
                if index is None:
                    return
                _write(buffers[st], index, pending[st][:t])
                full_queue.put((st, index))
                del pending[st][:t]


def new_nets(cfg: DMCConfig) -> dict[str, nn.Module]:
    """A fresh network per stream (play nets for ``play*`` streams, show nets for ``show*``)."""
    return {st: (PlayQNet(cfg.width, cfg.depth, cfg.lstm_hidden) if stream_kind(st) == "play"
                 else ShowQNet(cfg.show_width, cfg.show_depth)) for st in cfg.streams()}


def agent_of(nets: dict[str, nn.Module], per_position: bool) -> DMCAgent:
    """The acting agent on ``nets`` (no copy): one pair, or one pair per position."""
    if per_position:
        return DMCAgent([nets[f"play_{p}"] for p in POSITIONS],
                        [nets[f"show_{p}"] for p in POSITIONS])
    return DMCAgent(nets["play"], nets["show"])


# ---- learner ----------------------------------------------------------------------------------


class Learner:
    """The global Q-networks and their optimizers; :meth:`step` is one MSE update."""

    def __init__(self, cfg: DMCConfig):
        self.cfg = cfg
        torch.manual_seed(derive_seed(cfg.seed, "dmc-init") % (2**31))
        self.device = learner_device(cfg.device)
        self.nets: dict[str, nn.Module] = {k: n.to(self.device) for k, n in new_nets(cfg).items()}
        self.opts = {k: self._optimizer(n) for k, n in self.nets.items()}

    def _optimizer(self, net: nn.Module) -> torch.optim.Optimizer:
        if self.cfg.optimizer == "adam":
            return torch.optim.Adam(net.parameters(), lr=self.cfg.lr)
        if self.cfg.optimizer == "rmsprop":  # DouZero's choice
            return torch.optim.RMSprop(net.parameters(), lr=self.cfg.lr, alpha=0.99, eps=1e-5)
        raise ValueError(f"unknown optimizer {self.cfg.optimizer!r} (adam or rmsprop)")

    def q(self, stream: str, batch: dict[str, torch.Tensor]) -> torch.Tensor:
        net = self.nets[stream]
        b = {k: v.to(self.device, non_blocking=True) for k, v in batch.items()}
        if stream_kind(stream) == "play":
            return net(b["z"], b["x"], b["a"])
        return net(b["x"], b["a"])

    def loss(self, stream: str, batch: dict[str, torch.Tensor]) -> torch.Tensor:
        """Mean squared error of Q against the Monte-Carlo targets (the returns)."""
        target = batch["target"].to(self.device).float()
        return ((self.q(stream, batch) - target) ** 2).mean()

    def step(self, stream: str, batch: dict[str, torch.Tensor]) -> float:
        """One optimizer step on ``batch`` of ``stream``; returns the loss before it."""
        net, opt = self.nets[stream], self.opts[stream]
        net.train()
        loss = self.loss(stream, batch)
        opt.zero_grad()
        loss.backward()
        nn.utils.clip_grad_norm_(net.parameters(), self.cfg.max_grad_norm)
        opt.step()
        return float(loss.item())

    def agent(self) -> DMCAgent:
        """A DMCAgent on CPU copies of the current weights (for evaluation and export)."""
        nets = new_nets(self.cfg)
        for k, n in nets.items():
            n.load_state_dict(self.nets[k].state_dict())
        return agent_of(nets, self.cfg.per_position)

    def state_dict(self) -> dict:
        return {
            "nets": {k: n.state_dict() for k, n in self.nets.items()},
            "opts": {k: o.state_dict() for k, o in self.opts.items()},
        }

    def load_state_dict(self, sd: dict) -> None:
        for k in self.cfg.streams():
            self.nets[k].load_state_dict(sd["nets"][k])
            self.opts[k].load_state_dict(sd["opts"][k])


# ---- the training loop --------------------------------------------------------------------------

STALL_REPORT_S = 10.0
"""Seconds the learner waits for a full buffer before it logs a :func:`stall_report` (and again
after each further such wait); diagnostics only, no budget depends on it."""

PROGRESS_REPORT_S = 30.0
"""Seconds without a curve row after which the learner logs a :func:`progress_report` (and again
after each further such span); diagnostics only, no budget depends on it."""

EVAL_OPPONENTS = ("rules", "cnn")
"""What ``eval_vs`` may name: the three rule styles, or three copies of the shipped CNN agent
(the seed's "3 x CNN" table)."""

CURVE_FIELDS = [
    "frames", "episodes", "play_steps", "show_steps", "loss_play", "loss_show", "mean_return",
    *[f"mean_return_{p}" for p in POSITIONS], "wall_s", "eval_win_rate", "eval_mean_score",
    "eval_win_ci",
    *[f"eval_{m}_{o}" for o in EVAL_OPPONENTS for m in ("rel_win", "rel_win_ci", "mean_rel")],
]
"""The curve's columns. ``eval_win_rate``/``eval_mean_score``/``eval_win_ci``: the win share
(ties shared) against the rule styles; ``eval_rel_win_<o>`` (with its 95% CI half-width) and
``eval_mean_rel_<o>``: the seed's metric (relative score > 0) and the mean relative score against
``<o>`` of :data:`EVAL_OPPONENTS`. Evaluation columns are empty in rows without an evaluation."""


@dataclass
class Progress:
    """Counters that a checkpoint saves and ``--resume`` restores."""

    frames: int = 0
    steps: dict = field(default_factory=lambda: {k: 0 for k in KINDS})
    """Learner steps per kind (summed over positions)."""
    wall_s: float = 0.0
    next_log: int = 0
    next_save: int = 0
    next_eval: int = 0
    returns: dict = field(default_factory=lambda: {p: [] for p in POSITIONS})


def save_checkpoint(path: Path, cfg: DMCConfig, learner: Learner, prog: Progress,
                episode_counter: torch.Tensor) -> None:
    tmp = path / "model.tar.tmp"
    torch.save({
        "config": asdict(cfg),
        "learner": learner.state_dict(),
        "progress": asdict(prog),
        "episode_counter": episode_counter.clone(),
        "torch_rng": torch.get_rng_state(),
    }, tmp)
    os.replace(tmp, path / "model.tar")
    torch.save(learner.agent().to_checkpoint(), path / "agent.pt.tmp")
    os.replace(path / "agent.pt.tmp", path / "agent.pt")
    if cfg.keep_snapshots:
        snap = snapshot_path(path, prog.frames)
        snap.parent.mkdir(exist_ok=True)
        shutil.copyfile(path / "agent.pt", snap.with_suffix(".tmp"))
        os.replace(snap.with_suffix(".tmp"), snap)


def snapshot_path(out: Path, frames: int) -> Path:
    """Where ``keep_snapshots`` keeps the bot checkpoint saved at ``frames`` samples (zero-padded,
    so the names sort by samples; :mod:`learning_curve` reads the count back)."""
    return Path(out) / "snapshots" / f"agent_{frames:010d}.pt"


def restore(path: Path, learner: Learner, episode_counter: torch.Tensor) -> Progress:
    """Load a ``model.tar`` into ``learner`` (weights and optimizer state), the actors' episode
    counters (new actors start past every episode index used) and torch's generator; returns
    the saved progress counters."""
    ck = torch.load(path, map_location=learner.device, weights_only=False)
    learner.load_state_dict(ck["learner"])
    old = ck["episode_counter"]
    n = min(len(old), len(episode_counter))
    episode_counter[:n] = old[:n]
    if len(episode_counter) > n:
        episode_counter[n:] = int(old.max())
    torch.set_rng_state(ck["torch_rng"].cpu())
    d = ck["progress"]
    return Progress(**{f.name: d[f.name] for f in fields(Progress) if f.name in d})


def eval_opponents(spec: str) -> list[str]:
    """``eval_vs`` checked: names of :data:`EVAL_OPPONENTS`, comma-separated, at least one."""
    names = [n.strip() for n in spec.split(",") if n.strip()]
    bad = [n for n in names if n not in EVAL_OPPONENTS]
    if bad or not names:
        raise ValueError(f"eval_vs={spec!r}: expected a comma-separated list of "
                         f"{list(EVAL_OPPONENTS)}")
    return names


def _evaluate(learner: Learner, cfg: DMCConfig) -> dict[str, float]:
    """The current nets, greedy, in one seat against each of ``eval_vs``'s opponents, seats
    rotated over ``eval_deals`` seeded deals: the curve's evaluation columns
    (:data:`CURVE_FIELDS`)."""
    from ime.games.gongzhu.agents.evaluate import (
        DMCPlayer,
        make_opponents,
        rotated_match,
    )

    player = DMCPlayer(learner.agent())
    cols: dict[str, float] = {}
    for o in eval_opponents(cfg.eval_vs):
        res = rotated_match(player, make_opponents(o), cfg.eval_deals, cfg.eval_seed,
                            cfg.rule_options())
        if o == "rules":
            cols.update(eval_win_rate=round(res.win_rate, 4),
                        eval_mean_score=round(res.mean_score, 2),
                        eval_win_ci=round(res.win_ci, 4))
        cols.update({f"eval_rel_win_{o}": round(res.rel_win_rate, 4),
                     f"eval_rel_win_ci_{o}": round(res.rel_win_ci, 4),
                     f"eval_mean_rel_{o}": round(res.mean_rel, 2)})
    return cols


def stall_report(cfg: DMCConfig, held: dict[str, int], actor_wait: list[int],
                 deals: int, waited_s: float) -> tuple[str, list[str]]:
    """What the learner logs when no full buffer came for a while, and the streams that are
    provably deadlocked (an actor waits for a free buffer of a stream whose ``num_buffers``
    buffers the learner all holds, short of a batch: none can ever come back).

    ``held`` is the number of full buffers of each stream the learner holds (fewer than a
    batch), ``actor_wait`` each actor's slot (:data:`PLAYING` or the index of the stream it
    waits for), ``deals`` the deals the actors finished since the last full buffer. Deals that
    keep coming with no buffer point at the queues; no deals and actors marked playing point at
    slow or stuck self-play (the H200 stall in docs/games/gongzhu.md looked like that)."""
    streams = cfg.streams()
    waiting: dict[str, int] = {}
    for w in actor_wait:
        if w != PLAYING:
            waiting[streams[w]] = waiting.get(streams[w], 0) + 1
    playing = sum(w == PLAYING for w in actor_wait)
    holds = ", ".join(f"{st} {held.get(st, 0)}/{cfg.sizes(st)[1]}" for st in streams)
    waits = ", ".join(f"{st} x{n}" for st, n in waiting.items()) or "none"
    msg = (f"DMC: no full buffer for {waited_s:.0f} s; actors: {playing} playing, "
           f"{len(actor_wait) - playing} waiting for a free buffer ({waits}); {deals} deals "
           f"finished meanwhile; full buffers the learner holds / batch: {holds}")
    stuck = [st for st in waiting if held.get(st, 0) >= cfg.num_buffers]
    return msg, stuck


def progress_report(steps: dict[str, int], buffers: int, deals: int, since_s: float,
                    deal_ages: list[float]) -> str:
    """What the learner logs when no curve row came for :data:`PROGRESS_REPORT_S` although full
    buffers keep arriving (so :func:`stall_report` stays silent): the H200 runs stopped logging
    rows after about 1M samples with every actor inside ``agent.decide`` and no stall report,
    which this tells apart. ``deals`` per second says whether self-play slowed down, and the
    ages of the deals in progress whether one actor is stuck (one old deal) or all are slow."""
    oldest = max(range(len(deal_ages)), key=deal_ages.__getitem__) if deal_ages else None
    ages = sorted(deal_ages)
    median = ages[len(ages) // 2] if ages else 0.0
    where = (f"the oldest deal in progress {deal_ages[oldest]:.1f} s (actor {oldest}), the "
             f"median {median:.1f} s" if oldest is not None else "no actor")
    return (f"DMC: no curve row for {since_s:.0f} s: {deals} deals finished "
            f"({deals / max(since_s, 1e-9):.1f}/s), {buffers} full buffers received, learner "
            f"steps play {steps.get('play', 0)} / show {steps.get('show', 0)}; {where}")


def _append_curve(path: Path, row: dict) -> None:
    new = not path.exists()
    with path.open("a", newline="") as f:
        w = csv.DictWriter(f, fieldnames=CURVE_FIELDS)
        if new:
            w.writeheader()
        w.writerow({k: row.get(k, "") for k in CURVE_FIELDS})


def _trim_curve(path: Path, frames: int) -> None:
    """On resume, drop rows logged after the checkpoint we restart from."""
    if not path.exists():
        return
    with path.open() as f:
        rows = [r for r in csv.DictReader(f) if int(r["frames"]) <= frames]
    with path.open("w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=CURVE_FIELDS)
        w.writeheader()
        w.writerows(rows)


def plot_curve(csv_path: Path, png_path: Path) -> None:
    """Loss and mean episode reward (and eval win rate if logged) against samples."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    with csv_path.open() as f:
        rows = list(csv.DictReader(f))
    if not rows:
        return

    def col(name: str) -> tuple[list[float], list[float]]:
        xs, ys = [], []
        for r in rows:
            if r.get(name, "") not in ("", None):
                xs.append(int(r["frames"]))
                ys.append(float(r[name]))
        return xs, ys

    has_eval = any(col(f"eval_rel_win_{o}")[0] for o in EVAL_OPPONENTS) or bool(
        col("eval_win_rate")[0])
    fig, axes = plt.subplots(1, 3 if has_eval else 2, figsize=(15 if has_eval else 10, 4))
    ax = axes[0]
    for name in ("loss_play", "loss_show"):
        ax.plot(*col(name), label=name)
    ax.set_xlabel("samples")
    ax.set_ylabel("MSE")
    ax.set_yscale("log")
    ax.legend()
    ax.set_title("DMC loss")
    ax = axes[1]
    ax.plot(*col("mean_return"), label="all seats", color="k")
    for p in POSITIONS:
        ax.plot(*col(f"mean_return_{p}"), label=f"position {p}", alpha=0.6)
    ax.set_xlabel("samples")
    ax.set_ylabel("mean episode reward (x reward_scale)")
    ax.legend(fontsize=7)
    ax.set_title("self-play episode reward")
    if has_eval:
        ax = axes[2]
        lines = [(f"eval_rel_win_{o}", f"eval_rel_win_ci_{o}",
                  f"seed's metric vs {'3 x CNN' if o == 'cnn' else 'duck/shoot/low'}")
                 for o in EVAL_OPPONENTS]
        lines.append(("eval_win_rate", "eval_win_ci", "win share vs duck/shoot/low (ties shared)"))
        for name, ci_name, label in lines:
            xs, ys = col(name)
            if not xs:
                continue
            _, ci = col(ci_name)
            if len(ci) == len(ys):
                ax.errorbar(xs, ys, yerr=ci, marker="o", capsize=3, label=label)
            else:
                ax.plot(xs, ys, marker="o", label=label)
        ax.axhline(0.25, color="grey", ls=":", lw=1)
        ax.set_xlabel("samples")
        ax.set_ylabel("rate (95% CI)")
        ax.legend(fontsize=7)
        ax.set_title("greedy evaluation (the seed's metric: relative score > 0)")
    fig.tight_layout()
    fig.savefig(png_path, dpi=100)
    plt.close(fig)


def train(cfg: DMCConfig, log=print) -> Progress:
    """Run (or resume) DMC training until ``cfg.frames`` samples have been learned from."""
    cfg.check_buffers()
    eval_opponents(cfg.eval_vs)  # a mistyped opponent fails now, not at the first evaluation
    out = Path(cfg.out)
    out.mkdir(parents=True, exist_ok=True)
    torch.set_num_threads(1)
    learner = Learner(cfg)
    prog = Progress(next_log=cfg.log_every, next_save=cfg.save_every, next_eval=cfg.eval_every)
    n_actors = cfg.n_actors()
    log(f"DMC: {n_actors} actor(s), learner on {learner.device}, streams {cfg.streams()}")
    episode_counter = torch.zeros(n_actors, dtype=torch.int64)
    curve = out / "curve.csv"
    if cfg.resume and (out / "model.tar").exists():
        prog = restore(out / "model.tar", learner, episode_counter)
        _trim_curve(curve, prog.frames)
        log(f"resumed from {out / 'model.tar'} at {prog.frames} samples")
    elif curve.exists():
        curve.unlink()
    (out / "config.json").write_text(json.dumps(asdict(cfg), indent=1))
    episode_counter.share_memory_()
    actor_wait = torch.full((n_actors,), PLAYING, dtype=torch.int64).share_memory_()
    deal_started = torch.full((n_actors,), time.time(), dtype=torch.float64).share_memory_()

    actor_nets = new_nets(cfg)
    for k, net in actor_nets.items():
        net.load_state_dict(learner.nets[k].state_dict())
        net.share_memory()
        net.eval()
    buffers = create_buffers(cfg)
    ctx = mp.get_context("spawn")
    streams = cfg.streams()
    free_queues = {k: ctx.SimpleQueue() for k in streams}
    full_queue = ctx.Queue()
    stop = ctx.Event()
    for k in streams:
        for m in range(cfg.num_buffers):
            free_queues[k].put(m)
    actors = []
    for i in range(n_actors):
        p = ctx.Process(target=actor_main, args=(i, cfg, actor_nets, free_queues, full_queue,
                                                 buffers, episode_counter, stop, actor_wait,
                                                 deal_started),
                        daemon=True)
        p.start()
        actors.append(p)

    pending: dict[str, list[int]] = {k: [] for k in streams}
    window: dict[str, list[float]] = {k: [] for k in KINDS}
    returns = {p: deque(prog.returns.get(p, []), maxlen=250) for p in POSITIONS}
    t0 = time.perf_counter()
    wall0 = prog.wall_s
    last_buffer_t, last_buffer_deals = t0, int(episode_counter.sum())
    received = 0  # full buffers taken from the queue

    def marks() -> tuple[float, int, int, dict[str, int]]:
        """Where the progress report counts from: reset by every curve row and every report."""
        return time.perf_counter(), int(episode_counter.sum()), received, dict(prog.steps)

    mark_t, mark_deals, mark_buffers, mark_steps = marks()
    try:
        while prog.frames < cfg.frames:
            if time.perf_counter() - mark_t >= PROGRESS_REPORT_S:
                now = time.time()
                log(progress_report(
                    {k: prog.steps[k] - mark_steps.get(k, 0) for k in KINDS},
                    received - mark_buffers, int(episode_counter.sum()) - mark_deals,
                    time.perf_counter() - mark_t, [now - t for t in deal_started.tolist()]))
                mark_t, mark_deals, mark_buffers, mark_steps = marks()
            try:
                stream, index = full_queue.get(timeout=STALL_REPORT_S)
            except queue.Empty:
                dead = [p.exitcode for p in actors if not p.is_alive()]
                if dead:
                    raise RuntimeError(f"DMC actor(s) died: exit codes {dead}") from None
                msg, stuck = stall_report(
                    cfg, {k: len(v) for k, v in pending.items()}, actor_wait.tolist(),
                    int(episode_counter.sum()) - last_buffer_deals,
                    time.perf_counter() - last_buffer_t)
                log(msg)
                if stuck:
                    raise RuntimeError(f"{msg}: deadlocked on {stuck}, the learner holds every "
                                       f"buffer of it and no batch can fill") from None
                continue
            last_buffer_t, last_buffer_deals = time.perf_counter(), int(episode_counter.sum())
            received += 1
            pending[stream].append(index)
            t, b = cfg.sizes(stream)
            if len(pending[stream]) < b:
                continue
            idx, pending[stream] = pending[stream][:b], pending[stream][b:]
            batch = get_batch(buffers[stream], idx)
            for m in idx:
                free_queues[stream].put(m)
            kind = stream_kind(stream)
            window[kind].append(learner.step(stream, batch))
            actor_nets[stream].load_state_dict(learner.nets[stream].state_dict())
            prog.steps[kind] += 1
            prog.frames += t * b
            done = batch["done"]
            for r, pos in zip(batch["episode_return"][done].tolist(),
                              batch["position"][done].tolist(), strict=True):
                if kind == "play":
                    returns[POSITIONS[pos]].append(r)
            prog.wall_s = wall0 + time.perf_counter() - t0
            row = None
            if prog.frames >= prog.next_log or prog.frames >= cfg.frames:
                allr = [r for p in POSITIONS for r in returns[p]]
                row = {
                    "frames": prog.frames, "episodes": int(episode_counter.sum()),
                    "play_steps": prog.steps["play"], "show_steps": prog.steps["show"],
                    "loss_play": _mean(window["play"]), "loss_show": _mean(window["show"]),
                    "mean_return": _mean(allr), "wall_s": round(prog.wall_s, 1),
                    **{f"mean_return_{p}": _mean(list(returns[p])) for p in POSITIONS},
                }
                window = {k: [] for k in KINDS}
                while prog.next_log <= prog.frames:
                    prog.next_log += cfg.log_every
            if cfg.eval_every and (prog.frames >= prog.next_eval or prog.frames >= cfg.frames):
                row = row or {"frames": prog.frames, "episodes": int(episode_counter.sum()),
                              "wall_s": round(prog.wall_s, 1)}
                row.update(_evaluate(learner, cfg))
                while prog.next_eval <= prog.frames:
                    prog.next_eval += cfg.eval_every
            if row is not None:
                _append_curve(curve, row)
                log(" ".join(f"{k}={v}" for k, v in row.items() if v != ""))
                mark_t, mark_deals, mark_buffers, mark_steps = marks()
            if prog.frames >= prog.next_save or prog.frames >= cfg.frames:
                prog.returns = {p: list(returns[p]) for p in POSITIONS}
                save_checkpoint(out, cfg, learner, prog, episode_counter)
                while prog.next_save <= prog.frames:
                    prog.next_save += cfg.save_every
    finally:
        stop.set()
        for k in streams:
            for _ in actors:
                free_queues[k].put(None)
        for p in actors:
            p.join(timeout=5)
            if p.is_alive():
                p.terminate()
                p.join()
    plot_curve(curve, out / "curve.png")
    return prog


def _mean(xs: list[float]) -> float | str:
    return round(float(np.mean(xs)), 5) if xs else ""


# ---- CLI --------------------------------------------------------------------------------------


def _parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="python -m ime.games.gongzhu.agents.dmc",
                                description="Deep Monte-Carlo self-play for Gongzhu (GZero seed)")
    sub = p.add_subparsers(dest="cmd", required=True)
    t = sub.add_parser("train", help="train or resume a DMC agent")
    defaults = DMCConfig()
    for f in fields(DMCConfig):
        if f.name == "resume":
            continue
        flag = "--" + f.name.replace("_", "-")
        kind = type(getattr(defaults, f.name))
        t.add_argument(flag, type=_bool if kind is bool else kind,
                       default=getattr(defaults, f.name))
    t.add_argument("--preset", help="a named config of dmc_presets.yaml (e.g. seed); flags "
                   "given on the command line override it")
    t.add_argument("--resume", action="store_true",
                   help="continue from OUT/model.tar up to --frames samples")
    e = sub.add_parser("export", help="copy a run's bot checkpoint (agent.pt) somewhere")
    e.add_argument("--run", required=True)
    e.add_argument("--to", required=True)
    return p


def main(argv: list[str] | None = None) -> None:
    args = _parser().parse_args(argv)
    if args.cmd == "train":
        given = {k: v for k, v in vars(args).items() if k not in ("cmd", "preset")}
        if args.preset:
            explicit = _explicit_flags(argv)
            base = load_preset(args.preset)
            given = {k: (v if k in explicit or k not in base else base[k])
                     for k, v in given.items()}
        cfg = DMCConfig(**given)
        prog = train(cfg)
        print(f"done: {prog.frames} samples, {prog.wall_s:.0f} s, checkpoint {cfg.out}/agent.pt")
    elif args.cmd == "export":
        ck = torch.load(Path(args.run) / "agent.pt", map_location="cpu", weights_only=False)
        DMCAgent.from_checkpoint(ck)  # validates
        torch.save(ck, args.to)
        print(f"wrote {args.to} ({os.path.getsize(args.to) / 1e6:.2f} MB)")


def _bool(text: str) -> bool:
    """A boolean flag's value: true/false, yes/no, 1/0."""
    low = text.lower()
    if low in ("true", "yes", "1"):
        return True
    if low in ("false", "no", "0"):
        return False
    raise argparse.ArgumentTypeError(f"not a boolean: {text!r} (true or false)")


def _explicit_flags(argv: list[str] | None) -> set[str]:
    """Config names of the flags written on the command line (they override a preset)."""
    import sys

    args = sys.argv[1:] if argv is None else argv
    return {a[2:].split("=", 1)[0].replace("-", "_") for a in args if a.startswith("--")}


if __name__ == "__main__":
    main()

__all__ = ["DMCConfig", "Learner", "Progress", "actor_main", "agent_of", "create_buffers",
           "episode_returns", "load_preset", "new_nets", "stall_report",
           "get_batch", "plot_curve", "restore", "save_checkpoint", "self_play_episode",
           "snapshot_path", "train"]
