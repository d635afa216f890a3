"""Shared helpers of the Snake search imitator's tests: seeded positions from random games and
a plain maximin without pruning (the reference the alpha-beta search must match), with the
tails leaving on the turns the growth rule says."""

from __future__ import annotations

from typing import Any

import numpy as np

from ime.games.snake import board as B
from ime.games.snake.board import grows
from ime.games.snake.encode import make_encoder
from ime.games.snake.game import SnakeGame
from ime.imitators.snake_features import BODY, FREE, WALL, SnakePosition, features
from ime.imitators.snake_search import TERMINAL

GAME = SnakeGame(width=11, height=10)


def random_state(rng: np.random.Generator, turns_below: int):
    """A seeded board played at random for ``rng.integers(0, turns_below)`` turns, or ``None``
    when the game ended first (the callers draw again)."""
    st = GAME.new_initial_state(seed=int(rng.integers(1 << 30)))
    for _ in range(int(rng.integers(0, turns_below))):
        moves = {p: st.valid_actions(p) or st.legal_actions(p) for p in (0, 1)}
        st.apply_actions({p: int(rng.choice(moves[p])) for p in (0, 1)})
        if st.is_terminal():
            return None
    return st


def random_seats(seed: int, n: int, turns_below: int = 40):
    """``n`` seeded ``(state, seat)`` pairs: random games of :func:`random_state`, each seen
    from a random seat."""
    rng = np.random.default_rng(seed)
    out = []
    while len(out) < n:
        st = random_state(rng, turns_below)
        if st is not None:
            out.append((st, int(rng.integers(2))))
    return out


def random_planes(n: int, seed: int, max_turn: int = 40, encoder: Any = None
                  ) -> tuple[np.ndarray, np.ndarray]:
    """``n`` decisions (planes ``[n, 4, 10, 11]``, or ``encoder``'s, and legal masks ``[n, 4]``)
    with a choice (two or more legal directions) from seeded random games on seeded boards, each
    from a random turn and seat."""
    rng = np.random.default_rng(seed)
    enc = encoder or make_encoder(GAME)
    planes, masks = [], []
    while len(planes) < n:
        st = random_state(rng, max_turn + 1)
        if st is None:
            continue
        seat = int(rng.integers(2))
        obs = enc.encode([st], [seat])
        if obs.mask[0].sum() >= 2:
            planes.append(obs.planes[0])
            masks.append(obs.mask[0])
    return np.stack(planes), np.stack(masks)


def pop_schedule(length: int, phase: int, turns: int) -> list[bool]:
    """Whether the tails leave at the start of each of the next ``turns`` turns, from the
    engine's growth rule: turn ``length - 1`` while the snakes grow every turn (up to 10 cells),
    then the turn ``phase`` after the last growth (-1: never)."""
    if phase < 0:
        return [False] * turns
    turn = length - 1 if length <= 10 else next(
        t for t in range(10, 1000) if 1 + sum(grows(u) for u in range(t)) == length) + phase
    return [not grows(turn + j) for j in range(turns)]


def maximin_root(pos: SnakePosition, w: np.ndarray, depth: int, root: list[int],
                 phase: int = -1) -> dict[int, float]:
    """Every root direction's ``depth``-ply value by the module's rules (tails leave as tail
    rule ``phase`` says), without pruning, each node on its own copy of the grid. Each snake's
    body order for ``territory_tails`` is carried as a list (its known tail and, where its
    whole order is known, the cells its head leaves), the search's own bookkeeping aside; the
    opponent's only where its head is known at the root."""
    deltas = pos.deltas()
    pop = pop_schedule(pos.length, phase, depth + 2 * pos.length + 10)
    whole_me = len(pos.my_tail) == pos.length - 1
    whole_opp = len(pos.opps) == 1 and len(pos.tails()[0]) == pos.length - 1

    def leaf(grid: np.ndarray, me: int, heads: list[int], mine: list[int],
             theirs: list[int] | None, turn: int) -> float:
        need = [d for d in range(1, len(pop) - turn) if pop[turn + d]]
        return float(w @ features(grid, pos.stride, me, np.array(heads), mine, theirs or (),
                                  need))

    def our_turn(grid: np.ndarray, me: int, tail: tuple[int, ...],
                 opps: list[tuple[int, tuple[int, ...], list[int]]], left: int, turn: int,
                 mine: list[int]) -> dict[int, float]:
        g = grid.copy()
        done = False
        if pop[turn]:
            if tail:
                g[tail[0]] = FREE
                tail, mine = tail[1:], mine[1:]
            if len(opps) == 1:  # a known head: its tail leaves now; else at its own ply
                done = True
                o, t, theirs = opps[0]
                if t:
                    g[t[0]] = FREE
                    opps = [(o, t[1:], theirs[1:])]
        after = mine + [me] if whole_me else mine
        return {d: our_move(g, me + deltas[d], tail, opps, left, turn, done, after)
                for d in range(4)}

    def our_move(g: np.ndarray, to: int, tail: tuple[int, ...],
                 opps: list[tuple[int, tuple[int, ...], list[int]]], left: int, turn: int,
                 done: bool, mine: list[int]) -> float:
        if g[to] != FREE:
            return -(TERMINAL + left)
        if left == 1:
            g1 = g.copy()
            g1[to] = BODY
            return leaf(g1, to, [o for o, _, _ in opps], mine,
                        opps[0][2] if len(opps) == 1 and len(pos.opps) == 1 else None, turn)
        vals = []
        for o, t, theirs in opps:
            g2 = g.copy()
            if pop[turn] and not done and t:
                g2[t[0]] = FREE
                t, theirs = t[1:], theirs[1:]
            after = theirs + [o] if whole_opp else theirs
            for e in range(4):
                x = o + deltas[e]
                if x == to:
                    vals.append(0.0)
                elif g2[x] != FREE:
                    vals.append(TERMINAL + left - 1)
                else:
                    g3 = g2.copy()
                    g3[to] = g3[x] = BODY
                    if left == 2:  # the opponent's order only where its head was known
                        vals.append(leaf(g3, to, [x], mine, after if len(pos.opps) == 1
                                         else None, turn))
                    else:
                        vals.append(max(our_turn(g3, to, tail, [(x, t, after)], left - 2,
                                                 turn + 1, mine).values()))
        return min(vals)

    opps = [(int(o), tuple(int(c) for c in t), [int(c) for c in t])
            for o, t in zip(pos.opps, pos.tails(), strict=True)]
    tail = tuple(int(c) for c in pos.my_tail)
    vals = our_turn(pos.grid, pos.me, tail, opps, depth, 0, list(tail))
    return {d: vals[d] for d in root}


def true_position(S: np.ndarray, me: int, turn: bool = False) -> SnakePosition:
    """The search's position of the engine's state ``S`` for snake ``me`` with everything the
    thesis's planes leave open given: the opponent's true head, both tails' true orders (the
    position a bot that reads the whole state searches), and with ``turn`` the turn too."""
    stride, height = int(S[B.I_STRIDE]), int(S[B.I_H])
    cells = S[B.OFF_CELLS:B.OFF_CELLS + (height + 2) * stride]
    wall = (cells == B.BORDER) | (cells == B.OBSTACLE)
    grid = np.where(cells == B.EMPTY, FREE, np.where(wall, WALL, BODY)).astype(np.int8)
    length = int(S[B.I_LEN + me])
    keep = min(3, length - 1)
    mine = tuple(int(B.segment(S, me, k)) for k in range(keep))
    theirs = tuple(int(B.segment(S, 1 - me, k)) for k in range(keep))
    return SnakePosition(grid, stride, int(B.head(S, me)), np.array([int(B.head(S, 1 - me))]),
                         mine, (theirs,), length, int(S[B.I_PLY]) if turn else -1)
