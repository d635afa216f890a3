"""Decoupled UCT over the Snake search imitator's fitted evaluation (numba): the Snake family's
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
* **Expansion and the leaf**: a joint move not yet in the tree is added and valued
  ``1 / (1 + exp(-v / scale))`` with ``v`` the linear evaluation (:mod:`snake_features`, from
  our view) of the position it leads to, at once (``playout`` 0) or after at most ``playout``
  turns of safe-random play (each snake onto a uniformly random free cell; none: it dies; a
  game that ends on the way counts 1, 1/2 or 0), the textbook playout of the game's
  Monte-Carlo bots.
* **Decision**: our root move with the most visits (equal visits: more results, then direction
  order). The root's moves are the ones the caller lists (the search's root moves).

Budgets are simulations, never time, and the tree's only random draws (the orders of untried
moves) come from numba's generator seeded by the position and the imitator's ``seed``
(:func:`position_seed`), so a decision is a pure function of (position, weights, settings): it
replays exactly, on any worker.
"""

from __future__ import annotations

import math
import zlib
from collections.abc import Sequence

import numpy as np
from numba import njit

from ime.imitators.snake_features import BODY, FREE, TAILS, SnakePosition, features_into
from ime.imitators.snake_search import _opps, _Searcher


def position_seed(pos: SnakePosition, seed: int) -> int:
    """A seed from the position's cells, heads, turn and the imitator's ``seed``."""
    key = (bytes(np.ascontiguousarray(pos.grid, dtype=np.int8))
           + np.array([pos.me, *pos.opps[:1], pos.turn, pos.length, seed],
                      dtype=np.int64).tobytes())
    return zlib.crc32(key)


TREE_TURNS = 200
"""Turns of the tails' schedule the tree may reach (far beyond what its simulations do)."""


@njit(cache=True, inline="always")
def _pick(node, count, n_visits, results, total, c):
    """The index of ``node``'s first untried move, else UCB1's (the first listed wins a tie)."""
    for i in range(count):
        if n_visits[node, i] == 0:
            return i
    ln = 2.0 * math.log(total)
    best, arg = -1e300, 0
    for i in range(count):
        u = results[node, i] / n_visits[node, i] + c * math.sqrt(ln / n_visits[node, i])
        if u > best:
            best, arg = u, i
    return arg


@njit(cache=True, inline="always")
def _legal(grid, head, deltas, moves, node):
    """``head``'s moves onto free cells, shuffled, into ``moves[node]`` (none: one move, up,
    which dies); their count."""
    k = 0
    for d in range(4):
        if grid[head + deltas[d]] == FREE:
            moves[node, k] = d
            k += 1
    if k == 0:
        moves[node, 0] = 0
        return 1
    for i in range(k - 1, 0, -1):
        j = np.random.randint(0, i + 1)
        moves[node, i], moves[node, j] = moves[node, j], moves[node, i]
    return k


@njit(cache=True, inline="always")
def _put(place, side, nxt, moved, cell, who):
    """Snake ``who``'s head onto ``cell`` in the bodies' orders (the maximin search's rule);
    the cell's old place and snake."""
    old_p, old_s = place[cell], side[cell]
    place[cell] = nxt[who] + moved[who] if nxt[who] >= 0 else -1
    side[cell] = who
    moved[who] += 1
    return old_p, old_s


@njit(cache=True, inline="always")
def _leave(grid, pop, turn, my_tail, op_tail, mt, ot, freed, lv):
    """The start of ``turn``: the known tails leave where the growth rule says (their cells into
    ``freed[lv]``); the tail cells that have left, ours and the opponent's."""
    freed[lv, 0] = -1
    freed[lv, 1] = -1
    if turn < len(pop) and pop[turn]:
        if mt < len(my_tail):
            freed[lv, 0] = my_tail[mt]
            grid[my_tail[mt]] = FREE
            mt += 1
        if ot < len(op_tail):
            freed[lv, 1] = op_tail[ot]
            grid[op_tail[ot]] = FREE
            ot += 1
    return mt, ot


@njit(cache=True, inline="always")
def _undo(grid, place, side, moved, heads, olds, freed, lv, tails):
    """Undo level ``lv``'s joint move (its heads and their places in the orders) and its
    tails' leaving."""
    tm, to = heads[lv, 0], heads[lv, 1]
    if tm >= 0:
        if tails:
            moved[1] -= 1
            place[to], side[to] = olds[lv, 2], olds[lv, 3]
            moved[0] -= 1
            place[tm], side[tm] = olds[lv, 0], olds[lv, 1]
        grid[tm] = FREE
        grid[to] = FREE
    for s in range(2):
        if freed[lv, s] >= 0:
            grid[freed[lv, s]] = BODY


@njit(cache=True)
def _value(grid, stride, me, op, mt, ot, my_tail, op_tail, place, side, root_tails, pop, turn,
           w, tails, scale, need, popped, one, f):
    """The squashed evaluation, for us, of the position after the joint move of ``turn``
    (``mt`` / ``ot``: the tail cells that have left)."""
    k = 0
    if tails:  # the tails' steps only territory_tails reads
        for d in range(1, len(pop) - turn):
            if pop[turn + d]:
                need[k] = d
                k += 1
    popped[0] = root_tails[0] - (len(my_tail) - mt)
    popped[1] = root_tails[1] - (len(op_tail) - ot)
    one[0] = op
    features_into(grid, stride, me, one, place, side, popped, need[:k], tails, f)
    z = (w @ f) / scale
    return 1.0 / (1.0 + math.exp(-z)) if z > -700.0 else 0.0


@njit(cache=True)
def _safe_move(grid, head, deltas):
    """A uniformly random direction onto a free cell from ``head``, or -1 where none is."""
    free = np.empty(4, np.int64)
    k = 0
    for d in range(4):
        if grid[head + deltas[d]] == FREE:
            free[k] = d
            k += 1
    if k == 0:
        return -1
    return free[np.random.randint(0, k)]


@njit(cache=True)
def _playout(grid, stride, deltas, me, op, mt, ot, my_tail, op_tail, place, side, nxt, moved,
             root_tails, pop, turn, steps, w, tails, scale, need, popped, one, f):
    """The value for us of at most ``steps`` turns of safe-random play (each snake onto a
    uniformly random free cell; none: it dies) after the joint move of ``turn``: 1, 1/2 or 0
    where the game ends on the way, else the squashed evaluation where they stop. The state is
    restored on return."""
    freed = np.full((steps, 2), -1, np.int64)
    heads = np.full((steps, 2), -1, np.int64)
    olds = np.zeros((steps, 4), np.int64)
    value = -1.0
    done = 0
    for s in range(steps):
        turn += 1
        done = s + 1
        mt, ot = _leave(grid, pop, turn, my_tail, op_tail, mt, ot, freed, s)
        a = _safe_move(grid, me, deltas)
        b = _safe_move(grid, op, deltas)
        tm = me + deltas[a] if a >= 0 else -1
        to = op + deltas[b] if b >= 0 else -2
        dead_me = a < 0 or tm == to
        dead_op = b < 0 or tm == to
        if dead_me or dead_op:
            value = 0.5 if dead_me and dead_op else (0.0 if dead_me else 1.0)
            break
        grid[tm] = BODY
        grid[to] = BODY
        heads[s, 0], heads[s, 1] = tm, to
        if tails:
            olds[s, 0], olds[s, 1] = _put(place, side, nxt, moved, tm, 0)
            olds[s, 2], olds[s, 3] = _put(place, side, nxt, moved, to, 1)
        me, op = tm, to
    if value < 0.0:
        value = _value(grid, stride, me, op, mt, ot, my_tail, op_tail, place, side, root_tails,
                       pop, turn, w, tails, scale, need, popped, one, f)
    for s in range(done - 1, -1, -1):
        _undo(grid, place, side, moved, heads, olds, freed, s, tails)
    return value


@njit(cache=True)
def duct(grid, stride, deltas, me0, op0, my_tail, op_tail, place, side, nxt, root_tails, pop,
         w, tails, roots, sims, c, scale, playout, seed, out_n, out_w):
    """Run ``sims`` simulations of decoupled UCT (module doc) from our head ``me0`` and the
    opponent's ``op0``, the known tails (the tail first) leaving on the turns ``pop`` marks, a
    new node valued after ``playout`` turns of safe-random play (0: at once); ``grid``,
    ``place`` and ``side`` are the maximin search's state (restored on return). Writes each
    root direction's visits and results (ours) into ``out_n`` / ``out_w``."""
    np.random.seed(seed)
    cap = sims + 1
    mine = np.zeros((cap, 4), np.int64)
    theirs = np.zeros((cap, 4), np.int64)
    n_mine = np.zeros(cap, np.int64)
    n_theirs = np.zeros(cap, np.int64)
    nm = np.zeros((cap, 4), np.float64)
    wm = np.zeros((cap, 4), np.float64)
    no = np.zeros((cap, 4), np.float64)
    wo = np.zeros((cap, 4), np.float64)
    total = np.zeros(cap, np.float64)
    kids = np.full((cap, 16), -1, np.int64)
    # the root: our moves are the caller's, in a seeded random order
    k = len(roots)
    for i in range(k):
        mine[0, i] = roots[i]
    for i in range(k - 1, 0, -1):
        j = np.random.randint(0, i + 1)
        mine[0, i], mine[0, j] = mine[0, j], mine[0, i]
    n_mine[0] = k
    n_nodes = 1
    deepest = cap + 1
    path_node = np.zeros(deepest, np.int64)
    path_i = np.zeros(deepest, np.int64)
    path_j = np.zeros(deepest, np.int64)
    freed = np.full((deepest, 2), -1, np.int64)
    heads = np.full((deepest, 2), -1, np.int64)
    olds = np.zeros((deepest, 4), np.int64)
    moved = np.zeros(2, np.int64)
    popped = np.zeros(2, np.int64)
    need = np.zeros(len(pop), np.int64)
    one = np.zeros(1, np.int64)
    f = np.zeros(len(w), np.float64)
    for _ in range(sims):
        node, turn, depth = 0, 0, 0
        me, op, mt, ot = me0, op0, 0, 0
        value = 0.5
        while True:
            # the turn's start: the known tails leave where the growth rule says
            heads[depth, 0] = -1
            mt, ot = _leave(grid, pop, turn, my_tail, op_tail, mt, ot, freed, depth)
            if n_mine[node] == 0:
                n_mine[node] = _legal(grid, me, deltas, mine, node)
            if n_theirs[node] == 0:
                n_theirs[node] = _legal(grid, op, deltas, theirs, node)
            i = _pick(node, n_mine[node], nm, wm, total[node], c)
            j = _pick(node, n_theirs[node], no, wo, total[node], c)
            a, b = mine[node, i], theirs[node, j]
            path_node[depth], path_i[depth], path_j[depth] = node, i, j
            depth += 1
            tm, to = me + deltas[a], op + deltas[b]
            dead_me = grid[tm] != FREE or tm == to
            dead_op = grid[to] != FREE or tm == to
            if dead_me or dead_op:
                value = 0.5 if dead_me and dead_op else (0.0 if dead_me else 1.0)
                break
            grid[tm] = BODY
            grid[to] = BODY
            heads[depth - 1, 0], heads[depth - 1, 1] = tm, to
            if tails:
                olds[depth - 1, 0], olds[depth - 1, 1] = _put(place, side, nxt, moved, tm, 0)
                olds[depth - 1, 2], olds[depth - 1, 3] = _put(place, side, nxt, moved, to, 1)
            me, op = tm, to
            child = kids[node, 4 * a + b]
            if child < 0:  # expansion: the new joint move's position, valued
                new = n_nodes
                n_nodes += 1
                kids[node, 4 * a + b] = new
                if playout > 0:
                    value = _playout(grid, stride, deltas, me, op, mt, ot, my_tail, op_tail,
                                     place, side, nxt, moved, root_tails, pop, turn, playout, w,
                                     tails, scale, need, popped, one, f)
                else:
                    value = _value(grid, stride, me, op, mt, ot, my_tail, op_tail, place, side,
                                   root_tails, pop, turn, w, tails, scale, need, popped, one, f)
                break
            node = child
            turn += 1
        for lv in range(depth - 1, -1, -1):  # undo, deepest first
            _undo(grid, place, side, moved, heads, olds, freed, lv, tails)
            nd = path_node[lv]
            total[nd] += 1.0
            nm[nd, path_i[lv]] += 1.0
            wm[nd, path_i[lv]] += value
            no[nd, path_j[lv]] += 1.0
            wo[nd, path_j[lv]] += 1.0 - value
    for i in range(n_mine[0]):
        out_n[mine[0, i]] = nm[0, i]
        out_w[mine[0, i]] = wm[0, i]


def uct_search(pos: SnakePosition, w: np.ndarray, root: Sequence[int], sims: int, c: float,
               scale: float, phase: int = 0, seed: int = 0, playout: int = 0
               ) -> tuple[int, dict[int, int]]:
    """DUCT from ``pos`` (module doc) with ``sims`` simulations over root moves ``root``, a new
    node valued after ``playout`` turns of safe-random play (0: at once): the move chosen and
    each root move's visits."""
    if sims < 1 or c < 0 or scale <= 0 or playout < 0:
        raise ValueError(f"sims >= 1, c >= 0, scale > 0 and playout >= 0 are required, got "
                         f"{sims}, {c}, {scale}, {playout}")
    w = np.ascontiguousarray(w, dtype=np.float64)
    # the maximin search's state of the position: its grid, the bodies' orders, the tails'
    # turns and each snake's next place in its order
    s = _Searcher(pos, w, phase, 2 * TREE_TURNS, tails=bool(w[TAILS] != 0))
    opp = _opps(pos)[0]  # the opponent from its first head candidate
    out_n = np.zeros(4, dtype=np.float64)
    out_w = np.zeros(4, dtype=np.float64)
    roots = np.asarray(list(root), dtype=np.int64)
    duct(s.grid, s.stride, np.asarray(pos.deltas(), dtype=np.int64), np.int64(pos.me),
         np.int64(opp[0]), np.asarray(pos.my_tail, dtype=np.int64),
         np.asarray(opp[1], dtype=np.int64), s.place, s.side,
         np.asarray(s.next, dtype=np.int64), np.asarray(s.root_tails, dtype=np.int64),
         np.asarray(s.pop, dtype=np.bool_), w, s.tails, roots, int(sims), float(c),
         float(scale), int(playout), np.int64(position_seed(pos, seed)), out_n, out_w)
    best = min(sorted(int(d) for d in root), key=lambda d: (-out_n[d], -out_w[d]))
    return best, {int(d): int(out_n[d]) for d in root}


def uct_moves(positions: Sequence[SnakePosition], w: np.ndarray, roots: Sequence[Sequence[int]],
              sims: int, c: float, scale: float, phase: int = 0, seed: int = 0,
              playout: int = 0) -> tuple[np.ndarray, np.ndarray]:
    """:func:`uct_search` of every position: the moves chosen and the root visits
    (``[N, 4]``, 0 for a direction not searched)."""
    chosen = np.zeros(len(positions), dtype=np.int64)
    visits = np.zeros((len(positions), 4), dtype=np.int64)
    for k, pos in enumerate(positions):
        chosen[k], v = uct_search(pos, w, roots[k], sims, c, scale, phase, seed, playout)
        for d, n in v.items():
            visits[k, d] = n
    return chosen, visits
