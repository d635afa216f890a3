"""IME bots (``ime.core.bot.Bot``) wrapping the trained Gongzhu agents' checkpoints.

* :class:`GongzhuDMCBot` (kind ``gz_dmc``): the DMC Q-networks, greedy (argmax Q, ties to the
  lowest action id) -- deterministic.
* :class:`GongzhuCNNBot` (kind ``gz_cnn``): the supervised CNN's masked policy, greedy by default
  (deterministic); with ``temperature > 0`` it samples from the softmax with the generator
  ``decision_rng(ctx, "gz_cnn")`` keyed by (seed, match, ply, seat), so a decision is still a pure
  function of (params, seed, history).

Both read only the deciding seat's view (``features.seat_view``). ``checkpoint`` is a path; a bare
file name is looked up in ``agents/checkpoints/`` (the shipped ``gz_dmc.pt`` / ``gz_cnn.pt``).
Loaded checkpoints are cached per path, so many bot instances share one network.
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path
from typing import Any

import torch

from ime.core.bot import Bot, DecisionContext, decision_rng
from ime.games.gongzhu import rules as R

CHECKPOINTS = Path(__file__).resolve().parent / "checkpoints"


def resolve_checkpoint(path: str | Path) -> Path:
    """``path`` as given if it exists, else the shipped file of that name."""
    p = Path(path)
    if p.exists():
        return p
    q = CHECKPOINTS / p.name
    if q.exists():
        return q
    raise FileNotFoundError(f"Gongzhu agent checkpoint not found: {path} (nor {q})")


@lru_cache(maxsize=8)
def _dmc(path: str):
    from ime.games.gongzhu.agents.agent import DMCAgent

    return DMCAgent.load(path)


@lru_cache(maxsize=8)
def _cnn(path: str):
    from ime.games.gongzhu.agents.cnn import CNNAgent

    return CNNAgent.load(path)


def core_state(state: Any) -> R.GongzhuState:
    """The rules-core state behind what a bot is handed: the plug-in's ``GongzhuGameState``
    keeps it in ``.core`` (``game.py``); a bare ``GongzhuState`` is accepted as is."""
    if isinstance(state, R.GongzhuState):
        return state
    core = getattr(state, "core", None)
    if isinstance(core, R.GongzhuState):
        return core
    raise TypeError(f"not a Gongzhu state: {type(state).__name__} (no GongzhuState in .core)")


def _check_seat(gs: R.GongzhuState, ctx: DecisionContext) -> int:
    if gs.to_move != ctx.player:
        raise ValueError(f"match {ctx.match_id} ply {ctx.ply}: seat {ctx.player} asked to act "
                         f"but seat {gs.to_move} is to move")
    return ctx.player


class GongzhuDMCBot(Bot):
    """Greedy DMC agent (argmax of Q over the legal actions)."""

    deterministic = True

    def __init__(self, bot_id: str = "gz_dmc", checkpoint: str = "gz_dmc.pt"):
        self.bot_id = bot_id
        self.checkpoint = str(resolve_checkpoint(checkpoint))
        self.agent = _dmc(self.checkpoint)

    def act(self, state, ctx: DecisionContext) -> int:
        gs = core_state(state)
        with torch.inference_mode():
            return int(self.agent.act(gs, _check_seat(gs, ctx)))


class GongzhuCNNBot(Bot):
    """The CNN baseline: greedy, or sampling at ``temperature`` from a keyed generator."""

    def __init__(self, bot_id: str = "gz_cnn", checkpoint: str = "gz_cnn.pt",
                 temperature: float = 0.0):
        self.bot_id = bot_id
        self.checkpoint = str(resolve_checkpoint(checkpoint))
        self.temperature = float(temperature)
        self.deterministic = self.temperature <= 0
        self.agent = _cnn(self.checkpoint)

    def act(self, state, ctx: DecisionContext) -> int:
        gs = core_state(state)
        seat = _check_seat(gs, ctx)
        rng = None if self.deterministic else decision_rng(ctx, "gz_cnn")
        return int(self.agent.act(gs, seat, rng, self.temperature))


__all__ = ["GongzhuCNNBot", "GongzhuDMCBot", "core_state", "resolve_checkpoint"]
