"""Nash-equilibrium Monte Carlo (numba): Fig 2.4's NE family.

Each turn of Snake is a zero-sum matrix game: snake 0 picks a row, snake 1 a column, at once.
The search builds a tree of such games ``depth`` turns deep over the valid directions (a
boxed-in snake keeps one, losing, direction); a leaf entry is the mean of ``rollouts``
rollouts (snake 0's share, :mod:`.kernels`), a finished game its exact share, and every inner
node's value is the *value of its matrix game*, solved by :func:`solve_matrix`. At the root we
play our equilibrium strategy: its most probable direction (``play: argmax``) or a draw from it
with ``decision_rng`` (``play: mixed``).

**The solver** is exact when the matrix has a saddle point (a pure equilibrium, the common case
in Snake) and otherwise runs ``iters`` rounds of regret matching+ with alternating updates and
linearly weighted averages: deterministic, no LP, and for matrices of at most 4 x 4 within a
percent of the value after a few hundred rounds.

**Flags of Fig 2.4** with budgets in rollouts: ``iterative`` (Fig 2.4 "ID") deepens 1, 2, ...
``depth`` turns while ``budget`` rollouts last (an iteration that runs out is discarded; depth 1
always completes); pruning: ``root_prune`` keeps only the non-dead-end root moves of both
snakes (:func:`kernels.pruned_mask`), ``inner_prune`` does the same at every node of the tree.
``horizon`` cuts rollouts (0: to the end); ``rollout: eval`` values a leaf at once by the
evaluation (``eval``: plain or tail-aware Voronoi), one "rollout" per leaf.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ime.core.bot import DecisionContext, decision_rng
from ime.games.snake import board as B
from ime.games.snake.bots import kernels as K
from ime.games.snake.bots.common import ZooBot, check_choice, check_int
from ime.games.snake.bots.mcts import EVALS, POLICIES


@njit(cache=True)
def solve_matrix(M, m0, m1, iters, x, y) -> float:
    """Equilibrium of the zero-sum game ``M`` (4 x 4, row player maximises) restricted to rows
    ``m0`` and columns ``m1`` (bit masks); writes the strategies into ``x`` and ``y`` and
    returns the row player's value."""
    x[:] = 0.0
    y[:] = 0.0
    lower, lr = -1.0e300, 0  # max over rows of the row minimum
    for r in range(4):
        if (m0 >> r) & 1:
            lo = 1.0e300
            for c in range(4):
                if (m1 >> c) & 1 and M[r, c] < lo:
                    lo = M[r, c]
            if lo > lower:
                lower, lr = lo, r
    upper, uc = 1.0e300, 0  # min over columns of the column maximum
    for c in range(4):
        if (m1 >> c) & 1:
            hi = -1.0e300
            for r in range(4):
                if (m0 >> r) & 1 and M[r, c] > hi:
                    hi = M[r, c]
            if hi < upper:
                upper, uc = hi, c
    if lower >= upper - 1e-12:
        x[lr] = 1.0
        y[uc] = 1.0
        return lower
    R0 = np.zeros(4)
    R1 = np.zeros(4)
    xs = np.zeros(4)
    ys = np.zeros(4)
    for t in range(1, iters + 1):
        _strategy(R0, m0, xs)
        _strategy(R1, m1, ys)
        # row player: regrets against the current column mix
        v = 0.0
        u = np.zeros(4)
        for r in range(4):
            if (m0 >> r) & 1:
                for c in range(4):
                    u[r] += M[r, c] * ys[c]
                v += xs[r] * u[r]
        for r in range(4):
            if (m0 >> r) & 1:
                R0[r] = max(R0[r] + u[r] - v, 0.0)
        _strategy(R0, m0, xs)
        # column player (minimises), against the updated row mix
        w = np.zeros(4)
        v = 0.0
        for c in range(4):
            if (m1 >> c) & 1:
                for r in range(4):
                    w[c] += M[r, c] * xs[r]
                v += ys[c] * w[c]
        for c in range(4):
            if (m1 >> c) & 1:
                R1[c] = max(R1[c] + v - w[c], 0.0)
        for k in range(4):
            x[k] += t * xs[k]
            y[k] += t * ys[k]
    sx = x.sum()
    sy = y.sum()
    value = 0.0
    for r in range(4):
        x[r] /= sx
    for c in range(4):
        y[c] /= sy
    for r in range(4):
        for c in range(4):
            value += x[r] * M[r, c] * y[c]
    return value


@njit(cache=True)
def _strategy(R, m, out) -> None:
    """Regret matching: ``out`` proportional to the positive regrets over ``m`` (uniform if
    none is positive)."""
    s = 0.0
    for k in range(4):
        out[k] = R[k] if (m >> k) & 1 and R[k] > 0 else 0.0
        s += out[k]
    if s <= 0:
        n = K.popcount4(m)
        for k in range(4):
            out[k] = 1.0 / n if (m >> k) & 1 else 0.0
    else:
        for k in range(4):
            out[k] /= s


@njit(cache=True)
def _leaf(S, rollouts, policy, horizon, ek, ctr, st, dist, owner, queue) -> float:
    """Mean of ``rollouts`` rollouts from ``S`` (snake 0's share); 0.5 and ``ctr[2] = 1`` if
    they would pass the budget while aborting is allowed."""
    if ctr[3] and ctr[0] + rollouts > ctr[1]:
        ctr[2] = 1
        return 0.5
    total = 0.0
    T = S.copy()
    for _ in range(rollouts):
        T[:] = S
        v, _t = K.rollout(T, policy, horizon, ek, st, dist, owner, queue)
        total += v
    ctr[0] += rollouts
    return total / rollouts


@njit(cache=True)
def _moves(S, p, prune) -> int:
    if prune:
        return K.moves_or_one(K.pruned_mask(S, p))
    return K.moves_or_one(B.valid_mask(S, p))


@njit(cache=True)
def _value(S, depth, rollouts, policy, horizon, ek, iters, prune, ctr, st, dist, owner,
           queue) -> float:
    """Snake 0's equilibrium share of the running position ``S`` with ``depth`` matrix-game
    turns above the rollouts (``prune``: dead-end moves of both snakes dropped at every
    node). ``ctr``: [rollouts used, budget, aborted, abort allowed].

    An explicit stack of turns, not recursion (numba's cache does not hold recursive
    functions safely): level ``L`` fills the matrix ``M[L]`` of the position ``L`` turns below
    ``S``, entry ``k = 4 a + b`` at a time."""
    if depth == 0:
        return _leaf(S, rollouts, policy, horizon, ek, ctr, st, dist, owner, queue)
    M = np.zeros((depth, 4, 4))
    m0 = np.zeros(depth, np.int64)
    m1 = np.zeros(depth, np.int64)
    k = np.zeros(depth, np.int64)
    code = np.zeros(depth, np.int64)
    x = np.zeros(4)
    y = np.zeros(4)
    L = 0
    m0[0] = _moves(S, 0, prune)
    m1[0] = _moves(S, 1, prune)
    while True:
        while k[L] < 16 and not ((m0[L] >> (k[L] // 4)) & 1 and (m1[L] >> (k[L] % 4)) & 1):
            k[L] += 1
        if k[L] >= 16:  # the matrix is full: its value goes one level up
            val = solve_matrix(M[L], m0[L], m1[L], iters, x, y)
            if L == 0:
                return val
            L -= 1
            B.undo(S, code[L])
            M[L, k[L] // 4, k[L] % 4] = val
            k[L] += 1
            continue
        a, b = k[L] // 4, k[L] % 4
        code[L] = B.step(S, a, b)
        if S[B.I_DEAD]:
            val = K.share0(S[B.I_DEAD])
        elif L == depth - 1:
            val = _leaf(S, rollouts, policy, horizon, ek, ctr, st, dist, owner, queue)
            if ctr[2]:
                for lv in range(L, -1, -1):
                    B.undo(S, code[lv])
                return 0.5
        else:
            L += 1
            M[L] = 0.0
            m0[L] = _moves(S, 0, prune)
            m1[L] = _moves(S, 1, prune)
            k[L] = 0
            continue
        B.undo(S, code[L])
        M[L, a, b] = val
        k[L] += 1


@njit(cache=True)
def ne_search(S, me, root_mask, opp_mask, depth, iterative, budget, rollouts, policy, horizon,
              ek, iters, prune, seed, strategy) -> int:
    """Our equilibrium strategy at the root (written into ``strategy``, float64[4]); returns
    the deepest completed depth."""
    st = np.zeros(1, np.uint64)
    st[0] = seed
    dist, owner, queue = K.scratch_arrays()
    m = np.zeros(2, np.int64)
    m[me] = root_mask
    m[1 - me] = opp_mask
    ctr = np.zeros(4, np.int64)
    ctr[1] = budget
    done = 0
    first = 1 if iterative else depth
    for d in range(first, depth + 1):
        ctr[2] = 0
        ctr[3] = 1 if d > first else 0
        M = np.zeros((4, 4))
        for a in range(4):
            if not (m[0] >> a) & 1:
                continue
            for b in range(4):
                if not (m[1] >> b) & 1:
                    continue
                code = B.step(S, a, b)
                if S[B.I_DEAD]:
                    M[a, b] = K.share0(S[B.I_DEAD])
                else:
                    M[a, b] = _value(S, d - 1, rollouts, policy, horizon, ek, iters, prune,
                                     ctr, st, dist, owner, queue)
                B.undo(S, code)
                if ctr[2]:
                    break
            if ctr[2]:
                break
        if ctr[2]:
            break
        x = np.zeros(4)
        y = np.zeros(4)
        solve_matrix(M, m[0], m[1], iters, x, y)
        if me == 0:
            strategy[:] = x
        else:
            strategy[:] = y
        done = d
    return done


class NashBot(ZooBot):
    """Nash-equilibrium Monte Carlo (see the module doc)."""

    family = "nash"
    deterministic = False

    def __init__(self, bot_id: str = "nash", depth: int = 3, iterative: bool = True,
                 budget: int = 600, rollouts: int = 8, rollout: str = "safe", horizon: int = 0,
                 iters: int = 300, play: str = "argmax", root_prune: bool = True,
                 eval: str = "voronoi", inner_prune: bool = False):
        super().__init__(bot_id)
        self.depth = check_int("depth", depth, 1, 16)
        self.iterative = bool(iterative)
        self.budget = check_int("budget", budget, 1)
        self.rollouts = check_int("rollouts", rollouts, 1)
        self.policy = POLICIES[check_choice("rollout", rollout, POLICIES)]
        self.horizon = check_int("horizon", horizon, 0)
        self.iters = check_int("iters", iters, 1)
        self.play = check_choice("play", play, ("argmax", "mixed"))
        self.root_prune = bool(root_prune)
        self.eval = EVALS[check_choice("eval", eval, EVALS)]
        self.inner_prune = bool(inner_prune)
        self.strategy = np.zeros(4)
        self.depth_done = 0

    def decide(self, S: np.ndarray, me: int, valid: int, ctx: DecisionContext) -> int:
        if self.root_prune:
            mine, theirs = int(K.pruned_mask(S, me)), int(K.pruned_mask(S, 1 - me))
        else:
            mine, theirs = valid, int(B.valid_mask(S, 1 - me))
        self.depth_done = int(ne_search(
            S, me, mine, K.moves_or_one(theirs), self.depth, self.iterative, self.budget,
            self.rollouts, self.policy, self.horizon, self.eval, self.iters,
            self.inner_prune, self.seed(ctx)[0], self.strategy))
        p = self.strategy * np.array([(mine >> d) & 1 for d in range(4)], dtype=float)
        if self.play == "mixed":
            p = np.where(p > 1e-3, p, 0.0)
            d = int(decision_rng(ctx, "nash-play").choice(4, p=p / p.sum()))
        else:
            d = int(np.argmax(p))
        return d
