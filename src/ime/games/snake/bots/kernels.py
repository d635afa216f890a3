"""Numba kernels every zoo family shares: move sieves, the evaluation, and rollouts.

They work on the engine's state vector ``S`` (:mod:`ime.games.snake.board`) and never touch
the caller's copy unless they say so. Values follow two conventions:

* **search values** (alpha-beta, DFS): ``float64`` from one player's side, ``+WIN`` for a win,
  ``-WIN`` for a loss, ``0`` for the judge's 1/1 draw, otherwise an evaluation of a few hundred
  at most (cell counts);
* **rollout values** (MCTS, NE, MC): snake 0's share of the points in ``[0, 1]``: ``1`` when
  snake 1 alone dies, ``0.5`` for a draw; a rollout cut at a horizon maps the evaluation to
  ``0.5 + 0.5 tanh(diff / EVAL_SCALE)``.

Randomness comes only from a SplitMix64 stream (``board.splitmix``) seeded by the bot from
``decision_rng(ctx)``, so every decision is reproducible from (seed, match, ply, player).
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit

from ime.games.snake import board as B

WIN = 1.0e6
"""Search value of a won position (a loss is ``-WIN``); wins found sooner score a little more."""
EVAL_SCALE = 40.0
"""Cells of evaluation difference that make a cut rollout worth ``0.5 + 0.5 tanh(1)``."""

EVAL_VORONOI, EVAL_AREA, EVAL_OWN, EVAL_TAIL = 0, 1, 2, 3
"""Evaluations: cells nearer to us than to the opponent minus the reverse (two-source BFS);
our reachable area minus the opponent's; our reachable area alone; the Voronoi difference
where a body cell counts as free from the turn its segment leaves (:func:`voronoi_tail`)."""

EVALS = {"voronoi": EVAL_VORONOI, "area": EVAL_AREA, "own": EVAL_OWN, "tail": EVAL_TAIL}
"""Evaluations by name (the bots' ``eval`` parameter)."""
DIFF_EVALS = {k: v for k, v in EVALS.items() if k != "own"}
"""The evaluations that are differences, so ``-eval(me) == eval(opponent)``: the ones a
rollout cut may use (it values the position for snake 0 and gives snake 1 the rest)."""

POLICY_RANDOM, POLICY_SAFE, POLICY_EVAL = 0, 1, 2
"""Rollout policies: uniform over the valid directions; the same but avoiding a cell with no
free exit when another valid direction has one; no rollout at all (the position is valued at
once by the Voronoi difference, squashed)."""


# --- small geometry ------------------------------------------------------------------------------
@njit(cache=True)
def popcount4(m: int) -> int:
    """Bits set among the four direction bits of ``m``."""
    return (m & 1) + ((m >> 1) & 1) + ((m >> 2) & 1) + ((m >> 3) & 1)


@njit(cache=True)
def nth_bit(m: int, k: int) -> int:
    """The direction of the ``k``-th set bit of ``m`` (0-based), -1 if there is none."""
    for d in range(4):
        if (m >> d) & 1:
            if k == 0:
                return d
            k -= 1
    return -1


@njit(cache=True)
def lowest_bit(m: int) -> int:
    """The lowest direction in ``m`` (0 when ``m`` is empty: any answer of a boxed-in snake)."""
    for d in range(4):
        if (m >> d) & 1:
            return d
    return 0


@njit(cache=True)
def free_after_tails(S: np.ndarray, c: int) -> bool:
    """Whether cell ``c`` is free for a head this turn (empty, or a tail that goes first)."""
    if S[B.OFF_CELLS + c] == B.EMPTY:
        return True
    if B.grows(S[B.I_PLY]):
        return False
    return c == B.tail(S, 0) or c == B.tail(S, 1)


@njit(cache=True)
def exits(S: np.ndarray, p: int, d: int) -> int:
    """Free neighbours of the cell snake ``p`` enters with ``d`` this turn (this turn's tails
    gone, the entered cell and the old head taken): 0 means it is boxed in next turn unless a
    tail moves away. Positive exactly when :func:`board.area_after` is."""
    stride = S[B.I_STRIDE]
    c = B.head(S, p) + B.delta(d, stride)
    n = 0
    for e in range(4):
        nb = c + B.delta(e, stride)
        if free_after_tails(S, nb):
            n += 1
    return n


@njit(cache=True)
def head_risk(S: np.ndarray, p: int, d: int) -> bool:
    """Whether the opponent's head could enter the same cell as snake ``p``'s move ``d``
    (a head-on collision: both die, 1/1)."""
    stride = S[B.I_STRIDE]
    c = B.head(S, p) + B.delta(d, stride)
    diff = abs(c - B.head(S, 1 - p))
    return diff == 1 or diff == stride


@njit(cache=True)
def pruned_mask(S: np.ndarray, p: int) -> int:
    """Dead-end pruning: the valid directions of ``p`` less those whose room
    (:func:`board.area_after`) is below ``min(length, best room)``, so a move into a pocket
    too small for the snake is dropped whenever another move has more room. 0 when boxed in."""
    m = B.valid_mask(S, p)
    if popcount4(m) < 2:
        return m
    areas = np.full(4, -1, np.int64)
    best = -1
    for d in range(4):
        if (m >> d) & 1:
            areas[d] = B.area_after(S, p, d)
            best = max(best, areas[d])
    need = min(S[B.I_LEN + p], best)
    out = 0
    for d in range(4):
        if areas[d] >= need:
            out |= 1 << d
    return out


@njit(cache=True)
def moves_or_one(m: int) -> int:
    """``m``, or direction 0 alone when ``m`` is empty (a boxed-in snake: every answer loses,
    so a search tries one of them)."""
    return m if m else 1


# --- evaluation ----------------------------------------------------------------------------------
@njit(cache=True)
def _seed_heads(S: np.ndarray, me: int, n: int, dist: np.ndarray,
                owner: np.ndarray) -> tuple[int, int]:
    """Start a two-source BFS: every cell unvisited, ``me``'s head owned by 0 and the
    opponent's by 1, both at distance 0; returns the two heads."""
    for i in range(n):
        dist[i] = -1
    h0 = B.head(S, me)
    h1 = B.head(S, 1 - me)
    dist[h0] = 0
    owner[h0] = 0
    dist[h1] = 0
    owner[h1] = 1
    return h0, h1


@njit(cache=True)
def voronoi(S: np.ndarray, me: int, dist: np.ndarray, owner: np.ndarray,
            queue: np.ndarray) -> int:
    """Cells snake ``me`` reaches strictly before the opponent minus the reverse (a
    two-source BFS over empty cells from both heads; a tie at equal distance counts for
    neither, nor do cells reached only through a tie). Scratch arrays of the grid's size."""
    stride = S[B.I_STRIDE]
    n = (S[B.I_H] + 2) * stride
    h0, h1 = _seed_heads(S, me, n, dist, owner)
    queue[0] = h0
    queue[1] = h1
    lo, hi = 0, 2
    score = 0
    while lo < hi:
        c = queue[lo]
        lo += 1
        for d in range(4):
            nb = c + B.delta(d, stride)
            if S[B.OFF_CELLS + nb] != B.EMPTY:
                continue
            if dist[nb] < 0:
                dist[nb] = dist[c] + 1
                owner[nb] = owner[c]
                queue[hi] = nb
                hi += 1
                if owner[c] == 0:
                    score += 1
                elif owner[c] == 1:
                    score -= 1
            elif dist[nb] == dist[c] + 1 and owner[nb] != owner[c] and owner[nb] != 2:
                score += -1 if owner[nb] == 0 else 1
                owner[nb] = 2
    return score


@njit(cache=True)
def voronoi_tail(S: np.ndarray, me: int, dist: np.ndarray, owner: np.ndarray,
                 queue: np.ndarray) -> int:
    """:func:`voronoi` with tails: segment ``k`` (0 = tail) of either snake leaves before the
    heads move on the ``k + 1``-th shrinking turn from now, so a head ``d`` steps away may
    enter its cell once ``d`` turns hold that many shrinks (waiting in its own region until
    then). A bucket queue by distance (Dial) keeps the two-source ownership of
    :func:`voronoi`."""
    stride = S[B.I_STRIDE]
    n = (S[B.I_H] + 2) * stride
    ply = S[B.I_PLY]
    big = 1 << 20
    # free_at[c]: the first distance at which a head may enter c (0: empty now)
    free_at = np.empty(n, np.int32)
    for c in range(n):
        free_at[c] = 0 if S[B.OFF_CELLS + c] == B.EMPTY else big
    longest = max(S[B.I_LEN], S[B.I_LEN + 1])
    need = np.empty(longest + 1, np.int32)  # need[k]: distance with k shrinks behind it
    k, d = 0, 0
    while k <= longest and d < 4 * longest + 40:
        d += 1
        if not B.grows(ply + d - 1):
            k += 1
            if k <= longest:
                need[k] = d
    while k < longest:  # unreachable in practice: the schedule always shrinks again
        k += 1
        need[k] = big
    for p in range(2):
        for seg in range(S[B.I_LEN + p] - 1):  # the head never leaves
            free_at[B.segment(S, p, seg)] = need[seg + 1]
    # Dial's buckets: bucket b is a linked list through nxt
    top = n + 4 * longest + 48
    first = np.full(top, -1, np.int32)
    nxt = np.empty(n, np.int32)
    h0, h1 = _seed_heads(S, me, n, dist, owner)
    nxt[h0] = h1
    nxt[h1] = -1
    first[0] = h0
    score = 0
    pending = 2
    for b in range(top):
        if pending == 0:
            break
        c = first[b]
        while c >= 0:
            cn = nxt[c]
            pending -= 1
            for e in range(4):
                nb = c + B.delta(e, stride)
                fa = free_at[nb]
                if fa >= big:
                    continue
                nd = max(b + 1, fa)
                if nd >= top:
                    continue
                if dist[nb] < 0:  # buckets go up, so a first distance is final
                    dist[nb] = nd
                    owner[nb] = owner[c]
                    score += 1 if owner[c] == 0 else (-1 if owner[c] == 1 else 0)
                    nxt[nb] = first[nd]
                    first[nd] = nb
                    pending += 1
                elif nd == dist[nb] and owner[nb] != owner[c] and owner[nb] != 2:
                    score += -1 if owner[nb] == 0 else 1
                    owner[nb] = 2
            c = cn
    return score


@njit(cache=True)
def evaluate(S: np.ndarray, me: int, kind: int, dist: np.ndarray, owner: np.ndarray,
             queue: np.ndarray) -> float:
    """Static value of a running position for snake ``me`` (see the ``EVAL_*`` kinds)."""
    if kind == EVAL_VORONOI:
        return float(voronoi(S, me, dist, owner, queue))
    if kind == EVAL_TAIL:
        return float(voronoi_tail(S, me, dist, owner, queue))
    own = B.reachable(S, B.head(S, me))
    if kind == EVAL_OWN:
        return float(own)
    return float(own - B.reachable(S, B.head(S, 1 - me)))


@njit(cache=True)
def terminal_value(dead: int, me: int, ply: int) -> float:
    """Search value for ``me`` of a finished game (a quicker win, a later loss, score more)."""
    if dead == 3:
        return 0.0
    if dead == (1 << me):
        return -WIN + ply
    return WIN - ply


@njit(cache=True)
def share0(dead: int) -> float:
    """Snake 0's share of the points of a finished game: 1, 0.5 (draw) or 0."""
    if dead == 3:
        return 0.5
    return 1.0 if dead == 2 else 0.0


@njit(cache=True)
def squash(diff: float) -> float:
    """An evaluation difference as a share in ``(0, 1)``."""
    return 0.5 + 0.5 * math.tanh(diff / EVAL_SCALE)


@njit(cache=True)
def scratch_arrays() -> tuple:
    """``(dist, owner, queue)`` for :func:`voronoi` / :func:`evaluate` on any board."""
    n = (B.MAX_H + 2) * (B.MAX_W + 2)
    return np.empty(n, np.int32), np.empty(n, np.int8), np.empty(n, np.int32)


def scratch() -> tuple:
    """:func:`scratch_arrays` for Python callers."""
    return scratch_arrays()


# --- rollouts ------------------------------------------------------------------------------------
@njit(cache=True)
def policy_move(S: np.ndarray, p: int, policy: int, st: np.ndarray) -> int:
    """A rollout move of snake ``p``: uniform over its valid directions (all four when boxed
    in); with ``POLICY_SAFE``, over those whose new cell has a free exit, if any has one."""
    m = B.valid_mask(S, p)
    if m == 0:
        return 0
    if policy == POLICY_SAFE and popcount4(m) > 1:
        good = 0
        for d in range(4):
            if (m >> d) & 1 and exits(S, p, d) > 0:
                good |= 1 << d
        if good:
            m = good
    return nth_bit(m, B.below(st, popcount4(m)))


@njit(cache=True)
def rollout(S: np.ndarray, policy: int, horizon: int, ek: int, st: np.ndarray,
            dist: np.ndarray, owner: np.ndarray, queue: np.ndarray) -> tuple:
    """Play ``policy`` for both snakes from ``S`` (in place) until the game ends or
    ``horizon`` turns (0: no horizon). Returns ``(snake 0's share, turns played)``; a cut
    game (at once with ``POLICY_EVAL``) is valued by evaluation ``ek`` for snake 0,
    squashed."""
    turns = 0
    while S[B.I_DEAD] == 0:
        if policy == POLICY_EVAL or (horizon > 0 and turns >= horizon):
            return squash(evaluate(S, 0, ek, dist, owner, queue)), turns
        a0 = policy_move(S, 0, policy, st)
        a1 = policy_move(S, 1, policy, st)
        B.step(S, a0, a1)
        turns += 1
    return share0(S[B.I_DEAD]), turns


@njit(cache=True)
def seat_step(S: np.ndarray, me: int, mine: int, theirs: int) -> int:
    """:func:`board.step` with ``me``'s move and the opponent's, whichever seat ``me`` is."""
    if me == 0:
        return B.step(S, mine, theirs)
    return B.step(S, theirs, mine)
