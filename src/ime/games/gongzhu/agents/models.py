"""The torch networks: the supervised CNN policy and the DMC Q-networks.

* :class:`CNNPolicy` -- a small convolutional net over the ``(C, 4, 13)`` planes of
  :func:`~ime.games.gongzhu.agents.features.cnn_planes` with one 68-way policy head over the
  rules' action space (52 cards + 16 show subsets); illegal actions are masked to ``-inf`` before
  the softmax, so the policy can only put mass on legal actions.
* :class:`PlayQNet` -- the seed's play-phase Q(s, a): one LSTM (shared weights) reads each seat's
  13x52 play history, its four final hidden states are concatenated with the flat 1x52 features
  and the candidate card's one-hot, and an MLP outputs Q. The seed uses 6 hidden layers of 512;
  ``width``/``depth`` are config (default 256 x 3, sized for two shared CPU cores).
* :class:`ShowQNet` -- the show phase's Q(s, a) over the 1x4 show vector, handled apart as in the
  seed (a small MLP; four decisions per game, one per seat).
"""

from __future__ import annotations

import torch
from torch import nn

from ime.games.gongzhu.agents.features import (
    CNN_CHANNELS,
    DMC_X_DIM,
    N_CARDS,
    PLAY_ACTION_DIM,
    SHOW_ACTION_DIM,
    SHOW_X_DIM,
)

N_ACTIONS = 68


def masked_logits(logits: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
    """Logits with illegal actions (``mask == 0``) set to ``-inf``."""
    return logits.masked_fill(mask == 0, float("-inf"))


class CNNPolicy(nn.Module):
    """Conv(3x3) x 2 with batch norm over the 4x13 card pictures, then dense -> 68 logits."""

    def __init__(self, channels: int = 32, hidden: int = 256, in_channels: int = CNN_CHANNELS):
        super().__init__()
        self.config = {"channels": channels, "hidden": hidden, "in_channels": in_channels}
        self.conv = nn.Sequential(
            nn.Conv2d(in_channels, channels, 3, padding=1),
            nn.BatchNorm2d(channels),
            nn.ReLU(),
            nn.Conv2d(channels, channels, 3, padding=1),
            nn.BatchNorm2d(channels),
            nn.ReLU(),
        )
        self.head = nn.Sequential(
            nn.Flatten(),
            nn.Linear(channels * 4 * 13, hidden),
            nn.ReLU(),
            nn.Linear(hidden, N_ACTIONS),
        )

    def forward(self, planes: torch.Tensor, mask: torch.Tensor | None = None) -> torch.Tensor:
        """``planes`` ``(B, C, 4, 13)`` -> logits ``(B, 68)``, masked when ``mask`` is given."""
        logits = self.head(self.conv(planes.float()))
        return logits if mask is None else masked_logits(logits, mask)


def _mlp(n_in: int, width: int, depth: int) -> nn.Sequential:
    layers: list[nn.Module] = []
    for _ in range(depth):
        layers += [nn.Linear(n_in, width), nn.ReLU()]
        n_in = width
    layers.append(nn.Linear(n_in, 1))
    return nn.Sequential(*layers)


class PlayQNet(nn.Module):
    """Q(s, a) of a card play: LSTM over each seat's 13x52 history + MLP (``depth`` x ``width``)."""

    def __init__(self, width: int = 256, depth: int = 3, lstm_hidden: int = 64):
        super().__init__()
        self.config = {"width": width, "depth": depth, "lstm_hidden": lstm_hidden}
        self.lstm = nn.LSTM(N_CARDS, lstm_hidden, batch_first=True)
        self.mlp = _mlp(DMC_X_DIM + 4 * lstm_hidden + PLAY_ACTION_DIM, width, depth)

    def encode_history(self, z: torch.Tensor) -> torch.Tensor:
        """``z`` ``(B, 4, 13, 52)`` -> ``(B, 4 * lstm_hidden)``: each seat's history through the
        shared LSTM, last hidden state (zero rows for unplayed tricks, as in the seed)."""
        b = z.shape[0]
        _, (h, _) = self.lstm(z.float().reshape(b * 4, 13, N_CARDS))
        return h[-1].reshape(b, -1)

    def forward(self, z: torch.Tensor, x: torch.Tensor, a: torch.Tensor) -> torch.Tensor:
        """One Q per row: ``z`` ``(B, 4, 13, 52)``, ``x`` ``(B, DMC_X_DIM)``, ``a`` ``(B, 52)``."""
        return self.head(self.encode_history(z), x, a)

    def head(self, hz: torch.Tensor, x: torch.Tensor, a: torch.Tensor) -> torch.Tensor:
        """The MLP on (history code, state, action); ``hz``/``x`` broadcast over the actions when
        they have one row (acting: one state, many candidate cards)."""
        n = a.shape[0]
        if hz.shape[0] == 1 and n > 1:
            hz, x = hz.expand(n, -1), x.expand(n, -1)
        return self.mlp(torch.cat([hz, x.float(), a.float()], dim=-1)).squeeze(-1)


class ShowQNet(nn.Module):
    """Q(s, a) for the show decision: MLP over the show-phase state and the 1x4 show vector."""

    def __init__(self, width: int = 128, depth: int = 2):
        super().__init__()
        self.config = {"width": width, "depth": depth}
        self.mlp = _mlp(SHOW_X_DIM + SHOW_ACTION_DIM, width, depth)

    def forward(self, x: torch.Tensor, a: torch.Tensor) -> torch.Tensor:
        n = a.shape[0]
        if x.shape[0] == 1 and n > 1:
            x = x.expand(n, -1)
        return self.mlp(torch.cat([x.float(), a.float()], dim=-1)).squeeze(-1)
