"""Acting with the DMC Q-networks: encode one seat's view, score every legal action, pick one.

Shared by the self-play actors (epsilon-greedy), the ``gz_dmc`` bot (greedy) and evaluation, so
the policy that was trained is exactly the policy that is evaluated.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import torch

from ime.games.gongzhu import rules as R
from ime.games.gongzhu.agents.features import (
    dmc_play_features,
    dmc_show_features,
    play_action_features,
    seat_view,
    show_action_features,
)
from ime.games.gongzhu.agents.models import PlayQNet, ShowQNet


@dataclass
class Decision:
    """One decision's encoded inputs (what a self-play actor stores) and the chosen action."""

    kind: str  # "play" or "show"
    action: int
    x: np.ndarray
    a: np.ndarray  # the chosen action's features
    z: np.ndarray | None  # play histories (play phase only)


class DMCAgent:
    """The Q-networks of one DMC agent (play phase and show phase): one pair for every seat, or
    (the seed's layout) one pair per position A..D, A being the club-2 holder; a seat acts with
    the pair of its position ``(seat - first_seat) % 4``."""

    def __init__(self, play: PlayQNet | list[PlayQNet], show: ShowQNet | list[ShowQNet]):
        self.per_position = isinstance(play, list)
        if self.per_position != isinstance(show, list) or (
                self.per_position and not len(play) == len(show) == 4):
            raise ValueError("DMCAgent: give one play and one show net, or four of each")
        self.plays = [n.eval() for n in play] if isinstance(play, list) else [play.eval()]
        self.shows = [n.eval() for n in show] if isinstance(show, list) else [show.eval()]
        self.play = self.plays[0]
        self.show = self.shows[0]

    def _nets(self, state: R.GongzhuState, seat: int) -> tuple[PlayQNet, ShowQNet]:
        if not self.per_position:
            return self.play, self.show
        pos = (seat - state.first_seat) % 4
        return self.plays[pos], self.shows[pos]

    @torch.inference_mode()
    def q_values(self, state: R.GongzhuState, seat: int, legal: list[int]) -> np.ndarray:
        """Q of each action in ``legal`` for ``seat`` (the seat to move)."""
        return self._q(state, seat, legal)[0]

    def _q(self, state: R.GongzhuState, seat: int, legal: list[int]):
        view = seat_view(state, seat)
        play, show = self._nets(state, seat)
        if legal[0] >= R.SHOW_BASE:
            x = dmc_show_features(view)
            a = show_action_features(legal)
            q = show(torch.from_numpy(x)[None], torch.from_numpy(a))
            return q.numpy(), "show", x, a, None
        x, z = dmc_play_features(view)
        a = play_action_features(legal)
        hz = play.encode_history(torch.from_numpy(z)[None])
        q = play.head(hz, torch.from_numpy(x)[None], torch.from_numpy(a))
        return q.numpy(), "play", x, a, z

    @torch.inference_mode()
    def decide(
        self,
        state: R.GongzhuState,
        seat: int,
        epsilon: float = 0.0,
        rng: np.random.Generator | None = None,
    ) -> Decision:
        """Greedy (ties: the lowest action id) or, with probability ``epsilon``, a uniformly
        random legal action drawn from ``rng``."""
        legal = R.legal_actions(state)
        if len(legal) == 1:
            i = 0
            q, kind, x, a, z = self._encode_only(state, seat, legal)
        else:
            q, kind, x, a, z = self._q(state, seat, legal)
            if epsilon > 0 and rng is not None and rng.random() < epsilon:
                i = int(rng.integers(len(legal)))
            else:
                i = int(np.argmax(q))
        return Decision(kind=kind, action=legal[i], x=x, a=a[i], z=z)

    def _encode_only(self, state: R.GongzhuState, seat: int, legal: list[int]):
        """A forced move needs no network, but self-play still records it as a sample."""
        view = seat_view(state, seat)
        if legal[0] >= R.SHOW_BASE:
            return None, "show", dmc_show_features(view), show_action_features(legal), None
        x, z = dmc_play_features(view)
        return None, "play", x, play_action_features(legal), z

    def act(self, state: R.GongzhuState, seat: int) -> int:
        """The greedy action (what the ``gz_dmc`` bot plays)."""
        legal = R.legal_actions(state)
        if len(legal) == 1:
            return legal[0]
        return legal[int(np.argmax(self.q_values(state, seat, legal)))]

    # ---- checkpoints ----------------------------------------------------------------------------
    def to_checkpoint(self) -> dict:
        """A small, self-describing bot checkpoint (configs + weights, no optimizer); a
        per-position agent stores a list of four state dicts under ``play`` and ``show``."""
        if self.per_position:
            return {
                "kind": "gongzhu-dmc",
                "per_position": True,
                "play_config": self.play.config,
                "show_config": self.show.config,
                "play": [n.state_dict() for n in self.plays],
                "show": [n.state_dict() for n in self.shows],
            }
        return {
            "kind": "gongzhu-dmc",
            "play_config": self.play.config,
            "show_config": self.show.config,
            "play": self.play.state_dict(),
            "show": self.show.state_dict(),
        }

    @classmethod
    def from_checkpoint(cls, ckpt: dict) -> DMCAgent:
        if ckpt.get("kind") != "gongzhu-dmc":
            raise ValueError(f"not a Gongzhu DMC checkpoint (kind={ckpt.get('kind')!r})")
        if ckpt.get("per_position"):
            plays, shows = [], []
            for sd_play, sd_show in zip(ckpt["play"], ckpt["show"], strict=True):
                plays.append(PlayQNet(**ckpt["play_config"]))
                shows.append(ShowQNet(**ckpt["show_config"]))
                plays[-1].load_state_dict(sd_play)
                shows[-1].load_state_dict(sd_show)
            return cls(plays, shows)
        play = PlayQNet(**ckpt["play_config"])
        show = ShowQNet(**ckpt["show_config"])
        play.load_state_dict(ckpt["play"])
        show.load_state_dict(ckpt["show"])
        return cls(play, show)

    @classmethod
    def load(cls, path: str) -> DMCAgent:
        return cls.from_checkpoint(torch.load(path, map_location="cpu", weights_only=False))
