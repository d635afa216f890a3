"""A UCT search over the imitator's linear evaluation (numba): the search imitator's Monte-Carlo
mode, for targets that sample their moves from a tree search rather than take a minimax move.

Why: an alpha-beta search with fitted weights picks one move per position; a Monte-Carlo bot's
move is a draw from the visit counts of its own tree, and which move wins the draw depends on
how much it explores, how far its playouts run and how sharply it reads its leaves. Fitting those
settings (from the logged moves alone, :func:`ime.imitators.search_fit.fit_mcts`) lets the
imitator's tree prefer what the target's tree prefers. Its agreement is then bounded by the
target's own self-agreement, as any imitator's of a stochastic bot is, and may come near it only
where its preferences are the target's.

The search is plain UCT (Kocsis & Szepesvari 2006), as textbooks give it:

* **Selection**: from the root, the child maximising ``W / N + c * sqrt(2 ln N_parent / N)``
  (UCB1), ``W`` the child's wins from the point of view of the side that moved into it (a draw
  counts 1/2);
* **Expansion**: one new child a simulation, a uniformly random untried move (a forced pass is
  the one child of its node);
* **Playout**: at most ``depth`` moves from the new node (``depth = 0``: to the end), chosen by
  ``playout``: ``random`` (uniform), ``corners`` (a corner whenever one is legal), or
  ``corners_xc`` (also avoiding the X and C squares next to an empty corner whenever another
  move exists): the usual Othello playout heuristics. A game that ends counts 1, 1/2 or 0; a
  playout cut short is valued ``1 / (1 + exp(-v / scale))`` with ``v`` the linear evaluation
  (:func:`ime.imitators.reversi_features.evaluate`) of the side to move;
* **Decision**: the root child with the most visits (equal visits: more wins, then the lowest
  square).

Budgets are simulations, never time, and every random draw comes from numba's generator seeded
from the position and the imitator's ``seed`` (:func:`position_seed`), so a decision is a pure
function of (position, weights, settings): the imitator replays exactly, on any worker.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
from numba import njit

from ime.core.bits import ctpop, cttz, position_seed
from ime.games.reversi.bitboard import PASS, flips_inline, legal_moves_inline
from ime.imitators.reversi_features import evaluate
from ime.imitators.uct import add_child, reset_root, ucb_child

U64 = np.uint64
ZERO = U64(0)
ONE = U64(1)
PLAYOUTS = ("random", "corners", "corners_xc")
"""Playout move rules, in the kernel's codes 0, 1, 2."""
CORNERS = U64((1 << 0) | (1 << 7) | (1 << 56) | (1 << 63))
# per corner (A1, H1, A8, H8): the corner's square and its X and C squares
_CORNER_SQ = np.array([0, 7, 56, 63], dtype=np.int64)
_XC = np.array([(1 << 1) | (1 << 8) | (1 << 9), (1 << 6) | (1 << 14) | (1 << 15),
                (1 << 48) | (1 << 49) | (1 << 57), (1 << 54) | (1 << 55) | (1 << 62)],
               dtype=np.uint64)
MAX_MOVES = 40


@njit(cache=True, inline="always")
def _kth_bit(b, k):
    """The square of the ``k``-th set bit of ``b`` (lowest first)."""
    for _ in range(k):
        b &= b - ONE
    return cttz(b)


@njit(cache=True, inline="always")
def _playout_moves(P, O, moves, playout):
    """The moves the playout rule allows among ``moves`` (never none)."""
    if playout >= 1:
        c = moves & CORNERS
        if c != ZERO:
            return c
    if playout >= 2:
        empty = ~(P | O)
        danger = ZERO
        for k in range(4):
            if (empty >> U64(_CORNER_SQ[k])) & ONE:
                danger |= _XC[k]
        safe = moves & ~danger
        if safe != ZERO:
            return safe
    return moves


@njit(cache=True)
def _leaf(P, O, depth, playout, scale, w, phases, buf):
    """``(value, slope)``: the value in [0, 1] for the side owning ``P`` (to move) of a playout
    of at most ``depth`` moves (0: to the end), then the squashed evaluation if the game goes on;
    and the value's derivative in the evaluation (0 for a finished game), with ``buf`` then
    holding the cut position's features, so ``slope * buf`` is the value's gradient in ``w``."""
    sign = 1
    k = 0
    while True:
        moves = legal_moves_inline(P, O)
        if moves == ZERO:
            if legal_moves_inline(O, P) == ZERO:
                d = ctpop(P) - ctpop(O)
                r = 1.0 if d > 0 else (0.0 if d < 0 else 0.5)
                return (r if sign > 0 else 1.0 - r), 0.0
            P, O = O, P
            sign = -sign
            continue
        if depth > 0 and k >= depth:
            v = 1.0 / (1.0 + math.exp(-evaluate(P, O, w, phases, buf) / scale))
            g = v * (1.0 - v) / scale
            return (v, g) if sign > 0 else (1.0 - v, -g)
        allowed = _playout_moves(P, O, moves, playout)
        sq = _kth_bit(allowed, np.random.randint(0, ctpop(allowed)))
        f = flips_inline(P, O, sq)
        P, O = O ^ f, P | f | (ONE << U64(sq))
        sign = -sign
        k += 1


@njit(cache=True)
def _terminal_for_mover(P, O):
    """A finished game's value for the side that moved into it (``O``'s owner)."""
    d = ctpop(O) - ctpop(P)
    return 1.0 if d > 0 else (0.0 if d < 0 else 0.5)


@njit(cache=True)
def uct_root(P, O, sims, c, depth, playout, scale, w, phases, seed, buf, nP, nO, parent, child,
             sib, untried, flag, N, W, mv, out_sq, out_n, G):
    """Run ``sims`` simulations from (P, O); write the root's children (square, visits) into
    ``out_sq`` / ``out_n`` and return their number. Node arrays hold ``sims + 1`` nodes.
    ``flag``: 0 an inner node, 1 a node whose only move is a pass (not yet expanded), 2 a
    finished game. ``G`` (``65 x len(w)``, or no rows: not wanted) receives in row ``s`` (the
    root child's square, 64 a pass) the sum over that child's simulations of the root mover's
    value's gradient in ``w``, the tree held fixed: ``G[s] / visits`` is the gradient of the
    child's mean value. The decisions are the same either way."""
    grad = G.shape[0] > 0
    if grad:
        G[:, :] = 0.0
    np.random.seed(seed)
    nP[0] = P
    nO[0] = O
    reset_root(parent, child, sib, N, W, mv)
    untried[0] = legal_moves_inline(P, O)
    flag[0] = 0
    n_nodes = 1
    for _ in range(sims):
        node = 0
        while True:  # selection
            if flag[node] == 2:
                break
            if untried[node] != ZERO or flag[node] == 1:
                break
            node = ucb_child(node, child, sib, N, W, c)
        if flag[node] != 2:  # expansion
            p, o = nP[node], nO[node]
            new = n_nodes
            n_nodes += 1
            if flag[node] == 1:
                flag[node] = 0
                cp, co, sq = o, p, PASS
            else:
                u = untried[node]
                sq = _kth_bit(u, np.random.randint(0, ctpop(u)))
                untried[node] = u & ~(ONE << U64(sq))
                f = flips_inline(p, o, sq)
                cp, co = o ^ f, p | f | (ONE << U64(sq))
            nP[new] = cp
            nO[new] = co
            add_child(node, new, parent, child, sib, N, W)
            mv[new] = sq
            m = legal_moves_inline(cp, co)
            untried[new] = m
            flag[new] = 0
            if m == ZERO:
                flag[new] = 1 if legal_moves_inline(co, cp) != ZERO else 2
            node = new
        g = 0.0
        if flag[node] == 2:
            v = _terminal_for_mover(nP[node], nO[node])
        else:
            lv, lg = _leaf(nP[node], nO[node], depth, playout, scale, w, phases, buf)
            v = 1.0 - lv
            g = -lg
        while node != -1:  # back-propagation: v is for the side that moved into ``node``
            N[node] += 1.0
            W[node] += v
            if grad and g != 0.0 and parent[node] == 0:
                row = mv[node]
                for j in range(buf.shape[0]):
                    G[row, j] += g * buf[j]
            v = 1.0 - v
            g = -g
            node = parent[node]
    k = 0
    ch = child[0]
    while ch != -1:
        out_sq[k] = mv[ch]
        out_n[k] = N[ch] + W[ch] / (N[ch] + 1.0) * 1e-3  # visits, then the win rate (< 1e-3)
        k += 1
        ch = sib[ch]
    return k


@njit(cache=True)
def _best(out_sq, out_n, k):
    """The most visited root child (visits then wins, then the lowest square)."""
    best = -1
    bn = -1.0
    for i in range(k):
        if out_n[i] > bn or (out_n[i] == bn and out_sq[i] < out_sq[best]):
            bn = out_n[i]
            best = i
    return out_sq[best]


@njit(cache=True)
def tree_arrays(sims):
    """The node arrays of one tree of ``sims`` simulations (``sims + 1`` nodes), in
    :func:`uct_root`'s order: nP, nO, parent, child, sib, untried, flag, N, W, mv."""
    size = sims + 1
    return (np.zeros(size, dtype=np.uint64), np.zeros(size, dtype=np.uint64),
            np.zeros(size, dtype=np.int64), np.zeros(size, dtype=np.int64),
            np.zeros(size, dtype=np.int64), np.zeros(size, dtype=np.uint64),
            np.zeros(size, dtype=np.int8), np.zeros(size, dtype=np.float64),
            np.zeros(size, dtype=np.float64), np.zeros(size, dtype=np.int64))


@njit(cache=True)
def uct_batch(Ps, Os, sims, c, depth, playout, scale, w, phases, seed, nf, out):
    """The UCT move of every position (each with a legal move) into ``out``."""
    nP, nO, parent, child, sib, untried, flag, N, W, mv = tree_arrays(sims)
    buf = np.zeros(nf, dtype=np.float64)
    out_sq = np.zeros(MAX_MOVES, dtype=np.int64)
    out_n = np.zeros(MAX_MOVES, dtype=np.float64)
    no_grad = np.zeros((0, nf), dtype=np.float64)
    for i in range(len(Ps)):
        moves = legal_moves_inline(Ps[i], Os[i])
        if ctpop(moves) == 1:
            out[i] = cttz(moves)
            continue
        k = uct_root(Ps[i], Os[i], sims, c, depth, playout, scale, w, phases,
                     position_seed(Ps[i], Os[i], seed), buf, nP, nO, parent, child, sib,
                     untried, flag, N, W, mv, out_sq, out_n, no_grad)
        out[i] = _best(out_sq, out_n, k)


@njit(cache=True)
def _tree_batch(Ps, Os, sims, c, depth, playout, scale, w, phases, seed, SQ, NV, Q, GR, K):
    """Every position's root children: square, visits, mean value for the mover and that
    value's gradient in ``w`` (into ``SQ``, ``NV``, ``Q``, ``GR``; their number into ``K``)."""
    nf = w.shape[0]
    nP, nO, parent, child, sib, untried, flag, N, W, mv = tree_arrays(sims)
    buf = np.zeros(nf, dtype=np.float64)
    out_sq = np.zeros(MAX_MOVES, dtype=np.int64)
    out_n = np.zeros(MAX_MOVES, dtype=np.float64)
    G = np.zeros((PASS + 1, nf), dtype=np.float64)
    for i in range(len(Ps)):
        k = uct_root(Ps[i], Os[i], sims, c, depth, playout, scale, w, phases,
                     position_seed(Ps[i], Os[i], seed), buf, nP, nO, parent, child, sib,
                     untried, flag, N, W, mv, out_sq, out_n, G)
        K[i] = k
        ch = child[0]
        j = 0
        while ch != -1:  # the same order as out_sq
            SQ[i, j] = mv[ch]
            NV[i, j] = N[ch]
            Q[i, j] = W[ch] / N[ch]
            for f in range(nf):
                GR[i, j, f] = G[mv[ch], f] / N[ch]
            j += 1
            ch = sib[ch]


def _check(sims: int, c: float, depth: int, playout: str, scale: float) -> None:
    """A clear error for settings the kernel cannot run."""
    if playout not in PLAYOUTS:
        raise ValueError(f"playout must be one of {PLAYOUTS}, got {playout!r}")
    if sims < 1 or c < 0 or depth < 0 or scale <= 0:
        raise ValueError(f"bad UCT settings: sims {sims}, c {c}, depth {depth}, scale {scale}")


def uct_moves(P: np.ndarray, O: np.ndarray, w: np.ndarray, phases: int, *, sims: int, c: float,
              depth: int, playout: str, scale: float, seed: int = 0) -> np.ndarray:
    """The UCT move (a square) of every position; each must have a legal move."""
    _check(sims, c, depth, playout, scale)
    out = np.full(len(P), -1, dtype=np.int64)
    if len(P):
        uct_batch(np.ascontiguousarray(P, dtype=np.uint64),
                  np.ascontiguousarray(O, dtype=np.uint64), np.int64(sims), float(c),
                  np.int64(depth), np.int64(PLAYOUTS.index(playout)), float(scale),
                  np.ascontiguousarray(w, dtype=np.float64), np.int64(phases), np.int64(seed),
                  np.int64(len(w)), out)
    return out


def uct_visits(P: int, O: int, w: np.ndarray, phases: int, *, sims: int, c: float, depth: int,
               playout: str, scale: float, seed: int = 0) -> dict[int, float]:
    """The root's visit shares (the move distribution the search samples its decision from)."""
    out_sq = np.zeros(MAX_MOVES, dtype=np.int64)
    out_n = np.zeros(MAX_MOVES, dtype=np.float64)
    k = uct_root(U64(P), U64(O), np.int64(sims), float(c), np.int64(depth),
                 np.int64(PLAYOUTS.index(playout)), float(scale),
                 np.ascontiguousarray(w, dtype=np.float64), np.int64(phases),
                 position_seed(U64(P), U64(O), np.int64(seed)), np.zeros(len(w)),
                 *tree_arrays(np.int64(sims)), out_sq, out_n, np.zeros((0, len(w))))
    n = np.floor(out_n[:k])
    return {int(s): float(x / n.sum()) for s, x in zip(out_sq[:k], n, strict=True)}


@dataclass
class TreeValues:
    """UCT's root children of a batch of positions (row ``i``, its first ``count[i]`` columns;
    the rest are padding): the square (64 a pass), the visits, the mean value for the side to
    move in [0, 1], and that value's gradient in the weights with the tree held fixed
    (``grad[i, j]``, one entry a weight). What :mod:`ime.imitators.mcts_tree_fit` fits through."""

    square: np.ndarray  # int64[n, MAX_MOVES], -1 padding
    visits: np.ndarray  # float64[n, MAX_MOVES]
    value: np.ndarray  # float64[n, MAX_MOVES]
    grad: np.ndarray  # float64[n, MAX_MOVES, len(w)]
    count: np.ndarray  # int64[n]

    def most_visited(self) -> np.ndarray:
        """Each position's move as :func:`uct_moves` picks it: the most visited child, equal
        visits by wins, then the lowest square."""
        wins = self.value * self.visits
        key = np.where(self.square >= 0, self.visits + wins / (self.visits + 1.0) * 1e-3, -1.0)
        top = key >= key.max(axis=1, keepdims=True)
        return np.where(top, self.square, PASS + 1).min(axis=1)


def tree_values(P: np.ndarray, O: np.ndarray, w: np.ndarray, phases: int, *, sims: int,
                c: float, depth: int, playout: str, scale: float, seed: int = 0) -> TreeValues:
    """The root children of UCT's tree at every position (each with two or more legal moves),
    as :func:`uct_moves` builds it, with their values' gradients in ``w``."""
    _check(sims, c, depth, playout, scale)
    n, nf = len(P), len(w)
    out = TreeValues(np.full((n, MAX_MOVES), -1, dtype=np.int64), np.zeros((n, MAX_MOVES)),
                     np.zeros((n, MAX_MOVES)), np.zeros((n, MAX_MOVES, nf)),
                     np.zeros(n, dtype=np.int64))
    if n:
        _tree_batch(np.ascontiguousarray(P, dtype=np.uint64),
                    np.ascontiguousarray(O, dtype=np.uint64), np.int64(sims), float(c),
                    np.int64(depth), np.int64(PLAYOUTS.index(playout)), float(scale),
                    np.ascontiguousarray(w, dtype=np.float64), np.int64(phases), np.int64(seed),
                    out.square, out.visits, out.value, out.grad, out.count)
    return out
