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
* **Moves and deaths** (the judge's rules on the planes' position): at the start of each turn
  that does not grow (:func:`pops`: the turn from the snakes' length, :func:`root_turn`, and the
  tail rule ``phase``) both tails leave, where their order is known
  (:class:`ime.imitators.snake_features.SnakePosition`; an unknown tail stays; the opponent's, if
  it has several head candidates, leaves at its own ply, the candidate's own tail); then our move
  onto a wall or body loses (``-(TERMINAL + plies left)``: a later loss costs less); the
  opponent's reply onto our new head is a head-on collision, a draw (0); onto a wall or body it
  loses (``TERMINAL + plies left`` to us). The opponent moves from any of its head candidates.
  Terminal leaves carry no features. Tail rule ``-1``: bodies stay fixed (the first model).
* **Ties** among root values (within ``1e-9`` relative) by a generic order of the 4 directions
  (:data:`TIE_RULES`).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from ime.games.snake.board import grows
from ime.imitators.mmto import SearchResults
from ime.imitators.snake_features import BODY, FREE, SnakePosition, features_into, num_features

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


PHASES = (-1, 0, 1, 2)
"""Tail rules: ``-1`` bodies stay fixed (no tail ever leaves); ``k >= 0``: the turn is read from
the snakes' length (:func:`root_turn`), ``k`` the turns since the last growth where the length
leaves it open."""


def root_turn(length: int, phase: int) -> int:
    """The turn (0-based) of a position whose snakes have ``length`` cells: they grow on each of
    turns 0-9 and then on turns 12, 15, ... (``ime.games.snake.board.grows``), so a length up to
    10 gives the turn, and a longer one three turns, of which ``phase`` picks one."""
    if length <= 10:
        return max(length - 1, 0)
    return 10 + 3 * (length - 11) + phase


def pops(length: int, phase: int, turns: int) -> list[bool]:
    """Whether the tails leave at the start of each of the next ``turns`` turns."""
    if phase < 0:
        return [False] * turns
    t0 = root_turn(length, phase)
    return [not grows(t0 + j) for j in range(turns)]


Opp = tuple[int, tuple[int, ...]]
"""The opponent as the search carries it: a head and its tail's known order (the tail first)."""


class _Searcher:
    """One position's search with weights ``w`` under tail rule ``phase``."""

    def __init__(self, pos: SnakePosition, w: np.ndarray, phase: int, depth: int):
        self.grid = pos.grid.copy()
        self.stride = np.int64(pos.stride)
        self.deltas = pos.deltas()
        self.w = w
        self.pop = pops(pos.length, phase, depth // 2 + 2)
        self.nodes = 0

    def leaf(self, me: int, opps: list[Opp]) -> tuple[float, np.ndarray]:
        self.nodes += 1
        f = np.zeros(len(self.w), dtype=np.float64)
        features_into(self.grid, self.stride, np.int64(me),
                      np.array([o for o, _ in opps], dtype=np.int64), f)
        return float(self.w @ f), f

    def begin(self, turn: int, tail: tuple[int, ...], opps: list[Opp]
              ) -> tuple[tuple[int, ...], list[Opp], bool, list[int]]:
        """The start of ``turn``: the tails that leave (ours if known; the opponent's if it has
        a single candidate, else at its own ply); (our tail, the opponent, whether its tail was
        handled, the cells freed)."""
        freed: list[int] = []
        done = False
        if self.pop[turn]:
            if tail:
                freed.append(tail[0])
                tail = tail[1:]
            if len(opps) == 1:
                done = True
                o, t = opps[0]
                if t:
                    freed.append(t[0])
                    opps = [(o, t[1:])]
        for c in freed:
            self.grid[c] = FREE
        return tail, opps, done, freed

    def restore(self, freed: list[int]) -> None:
        for c in freed:
            self.grid[c] = BODY

    def ours(self, me: int, tail: tuple[int, ...], opps: list[Opp], depth: int, turn: int,
             alpha: float, beta: float) -> tuple[float, np.ndarray | None]:
        """Our ply (max) at the start of ``turn``, ``depth >= 1`` plies left."""
        self.nodes += 1
        tail, opps, done, freed = self.begin(turn, tail, opps)
        best, leaf = -INF, None
        for d in range(4):
            v, f = self.after_our_move(me + self.deltas[d], tail, opps, depth, turn, done,
                                       alpha, beta)
            if v > best:
                best, leaf = v, f
                alpha = max(alpha, v)
                if alpha >= beta:
                    break
        self.restore(freed)
        return best, leaf

    def after_our_move(self, to: int, tail: tuple[int, ...], opps: list[Opp], depth: int,
                       turn: int, done: bool, alpha: float = -INF, beta: float = INF
                       ) -> tuple[float, np.ndarray | None]:
        """The value of our head moving to ``to`` with ``depth`` plies left (this one
        included), the turn's tails already handled (the opponent's if ``done``)."""
        if self.grid[to] != FREE:
            return -(TERMINAL + depth), None
        if depth == 1:
            self.grid[to] = BODY
            v, f = self.leaf(to, opps)
            self.grid[to] = FREE
            return v, f
        return self.theirs(to, tail, opps, depth - 1, turn, done, alpha, beta)

    def theirs(self, me: int, tail: tuple[int, ...], opps: list[Opp], depth: int, turn: int,
               done: bool, alpha: float, beta: float) -> tuple[float, np.ndarray | None]:
        """The opponent's ply (min) after our head moved to ``me`` (not yet on the grid)."""
        self.nodes += 1
        best, leaf = INF, None
        for o, t in opps:
            freed = -1
            if self.pop[turn] and not done and t:
                freed, t = t[0], t[1:]
                self.grid[freed] = FREE
            for d in range(4):
                to = int(o) + self.deltas[d]
                f: np.ndarray | None = None
                if to == me:
                    v = 0.0  # head-on: both die
                elif self.grid[to] != FREE:
                    v = TERMINAL + depth
                else:
                    self.grid[me] = BODY
                    self.grid[to] = BODY
                    nxt = [(to, t)]
                    if depth == 1:
                        v, f = self.leaf(me, nxt)
                    else:
                        v, f = self.ours(me, tail, nxt, depth - 1, turn + 1, alpha, beta)
                    self.grid[me] = FREE
                    self.grid[to] = FREE
                if v < best:
                    best, leaf = v, f
                    beta = min(beta, v)
                    if alpha >= beta:
                        if freed >= 0:
                            self.grid[freed] = BODY
                        return best, leaf
            if freed >= 0:
                self.grid[freed] = BODY
        return best, leaf


def _opps(pos: SnakePosition) -> list[Opp]:
    return [(int(o), tuple(int(c) for c in t)) for o, t in zip(pos.opps, pos.tails(),
                                                                strict=True)]


def legal_directions(pos: SnakePosition, phase: int = -1) -> list[int]:
    """Directions onto a free cell (or a tail cell that leaves this turn under tail rule
    ``phase``), or all four when there is none (any answer dies)."""
    s = _Searcher(pos, np.zeros(num_features()), phase, 1)
    _, _, _, freed = s.begin(0, pos.my_tail, _opps(pos))
    free = [d for d, dd in enumerate(pos.deltas()) if s.grid[pos.me + dd] == FREE]
    return free or [0, 1, 2, 3]


def search_all(positions: Sequence[SnakePosition], w: np.ndarray, depth: int,
               roots: Sequence[Sequence[int]] | None = None, phase: int = -1
               ) -> SearchResults:
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
            else legal_directions(pos, phase)
        if not root:
            raise ValueError(f"position {i} has no root move")
        s = _Searcher(pos, w, phase, depth)
        tail, opps, done, freed = s.begin(0, pos.my_tail, _opps(pos))
        for d in root:
            v, f = s.after_our_move(pos.me + pos.deltas()[d], tail, opps, depth, 0, done)
            dirs.append(d)
            vals.append(v)
            term.append(f is None)
            feats.append(np.zeros(len(w)) if f is None else f)
        s.restore(freed)
        counts.append(len(root))
        nodes.append(s.nodes)
    off = np.concatenate([[0], np.cumsum(counts)]).astype(np.int64)
    m = int(off[-1])
    return SearchResults(off, np.asarray(dirs, dtype=np.int64), np.asarray(vals, dtype=np.float64),
                         np.asarray(feats, dtype=np.float64).reshape(m, len(w)),
                         np.asarray(term, dtype=bool), np.asarray(nodes, dtype=np.int64),
                         np.ones(m, dtype=bool), np.full(len(positions), depth, dtype=np.int64))
