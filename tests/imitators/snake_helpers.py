"""Shared helpers of the Snake search imitator's tests: seeded positions from random games and
a plain maximin without pruning (the reference the alpha-beta search must match)."""

from __future__ import annotations

import numpy as np

from ime.games.snake.encode import make_encoder
from ime.games.snake.game import SnakeGame
from ime.imitators.snake_features import FREE, SnakePosition, features
from ime.imitators.snake_search import TERMINAL

GAME = SnakeGame(width=11, height=10)


def random_planes(n: int, seed: int, max_turn: int = 40) -> tuple[np.ndarray, np.ndarray]:
    """``n`` decisions (planes ``[n, 4, 10, 11]``, legal masks ``[n, 4]``) with a choice (two or
    more legal directions) from seeded random games on seeded boards, each from a random turn
    and seat."""
    rng = np.random.default_rng(seed)
    enc = make_encoder(GAME)
    planes, masks = [], []
    while len(planes) < n:
        st = GAME.new_initial_state(seed=int(rng.integers(1 << 30)))
        stop = int(rng.integers(0, max_turn + 1))
        for _ in range(stop):
            moves = {p: st.valid_actions(p) or st.legal_actions(p) for p in (0, 1)}
            st.apply_actions({p: int(rng.choice(moves[p])) for p in (0, 1)})
            if st.is_terminal():
                break
        if st.is_terminal():
            continue
        seat = int(rng.integers(2))
        obs = enc.encode([st], [seat])
        if obs.mask[0].sum() >= 2:
            planes.append(obs.planes[0])
            masks.append(obs.mask[0])
    return np.stack(planes), np.stack(masks)


def maximin_root(pos: SnakePosition, w: np.ndarray, depth: int, root: list[int]
                 ) -> dict[int, float]:
    """Every root direction's ``depth``-ply value by the module's rules, without pruning."""
    grid = pos.grid.copy()
    deltas = pos.deltas()

    def ours(me: int, to: int, opps: list[int], depth: int) -> float:
        if grid[to] != FREE:
            return -(TERMINAL + depth)
        if depth == 1:
            grid[to] = 2
            v = float(w @ features(grid, pos.stride, to, np.array(opps)))
            grid[to] = FREE
            return v
        vals = []
        for o in opps:
            for d in range(4):
                t = o + deltas[d]
                if t == to:
                    vals.append(0.0)
                elif grid[t] != FREE:
                    vals.append(TERMINAL + depth - 1)
                else:
                    grid[to] = grid[t] = 2
                    if depth == 2:
                        vals.append(float(w @ features(grid, pos.stride, to, np.array([t]))))
                    else:
                        vals.append(max(ours(to, to + deltas[e], [t], depth - 2)
                                        for e in range(4)))
                    grid[to] = grid[t] = FREE
        return min(vals)

    return {d: ours(pos.me, pos.me + deltas[d], [int(o) for o in pos.opps], depth)
            for d in root}
