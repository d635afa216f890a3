"""The seed's agent "Shen Suan Zi" (神算子): negamax, a memo cache, alpha-beta with the seed's move
ordering, an exact solve of small endgames and iterative deepening, compiled with numba.

The search sees both hands (the seed's game state); :class:`ime.games.big2.bots.negamax.NegamaxBot`
gives it the opponent's hand as the seat can deduce it, never the engine's.

* **Negamax** (负值极大化): a position's value for the player to move is the maximum over its
  plays of minus the value of the position after it. Values are in the game's unit, cards: a
  finished game is worth ``+n`` to the winner and ``-n`` to the loser, ``n`` the loser's cards
  left (``docs/games/big2.md``, "Score").
* **Memo cache** (缓存): keyed by (own hand, other hand, last hand type), as the seed's 30-tuple;
  hands packed 3 bits per rank, the quadruple of the play to beat (or "leading") in the high
  bits of the first key. With alpha-beta a cached value may be a bound, so an entry holds the
  value, whether it is exact, a lower or an upper bound, and the depth it was searched to
  (``SOLVED`` when no leaf below it was an estimate: then it holds at any depth).
* **Alpha-beta** with the seed's ordering (剪枝排序). Following: plays of the same type above the
  opponent's, smallest main rank first (the generator's order), then bombs smallest first, then
  the pass. Leading: most cards first, then smallest main rank, bombs last (smallest first);
  ties keep the generator's order (kickers lexicographic).
* **Exact solve** (精确解) when both hands hold at most ``exact_threshold`` cards (the seed's
  10 + 10), within ``exact_nodes`` nodes; a solve that runs out falls back to (its cache kept,
  the budgets below counted from there):
* **Iterative deepening** (迭代深入搜索) from ``start_depth`` plies (the seed's 8), one ply
  deeper per iteration, leaves valued by the seed's estimate **opponent's cards - own cards**.
  Budgets are node counts (never time): the first iteration may use up to ``first_nodes``,
  a deeper one starts only while fewer than ``nodes`` were spent and is abandoned when the
  total passes ``nodes``; the deepest completed iteration's best play is played. An iteration
  that meets no estimate has solved the position and ends the search. If even the first
  iteration runs out, the best of the root plays it finished is played (the first in the
  order when none finished).

Ties between equally valued plays go to the earlier play in the order, so the search is a pure
function of the two hands, the play to beat and the budgets.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numba import njit, types
from numba.typed import Dict

from ime.games.big2.movegen import MAX_MOVES, generate

INF = 1 << 20
OFFSET = 1 << 20
EXACT, LOWER, UPPER = 0, 1, 2
SOLVED = (1 << 14) - 1
SOLVE_DEPTH = 1000
"""Depth of an exact solve (more plies than any game has)."""
MAX_PLY = 128
"""Search plies a buffer row is kept for (a 26 + 26 game lasts at most 104 plies)."""
NODES, LIMIT, ABORTED = 0, 1, 2
KEY_TYPE = types.UniTuple(types.int64, 2)


@njit(cache=True)
def type_code(main, length, mult, kmult):
    """The play to beat as an int (0: leading)."""
    if main < 0:
        return np.int64(0)
    return np.int64(1 + main + 16 * (length + 16 * (mult + 8 * kmult)))


@njit(cache=True)
def _order(meta, n, lead, keys, order):
    """The seed's ordering of ``n`` generated plays into ``order`` (see the module doc)."""
    if not lead:
        for i in range(n):
            order[i] = i
        return
    for i in range(n):
        main, length, mult, kmult = meta[i, 0], meta[i, 1], meta[i, 2], meta[i, 3]
        if mult == 4:
            keys[i] = (np.int64(1) << 40) + (main << 13) + i
        else:
            cards = length * (mult + kmult)
            keys[i] = ((64 - cards) << 24) + (main << 13) + i
    idx = np.argsort(keys[:n])
    for i in range(n):
        order[i] = idx[i]


@njit(cache=True)
def _store(tt, key, value, flag, depth):
    tt[key] = ((value + OFFSET) << 16) | (depth << 2) | flag


@njit(cache=True)
def negamax(own, opp, own_n, opp_n, lm, ll, lmu, lk, depth, alpha, beta, ply,
            bufp, bufm, bufo, keys, scratch, tt, stats):
    """Value of the position for the player to move (hands ``own``/``opp`` packed, ``own_n`` /
    ``opp_n`` cards, the play to beat ``(lm, ll, lmu, lk)``, ``lm < 0`` leading), and whether it
    is exact (no estimate below). Counts one node; sets ``stats[ABORTED]`` past the limit."""
    stats[NODES] += 1
    if stats[NODES] > stats[LIMIT]:
        stats[ABORTED] = 1
        return np.int64(0), False
    if depth <= 0:
        return np.int64(opp_n - own_n), False
    lead = lm < 0
    zero = np.int64(0)
    key = (own | (type_code(lm, ll, lmu, lk) << 40), opp)
    alpha0 = alpha
    if key in tt:
        e = tt[key]
        v = (e >> 16) - OFFSET
        d = (e >> 2) & SOLVED
        flag = e & 3
        if d >= depth:
            solved = d == SOLVED
            if flag == EXACT:
                return v, solved
            if flag == LOWER and v > alpha:
                alpha = v
            elif flag == UPPER and v < beta:
                beta = v
            if alpha >= beta:
                return v, solved
    for r in range(13):
        scratch[ply, r] = (own >> np.int64(3 * r)) & 7
    n = generate(scratch[ply], lm, ll, lmu, lk, bufp[ply], bufm[ply])
    _order(bufm[ply], n, lead, keys, bufo[ply])
    best = np.int64(-INF)
    solved = True
    for j in range(n + (0 if lead else 1)):
        if j < n:
            i = bufo[ply, j]
            m = bufm[ply, i]
            rest = own_n - m[1] * (m[2] + m[3])
            if rest == 0:
                v, ex = np.int64(opp_n), True
            else:
                cv, ex = negamax(opp, own - bufp[ply, i], opp_n, rest, m[0], m[1], m[2], m[3],
                                 depth - 1, -beta, -alpha, ply + 1, bufp, bufm, bufo, keys,
                                 scratch, tt, stats)
                v = -cv
        else:  # the pass: the opponent leads
            cv, ex = negamax(opp, own, opp_n, own_n, np.int64(-1), zero, zero, zero, depth - 1,
                             -beta, -alpha, ply + 1, bufp, bufm, bufo, keys, scratch, tt, stats)
            v = -cv
        if stats[ABORTED]:
            return np.int64(0), False
        solved = solved and ex
        if v > best:
            best = v
        if best > alpha:
            alpha = best
        if alpha >= beta:
            break
    flag = UPPER if best <= alpha0 else (LOWER if best >= beta else EXACT)
    _store(tt, key, best, flag, SOLVED if solved else min(depth, SOLVED - 1))
    return best, solved


@njit(cache=True)
def root(own, opp, own_n, opp_n, lm, ll, lmu, lk, depth, bufp, bufm, bufo, keys, scratch, tt,
         stats, result):
    """One full-window search of the root to ``depth``. ``result`` gets ``(choice, value,
    solved, finished)``: ``choice`` indexes the generated plays (``n``: the pass), ``finished``
    how many root plays were fully searched (all of them unless aborted). Returns ``n``."""
    for r in range(13):
        scratch[0, r] = (own >> np.int64(3 * r)) & 7
    n = generate(scratch[0], lm, ll, lmu, lk, bufp[0], bufm[0])
    lead = lm < 0
    _order(bufm[0], n, lead, keys, bufo[0])
    alpha = np.int64(-INF)
    ninf = np.int64(-INF)
    zero, one = np.int64(0), np.int64(1)
    best_i = bufo[0, 0] if n > 0 else n
    solved = True
    done = 0
    for j in range(n + (0 if lead else 1)):
        if j < n:
            i = bufo[0, j]
            m = bufm[0, i]
            rest = own_n - m[1] * (m[2] + m[3])
            if rest == 0:
                v, ex = np.int64(opp_n), True
            else:
                cv, ex = negamax(opp, own - bufp[0, i], opp_n, rest, m[0], m[1], m[2], m[3],
                                 depth - 1, ninf, -alpha, one, bufp, bufm, bufo, keys, scratch,
                                 tt, stats)
                v = -cv
        else:
            i = n
            cv, ex = negamax(opp, own, opp_n, own_n, np.int64(-1), zero, zero, zero, depth - 1,
                             ninf, -alpha, one, bufp, bufm, bufo, keys, scratch, tt, stats)
            v = -cv
        if stats[ABORTED]:
            break
        done += 1
        solved = solved and ex
        if v > alpha:
            alpha = v
            best_i = i
    result[0] = best_i
    result[1] = alpha
    result[2] = 1 if solved else 0
    result[3] = done
    return n


@njit(cache=True)
def search(own, opp, own_n, opp_n, lm, ll, lmu, lk, exact_threshold, exact_nodes, start_depth,
           first_nodes, nodes, out):
    """The agent's decision (see the module doc). ``out`` gets ``(choice, value, depth, nodes,
    solved, n)``: ``choice`` indexes the generator's plays (``n``: the pass), ``depth`` the
    deepest completed iteration (``SOLVE_DEPTH`` for an exact solve, 0 when none finished)."""
    bufp = np.empty((MAX_PLY, MAX_MOVES), np.int64)
    bufm = np.empty((MAX_PLY, MAX_MOVES, 4), np.int64)
    bufo = np.empty((MAX_PLY, MAX_MOVES), np.int64)
    keys = np.empty(MAX_MOVES, np.int64)
    scratch = np.empty((MAX_PLY, 13), np.int64)
    tt = Dict.empty(key_type=KEY_TYPE, value_type=types.int64)
    stats = np.zeros(3, np.int64)
    res = np.zeros(4, np.int64)
    if max(own_n, opp_n) <= exact_threshold:
        stats[LIMIT] = exact_nodes
        n = root(own, opp, own_n, opp_n, lm, ll, lmu, lk, SOLVE_DEPTH, bufp, bufm, bufo, keys,
                 scratch, tt, stats, res)
        if stats[ABORTED] == 0:
            out[0], out[1], out[2], out[3], out[4], out[5] = res[0], res[1], SOLVE_DEPTH, \
                stats[NODES], 1, n
            return
        stats[ABORTED] = 0
    choice, value, reached, solved, n = -1, np.int64(0), 0, 0, 0
    base = stats[NODES]  # the budgets count from here (after an exact attempt)
    max_depth = 2 * (own_n + opp_n) + 1
    d = start_depth
    while d <= max_depth:
        if reached > 0 and stats[NODES] - base >= nodes:
            break
        stats[LIMIT] = base + (first_nodes if reached == 0 else nodes)
        n = root(own, opp, own_n, opp_n, lm, ll, lmu, lk, d, bufp, bufm, bufo, keys, scratch,
                 tt, stats, res)
        if stats[ABORTED]:
            if reached == 0:
                choice, value = res[0], res[1]
            break
        choice, value, reached, solved = res[0], res[1], d, res[2]
        if solved:
            break
        d += 1
    out[0], out[1], out[2], out[3], out[4], out[5] = choice, value, reached, stats[NODES], \
        solved, n


@njit(cache=True)
def root_values(own, opp, own_n, opp_n, lm, ll, lmu, lk, depth, limit, values):
    """The value of every root play (generator order, then the pass when following) searched
    to ``depth`` with a full window and one shared cache, into ``values``; returns ``(n, nodes,
    aborted)``. With ``depth = SOLVE_DEPTH`` the values are exact (the solve tool)."""
    bufp = np.empty((MAX_PLY, MAX_MOVES), np.int64)
    bufm = np.empty((MAX_PLY, MAX_MOVES, 4), np.int64)
    bufo = np.empty((MAX_PLY, MAX_MOVES), np.int64)
    keys = np.empty(MAX_MOVES, np.int64)
    scratch = np.empty((MAX_PLY, 13), np.int64)
    tt = Dict.empty(key_type=KEY_TYPE, value_type=types.int64)
    stats = np.zeros(3, np.int64)
    stats[LIMIT] = limit
    ninf, pinf = np.int64(-INF), np.int64(INF)
    zero, one = np.int64(0), np.int64(1)
    for r in range(13):
        scratch[0, r] = (own >> np.int64(3 * r)) & 7
    n = generate(scratch[0], lm, ll, lmu, lk, bufp[0], bufm[0])
    total = n + (0 if lm < 0 else 1)
    for i in range(total):
        if i < n:
            m = bufm[0, i]
            rest = own_n - m[1] * (m[2] + m[3])
            if rest == 0:
                values[i] = opp_n
                continue
            cv, ex = negamax(opp, own - bufp[0, i], opp_n, rest, m[0], m[1], m[2], m[3],
                             depth - 1, ninf, pinf, one, bufp, bufm, bufo, keys, scratch, tt,
                             stats)
        else:
            cv, ex = negamax(opp, own, opp_n, own_n, np.int64(-1), zero, zero, zero, depth - 1,
                             ninf, pinf, one, bufp, bufm, bufo, keys, scratch, tt, stats)
        values[i] = -cv
        if stats[ABORTED]:
            break
    return total, stats[NODES], stats[ABORTED]


@dataclass(frozen=True)
class SearchParams:
    """The agent's knobs (``config/bots/big2.yaml``; the seed's "神算子 (10, 8)" is
    ``exact_threshold=10, start_depth=8``)."""

    exact_threshold: int = 10
    exact_nodes: int = 2_000_000
    start_depth: int = 8
    first_nodes: int = 2_000_000
    nodes: int = 200_000


@dataclass(frozen=True)
class SearchResult:
    """A decision: ``choice`` indexes the generator's plays (``n``: the pass); ``value`` in
    cards for the player to move; ``depth`` of the deepest completed iteration
    (``SOLVE_DEPTH``: solved exactly); ``nodes`` searched."""

    choice: int
    value: int
    depth: int
    nodes: int
    solved: bool
    n: int

    @property
    def is_pass(self) -> bool:
        return self.choice == self.n


def decide(own: int, opp: int, own_n: int, opp_n: int,
           last: tuple[int, int, int, int] | None, params: SearchParams) -> SearchResult:
    """Run :func:`search` on packed hands; ``last`` the quadruple to beat (None: leading)."""
    lm, ll, lmu, lk = (-1, 0, 0, 0) if last is None else (int(x) for x in last)
    out = np.zeros(6, np.int64)
    search(np.int64(own), np.int64(opp), int(own_n), int(opp_n), lm, ll, lmu, lk,
           int(params.exact_threshold), int(params.exact_nodes), int(params.start_depth),
           int(params.first_nodes), int(params.nodes), out)
    c, v, d, nodes, solved, n = (int(x) for x in out)
    return SearchResult(c, v, d, nodes, bool(solved), n)


def solve_values(own_counts, opp_counts, last: tuple[int, int, int, int] | None,
                 limit: int = 1 << 62) -> tuple[np.ndarray, int]:
    """Exact value of every root play (generator order, then the pass when following) for the
    player to move with 13-count hands ``own_counts`` / ``opp_counts``; and the nodes searched.
    RuntimeError past ``limit`` nodes."""
    from ime.games.big2.movegen import pack

    lm, ll, lmu, lk = (-1, 0, 0, 0) if last is None else (int(x) for x in last)
    values = np.zeros(MAX_MOVES + 1, np.int64)
    n, nodes, aborted = root_values(
        pack(np.asarray(own_counts, np.int64)), pack(np.asarray(opp_counts, np.int64)),
        int(np.sum(own_counts)), int(np.sum(opp_counts)), lm, ll, lmu, lk, SOLVE_DEPTH,
        int(limit), values)
    if aborted:
        raise RuntimeError(f"big2 solve: more than {limit} nodes")
    return values[:n].copy(), int(nodes)


__all__ = ["SOLVE_DEPTH", "SearchParams", "SearchResult", "decide", "negamax", "root_values",
           "search", "solve_values", "type_code"]
