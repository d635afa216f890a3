"""A first Snake encoder for the nets: the thesis's four planes, padded to the largest board.

Issue 15 part 3 owns the encoder (an egocentric-crop option, the config switch, the nets of
Table 2.2); this one exists so that every stage and the plug-in contract tests can run on Snake
now. Planes ``uint8[5, 16, 12]`` (the judge's largest board, height x width), cell ``(x, y)``
at row ``x - 1``, column ``y - 1``:

0. the observed player's head, 1. the rest of its body, 2. the opponent's whole snake,
3. obstacles, 4. cells off this match's board (the padding).

One action head ``direction`` (4 codes: 0 = x-1, 1 = y+1, 2 = x+1, 3 = y-1) whose mask is the
engine's legal directions (the valid ones, or all four when the snake is boxed in). Both
players move at once, so ``encode`` needs the deciding seat.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from ime.core.encoding import ActionHead, Encoder, Observation
from ime.core.game import Action, State
from ime.games.snake import board as B

ENCODER_VERSION = "snake-pad-v0"
PLANES = 5


class SnakePadEncoder(Encoder):
    """Four planes plus an off-board plane on a fixed 16 x 12 grid, one 4-way head."""

    def __init__(self) -> None:
        super().__init__(
            version=ENCODER_VERSION,
            heads=(ActionHead("direction", 4, "0 = x-1, 1 = y+1, 2 = x+1, 3 = y-1"),),
            state_shape=(PLANES, B.MAX_H, B.MAX_W),
        )

    def encode(self, states: Sequence[State], players: Sequence[int] | None = None,
               actions: Sequence[Action] | None = None) -> Observation:
        if players is None:
            raise ValueError("Snake is simultaneous: encode needs the deciding seat of each state")
        planes = np.zeros((len(states), PLANES, B.MAX_H, B.MAX_W), np.uint8)
        planes[:, 4] = 1
        mask = np.zeros((len(states), 4), np.uint8)
        for i, (s, p) in enumerate(zip(states, players, strict=True)):
            h, w = s.height, s.width  # type: ignore[attr-defined]
            S = s.S  # type: ignore[attr-defined]
            n = (h + 2) * (w + 2)
            cells = S[B.OFF_CELLS:B.OFF_CELLS + n].reshape(h + 2, w + 2)[1:h + 1, 1:w + 1]
            planes[i, 1, :h, :w] = cells == B.SNAKE0 + p
            planes[i, 2, :h, :w] = cells == B.SNAKE1 - p
            planes[i, 3, :h, :w] = cells == B.OBSTACLE
            planes[i, 4, :h, :w] = 0
            hx, hy = divmod(int(B.head(S, p)), w + 2)
            planes[i, 1, hx - 1, hy - 1] = 0
            planes[i, 0, hx - 1, hy - 1] = 1
            if not S[B.I_DEAD]:
                m = B.legal_mask(S, p)
                mask[i] = [(m >> d) & 1 for d in range(4)]
        return Observation(planes, [mask])

    def action_codes(self, states: Sequence[State], players: Sequence[int],
                     actions: Sequence[Action]) -> np.ndarray:
        return np.asarray([int(a) for a in actions], dtype=np.int64).reshape(-1, 1)

    def decode(self, state: State, player: int, codes: Sequence[int]) -> Action:
        return int(codes[0])
