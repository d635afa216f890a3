"""NegaMax alpha-beta over bitboards (numba), with iterative deepening under a *node* budget.

Why a node budget and not wall time: a decision must be a pure function of (config, position,
seed) so that any ply of a logged match can be replayed ("forked") and give the same move. The
budget counts every call of the recursive search (interior nodes and leaves alike).

Search protocol (``search``):

1. A position with one legal move returns it at once; no legal move returns ``PASS``.
2. If at most ``endgame_empties`` squares are empty, an exact solver searches to the end of the
   game scoring the final disc difference (``exact``) or only its sign (``wld``: win/loss/draw).
   Wins dominate everything either way. If the solver exceeds ``endgame_nodes`` it is abandoned.
3. Otherwise (or after an abandoned solve) iterative deepening from depth 1 up to
   ``min(max_depth, empties)``, all iterations sharing one node budget. When the budget runs out
   in the middle of an iteration, that iteration is discarded and the best move of the last
   *completed* iteration is played. If not even depth 1 completes (budget below the number of
   legal moves), the first move in ordering order is played.

Tie-breaking at the root is exact: with ``tie != first`` every later root move is searched with
alpha lowered by one, so a score equal to the best so far is a true tie (fail-soft values strictly
inside the window are exact). ``first`` keeps the earliest move in search order, ``last`` the
latest, ``random`` picks uniformly among tied moves with numba's generator seeded from the
``seed`` argument (reservoir sampling), so the choice is reproducible per decision.

Evaluation (side to move's view, integers): positional table (via per-row byte look-ups) +
mobility * (own moves - opponent moves) + frontier * (opponent frontier - own frontier) +
corner * corner difference + parity (odd empties favour the side to move) + disc * disc difference
+ stable * (edge discs chained from an owned corner). A terminal node scores
``sign(diff) * WIN + diff``, so any win beats any heuristic score.

A pass does not consume depth. Move ordering: ``none`` (square order), ``table`` (weight table,
best first), ``mobility`` (fewest opponent replies first, at remaining depth >= 2; table order
below), plus optionally the previous iteration's best move first at the root.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np
from numba import njit

from ime.core.bot import Bot, DecisionContext, decision_rng
from ime.games.reversi.bitboard import (
    ONE,
    PASS,
    ZERO,
    flips,
    legal_moves,
    lowest_bit_index,
    popcount,
)
from ime.games.reversi.bots.evaluation import (
    P_CORNER,
    P_DISC,
    P_END_EMPTIES,
    P_END_MODE,
    P_END_NODES,
    P_FRONTIER,
    P_MAX_DEPTH,
    P_MOBILITY,
    P_NODES,
    P_ORDER,
    P_PARITY,
    P_PV_FIRST,
    P_STABLE,
    P_TIE,
    SearchParams,
    row_tables,
)
from ime.games.reversi.game import ReversiState

U64 = np.uint64
NOT_A = U64(0xFEFEFEFEFEFEFEFE)  # every column but x = 0
NOT_H = U64(0x7F7F7F7F7F7F7F7F)  # every column but x = 7
CORNERS = U64(0x8100000000000081)
BYTE = U64(255)
S1 = U64(1)
S7 = U64(7)
S8 = U64(8)
S9 = U64(9)

INF = np.int64(1) << np.int64(40)
WIN = np.int64(1) << np.int64(30)
MAX_PLY = 130  # passes do not consume depth, so a line can hold up to ~2x the empties
# Every int and bool handed to another njit function goes through these non-literal values: a bare
# constant is typed ``Literal[int](1)``, which gives a recursive function a second specialisation,
# and numba's on-disk cache segfaults when it reloads such mismatched recursion (numba#6061/#6713).
# tests/test_bots_reversi.py checks that each recursive kernel keeps a single signature.
I0 = np.int64(0)
I1 = np.int64(1)
I2 = np.int64(2)

# Result vector of ``search``.
R_MOVE = 0
R_SCORE = 1
R_DEPTH = 2  # last completed iteration (the number of empties when solved exactly)
R_NODES = 3  # nodes spent in total (solver + mid-game search)
R_SOLVED = 4  # 1 if the move comes from a completed endgame solve
N_RESULT = 5


@njit(cache=True, inline="always")
def _neighbours(b):
    """Squares adjacent (8-connected) to any square of ``b``."""
    e = b & NOT_H
    w = b & NOT_A
    return (
        (b << S8) | (b >> S8) | (e << S1) | (w >> S1)
        | (e << S9) | (w << S7) | (e >> S7) | (w >> S9)
    )


@njit(cache=True)
def _edge_stable(P):
    """Own discs chained along an edge from an own corner (a cheap lower bound on stability).

    A fully owned edge is counted from both ends; that slight double count is harmless for an
    evaluation term.
    """
    n = 0
    for c in range(4):
        corner = 0 if c == 0 else 7 if c == 1 else 56 if c == 2 else 63
        if not ((P >> U64(corner)) & ONE):
            continue
        n += 1
        dx = 1 if (corner % 8) == 0 else -1
        dy = 8 if corner < 8 else -8
        for step in (dx, dy):
            sq = corner + step
            for _ in range(6):
                if (P >> U64(sq)) & ONE:
                    n += 1
                    sq += step
                else:
                    break
    return n


@njit(cache=True)
def evaluate(P, O, moves, tab, prm):
    """Heuristic score of a non-terminal position for the side owning ``P``."""
    s = np.int64(0)
    for r in range(8):
        sh = U64(8 * r)
        s += tab[r, np.int64((P >> sh) & BYTE)] - tab[r, np.int64((O >> sh) & BYTE)]
    if prm[P_MOBILITY] != 0:
        s += prm[P_MOBILITY] * (popcount(moves) - popcount(legal_moves(O, P)))
    if prm[P_FRONTIER] != 0:
        nb = _neighbours(~(P | O))
        s += prm[P_FRONTIER] * (popcount(O & nb) - popcount(P & nb))
    if prm[P_CORNER] != 0:
        s += prm[P_CORNER] * (popcount(P & CORNERS) - popcount(O & CORNERS))
    if prm[P_PARITY] != 0:
        empties = 64 - popcount(P | O)
        s += prm[P_PARITY] if empties % 2 == 1 else -prm[P_PARITY]
    if prm[P_DISC] != 0:
        s += prm[P_DISC] * (popcount(P) - popcount(O))
    if prm[P_STABLE] != 0:
        s += prm[P_STABLE] * (_edge_stable(P) - _edge_stable(O))
    return s


@njit(cache=True, inline="always")
def _terminal(P, O):
    d = popcount(P) - popcount(O)
    if d > 0:
        return WIN + d
    if d < 0:
        return -WIN + d
    return np.int64(0)


@njit(cache=True)
def _order(P, O, moves, ply, mode, w, mbuf, kbuf):
    """Write the moves of ``moves`` into ``mbuf[ply]`` best first; returns their number.

    Keys end in ``-sq`` so equal heuristic keys keep square order (deterministic).
    """
    n = 0
    m = moves
    while m:
        sq = lowest_bit_index(m)
        m &= m - ONE
        if mode == 0:
            key = -sq
        elif mode == 1:
            key = w[sq] * 64 - sq
        else:
            f = flips(P, O, sq)
            opp = popcount(legal_moves(O ^ f, P | f | (ONE << U64(sq))))
            key = -opp * 1000000 + w[sq] * 64 - sq
        j = n
        while j > 0 and kbuf[ply, j - 1] < key:
            kbuf[ply, j] = kbuf[ply, j - 1]
            mbuf[ply, j] = mbuf[ply, j - 1]
            j -= 1
        kbuf[ply, j] = key
        mbuf[ply, j] = sq
        n += 1
    return n


@njit(cache=True)
def _negamax(P, O, depth, alpha, beta, ply, tab, w, prm, ctr, mbuf, kbuf):
    """Fail-soft alpha-beta; ``ctr = [nodes, budget, aborted]``."""
    ctr[0] += 1
    if ctr[0] > ctr[1]:
        ctr[2] = 1
        return np.int64(0)
    moves = legal_moves(P, O)
    if moves == ZERO:
        if legal_moves(O, P) == ZERO:
            return _terminal(P, O)
        return -_negamax(O, P, depth, -beta, -alpha, ply + 1, tab, w, prm, ctr, mbuf, kbuf)
    if depth <= 0:
        return evaluate(P, O, moves, tab, prm)
    mode = prm[P_ORDER]
    if mode == 2 and depth < 2:
        mode = 1
    n = _order(P, O, moves, ply, mode, w, mbuf, kbuf)
    best = -INF
    for i in range(n):
        sq = mbuf[ply, i]
        f = flips(P, O, sq)
        cP = O ^ f
        cO = P | f | (ONE << U64(sq))
        if depth == 1:
            # The child is a leaf: do here what its own call would (count it, check the budget,
            # evaluate it), which saves a recursive call on most nodes; a child that must pass
            # takes the recursive path, uncounted here so that it counts itself once.
            ctr[0] += 1
            if ctr[0] > ctr[1]:
                ctr[2] = 1
                return np.int64(0)
            cmoves = legal_moves(cP, cO)
            if cmoves != ZERO:
                v = -evaluate(cP, cO, cmoves, tab, prm)
            else:
                ctr[0] -= 1
                v = -_negamax(cP, cO, depth - 1, -beta, -alpha, ply + 1,
                              tab, w, prm, ctr, mbuf, kbuf)
        else:
            v = -_negamax(cP, cO, depth - 1, -beta, -alpha, ply + 1,
                          tab, w, prm, ctr, mbuf, kbuf)
        if ctr[2]:
            return np.int64(0)
        if v > best:
            best = v
            if v > alpha:
                alpha = v
                if alpha >= beta:
                    break
    return best


@njit(cache=True)
def _solve(P, O, alpha, beta, ply, wld, w, ctr, mbuf, kbuf):
    """Exact endgame negamax: final disc difference (or its sign when ``wld``)."""
    ctr[0] += 1
    if ctr[0] > ctr[1]:
        ctr[2] = 1
        return np.int64(0)
    moves = legal_moves(P, O)
    if moves == ZERO:
        if legal_moves(O, P) == ZERO:
            d = popcount(P) - popcount(O)
            if wld:
                return np.int64(1) if d > 0 else np.int64(-1) if d < 0 else np.int64(0)
            return d
        return -_solve(O, P, -beta, -alpha, ply + 1, wld, w, ctr, mbuf, kbuf)
    empties = 64 - popcount(P | O)
    n = _order(P, O, moves, ply, I2 if empties > 6 else I1, w, mbuf, kbuf)
    best = -INF
    for i in range(n):
        sq = mbuf[ply, i]
        f = flips(P, O, sq)
        v = -_solve(O ^ f, P | f | (ONE << U64(sq)), -beta, -alpha, ply + 1, wld, w, ctr, mbuf,
                    kbuf)
        if ctr[2]:
            return np.int64(0)
        if v > best:
            best = v
            if v > alpha:
                alpha = v
                if alpha >= beta:
                    break
    return best


@njit(cache=True)
def _root(P, O, depth, solve, pv, tab, w, prm, ctr, mbuf, kbuf, res):
    """One root iteration with exact tie-breaking; writes ``res = [move, score]``."""
    moves = legal_moves(P, O)
    mode = I2 if solve != 0 else prm[P_ORDER]
    n = _order(P, O, moves, I0, mode, w, mbuf, kbuf)
    if pv >= 0 and prm[P_PV_FIRST] != 0:
        for i in range(n):
            if mbuf[0, i] == pv:
                for j in range(i, 0, -1):
                    mbuf[0, j] = mbuf[0, j - 1]
                mbuf[0, 0] = pv
                break
    tie = prm[P_TIE]
    wld = prm[P_END_MODE] == 1
    best = -INF
    bestmove = mbuf[0, 0]
    nties = 0
    for i in range(n):
        sq = mbuf[0, i]
        f = flips(P, O, sq)
        a = best
        if tie != 0 and best > -INF:
            a = best - 1
        nP = O ^ f
        nO = P | f | (ONE << U64(sq))
        if solve != 0:
            v = -_solve(nP, nO, -INF, -a, I1, wld, w, ctr, mbuf, kbuf)
        else:
            v = -_negamax(nP, nO, depth - 1, -INF, -a, I1, tab, w, prm, ctr, mbuf, kbuf)
        if ctr[2]:
            return
        if v > best:
            best = v
            bestmove = sq
            nties = 1
        elif v == best and tie != 0:
            if tie == 1:
                bestmove = sq
            else:
                nties += 1
                if np.random.randint(0, nties) == 0:
                    bestmove = sq
    res[0] = bestmove
    res[1] = best


@njit(cache=True)
def search(P, O, tab, w, prm, seed):
    """Best move for the side owning ``P``; returns int64[5] = move, score, depth, nodes, solved.

    ``tab`` is the 8x256 row table of ``w`` (``evaluation.row_tables``), ``prm`` the packed
    ``SearchParams``, ``seed`` (0 <= seed < 2**32) feeds ``random`` tie-breaking only.
    """
    np.random.seed(seed)
    out = np.zeros(N_RESULT, dtype=np.int64)
    moves = legal_moves(P, O)
    if moves == ZERO:
        out[R_MOVE] = PASS
        return out
    if popcount(moves) == 1:
        out[R_MOVE] = lowest_bit_index(moves)
        return out
    mbuf = np.zeros((MAX_PLY, 64), dtype=np.int64)
    kbuf = np.zeros((MAX_PLY, 64), dtype=np.int64)
    ctr = np.zeros(3, dtype=np.int64)
    res = np.zeros(2, dtype=np.int64)
    empties = 64 - popcount(P | O)
    spent = np.int64(0)
    if empties <= prm[P_END_EMPTIES] and prm[P_END_NODES] > 0:
        ctr[1] = prm[P_END_NODES]
        _root(P, O, empties, I1, -I1, tab, w, prm, ctr, mbuf, kbuf, res)
        if ctr[2] == 0:
            out[R_MOVE] = res[0]
            out[R_SCORE] = res[1]
            out[R_DEPTH] = empties
            out[R_NODES] = ctr[0]
            out[R_SOLVED] = 1
            return out
        spent = ctr[0]
    ctr[0] = 0
    ctr[1] = prm[P_NODES]
    ctr[2] = 0
    best = np.int64(-1)
    score = np.int64(0)
    done = 0
    maxd = min(prm[P_MAX_DEPTH], empties)
    for d in range(1, maxd + 1):
        _root(P, O, np.int64(d), I0, best, tab, w, prm, ctr, mbuf, kbuf, res)
        if ctr[2]:
            break
        best = res[0]
        score = res[1]
        done = d
    if best < 0:
        _order(P, O, moves, I0, prm[P_ORDER], w, mbuf, kbuf)
        best = mbuf[0, 0]
    out[R_MOVE] = best
    out[R_SCORE] = score
    out[R_DEPTH] = done
    out[R_NODES] = spent + min(ctr[0], ctr[1])
    return out


@njit(cache=True)
def solve_exact(P, O):
    """Exact final disc difference for the side owning ``P`` with perfect play (no budget)."""
    mbuf = np.zeros((MAX_PLY, 64), dtype=np.int64)
    kbuf = np.zeros((MAX_PLY, 64), dtype=np.int64)
    ctr = np.zeros(3, dtype=np.int64)
    ctr[1] = np.int64(1) << np.int64(62)
    w = np.zeros(64, dtype=np.int64)
    return _solve(P, O, -INF, INF, I0, ctr[2] != 0, w, ctr, mbuf, kbuf)


# --- the bot ------------------------------------------------------------------------------------


def decision_seed(ctx: DecisionContext, salt: str) -> int:
    """A 32-bit seed for the numba generator, keyed by (seed, match, ply, player, salt)."""
    return int(decision_rng(ctx, salt).integers(0, 2**32))


def random_legal(state: ReversiState, rng: np.random.Generator) -> int:
    """A uniformly random legal action (PASS when it is the only one)."""
    actions = state.legal_actions()
    return int(actions[int(rng.integers(len(actions)))])


class AlphaBetaBot(Bot):
    """NegaMax/MiniMax alpha-beta bot (thesis bots 1, 2, 4, 5 and the noisy opponents).

    With ``tie != "random"`` and ``epsilon == 0`` it is deterministic. ``epsilon`` is the chance
    per decision of playing a uniformly random legal move instead (opponent noise); the coin and
    the random tie-break are drawn from ``decision_rng(ctx)`` so the decision stays reproducible.
    """

    def __init__(
        self,
        bot_id: str = "alphabeta",
        params: SearchParams | Mapping[str, Any] | None = None,
        epsilon: float = 0.0,
    ):
        self.bot_id = bot_id
        if params is None:
            params = SearchParams()
        elif not isinstance(params, SearchParams):
            params = SearchParams.from_mapping(params)
        self.params = params
        self.epsilon = float(epsilon)
        self._w = params.table()
        self._tab = row_tables(self._w)
        self._prm = params.pack()
        self.deterministic = params.tie != "random" and self.epsilon == 0.0

    def analyse(self, state: ReversiState, seed: int = 0) -> dict[str, int]:
        """The raw search result (move, score, depth, nodes, solved) for the side to move."""
        P, O = state.own_opp(state.to_move)
        r = search(P, O, self._tab, self._w, self._prm, np.int64(seed % 2**32))
        return {
            "move": int(r[R_MOVE]),
            "score": int(r[R_SCORE]),
            "depth": int(r[R_DEPTH]),
            "nodes": int(r[R_NODES]),
            "solved": int(r[R_SOLVED]),
        }

    def act(self, state: ReversiState, ctx: DecisionContext) -> int:
        if self.epsilon > 0.0:
            rng = decision_rng(ctx, "epsilon")
            if rng.random() < self.epsilon:
                return random_legal(state, rng)
        seed = decision_seed(ctx, "alphabeta") if self.params.tie == "random" else 0
        return self.analyse(state, seed)["move"]
