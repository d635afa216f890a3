"""The imitator: a bot that plays what a trained imitation net says (thesis 3.1, 4.4).

It encodes the position exactly as the training data was encoded (the game's encoder from
:func:`ime.core.registry.get_encoder`: the deciding seat's observation and one legal mask per
action head), runs the net and lets the encoder turn the head policies into an action
(:meth:`ime.core.encoding.Encoder.select`: argmax per head, a multi-head encoder choosing head by
head). Details that matter for reproducibility:

* **Masking is redone here.** The net's "masked logits" may multiply illegal outputs by zero, and
  a zero can beat negative legal logits; so illegal codes are set to ``-inf`` before the softmax.
* **Ties go to the lowest code** (``argmax`` takes the first maximum), so the bot is
  deterministic and any fork of a match with it replays exactly.
* **A decision without a choice is the encoder's** (a forced pass is played without asking the
  net: the nets have no pass output and datasets drop such decisions).
* **Ensembles** average the folds' softmax distributions (not logits), so each fold votes with a
  probability distribution on the same scale.
* **One torch thread** (``threads=1``, process-wide): one position through a 75k-parameter net
  gains nothing from intra-op threads, and next to numba's kernels on a small machine threaded
  torch was measured ~10x *slower* (130 ms instead of ~3 ms per move on 2 cores).

Registered as kind ``imitator`` for every game: ``{kind: imitator, params: {checkpoints: [path,
...], game_params: {...}}}`` makes an imitator usable anywhere a zoo bot is (matches, forks,
tournaments); ``game_params`` are the game's board options, when it has any.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import numpy as np

from ime.core.bot import Bot, DecisionContext
from ime.core.encoding import Encoder, Observation
from ime.core.game import Action, State
from ime.core.registry import get_encoder


class ImitatorBot(Bot):
    """Argmax of the (ensemble-averaged) masked policy of one or more imitation nets.

    ``game``/``game_params`` name the encoder; when ``game`` is not given it is read from the
    models' checkpoints (``model.checkpoint["game"]``).
    """

    deterministic = True

    def __init__(self, bot_id: str, models: Sequence[Any], device: str = "cpu",
                 threads: int | None = 1, *, game: str | None = None,
                 game_params: Mapping[str, Any] | None = None):
        if not models:
            raise ValueError(f"imitator {bot_id!r}: needs at least one model")
        if threads:
            import torch

            torch.set_num_threads(int(threads))
        self.bot_id = bot_id
        self.models = list(models)
        self.device = device
        for m in self.models:
            if hasattr(m, "eval"):
                m.eval()
        ckpts = [getattr(m, "checkpoint", None) or {} for m in self.models]
        trained = sorted({str(c["game"]) for c in ckpts if "game" in c})
        if game is None and len(trained) == 1:
            game = trained[0]
        if game is None:
            raise ValueError(f"imitator {bot_id!r}: no game given and none in the checkpoints")
        if trained and trained != [game]:
            raise ValueError(f"imitator {bot_id!r}: checkpoints trained on {trained}, "
                             f"not on {game!r}")
        if game_params is None:
            found = [c["game_params"] for c in ckpts if c.get("game_params")]
            game_params = found[0] if found else None
        self.game = game
        self.encoder: Encoder = get_encoder(game, game_params)

    @classmethod
    def from_checkpoints(cls, bot_id: str, paths: Sequence[str | Path], device: str = "cpu",
                         threads: int | None = 1, *, game: str | None = None,
                         game_params: Mapping[str, Any] | None = None) -> ImitatorBot:
        """Load every checkpoint with :func:`ime.nets.load_checkpoint` (one per fold)."""
        from ime.nets import load_checkpoint

        missing = [str(p) for p in paths if not Path(p).is_file()]
        if missing:
            raise FileNotFoundError(f"imitator {bot_id!r}: missing checkpoint(s) {missing}")
        return cls(bot_id, [load_checkpoint(str(p), device=device) for p in paths], device,
                   threads, game=game, game_params=game_params)

    def head_policy(self, obs: Observation) -> list[np.ndarray]:
        """Per head, the mean over models of the softmax restricted to legal codes:
        ``float64[N, size]`` (rows without a legal code come back all zero)."""
        import torch

        x = torch.as_tensor(np.asarray(obs.planes), dtype=torch.float32, device=self.device)
        ms = [torch.as_tensor(np.asarray(m), dtype=torch.float32, device=self.device)
              for m in obs.masks]
        legal = [m > 0 for m in ms]
        totals = [torch.zeros(m.shape, dtype=torch.float64, device=self.device) for m in ms]
        with torch.inference_mode():
            for model in self.models:
                out = model(x, ms[0]) if len(ms) == 1 else model(x, ms)
                for h, logits in enumerate([out] if len(ms) == 1 else out):
                    logits = logits.to(torch.float64).masked_fill(~legal[h], float("-inf"))
                    probs = torch.softmax(logits, dim=-1)
                    totals[h] += torch.nan_to_num(probs, nan=0.0)
        return [(t / len(self.models)).cpu().numpy() for t in totals]

    def policy(self, planes: np.ndarray, mask: np.ndarray) -> np.ndarray:
        """The first (only) head's policy of a one-head net: ``float64[N, size]``."""
        return self.head_policy(Observation(np.asarray(planes), [np.asarray(mask)]))[0]

    def choose(self, planes: np.ndarray, mask: np.ndarray) -> np.ndarray:
        """First-head code per row: argmax of :meth:`policy`, lowest code on ties; ``-1`` for a
        row without any legal code."""
        p = self.policy(planes, mask)
        out = np.argmax(p, axis=1).astype(np.int64)
        out[np.asarray(mask).reshape(len(out), -1).sum(axis=1) == 0] = -1
        return out

    def act(self, state: State, ctx: DecisionContext) -> Action:
        legal = state.legal_actions(ctx.player)
        action = self.encoder.select(state, ctx.player, self.head_policy)
        if action not in legal:  # cannot happen with a correct mask; fail loudly, never silently
            raise RuntimeError(f"imitator {self.bot_id}: chose illegal {action!r} "
                               f"(legal {legal})")
        return action

    def act_batch(self, states: Sequence[State],
                  players: Sequence[int] | None = None) -> list[Action]:
        """Actions for many positions (S1 on stored states without forking); ``players``
        default to each state's first player to move."""
        players = [s.current_players()[0] for s in states] if players is None else players
        return [self.encoder.select(s, p, self.head_policy)
                for s, p in zip(states, players, strict=True)]


def _factory(game: str, bot_id: str, params: Mapping[str, Any]) -> Bot:
    """``params``: ``checkpoints`` (paths, one per fold; several = ensemble), ``device``,
    ``threads`` (torch threads, default 1; null leaves torch's setting alone), ``game_params``
    (the game's board options, default: those recorded in the checkpoints)."""
    paths = params.get("checkpoints")
    if isinstance(paths, (str, Path)):
        paths = [paths]
    if not paths:
        raise ValueError(f"imitator {bot_id!r}: params.checkpoints must list checkpoint files")
    device = str(params.get("device", "cpu"))
    return ImitatorBot.from_checkpoints(bot_id, list(paths), device=device,
                                        threads=params.get("threads", 1), game=game,
                                        game_params=params.get("game_params"))


def register() -> None:
    """Make ``kind: imitator`` buildable through :func:`ime.bots.registry.make_bot`."""
    from ime.bots.registry import register_kind

    register_kind("imitator", _factory)


register()
