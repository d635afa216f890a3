"""Depth-limited alpha-beta with a positional evaluation (numba): the graded opponents.

The evaluation counts the *open lines*: every window of four cells in a row (no blocked cell in
it) that holds discs of one player only scores ``weights[k-1]`` for that player's ``k`` discs
(default 1, 5, 25 for one, two, three). Cells near the centre lie in more windows, so the
count already weights position. Score = own - opponent's, for the side to move.

Search: negamax alpha-beta to ``depth`` plies, columns centre first; a move that makes four
scores ``WIN - ply`` (faster wins score more, slower losses less); a full board is 0; at depth
0 the evaluation. Depth 1 therefore takes an immediate win but does not see the opponent's.
The root scores every column exactly where it ties or beats the best so far (a null window just
below the best), so ties can be broken at random (``tie: random``) or centre first.

Boards over 64 bits run the ``*_wide`` twins of the kernels (three-word bitboards of ``wide``),
the one-word kernels staying as they were.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence

import numpy as np
from numba import njit

from ime.core.bot import Bot, DecisionContext, decision_rng
from ime.games.connect4 import wide as wd
from ime.games.connect4.board import (
    G_WIDTH,
    U64,
    ZERO,
    Geometry,
    column_cells,
    has_four,
    popcount,
    possible,
)

WIN = 1_000_000
NONE = -(1 << 60)
"""Root score of a full column."""


@functools.lru_cache(maxsize=32)
def windows(geo: Geometry) -> np.ndarray:
    """Bitboards of every four-in-a-row window of ``geo`` that has no blocked cell
    (``uint64[n]``; on a wide board ``uint64[n, 3]`` word triples)."""
    out = []
    blocked = set(geo.blocked)
    for x in range(geo.width):
        for y in range(geo.height):
            for dx, dy in ((1, 0), (0, 1), (1, 1), (1, -1)):
                cells = [(x + k * dx, y + k * dy) for k in range(4)]
                if all(0 <= cx < geo.width and 0 <= cy < geo.height and (cx, cy) not in blocked
                       for cx, cy in cells):
                    out.append(sum(geo.bit(cx, cy) for cx, cy in cells))
    if geo.wide:
        return np.array([wd.to_words(b) for b in out], dtype=np.uint64).reshape(-1, wd.WORDS)
    return np.array(out, dtype=np.uint64)


@njit(cache=True)
def evaluate(me, opp, wins, weights):
    """Open-line score of the side owning ``me``."""
    s = np.int64(0)
    for i in range(wins.shape[0]):
        w = wins[i]
        a = popcount(me & w)
        b = popcount(opp & w)
        if b == 0:
            if a > 0:
                s += weights[a - 1]
        elif a == 0:
            s -= weights[b - 1]
    return s


@njit(cache=True)
def _search(me, opp, depth, alpha, beta, ply, g, order, wins, weights, stats):
    stats[0] += 1
    moves = possible(me, opp, g)
    if moves == ZERO:
        return np.int64(0)
    if depth == 0:
        return evaluate(me, opp, wins, weights)
    best = np.int64(NONE)
    for i in range(order.shape[0]):
        m = moves & column_cells(order[i], g)
        if m == ZERO:
            continue
        mine = me | m
        if has_four(mine, g):
            v = np.int64(WIN - ply)
        else:
            v = -_search(opp, mine, depth - 1, -beta, -alpha, ply + 1, g, order, wins, weights,
                         stats)
        if v > best:
            best = v
            if v > alpha:
                alpha = v
                if alpha >= beta:
                    break
    return best


@njit(cache=True)
def root_scores(me, opp, depth, g, order, wins, weights, stats):
    """Score of every column (``NONE``: full): exact for each column that ties or beats the
    best before it, an upper bound below the best for the others."""
    width = np.int64(g[G_WIDTH])
    out = np.full(width, NONE, dtype=np.int64)
    moves = possible(me, opp, g)
    best = np.int64(NONE)
    for i in range(order.shape[0]):
        c = order[i]
        m = moves & column_cells(c, g)
        if m == ZERO:
            continue
        mine = me | m
        if has_four(mine, g):
            v = np.int64(WIN)
        else:
            alpha = best - 1 if best > NONE else np.int64(-WIN - 1)
            v = -_search(opp, mine, depth - 1, np.int64(-WIN - 1), -alpha, np.int64(1), g,
                         order, wins, weights, stats)
        out[c] = v
        if v > best:
            best = v
    return out


# --- the same search on wide boards ---------------------------------------------------------------
@njit(cache=True)
def evaluate_wide(me, opp, wins, weights):
    """:func:`evaluate` on a wide board (``wins``: ``uint64[n, 3]``)."""
    s = np.int64(0)
    for i in range(wins.shape[0]):
        w = wd.row(wins, i)
        a = wd.w_popcount(wd.w_and(me, w))
        b = wd.w_popcount(wd.w_and(opp, w))
        if b == 0:
            if a > 0:
                s += weights[a - 1]
        elif a == 0:
            s -= weights[b - 1]
    return s


@njit(cache=True)
def _search_wide(me, opp, depth, alpha, beta, ply, g, gw, order, wins, weights, stats):
    stats[0] += 1
    moves = wd.possible(me, opp, gw)
    if not wd.w_any(moves):
        return np.int64(0)
    if depth == 0:
        return evaluate_wide(me, opp, wins, weights)
    best = np.int64(NONE)
    for i in range(order.shape[0]):
        m = wd.w_and(moves, wd.column_cells(order[i], gw))
        if not wd.w_any(m):
            continue
        mine = wd.w_or(me, m)
        if wd.has_four(mine, g):
            v = np.int64(WIN - ply)
        else:
            v = -_search_wide(opp, mine, depth - 1, -beta, -alpha, ply + 1, g, gw, order, wins,
                              weights, stats)
        if v > best:
            best = v
            if v > alpha:
                alpha = v
                if alpha >= beta:
                    break
    return best


@njit(cache=True)
def root_scores_wide(me, opp, depth, g, gw, order, wins, weights, stats):
    """:func:`root_scores` on a wide board."""
    width = np.int64(g[G_WIDTH])
    out = np.full(width, NONE, dtype=np.int64)
    moves = wd.possible(me, opp, gw)
    best = np.int64(NONE)
    for i in range(order.shape[0]):
        c = order[i]
        m = wd.w_and(moves, wd.column_cells(c, gw))
        if not wd.w_any(m):
            continue
        mine = wd.w_or(me, m)
        if wd.has_four(mine, g):
            v = np.int64(WIN)
        else:
            alpha = best - 1 if best > NONE else np.int64(-WIN - 1)
            v = -_search_wide(opp, mine, depth - 1, np.int64(-WIN - 1), -alpha, np.int64(1), g,
                              gw, order, wins, weights, stats)
        out[c] = v
        if v > best:
            best = v
    return out


def pick(scores: np.ndarray, order: np.ndarray, tie: str, rng: np.random.Generator | None) -> int:
    """The best column of ``scores``: centre first among ties, or uniformly with ``tie=random``."""
    best = scores.max()
    ties = [int(c) for c in order if scores[c] == best]
    if tie == "random" and len(ties) > 1 and rng is not None:
        return ties[int(rng.integers(len(ties)))]
    return ties[0]


class OpenLineEvaluation:
    """This search's evaluation for a generic search over the game API (the opponent-model
    search, :mod:`ime.bots.om_search`), valuing positions exactly as :func:`root_scores` does:
    the open-line score of the side to move (negated for the other player), a win ``WIN - p``
    for the side that made four with the ``p``-th move below the root's children (``WIN`` for
    a win at the root's own move), a full board 0, columns centre first."""

    def __init__(self, weights: Sequence[int] = (1, 5, 25)):
        self.weights = np.array([int(w) for w in weights], dtype=np.int64)

    def value(self, state, player: int) -> int:
        me, opp = state.own_opp(state.to_move)
        geo = state.game.geometry
        if geo.wide:
            s = evaluate_wide(wd.to_words(me), wd.to_words(opp), windows(geo), self.weights)
        else:
            s = evaluate(U64(me), U64(opp), windows(geo), self.weights)
        return int(s) if state.to_move == player else -int(s)

    def terminal(self, state, player: int, plies: int) -> int:
        if state.winner is None:
            return 0
        v = WIN - (plies - 1)
        return v if state.winner == player else -v

    def order(self, state, player: int, actions: list[int], depth: int) -> list[int]:
        legal = set(actions)
        return [int(c) for c in state.game.geometry.order if int(c) in legal]

    def free(self, state, action: int) -> bool:
        return False


class AlphaBetaBot(Bot):
    """Alpha-beta to ``depth`` plies with the open-line evaluation; ``epsilon``: probability of
    a uniformly random column instead (a weaker, more varied opponent)."""

    def __init__(self, bot_id: str = "alphabeta", depth: int = 4,
                 weights: Sequence[int] = (1, 5, 25), tie: str = "random",
                 epsilon: float = 0.0):
        if int(depth) < 1:
            raise ValueError(f"alphabeta needs depth >= 1, got {depth}")
        if tie not in ("random", "centre"):
            raise ValueError(f"tie must be 'random' or 'centre', got {tie!r}")
        if len(weights) != 3:
            raise ValueError(f"weights are three values (one, two, three discs), got {weights}")
        self.bot_id = bot_id
        self.depth = int(depth)
        self.weights = np.array([int(w) for w in weights], dtype=np.int64)
        self.tie = tie
        self.epsilon = float(epsilon)
        self.deterministic = tie == "centre" and self.epsilon == 0.0
        self.stats = np.zeros(1, dtype=np.int64)

    def search_evaluation(self) -> OpenLineEvaluation:
        """This bot's evaluation for a generic search (:mod:`ime.bots.om_search`)."""
        return OpenLineEvaluation(self.weights)

    def scores(self, state) -> np.ndarray:
        me, opp = state.own_opp()
        geo = state.game.geometry
        if geo.wide:
            return root_scores_wide(wd.to_words(me), wd.to_words(opp), self.depth, geo.g,
                                    geo.gw, geo.order, windows(geo), self.weights, self.stats)
        return root_scores(U64(me), U64(opp), self.depth, geo.g, geo.order, windows(geo),
                           self.weights, self.stats)

    def act(self, state, ctx: DecisionContext) -> int:
        rng = decision_rng(ctx, "alphabeta")
        if self.epsilon > 0 and rng.random() < self.epsilon:
            legal = state.legal_actions()
            return int(legal[int(rng.integers(len(legal)))])
        return pick(self.scores(state), state.game.geometry.order, self.tie, rng)
