"""A UCT search for Connect Four (numba): the Connect Four search imitator's Monte-Carlo mode,
for targets that sample their moves from a tree search rather than take a minimax move.

Why: a fitted alpha-beta takes one column per position, and a Monte-Carlo bot's column is a
draw from its own tree's visits; which column wins the draw depends on how many simulations it
runs, how much it explores and which moves its tree and playouts allow. Those are the settings
this module exposes and :mod:`ime.imitators.connect4_fit` chooses from the logged moves alone.

Plain UCT (Kocsis & Szepesvari 2006) as textbooks give it, with the two Connect Four
enhancements of Teytaud & Teytaud ("On the huge benefit of decisive moves in Monte-Carlo tree
search algorithms", CIG 2010), each a level of a *move rule*:

* rule ``0`` (``any``): every legal column;
* rule ``1`` (``decisive``): a column that makes four at once, when there is one;
* rule ``2`` (``anti_decisive``): as 1, else a column that stops the opponent's four at once.

``tree`` is the rule the tree's nodes allow (a node's children), ``playout`` the rule of the
playout's moves. The rest:

* **Selection**: the child maximising ``W / N + c * sqrt(2 ln N_parent / N)`` (UCB1), ``W`` the
  child's results for the side that moved into it (a win 1, a draw 1/2);
* **Expansion**: one new child a simulation, a uniformly random untried column;
* **Playout**: uniformly random moves among those the playout rule allows, to the end (a
  Connect Four game is at most 42 plies);
* **Decision**: the most visited root column (equal visits: more wins, then the lowest column).

Budgets are simulations, never time, and every draw comes from numba's generator seeded from
the position and the imitator's seed (:func:`ime.core.bits.position_seed`), so a decision is a
pure function of (position, settings, seed): it replays exactly on any worker. Boards of one
64-bit word (:mod:`ime.games.connect4.board`).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ime.core.bits import ctpop, position_seed
from ime.games.connect4.board import (
    G_CELLS,
    ZERO,
    Geometry,
    bit_column,
    has_four,
    possible,
    random_bit,
    winning_cells,
)
from ime.imitators.uct import add_child, reset_root, ucb_child

RULES = ("any", "decisive", "anti_decisive")
"""Move rules of the tree and the playouts, in the kernel's codes 0, 1, 2."""


@njit(cache=True, inline="always")
def _allowed(me, opp, g, rule):
    """The columns' next cells that ``rule`` allows the side to move (``me``); never none while
    a column is open."""
    moves = possible(me, opp, g)
    if rule >= 1 and moves != ZERO:
        win = moves & winning_cells(me, me, opp, g)
        if win != ZERO:
            return win
        if rule >= 2:
            block = moves & winning_cells(opp, me, opp, g)
            if block != ZERO:
                return block
    return moves


@njit(cache=True)
def _playout(me, opp, g, rule, cells):
    """The result for the side to move (``me``) of a playout to the end: 1, 1/2 or 0."""
    sign = 1
    filled = ctpop(me | opp)
    while True:
        moves = _allowed(me, opp, g, rule)
        if moves == ZERO:
            return 0.5
        m = random_bit(moves)
        mine = me | m
        filled += 1
        if has_four(mine, g):
            return 1.0 if sign > 0 else 0.0
        if filled >= cells:
            return 0.5
        me, opp = opp, mine
        sign = -sign


@njit(cache=True)
def uct_root(me, opp, g, sims, c, tree, playout, seed, nMe, nOpp, parent, child, sib, untried,
             flag, N, W, mv, out_col, out_n):
    """Run ``sims`` simulations from (``me`` to move, ``opp``); write the root's children
    (column, visits plus a win-rate tiebreak below 1e-3) into ``out_col`` / ``out_n`` and return
    their number. Node arrays hold ``sims + 1`` nodes; ``flag`` 1 marks a finished game, whose
    ``mv`` is its column plus 128 (a win for the side that moved into it) or plus 64 (a draw),
    so a later visit values it again without a playout."""
    np.random.seed(seed)
    cells = np.int64(g[G_CELLS])
    nMe[0] = me
    nOpp[0] = opp
    reset_root(parent, child, sib, N, W, mv)
    untried[0] = _allowed(me, opp, g, tree)
    flag[0] = 0
    n_nodes = 1
    for _ in range(sims):
        node = 0
        while flag[node] == 0 and untried[node] == ZERO and child[node] != -1:  # selection
            node = ucb_child(node, child, sib, N, W, c)
        if flag[node] == 1:  # a finished game: its value again
            v = 1.0 if mv[node] >= 2 * 64 else 0.5
        else:
            p, o = nMe[node], nOpp[node]
            u = untried[node]
            m = random_bit(u)  # expansion
            untried[node] = u & ~m
            mine = p | m
            new = n_nodes
            n_nodes += 1
            nMe[new] = o
            nOpp[new] = mine
            add_child(node, new, parent, child, sib, N, W)
            col = bit_column(m, g)
            mv[new] = col
            flag[new] = 0
            if has_four(mine, g):
                flag[new] = 1
                mv[new] = 2 * 64 + col
                untried[new] = ZERO
                v = 1.0
            elif ctpop(mine | o) >= cells:
                flag[new] = 1
                mv[new] = 64 + col
                untried[new] = ZERO
                v = 0.5
            else:
                untried[new] = _allowed(o, mine, g, tree)
                v = 1.0 - _playout(o, mine, g, playout, cells)
            node = new
        while node != -1:  # back-propagation: v is for the side that moved into ``node``
            N[node] += 1.0
            W[node] += v
            v = 1.0 - v
            node = parent[node]
    k = 0
    ch = child[0]
    while ch != -1:
        out_col[k] = mv[ch] % 64
        out_n[k] = N[ch] + W[ch] / (N[ch] + 1.0) * 1e-3
        k += 1
        ch = sib[ch]
    return k


@njit(cache=True)
def _best(out_col, out_n, k):
    """The most visited root column (visits, then wins, then the lowest column)."""
    best = 0
    for i in range(1, k):
        if out_n[i] > out_n[best] or (out_n[i] == out_n[best] and out_col[i] < out_col[best]):
            best = i
    return out_col[best]


@njit(cache=True)
def uct_batch(mes, opps, g, sims, c, tree, playout, seed, out):
    """The UCT column of every position (each with an open column) into ``out``."""
    size = sims + 1
    nMe = np.zeros(size, dtype=np.uint64)
    nOpp = np.zeros(size, dtype=np.uint64)
    parent = np.zeros(size, dtype=np.int64)
    child = np.zeros(size, dtype=np.int64)
    sib = np.zeros(size, dtype=np.int64)
    untried = np.zeros(size, dtype=np.uint64)
    flag = np.zeros(size, dtype=np.int8)
    N = np.zeros(size, dtype=np.float64)
    W = np.zeros(size, dtype=np.float64)
    mv = np.zeros(size, dtype=np.int64)
    out_col = np.zeros(64, dtype=np.int64)
    out_n = np.zeros(64, dtype=np.float64)
    for i in range(len(mes)):
        moves = _allowed(mes[i], opps[i], g, tree)
        if ctpop(moves) == 1:
            out[i] = bit_column(moves, g)
            continue
        k = uct_root(mes[i], opps[i], g, sims, c, tree, playout,
                     position_seed(mes[i], opps[i], seed), nMe, nOpp, parent, child, sib,
                     untried, flag, N, W, mv, out_col, out_n)
        out[i] = _best(out_col, out_n, k)


def check(sims: int, c: float, tree: str, playout: str) -> None:
    """A clear error for settings the kernel cannot run."""
    for name, rule in (("tree", tree), ("playout", playout)):
        if rule not in RULES:
            raise ValueError(f"{name} rule must be one of {RULES}, got {rule!r}")
    if sims < 1 or c < 0:
        raise ValueError(f"bad UCT settings: sims {sims} (>= 1), c {c} (>= 0)")


def uct_moves(me: np.ndarray, opp: np.ndarray, geo: Geometry, *, sims: int, c: float,
              tree: str, playout: str, seed: int = 0) -> np.ndarray:
    """The UCT column of every position (``me`` to move); each must have an open column and no
    four on the board."""
    check(sims, c, tree, playout)
    if geo.wide:
        raise ValueError(f"Connect Four's Monte-Carlo mode supports boards of one 64-bit word; "
                         f"{geo.width}x{geo.height} is a wide board")
    out = np.full(len(me), -1, dtype=np.int64)
    if len(me):
        me = np.ascontiguousarray(me, dtype=np.uint64)
        opp = np.ascontiguousarray(opp, dtype=np.uint64)
        if (_open(me, opp, geo.g) == 0).any():
            raise ValueError("uct_moves: a position with every column full")
        uct_batch(me, opp, geo.g, np.int64(sims), float(c), np.int64(RULES.index(tree)),
                  np.int64(RULES.index(playout)), np.int64(seed), out)
    return out


@njit(cache=True)
def _open(mes, opps, g):
    """How many columns are open in each position."""
    out = np.zeros(len(mes), dtype=np.int64)
    for i in range(len(mes)):
        out[i] = ctpop(possible(mes[i], opps[i], g))
    return out

