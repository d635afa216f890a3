"""A depth-limited search of Snake's simultaneous-move game, sequentialised: the Snake search
imitator's engine.

Why this search: both snakes move at once, so the imitator's search is the usual fit for it:
the turn is split into *our* move, then the opponent's reply *knowing* our move (paranoid,
maximin; it never overrates a move). ``depth`` counts these plies: depth 1 evaluates the
position after our move alone, depth 2 after a whole turn, and so on. It is its own search, not
a zoo bot's (the imitator may not use a target's code), and it gives what the MMTO fit needs:
the exact value of *every* root move and its principal variation's leaf features
(:mod:`ime.imitators.mmto`).

* **Values** are from our view: ``w @ features`` at a leaf (:mod:`snake_features`), max at our
  plies, min at the opponent's; alpha-beta (fail-soft) inside, a full window at each root move,
  so root ties are real ties.
* **Moves and deaths** (the judge's rules on the planes' position, bodies fixed): our move onto
  a wall or body loses (``-(TERMINAL + plies left)``: a later loss costs less); the opponent's
  reply onto our new head is a head-on collision, a draw (0); onto a wall or body it loses
  (``TERMINAL + plies left`` to us). The opponent moves from any of its head candidates.
  Terminal leaves carry no features.
* **Ties** among root values (within ``1e-9`` relative) by a generic order of the 4 directions
  (:data:`TIE_RULES`).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from ime.imitators.mmto import SearchResults
from ime.imitators.snake_features import FREE, SnakePosition, features_into, num_features

INF = 1e30
TERMINAL = 1e6
TIE_ORDERS = {"up": (0, 1, 2, 3), "right": (1, 2, 3, 0), "down": (2, 3, 0, 1),
              "left": (3, 0, 1, 2), "reverse": (3, 2, 1, 0)}
"""Tie rules: the directions in order of preference (0 = up, 1 = right, 2 = down, 3 = left):
clockwise from each direction, and counter-codes."""
TIE_RULES = tuple(TIE_ORDERS)


def tie_ranks(tie: str) -> np.ndarray:
    """Rank of each direction code under tie rule ``tie`` (lower = preferred)."""
    if tie not in TIE_ORDERS:
        raise ValueError(f"tie must be one of {TIE_RULES}, got {tie!r}")
    rank = np.zeros(4, dtype=np.int64)
    rank[list(TIE_ORDERS[tie])] = np.arange(4)
    return rank


class _Searcher:
    """One position's search with weights ``w`` (a leaf's features in ``buf``)."""

    def __init__(self, pos: SnakePosition, w: np.ndarray):
        self.grid = pos.grid.copy()
        self.stride = np.int64(pos.stride)
        self.deltas = pos.deltas()
        self.w = w
        self.nodes = 0

    def leaf(self, me: int, opps: np.ndarray) -> tuple[float, np.ndarray]:
        self.nodes += 1
        f = np.zeros(len(self.w), dtype=np.float64)
        features_into(self.grid, self.stride, np.int64(me), opps, f)
        return float(self.w @ f), f

    def ours(self, me: int, opps: np.ndarray, depth: int, alpha: float, beta: float
             ) -> tuple[float, np.ndarray | None]:
        """Our ply (max), ``depth >= 1`` plies left."""
        self.nodes += 1
        best, leaf = -INF, None
        for d in range(4):
            v, f = self.after_our_move(me, me + self.deltas[d], opps, depth)
            if v > best:
                best, leaf = v, f
                alpha = max(alpha, v)
                if alpha >= beta:
                    break
        return best, leaf

    def after_our_move(self, me: int, to: int, opps: np.ndarray, depth: int,
                       alpha: float = -INF, beta: float = INF
                       ) -> tuple[float, np.ndarray | None]:
        """The value of our head moving to ``to`` with ``depth`` plies left (this one
        included)."""
        if self.grid[to] != FREE:
            return -(TERMINAL + depth), None
        if depth == 1:
            self.grid[to] = 2
            v, f = self.leaf(to, opps)
            self.grid[to] = FREE
            return v, f
        return self.theirs(to, opps, depth - 1, alpha, beta)

    def theirs(self, me: int, opps: np.ndarray, depth: int, alpha: float, beta: float
               ) -> tuple[float, np.ndarray | None]:
        """The opponent's ply (min) after our head moved to ``me`` (not yet on the grid)."""
        self.nodes += 1
        best, leaf = INF, None
        for o in opps:
            for d in range(4):
                to = int(o) + self.deltas[d]
                f: np.ndarray | None = None
                if to == me:
                    v = 0.0  # head-on: both die
                elif self.grid[to] != FREE:
                    v = TERMINAL + depth
                else:
                    self.grid[me] = 2
                    self.grid[to] = 2
                    head = np.array([to], dtype=np.int64)
                    if depth == 1:
                        v, f = self.leaf(me, head)
                    else:
                        v, f = self.ours(me, head, depth - 1, alpha, beta)
                    self.grid[me] = FREE
                    self.grid[to] = FREE
                if v < best:
                    best, leaf = v, f
                    beta = min(beta, v)
                    if alpha >= beta:
                        return best, leaf
        return best, leaf


def legal_directions(pos: SnakePosition) -> list[int]:
    """Directions onto a free cell, or all four when there is none (any answer dies)."""
    free = [d for d, dd in enumerate(pos.deltas()) if pos.grid[pos.me + dd] == FREE]
    return free or [0, 1, 2, 3]


def search_all(positions: Sequence[SnakePosition], w: np.ndarray, depth: int,
               roots: Sequence[Sequence[int]] | None = None) -> SearchResults:
    """Search every position to ``depth`` plies with weights ``w``: each root move's exact value
    (``roots[i]``: the directions searched, ascending; else :func:`legal_directions`), its PV
    leaf's features (0 where the PV ends the game) and whether it does."""
    if depth < 1:
        raise ValueError(f"depth must be >= 1, got {depth}")
    w = np.ascontiguousarray(w, dtype=np.float64)
    if len(w) != num_features():
        raise ValueError(f"{len(w)} weights for {num_features()} features")
    counts, dirs, vals, feats, term, nodes = [], [], [], [], [], []
    for i, pos in enumerate(positions):
        root = sorted(set(int(d) for d in roots[i])) if roots is not None \
            else legal_directions(pos)
        if not root:
            raise ValueError(f"position {i} has no root move")
        s = _Searcher(pos, w)
        opps = np.asarray(pos.opps, dtype=np.int64)
        for d in root:
            v, f = s.after_our_move(pos.me, pos.me + pos.deltas()[d], opps, depth)
            dirs.append(d)
            vals.append(v)
            term.append(f is None)
            feats.append(np.zeros(len(w)) if f is None else f)
        counts.append(len(root))
        nodes.append(s.nodes)
    off = np.concatenate([[0], np.cumsum(counts)]).astype(np.int64)
    m = int(off[-1])
    return SearchResults(off, np.asarray(dirs, dtype=np.int64), np.asarray(vals, dtype=np.float64),
                         np.asarray(feats, dtype=np.float64).reshape(m, len(w)),
                         np.asarray(term, dtype=bool), np.asarray(nodes, dtype=np.int64),
                         np.ones(m, dtype=bool), np.full(len(positions), depth, dtype=np.int64))
