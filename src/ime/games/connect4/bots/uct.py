"""Seed 002's agent: UCT Monte-Carlo tree search with heuristic rollouts (numba).

What the report (``shared/seeds/002_*.txt``, ch. 3 and 5) describes, and how it is kept here:

* **UCB1.** A child is chosen by ``I_j = X_j + C sqrt(2 ln n / T_j)`` with ``C = 0.707``
  (``c``), ``n`` the root's count and ``T_j`` the child's.
* **Accounting (5.2).** Every simulation adds 2 to the count of each node on its path, and 2
  to its score for a win of the player who moved into that node, 1 for a draw, 0 for a loss;
  ``X_j = score / count`` is then that player's win rate (5.2's "own node: wins / T, enemy
  node: (T - wins) / T"). ``n`` is the root's count in the same doubled unit.
* **Incremental UCB terms (3.5).** Each node keeps ``UCBa = score / T`` and ``UCBb = sqrt(1 /
  T)``, updated only when the node is on the path; ``XL = C sqrt(2 ln n)`` is one global value
  updated once per simulation, and ``I_j = UCBa + UCBb * XL``.
* **Winning moves (3.4 (1)).** In selection, a node whose side to move can win at once always
  takes that move, whether or not the node is fully expanded, without expansion or simulation
  (``win_in_selection``).
* **Heuristic rollouts (3.4 (2)).** A rollout move that wins at once is taken; otherwise a move
  that blocks the opponent's immediate win; otherwise a uniformly random column
  (``heuristic_rollouts``). Section 7.1: this took the win rate against the course's strongest
  program from about 30% to 90%.
* **One board per simulation (3.6).** Nodes store no board; each simulation starts from the
  root position again (two local bitboards, reset, then played along the path).
* **Budget** is a number of simulations (the report used a 1.8 s clock; a clock would make a
  decision irreproducible).

Not in the report, so chosen here: an expanded node adds one untried column at random; the move
played is the root child with the most visits (ties: higher score, then the centre-first
column order). Plain UCT is the same kind with ``win_in_selection`` and ``heuristic_rollouts``
off.

Boards over 64 bits (the course's 9-12 boards) run ``uct_search_wide``: the same search, line
for line, on the three-word bitboards of ``wide`` (a separate kernel, so the one-word search
keeps its speed).
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit

from ime.core.bot import Bot, DecisionContext, decision_rng
from ime.games.connect4 import wide as wd
from ime.games.connect4.board import (
    G_CELLS,
    G_WIDTH,
    ONE,
    U64,
    ZERO,
    bit_column,
    column_cells,
    has_four,
    lowest_bit_index,
    possible,
    random_bit,
    winning_cells,
)

OPEN, WON, DRAWN = 0, 1, 2
"""Node states: not over, won by the player who moved into it, a draw."""


@njit(cache=True, inline="always")
def _columns(moves, g):
    """Bit ``c`` set for every column ``c`` with a cell in ``moves``."""
    out = ZERO
    while moves != ZERO:
        m = moves & (~moves + ONE)
        moves ^= m
        out |= ONE << U64(bit_column(m, g))
    return out


@njit(cache=True)
def rollout(me, opp, g, heuristic):
    """Play at random to the end from a position with ``me`` to move: 2 if ``me`` wins, 1 for a
    draw, 0 if it loses. ``heuristic``: win at once when possible, else block."""
    side = 0
    while True:
        moves = possible(me, opp, g)
        if moves == ZERO:
            return np.int64(1)
        if heuristic:
            if winning_cells(me, me, opp, g) & moves:
                return np.int64(2) if side == 0 else np.int64(0)
            threats = winning_cells(opp, me, opp, g) & moves
            me |= random_bit(threats) if threats != ZERO else random_bit(moves)
        else:
            me |= random_bit(moves)
            if has_four(me, g):
                return np.int64(2) if side == 0 else np.int64(0)
        me, opp = opp, me
        side ^= 1


@njit(cache=True)
def uct_search(me, opp, g, order, simulations, c, win_in_selection, heuristic_rollouts, seed,
               info):
    """Column to play for the side owning ``me``; ``info`` receives (visits of that child,
    nodes in the tree, the child's score / count)."""
    np.random.seed(seed)
    width = np.int64(g[G_WIDTH])
    cap = simulations + 2
    children = np.full((cap, width), -1, dtype=np.int32)
    untried = np.zeros(cap, dtype=np.uint64)
    state = np.zeros(cap, dtype=np.int8)
    count = np.zeros(cap, dtype=np.float64)
    score = np.zeros(cap, dtype=np.float64)
    ucba = np.zeros(cap, dtype=np.float64)
    ucbb = np.zeros(cap, dtype=np.float64)
    path = np.zeros(128, dtype=np.int32)
    untried[0] = _columns(possible(me, opp, g), g)
    nodes = 1
    xl = 0.0
    for _ in range(simulations):
        p, o = me, opp  # the one board, reset to the root position
        node = 0
        depth = 0
        path[0] = 0
        result = np.int64(1)  # for the root player: 2 win, 1 draw, 0 loss
        while True:
            if state[node] != OPEN:
                if state[node] == DRAWN:
                    result = np.int64(1)
                else:  # the player who moved into the node won; it is the root player iff odd
                    result = np.int64(2) if depth % 2 == 1 else np.int64(0)
                break
            moves = possible(p, o, g)
            col = np.int64(-1)
            if win_in_selection:
                wins = winning_cells(p, p, o, g) & moves
                if wins != ZERO:
                    col = bit_column(wins, g)
            fresh = False
            if col < 0 and untried[node] != ZERO:
                col = lowest_bit_index(random_bit(untried[node]))
                fresh = True
            if col >= 0:
                child = children[node, col]
                if child < 0:
                    child = nodes
                    nodes += 1
                    children[node, col] = child
                    untried[node] &= ~(ONE << U64(col))
                    p2 = p | (moves & column_cells(col, g))
                    if has_four(p2, g):
                        state[child] = WON
                    elif possible(o, p2, g) == ZERO:
                        state[child] = DRAWN
                    else:
                        untried[child] = _columns(possible(o, p2, g), g)
                    fresh = True
                p, o = o, p | (moves & column_cells(col, g))
                node = child
                depth += 1
                path[depth] = node
                if fresh and state[node] == OPEN:
                    r = rollout(p, o, g, heuristic_rollouts)  # for the side to move at node
                    result = r if depth % 2 == 0 else 2 - r
                    break
                continue
            best = np.int64(-1)
            best_v = -1e300
            for i in range(width):
                ch = children[node, i]
                if ch >= 0:
                    v = ucba[ch] + ucbb[ch] * xl
                    if v > best_v:
                        best_v = v
                        best = i
            child = children[node, best]
            p, o = o, p | (moves & column_cells(best, g))
            node = child
            depth += 1
            path[depth] = node
        for k in range(depth + 1):
            nd = path[k]
            count[nd] += 2.0
            score[nd] += result if k % 2 == 1 else 2 - result
            ucba[nd] = score[nd] / count[nd]
            ucbb[nd] = math.sqrt(1.0 / count[nd])
        xl = c * math.sqrt(2.0 * math.log(count[0]))
    best = np.int64(-1)
    for i in range(width):
        col = order[i]
        ch = children[0, col]
        if ch < 0:
            continue
        if best < 0 or count[ch] > count[children[0, best]] or (
                count[ch] == count[children[0, best]]
                and score[ch] > score[children[0, best]]):
            best = col
    if best >= 0:
        ch = children[0, best]
        info[0] = count[ch] / 2.0
        info[2] = score[ch] / count[ch] if count[ch] > 0 else 0.0
    info[1] = nodes
    return best


# --- the same search on wide boards (three-word bitboards, ``wide``) ----------------------------
@njit(cache=True, inline="always")
def _columns_wide(moves, g):
    out = ZERO
    while wd.w_any(moves):
        out |= ONE << U64(wd.bit_column(moves, g))
        moves = wd.w_drop_lowest(moves)
    return out


@njit(cache=True)
def rollout_wide(me, opp, g, gw, heuristic):
    """:func:`rollout` on a wide board."""
    side = 0
    while True:
        moves = wd.possible(me, opp, gw)
        if not wd.w_any(moves):
            return np.int64(1)
        if heuristic:
            if wd.w_any(wd.w_and(wd.winning_cells(me, me, opp, g, gw), moves)):
                return np.int64(2) if side == 0 else np.int64(0)
            threats = wd.w_and(wd.winning_cells(opp, me, opp, g, gw), moves)
            pick = wd.random_bit(threats) if wd.w_any(threats) else wd.random_bit(moves)
            me = wd.w_or(me, pick)
        else:
            me = wd.w_or(me, wd.random_bit(moves))
            if wd.has_four(me, g):
                return np.int64(2) if side == 0 else np.int64(0)
        me, opp = opp, me
        side ^= 1


@njit(cache=True)
def uct_search_wide(me, opp, g, gw, order, simulations, c, win_in_selection,
                    heuristic_rollouts, seed, info):
    """:func:`uct_search` on a wide board (``me``, ``opp``: word triples)."""
    np.random.seed(seed)
    width = np.int64(g[G_WIDTH])
    cap = simulations + 2
    children = np.full((cap, width), -1, dtype=np.int32)
    untried = np.zeros(cap, dtype=np.uint64)
    state = np.zeros(cap, dtype=np.int8)
    count = np.zeros(cap, dtype=np.float64)
    score = np.zeros(cap, dtype=np.float64)
    ucba = np.zeros(cap, dtype=np.float64)
    ucbb = np.zeros(cap, dtype=np.float64)
    path = np.zeros(np.int64(g[G_CELLS]) + 2, dtype=np.int32)
    untried[0] = _columns_wide(wd.possible(me, opp, gw), g)
    nodes = 1
    xl = 0.0
    for _ in range(simulations):
        p, o = me, opp  # the one board, reset to the root position
        node = 0
        depth = 0
        path[0] = 0
        result = np.int64(1)  # for the root player: 2 win, 1 draw, 0 loss
        while True:
            if state[node] != OPEN:
                if state[node] == DRAWN:
                    result = np.int64(1)
                else:  # the player who moved into the node won; it is the root player iff odd
                    result = np.int64(2) if depth % 2 == 1 else np.int64(0)
                break
            moves = wd.possible(p, o, gw)
            col = np.int64(-1)
            if win_in_selection:
                wins = wd.w_and(wd.winning_cells(p, p, o, g, gw), moves)
                if wd.w_any(wins):
                    col = wd.bit_column(wins, g)
            fresh = False
            if col < 0 and untried[node] != ZERO:
                col = lowest_bit_index(random_bit(untried[node]))
                fresh = True
            if col >= 0:
                cell = wd.w_and(moves, wd.column_cells(col, gw))
                child = children[node, col]
                if child < 0:
                    child = nodes
                    nodes += 1
                    children[node, col] = child
                    untried[node] &= ~(ONE << U64(col))
                    p2 = wd.w_or(p, cell)
                    if wd.has_four(p2, g):
                        state[child] = WON
                    else:
                        nxt = wd.possible(o, p2, gw)
                        if not wd.w_any(nxt):
                            state[child] = DRAWN
                        else:
                            untried[child] = _columns_wide(nxt, g)
                    fresh = True
                p, o = o, wd.w_or(p, cell)
                node = child
                depth += 1
                path[depth] = node
                if fresh and state[node] == OPEN:
                    r = rollout_wide(p, o, g, gw, heuristic_rollouts)  # side to move at node
                    result = r if depth % 2 == 0 else 2 - r
                    break
                continue
            best = np.int64(-1)
            best_v = -1e300
            for i in range(width):
                ch = children[node, i]
                if ch >= 0:
                    v = ucba[ch] + ucbb[ch] * xl
                    if v > best_v:
                        best_v = v
                        best = i
            child = children[node, best]
            p, o = o, wd.w_or(p, wd.w_and(moves, wd.column_cells(best, gw)))
            node = child
            depth += 1
            path[depth] = node
        for k in range(depth + 1):
            nd = path[k]
            count[nd] += 2.0
            score[nd] += result if k % 2 == 1 else 2 - result
            ucba[nd] = score[nd] / count[nd]
            ucbb[nd] = math.sqrt(1.0 / count[nd])
        xl = c * math.sqrt(2.0 * math.log(count[0]))
    best = np.int64(-1)
    for i in range(width):
        col = order[i]
        ch = children[0, col]
        if ch < 0:
            continue
        if best < 0 or count[ch] > count[children[0, best]] or (
                count[ch] == count[children[0, best]]
                and score[ch] > score[children[0, best]]):
            best = col
    if best >= 0:
        ch = children[0, best]
        info[0] = count[ch] / 2.0
        info[2] = score[ch] / count[ch] if count[ch] > 0 else 0.0
    info[1] = nodes
    return best


class UCTBot(Bot):
    """Seed 002's UCT agent (see the module docstring); plain UCT with both rules off."""

    deterministic = False

    def __init__(self, bot_id: str = "uct", simulations: int = 2000, c: float = 0.707,
                 heuristic_rollouts: bool = True, win_in_selection: bool = True):
        if int(simulations) < 1:
            raise ValueError(f"uct needs simulations >= 1, got {simulations}")
        self.bot_id = bot_id
        self.simulations = int(simulations)
        self.c = float(c)
        self.heuristic_rollouts = bool(heuristic_rollouts)
        self.win_in_selection = bool(win_in_selection)
        self.info = np.zeros(3, dtype=np.float64)

    def act(self, state, ctx: DecisionContext) -> int:
        me, opp = state.own_opp(ctx.player)
        geo = state.game.geometry
        seed = int(decision_rng(ctx, "uct").integers(1 << 31))
        if geo.wide:
            return int(uct_search_wide(wd.to_words(me), wd.to_words(opp), geo.g, geo.gw,
                                       geo.order, self.simulations, self.c,
                                       self.win_in_selection, self.heuristic_rollouts, seed,
                                       self.info))
        col = uct_search(U64(me), U64(opp), geo.g, geo.order, self.simulations, self.c,
                         self.win_in_selection, self.heuristic_rollouts, seed, self.info)
        return int(col)
