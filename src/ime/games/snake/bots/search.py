"""Deterministic tree search on Snake (numba): alpha-beta and DFS, the deep half of Fig 2.4.

**The sequentialised game.** Both snakes move at once; a minimax search turns a turn into two
plies, our move then the opponent's reply *knowing ours* (the pessimistic reading: it can
always dodge or meet our head). Depth counts turns (one turn = our ply + its reply). A won
position is ``+WIN`` (sooner is better), lost ``-WIN``, the judge's 1/1 draw 0, and a leaf is
valued by an evaluation (:mod:`.kernels`: plain or tail-aware Voronoi difference,
reachable-area difference, or our area alone).

**Budgets are node counts** (one node = one joint step), never time:

* *iterative deepening* (Fig 2.4 "ID"): depths 1, 2, ... while the node budget lasts; an
  iteration that runs out is discarded and the last complete one decides (depth 1 always
  completes). The previous iteration's root values order the next one's root moves.
* *fixed depth* with a node cap: once the cap is spent every further node is a leaf (valued
  statically), so the moves searched first get the depth and the later ones less: the
  thesis's observation about bots without per-branch limits.

``prune`` switches alpha-beta cut-offs on; with it off the same code is plain minimax (the
DFS family's ``model: minimax``). ``order`` sorts moves at inner nodes by free exits.

**Survival DFS** (``model: survival``): the other DFS reading, one many Botzone snakes use:
search our own moves only, the opponent frozen where it is (its tail still leaves on the
judge's schedule while it has more than one cell), for the longest survival up to ``depth``
turns (0 = unbounded); with ``prune`` a branch stops once a path of full depth is found.
Ties between root moves go to ``tiebreak`` (room, nearness to the opponent's head, order,
Voronoi difference).

No kernel here is recursive: every search keeps an explicit stack, because numba's cache
does not hold recursive functions safely (numba issue #6061; a cached recursive survival DFS
crashed a worker process).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ime.core.bot import DecisionContext
from ime.games.snake import board as B
from ime.games.snake.bots import kernels as K
from ime.games.snake.bots.common import ZooBot, check_choice, check_int

LEAF, ABORT = 0, 1
"""What a spent node budget does: turn every further node into a leaf, or abort the search."""
INF = 1.0e18


# --- alpha-beta / minimax on the sequentialised game ---------------------------------------------
@njit(cache=True)
def _ordered(S: np.ndarray, p: int, order: bool, out: np.ndarray) -> int:
    """Write snake ``p``'s valid directions into ``out`` (most free exits first when
    ``order``, else ascending), or direction 0 alone when it is boxed in (every answer
    loses); returns how many."""
    m = B.valid_mask(S, p)
    if m == 0:
        out[0] = 0
        return 1
    n = 0
    for d in range(4):
        if (m >> d) & 1:
            out[n] = d
            n += 1
    if order and n > 1:
        key = np.zeros(4, np.int64)
        for i in range(n):
            key[i] = K.exits(S, p, out[i])
        for i in range(1, n):  # insertion sort, stable, descending by key
            j = i
            while j > 0 and key[j] > key[j - 1]:
                key[j], key[j - 1] = key[j - 1], key[j]
                out[j], out[j - 1] = out[j - 1], out[j]
                j -= 1
    return n


@njit(cache=True)
def _unwind(S, code, top) -> None:
    """Take back the steps ``code[top]``, ..., ``code[0]`` (an aborted search)."""
    for lv in range(top, -1, -1):
        B.undo(S, code[lv])


@njit(cache=True)
def _ab(S, me, depth, alpha, beta, prune, order, ek, ctr, ply0, dist, owner, queue) -> float:
    """Value for ``me`` of the running position ``S`` (``me`` to play first), ``depth`` turns
    deep, searched between ``alpha`` and ``beta``. ``ctr``: [nodes, budget, aborted, mode].

    An explicit stack of turns, not recursion (numba's cache does not hold recursive
    functions safely): level ``L`` is the position ``L`` turns below ``S``, trying our move
    ``mine[L, i]`` against their reply ``theirs[L, j]``."""
    if depth == 0:
        return K.evaluate(S, me, ek, dist, owner, queue)
    if ctr[0] >= ctr[1]:
        if ctr[3] == ABORT:
            ctr[2] = 1
            return 0.0
        return K.evaluate(S, me, ek, dist, owner, queue)
    mine = np.empty((depth, 4), np.int64)
    theirs = np.empty((depth, 4), np.int64)
    nm = np.zeros(depth, np.int64)
    nt = np.zeros(depth, np.int64)
    i = np.zeros(depth, np.int64)
    j = np.zeros(depth, np.int64)
    code = np.zeros(depth, np.int64)
    lo_ = np.zeros(depth)
    al = np.zeros(depth)
    be = np.zeros(depth)
    best = np.zeros(depth)
    v = np.zeros(depth)
    L = 0
    al[0] = alpha
    be[0] = beta
    nm[0] = _ordered(S, me, order, mine[0])
    nt[0] = _ordered(S, 1 - me, order, theirs[0])
    best[0] = -INF
    v[0] = INF
    lo_[0] = alpha
    while True:
        if j[L] >= nt[L] or (prune and v[L] <= lo_[L]):  # our move i is answered
            if v[L] > best[L]:
                best[L] = v[L]
            i[L] += 1
            if i[L] >= nm[L] or (prune and best[L] >= be[L]):  # this position is done
                val = best[L]
                if L == 0:
                    return val
                L -= 1
                B.undo(S, code[L])
                if val < v[L]:
                    v[L] = val
                j[L] += 1
                continue
            j[L] = 0
            v[L] = INF
            lo_[L] = max(al[L], best[L])
            continue
        ctr[0] += 1
        code[L] = K.seat_step(S, me, mine[L, i[L]], theirs[L, j[L]])
        dead = S[B.I_DEAD]
        left = depth - L - 1
        if dead:
            val = K.terminal_value(dead, me, S[B.I_PLY] - ply0)
        elif left == 0:
            val = K.evaluate(S, me, ek, dist, owner, queue)
        elif ctr[0] >= ctr[1]:
            if ctr[3] == ABORT:
                ctr[2] = 1
                _unwind(S, code, L)
                return 0.0
            val = K.evaluate(S, me, ek, dist, owner, queue)
        else:  # one turn deeper
            L += 1
            al[L] = lo_[L - 1]
            be[L] = min(be[L - 1], v[L - 1])
            nm[L] = _ordered(S, me, order, mine[L])
            nt[L] = _ordered(S, 1 - me, order, theirs[L])
            i[L] = 0
            j[L] = 0
            best[L] = -INF
            v[L] = INF
            lo_[L] = al[L]
            continue
        B.undo(S, code[L])
        if val < v[L]:
            v[L] = val
        j[L] += 1


@njit(cache=True)
def _ab_root(S, me, root, depth, prune, order, ek, ctr, scores, dist, owner, queue) -> int:
    """One search of the root moves ``root`` (in that order) ``depth`` turns deep; fills
    ``scores[d]`` (exact for the best move, bounds for the others when pruning) and returns
    the best direction (the first found on ties), -1 if aborted."""
    ply0 = S[B.I_PLY]
    theirs = np.empty(4, np.int64)
    nt = _ordered(S, 1 - me, order, theirs)
    best, best_d = -INF, -1
    for i in range(root.shape[0]):
        a = root[i]
        v = INF
        for j in range(nt):
            ctr[0] += 1
            code = K.seat_step(S, me, a, theirs[j])
            dead = S[B.I_DEAD]
            if dead:
                val = K.terminal_value(dead, me, S[B.I_PLY] - ply0)
            else:
                val = _ab(S, me, depth - 1, best if prune else -INF, v, prune, order, ek, ctr,
                          ply0, dist, owner, queue)
            B.undo(S, code)
            if ctr[2]:
                return -1
            if val < v:
                v = val
            if prune and v <= best:
                break
        scores[a] = v
        if v > best:
            best, best_d = v, a
    return best_d


@njit(cache=True)
def ab_search(S, me, mask, max_depth, budget, iterative, prune, order, ek, scores, info,
              dist, owner, queue) -> int:
    """The direction alpha-beta (``prune``) or minimax chooses among ``mask`` for ``me``.

    ``iterative``: deepen 1..``max_depth`` turns while ``budget`` nodes last, an aborted
    iteration discarded; else one search ``max_depth`` deep whose nodes past the budget are
    leaves. ``scores`` (float64[4]) receives the deciding iteration's root values, ``info``
    (int64[2]) the depth of that iteration and the nodes spent."""
    root = np.empty(4, np.int64)
    n = 0
    for d in range(4):
        if (mask >> d) & 1:
            root[n] = d
            n += 1
    root = root[:n]
    ctr = np.zeros(4, np.int64)
    ctr[1] = budget
    if not iterative:
        ctr[3] = LEAF
        d = _ab_root(S, me, root, max_depth, prune, order, ek, ctr, scores, dist, owner, queue)
        info[0] = max_depth
        info[1] = ctr[0]
        return d
    work = np.full(4, -INF)
    best_d = root[0]
    for depth in range(1, max_depth + 1):
        ctr[2] = 0
        ctr[3] = LEAF if depth == 1 else ABORT
        d = _ab_root(S, me, root, depth, prune, order, ek, ctr, work, dist, owner, queue)
        if d < 0:
            break
        best_d = d
        scores[:] = work
        info[0] = depth
        if abs(work[d]) >= K.WIN / 2 or ctr[0] >= budget:
            break
        # next iteration: best root move first, then by this iteration's values (stable)
        for i in range(1, n):
            j = i
            while j > 0 and work[root[j]] > work[root[j - 1]]:
                root[j], root[j - 1] = root[j - 1], root[j]
                j -= 1
    info[1] = ctr[0]
    return best_d


# --- survival DFS --------------------------------------------------------------------------------
@njit(cache=True)
def _own_valid(S: np.ndarray, me: int) -> int:
    """Our valid directions in the frozen-opponent model (its tail goes only while it is
    longer than one cell)."""
    stride = S[B.I_STRIDE]
    shrink = not B.grows(S[B.I_PLY])
    h = B.head(S, me)
    t0 = B.tail(S, me)
    t1 = B.tail(S, 1 - me) if S[B.I_LEN + 1 - me] > 1 else -1
    out = 0
    for d in range(4):
        c = h + B.delta(d, stride)
        if S[B.OFF_CELLS + c] == B.EMPTY or (shrink and (c == t0 or c == t1)):
            out |= 1 << d
    return out


@njit(cache=True)
def _own_step(S: np.ndarray, me: int, d: int) -> int:
    """Move snake ``me`` alone (tails leave on the judge's schedule); returns what
    :func:`_own_undo` needs: bit 0 our tail left, bit 1 the opponent's did, and from bit 2
    the ring slot's old content (a deep search wraps the ring over dead slots; keeping them
    makes the undo byte-exact)."""
    turn = S[B.I_PLY]
    code = 0
    if not B.grows(turn):
        B.pop(S, me)
        code |= 1
        if S[B.I_LEN + 1 - me] > 1:
            B.pop(S, 1 - me)
            code |= 2
    slot = B.OFF_BODY + me * B.CAP + ((S[B.I_START + me] + S[B.I_LEN + me]) & B.RING)
    code |= S[slot] << 2
    B.push(S, me, B.head(S, me) + B.delta(d, S[B.I_STRIDE]))
    S[B.I_PLY] = turn + 1
    return code


@njit(cache=True)
def _own_undo(S: np.ndarray, me: int, code: int) -> None:
    slot = B.OFF_BODY + me * B.CAP + ((S[B.I_START + me] + S[B.I_LEN + me] - 1) & B.RING)
    S[B.OFF_CELLS + S[slot]] = B.EMPTY
    S[slot] = code >> 2
    S[B.I_LEN + me] -= 1
    for p in (me, 1 - me):
        if code & (1 if p == me else 2):
            S[B.I_START + p] = (S[B.I_START + p] - 1) & B.RING
            S[B.I_LEN + p] += 1
            S[B.OFF_CELLS + B.tail(S, p)] = B.SNAKE0 + p
    S[B.I_PLY] -= 1


@njit(cache=True)
def _survive(S, me, depth, prune, ctr) -> int:
    """Turns snake ``me`` can still survive (at most ``depth``) found within the budget
    ``ctr`` = [nodes used, budget]. An explicit stack, not recursion: an unbounded search
    may go hundreds of turns deep."""
    if depth <= 0:
        return 0
    levels = min(depth, max(ctr[1] - ctr[0], 0)) + 2
    mask = np.zeros(levels, np.int64)
    nxt = np.zeros(levels, np.int64)
    code = np.zeros(levels, np.int64)
    best = np.zeros(levels, np.int64)
    lvl = 0
    mask[0] = _own_valid(S, me)
    while True:
        d = nxt[lvl]
        while d < 4 and not (mask[lvl] >> d) & 1:
            d += 1
        left = depth - lvl  # the depth still to search below this level
        if d >= 4 or ctr[0] >= ctr[1] or (prune and best[lvl] >= left):
            if lvl == 0:
                return best[0]
            v = 1 + best[lvl]
            lvl -= 1
            _own_undo(S, me, code[lvl])
            if v > best[lvl]:
                best[lvl] = v
            continue
        nxt[lvl] = d + 1
        ctr[0] += 1
        code[lvl] = _own_step(S, me, d)
        if left == 1:
            _own_undo(S, me, code[lvl])
            if best[lvl] < 1:
                best[lvl] = 1
            continue
        lvl += 1
        mask[lvl] = _own_valid(S, me)
        nxt[lvl] = 0
        best[lvl] = 0


TIE_ROOM, TIE_CHASE, TIE_ORDER, TIE_VORONOI = 0, 1, 2, 3
"""Survival DFS tie-breaks: more room, nearer the opponent's head, the search order, or the
larger Voronoi difference once we have moved (the opponent where it is)."""


@njit(cache=True)
def dfs_search(S, me, mask, depth, budget, prune, area_order, branch_limit, tiebreak,
               scores) -> int:
    """Survival DFS (see the module doc) over the root moves ``mask``: ``depth`` turns
    (0 = unbounded), ``budget`` nodes for the whole search, or split evenly between the root
    moves with ``branch_limit``. ``area_order`` searches the roomiest root move first.
    ``scores[d]`` receives each root move's survival."""
    limit = depth if depth > 0 else 1 << 30
    root = np.empty(4, np.int64)
    room = np.full(4, -1, np.int64)
    n = 0
    for d in range(4):
        if (mask >> d) & 1:
            root[n] = d
            room[d] = B.area_after(S, me, d)
            n += 1
    if area_order:
        for i in range(1, n):
            j = i
            while j > 0 and room[root[j]] > room[root[j - 1]]:
                root[j], root[j - 1] = root[j - 1], root[j]
                j -= 1
    ctr = np.zeros(2, np.int64)
    dist, owner, queue = K.scratch_arrays()
    stride = S[B.I_STRIDE]
    oh = B.head(S, 1 - me)
    best_d, best_key = root[0], (-1, -1, -1)
    for i in range(n):
        a = root[i]
        if branch_limit:
            ctr[0] = 0
            ctr[1] = max(1, budget // n)
        else:
            ctr[1] = budget
        code = _own_step(S, me, a)
        v = 1 + _survive(S, me, limit - 1, prune, ctr)
        vor = K.voronoi(S, me, dist, owner, queue) if tiebreak == TIE_VORONOI else 0
        _own_undo(S, me, code)
        scores[a] = v
        c = B.head(S, me) + B.delta(a, stride)
        dx = abs(c // stride - oh // stride) + abs(c % stride - oh % stride)
        safe = 0 if K.head_risk(S, me, a) else 1
        if tiebreak == TIE_ROOM:
            key = (v, safe, room[a])
        elif tiebreak == TIE_CHASE:
            key = (v, safe, -dx)
        elif tiebreak == TIE_VORONOI:
            key = (v, safe, vor)
        else:
            key = (v, safe, 0)
        if key > best_key:
            best_d, best_key = a, key
    return best_d


# --- bots ----------------------------------------------------------------------------------------
EVALS = K.EVALS
TIEBREAKS = {"room": TIE_ROOM, "chase": TIE_CHASE, "order": TIE_ORDER, "voronoi": TIE_VORONOI}


class SearchEvaluation:
    """This search's evaluation for a generic search over the game API (the opponent-model
    search, :mod:`ime.bots.om_search`): the kernels' static value (``eval``) and terminal value
    of a position for ``player``, our moves ordered by free exits when ``order`` (stable, as
    ``_ordered`` does). A generic search's ply is one joint step here, so its depth counts turns
    as :func:`ab_search` does."""

    def __init__(self, eval: int, order: bool):
        self.eval = int(eval)
        self.ordered = bool(order)
        self._scratch = K.scratch()

    def value(self, state, player: int) -> float:
        return float(K.evaluate(state.S, player, self.eval, *self._scratch))

    def terminal(self, state, player: int, plies: int) -> float:
        return float(K.terminal_value(int(state.S[B.I_DEAD]), player, plies))

    def order(self, state, player: int, actions: list[int], depth: int) -> list[int]:
        if not self.ordered or len(actions) < 2:
            return list(actions)
        valid = int(B.valid_mask(state.S, player))  # exits of a deadly direction: not asked
        return sorted(actions, key=lambda d: -int(K.exits(state.S, player, d))
                      if (valid >> d) & 1 else 1)

    def free(self, state, action: int) -> bool:
        return False


class AlphaBetaBot(ZooBot):
    """Alpha-beta (or, ``prune: false``, plain minimax) on the sequentialised game.

    ``depth`` turns (the cap of iterative deepening when ``iterative``), ``nodes`` joint steps
    of budget, ``eval`` at the leaves, ``order`` inner moves by free exits, ``root_prune``
    drops dead-end root moves (:func:`kernels.pruned_mask`)."""

    family = "alphabeta"

    def __init__(self, bot_id: str = "alphabeta", depth: int = 6, nodes: int = 4000,
                 iterative: bool = True, prune: bool = True, order: bool = True,
                 eval: str = "voronoi", root_prune: bool = False):
        super().__init__(bot_id)
        self.depth = check_int("depth", depth, 1, 64)
        self.nodes = check_int("nodes", nodes, 1)
        self.iterative = bool(iterative)
        self.prune = bool(prune)
        self.order = bool(order)
        self.eval = EVALS[check_choice("eval", eval, EVALS)]
        self.root_prune = bool(root_prune)
        self.scores = np.zeros(4)
        self.info = np.zeros(2, np.int64)
        self._scratch = K.scratch()

    def search_evaluation(self) -> SearchEvaluation:
        """This bot's evaluation for a generic search (:mod:`ime.bots.om_search`)."""
        return SearchEvaluation(self.eval, self.order)

    def decide(self, S: np.ndarray, me: int, valid: int, ctx: DecisionContext) -> int:
        mask = int(K.pruned_mask(S, me)) if self.root_prune else valid
        return int(ab_search(S, me, mask, self.depth, self.nodes, self.iterative, self.prune,
                             self.order, self.eval, self.scores, self.info, *self._scratch))


class DFSBot(ZooBot):
    """Depth-first search: ``model: survival`` (our moves only, see the module doc) or
    ``model: minimax`` (the sequentialised game without ordering, a node cap making leaves).

    ``depth`` turns (0 = unbounded, survival only), ``nodes`` of budget, ``prune`` (survival:
    stop a branch at a full-depth path; minimax: alpha-beta cut-offs, but still no move
    ordering and no deepening), ``order: area`` searches the
    roomiest root move first, ``branch_limit`` splits the budget evenly between root moves,
    ``tiebreak`` between root moves that survive as long."""

    family = "dfs"

    def __init__(self, bot_id: str = "dfs", model: str = "survival", depth: int = 8,
                 nodes: int = 3000, prune: bool = True, order: str = "natural",
                 branch_limit: bool = False, tiebreak: str = "room", eval: str = "own"):
        super().__init__(bot_id)
        self.model = check_choice("model", model, ("survival", "minimax"))
        self.depth = check_int("depth", depth, 0 if self.model == "survival" else 1, 64)
        self.nodes = check_int("nodes", nodes, 1)
        self.prune = bool(prune)
        self.area_order = check_choice("order", order, ("area", "natural")) == "area"
        self.branch_limit = bool(branch_limit)
        self.tiebreak = TIEBREAKS[check_choice("tiebreak", tiebreak, TIEBREAKS)]
        self.eval = EVALS[check_choice("eval", eval, EVALS)]
        self.scores = np.zeros(4)
        self.info = np.zeros(2, np.int64)
        self._scratch = K.scratch()

    def decide(self, S: np.ndarray, me: int, valid: int, ctx: DecisionContext) -> int:
        if self.model == "minimax":
            return int(ab_search(S, me, valid, self.depth, self.nodes, False, self.prune,
                                 False, self.eval, self.scores, self.info, *self._scratch))
        sc = np.zeros(4, np.int64)
        d = dfs_search(S, me, valid, self.depth, self.nodes, self.prune, self.area_order,
                       self.branch_limit, self.tiebreak, sc)
        self.scores[:] = sc
        return int(d)
