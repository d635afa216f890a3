"""Decoupled UCT over the Snake search imitator's fitted evaluation: the Snake family's
Monte-Carlo mode, for targets that draw their move from a simultaneous-move tree search rather
than take a minimax move.

Why: both snakes move at once, and the standard Monte-Carlo tree search for such games is
decoupled UCT (DUCT: Lanctot et al., "Monte Carlo tree search in simultaneous move games with
applications to Goofspiel", 2013; Teytaud & Flory on Tron, 2011): each player keeps its own
statistics at a node and picks its move by UCB1 on them alone, and the joint move leads to the
child. A fitted maximin search (:mod:`ime.imitators.snake_search`) takes one move per position;
a DUCT bot's move is a draw from its own tree's visits, and which move wins depends on how many
simulations it runs, how much it explores and how sharply it reads its leaves. Those are the
settings this module exposes and :func:`ime.imitators.snake_fit.fit_mcts` fits from the logged
moves alone. It is this project's own search over the game's rules (the judge's, as the maximin
search applies them), not a zoo bot's.

* **A node** holds, for each snake, its moves' visits and results (ours: the value for us; the
  opponent's: one less it), its legal moves (onto a free cell once the turn's tails have left;
  none: one move, which dies) in a seeded random order, and its children by joint move.
* **Selection**: each snake in turn takes its first move not yet tried (that random order),
  else the move maximising ``W / N + c * sqrt(2 ln N_node / N)`` (UCB1; the first listed wins
  a tie).
* **The joint move** (the judge's rules): a head onto a wall or body dies; both heads onto one
  cell die together. Both dead: a draw (1/2); one: a win (1) or a loss (0) for the other. Else
  both heads move on and the turn passes (the tails leave at a turn's start as the growth rule
  says; an unknown tail stays, as in the maximin search; an opponent with several head
  candidates moves from its first).
* **Expansion and the leaf**: a joint move not yet in the tree is added and valued at once,
  ``1 / (1 + exp(-v / scale))`` with ``v`` the linear evaluation of the position it leads to
  (:mod:`ime.imitators.snake_features`, from our view); no playout.
* **Decision**: our root move with the most visits (equal visits: more results, then direction
  order). The root's moves are the ones the caller lists (the search's root moves).

Budgets are simulations, never time, and the tree's only random draws (the orders of untried
moves) come from a generator seeded by the position and the imitator's ``seed``
(:func:`position_seed`), so a decision is a pure function of (position, weights, settings): it
replays exactly, on any worker.
"""

from __future__ import annotations

import math
import random
import zlib
from collections.abc import Sequence

import numpy as np

from ime.imitators.snake_features import BODY, FREE, TAILS, SnakePosition
from ime.imitators.snake_search import _opps, _Searcher


def position_seed(pos: SnakePosition, seed: int) -> int:
    """A seed from the position's cells, heads, turn and the imitator's ``seed``."""
    key = (bytes(np.ascontiguousarray(pos.grid, dtype=np.int8))
           + np.array([pos.me, *pos.opps[:1], pos.turn, pos.length, seed],
                      dtype=np.int64).tobytes())
    return zlib.crc32(key)


class _Node:
    """One node of the tree: each snake's moves and their statistics, the joint children."""

    __slots__ = ("n", "mine", "theirs", "nm", "wm", "no", "wo", "kids")

    def __init__(self, mine: list[int], theirs: list[int]):
        self.n = 0
        self.mine, self.theirs = mine, theirs
        self.nm = [0] * len(mine)
        self.wm = [0.0] * len(mine)
        self.no = [0] * len(theirs)
        self.wo = [0.0] * len(theirs)
        self.kids: dict[tuple[int, int], _Node] = {}


def _pick(n: int, visits: list[int], results: list[float], c: float) -> int:
    """The index of the first untried move, else UCB1's (the first listed wins a tie)."""
    for i, v in enumerate(visits):
        if v == 0:
            return i
    ln = 2.0 * math.log(n)
    best, arg = -1e300, 0
    for i, v in enumerate(visits):
        u = results[i] / v + c * math.sqrt(ln / v)
        if u > best:
            best, arg = u, i
    return arg


class _Tree:
    """One position's DUCT search with weights ``w``, tail rule ``phase``."""

    def __init__(self, pos: SnakePosition, w: np.ndarray, phase: int, c: float, scale: float,
                 seed: int):
        self.pos, self.c, self.scale = pos, c, scale
        # the maximin search's state and rules: the grid, the bodies' orders, the tails' turns
        # (deep enough for a long tree), the leaf's features
        self.s = _Searcher(pos, w, phase, 2 * 200, tails=bool(w[TAILS] != 0))
        self.deltas = pos.deltas()
        self.rng = random.Random(position_seed(pos, seed))

    def legal(self, head: int) -> list[int]:
        cells, deltas = self.s.cells, self.deltas
        moves = [d for d in range(4) if cells[head + deltas[d]] == FREE]
        if not moves:
            return [0]
        self.rng.shuffle(moves)
        return moves

    def value(self, me: int, opp: tuple[int, tuple[int, ...]], tail: tuple[int, ...],
              turn: int) -> float:
        v, _ = self.s.leaf(me, [opp], tail, turn)
        z = v / self.scale
        return 1.0 / (1.0 + math.exp(-z)) if z > -700 else 0.0

    def simulate(self, root: _Node) -> None:
        """One simulation from the root: select, expand one joint move, back up its value."""
        s, cells, deltas = self.s, self.s.cells, self.deltas
        pos = self.pos
        me, tail = pos.me, pos.my_tail
        opp = _opps(pos)[0]
        turn, node = 0, root
        path: list[tuple[_Node, int, int]] = []
        undo: list[tuple[list[int], int, int, tuple[int, int], tuple[int, int]]] = []
        value = 0.5
        while True:
            tail, opps, _, freed = s.begin(turn, tail, [opp])
            opp = opps[0]
            if not node.mine:
                node.mine = self.legal(me)
                node.nm, node.wm = [0] * len(node.mine), [0.0] * len(node.mine)
            if not node.theirs:
                node.theirs = self.legal(opp[0])
                node.no, node.wo = [0] * len(node.theirs), [0.0] * len(node.theirs)
            i = _pick(node.n, node.nm, node.wm, self.c)
            j = _pick(node.n, node.no, node.wo, self.c)
            a, b = node.mine[i], node.theirs[j]
            path.append((node, i, j))
            to_me, to_op = me + deltas[a], opp[0] + deltas[b]
            dead_me = cells[to_me] != FREE or to_me == to_op
            dead_op = cells[to_op] != FREE or to_me == to_op
            if dead_me or dead_op:
                value = 0.5 if dead_me and dead_op else (0.0 if dead_me else 1.0)
                undo.append((freed, -1, -1, (0, 0), (0, 0)))
                break
            cells[to_me] = BODY
            cells[to_op] = BODY
            olds = (s.put(to_me, 0), s.put(to_op, 1)) if s.tails else ((0, 0), (0, 0))
            undo.append((freed, to_me, to_op, olds[0], olds[1]))
            me, opp = to_me, (to_op, opp[1])
            child = node.kids.get((a, b))
            if child is None:
                node.kids[(a, b)] = _Node([], [])
                value = self.value(me, opp, tail, turn)
                break
            node, turn = child, turn + 1
        for freed, to_me, to_op, old_me, old_op in reversed(undo):
            if to_me >= 0:
                if s.tails:
                    s.take(to_op, 1, old_op)
                    s.take(to_me, 0, old_me)
                cells[to_me] = FREE
                cells[to_op] = FREE
            s.restore(freed)
        for node, i, j in path:
            node.n += 1
            node.nm[i] += 1
            node.wm[i] += value
            node.no[j] += 1
            node.wo[j] += 1.0 - value


def uct_search(pos: SnakePosition, w: np.ndarray, root: Sequence[int], sims: int, c: float,
               scale: float, phase: int = 0, seed: int = 0) -> tuple[int, dict[int, int]]:
    """DUCT from ``pos`` (module doc) with ``sims`` simulations over root moves ``root``: the
    move chosen and each root move's visits."""
    if sims < 1 or c < 0 or scale <= 0:
        raise ValueError(f"sims >= 1, c >= 0 and scale > 0 are required, got {sims}, {c}, "
                         f"{scale}")
    tree = _Tree(pos, np.ascontiguousarray(w, dtype=np.float64), phase, c, scale, seed)
    mine = list(root)
    tree.rng.shuffle(mine)
    top = _Node(mine, [])
    for _ in range(sims):
        tree.simulate(top)
    visits = dict(zip(top.mine, top.nm, strict=True))
    results = dict(zip(top.mine, top.wm, strict=True))
    best = min(sorted(root), key=lambda d: (-visits[d], -results[d]))
    return best, visits


def uct_moves(positions: Sequence[SnakePosition], w: np.ndarray, roots: Sequence[Sequence[int]],
              sims: int, c: float, scale: float, phase: int = 0, seed: int = 0
              ) -> tuple[np.ndarray, np.ndarray]:
    """:func:`uct_search` of every position: the moves chosen and the root visits
    (``[N, 4]``, 0 for a direction not searched)."""
    chosen = np.zeros(len(positions), dtype=np.int64)
    visits = np.zeros((len(positions), 4), dtype=np.int64)
    for k, pos in enumerate(positions):
        chosen[k], v = uct_search(pos, w, roots[k], sims, c, scale, phase, seed)
        for d, n in v.items():
            visits[k, d] = n
    return chosen, visits
