"""Expert rule systems (numba): Fig 2.4's ES family, depth 1 or no search at all.

Every style starts with the same safety sieve, the rule a human writes first: among the valid
directions keep those whose new cell has a free exit and that the opponent's head cannot also
enter (no head-on), else those with a free exit, else any valid one. Then each style ranks what
is left by its own rules (ties: the lower direction):

* ``rules`` (Fig 2.4 depth N/A, no look-ahead): most free exits, then keep the heading, then
  nearer the centre;
* ``space`` (depth 1): the most room after the move (flood fill, :func:`board.area_after`),
  then nearer the opponent's head (cut it off);
* ``hug`` (depth 1): room at least ``min(length, best room)``, then the fewest free exits
  (follow walls and bodies, keeping the open space for later), then keep the heading;
* ``straight`` (depth 1): keep the heading, else turn clockwise, else anticlockwise.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ime.core.bot import DecisionContext
from ime.games.snake import board as B
from ime.games.snake.bots import kernels as K
from ime.games.snake.bots.common import ZooBot, check_choice

STYLES = {"rules": 0, "space": 1, "hug": 2, "straight": 3}


@njit(cache=True)
def safe_sieve(S: np.ndarray, p: int, valid: int) -> int:
    """The safety sieve of the module doc over ``valid`` (not empty)."""
    exit_ok = 0
    calm = 0
    for d in range(4):
        if (valid >> d) & 1 and K.exits(S, p, d) > 0:
            exit_ok |= 1 << d
            if not K.head_risk(S, p, d):
                calm |= 1 << d
    if calm:
        return calm
    if exit_ok:
        return exit_ok
    return valid


@njit(cache=True)
def heading(S: np.ndarray, p: int) -> int:
    """The direction of snake ``p``'s last move (-1 while it has one cell)."""
    n = S[B.I_LEN + p]
    if n < 2:
        return -1
    stride = S[B.I_STRIDE]
    diff = B.segment(S, p, n - 1) - B.segment(S, p, n - 2)
    for d in range(4):
        if B.delta(d, stride) == diff:
            return d
    return -1


@njit(cache=True)
def expert_move(S: np.ndarray, p: int, style: int) -> int:
    """The direction style ``style`` plays for snake ``p`` (which has a valid one)."""
    m = safe_sieve(S, p, B.valid_mask(S, p))
    stride = S[B.I_STRIDE]
    h = B.head(S, p)
    oh = B.head(S, 1 - p)
    hd = heading(S, p)
    cx2 = S[B.I_H] + 1  # twice the centre's row / column
    cy2 = S[B.I_W] + 1
    room = np.full(4, -1, np.int64)
    best_room = -1
    if style == 1 or style == 2:
        for d in range(4):
            if (m >> d) & 1:
                room[d] = B.area_after(S, p, d)
                best_room = max(best_room, room[d])
    best, best_key = -1, (-(1 << 40), -(1 << 40), -(1 << 40))
    for d in range(4):
        if not (m >> d) & 1:
            continue
        c = h + B.delta(d, stride)
        cx, cy = c // stride, c % stride
        ex = K.exits(S, p, d)
        if style == 0:
            key = (ex, 1 if d == hd else 0, -(abs(2 * cx - cx2) + abs(2 * cy - cy2)))
        elif style == 1:
            dist = abs(cx - oh // stride) + abs(cy - oh % stride)
            key = (room[d], -dist, 0)
        elif style == 2:
            enough = 1 if room[d] >= min(S[B.I_LEN + p], best_room) else 0
            key = (enough, -ex, 1 if d == hd else 0)
        else:
            turn = 3 if d == hd else (2 if hd >= 0 and d == (hd + 1) % 4 else
                                      (1 if hd >= 0 and d == (hd + 3) % 4 else 0))
            key = (turn, 0, 0)
        if key > best_key:
            best, best_key = d, key
    return best


class ExpertBot(ZooBot):
    """A deterministic rule system (see the module doc for the ``style`` values)."""

    family = "expert"

    def __init__(self, bot_id: str = "expert", style: str = "space"):
        super().__init__(bot_id)
        self.style = STYLES[check_choice("style", style, STYLES)]

    def decide(self, S: np.ndarray, me: int, valid: int, ctx: DecisionContext) -> int:
        return int(expert_move(S, me, self.style))
