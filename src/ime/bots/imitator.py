"""The imitator: a bot that plays what a trained imitation net says (thesis 3.1, 4.4).

It encodes the position exactly as the training data was encoded
(:func:`ime.games.reversi.encode.encode_states`: own discs, opponent discs, legal mask), runs the
net and plays the most probable legal square. Details that matter for reproducibility:

* **Masking is redone here.** The net's "masked logits" may multiply illegal outputs by zero, and
  a zero can beat negative legal logits; so illegal squares are set to ``-inf`` before the softmax.
* **Ties go to the lowest square** (``argmax`` takes the first maximum), so the bot is
  deterministic and any fork of a match with it replays exactly.
* **A forced pass is played without asking the net** (the nets have no pass output; datasets
  drop pass-only decisions).
* **Ensembles** average the folds' softmax distributions (not logits), so each fold votes with a
  probability distribution on the same scale.
* **One torch thread** (``threads=1``, process-wide): one position through a 75k-parameter net
  gains nothing from intra-op threads, and next to numba's kernels on a small machine threaded
  torch was measured ~10x *slower* (130 ms instead of ~3 ms per move on 2 cores).

Registered as kind ``imitator``: ``{kind: imitator, params: {checkpoints: [path, ...]}}`` makes an
imitator usable anywhere a zoo bot is (matches, forks, tournaments).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import numpy as np

from ime.core.bot import Bot, DecisionContext
from ime.core.game import State

PASS = 64


class ImitatorBot(Bot):
    """Argmax of the (ensemble-averaged) masked policy of one or more imitation nets."""

    deterministic = True

    def __init__(self, bot_id: str, models: Sequence[Any], device: str = "cpu",
                 threads: int | None = 1):
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

    @classmethod
    def from_checkpoints(cls, bot_id: str, paths: Sequence[str | Path], device: str = "cpu",
                         threads: int | None = 1) -> ImitatorBot:
        """Load every checkpoint with :func:`ime.nets.load_checkpoint` (one per fold)."""
        from ime.nets import load_checkpoint

        missing = [str(p) for p in paths if not Path(p).is_file()]
        if missing:
            raise FileNotFoundError(f"imitator {bot_id!r}: missing checkpoint(s) {missing}")
        return cls(bot_id, [load_checkpoint(str(p), device=device) for p in paths], device,
                   threads)

    def policy(self, planes: np.ndarray, mask: np.ndarray) -> np.ndarray:
        """Mean over models of the softmax restricted to legal squares: ``float64[N, 64]``.

        Rows without any legal square (never asked in play) come back all zero.
        """
        import torch

        x = torch.as_tensor(np.asarray(planes), dtype=torch.float32, device=self.device)
        m = torch.as_tensor(np.asarray(mask), dtype=torch.float32, device=self.device)
        legal = m > 0
        total = torch.zeros(m.shape, dtype=torch.float64, device=self.device)
        with torch.inference_mode():
            for model in self.models:
                logits = model(x, m).to(torch.float64)
                logits = logits.masked_fill(~legal, float("-inf"))
                probs = torch.softmax(logits, dim=-1)
                total += torch.nan_to_num(probs, nan=0.0)
        return (total / len(self.models)).cpu().numpy()

    def choose(self, planes: np.ndarray, mask: np.ndarray) -> np.ndarray:
        """Action per row: argmax of :meth:`policy`, lowest square on ties; PASS if no legal."""
        p = self.policy(planes, mask)
        out = np.argmax(p, axis=1).astype(np.int64)
        out[np.asarray(mask).reshape(len(out), -1).sum(axis=1) == 0] = PASS
        return out

    def act(self, state: State, ctx: DecisionContext) -> int:
        legal = state.legal_actions(ctx.player)
        if legal == [PASS]:
            return PASS
        from ime.games.reversi.encode import encode_states

        planes, mask = encode_states([state])
        action = int(self.choose(planes, mask)[0])
        if action not in legal:  # cannot happen with a correct mask; fail loudly, never silently
            raise RuntimeError(f"imitator {self.bot_id}: chose illegal {action} (legal {legal})")
        return action

    def act_batch(self, states: Sequence[State]) -> np.ndarray:
        """Actions for many positions at once (S1 on stored states without forking)."""
        from ime.games.reversi.encode import encode_states

        planes, mask = encode_states(list(states))
        return self.choose(planes, mask)


def _factory(game: str, bot_id: str, params: Mapping[str, Any]) -> Bot:
    """``params``: ``checkpoints`` (paths, one per fold; several = ensemble), ``device``,
    ``threads`` (torch threads, default 1; null leaves torch's setting alone)."""
    if game != "reversi":
        raise KeyError(f"imitator bots exist for reversi only, not {game!r}")
    paths = params.get("checkpoints")
    if isinstance(paths, (str, Path)):
        paths = [paths]
    if not paths:
        raise ValueError(f"imitator {bot_id!r}: params.checkpoints must list checkpoint files")
    device = str(params.get("device", "cpu"))
    return ImitatorBot.from_checkpoints(bot_id, list(paths), device=device,
                                        threads=params.get("threads", 1))


def register() -> None:
    """Make ``kind: imitator`` buildable through :func:`ime.bots.registry.make_bot`."""
    from ime.bots.registry import register_kind

    register_kind("imitator", _factory, game="reversi")


register()
