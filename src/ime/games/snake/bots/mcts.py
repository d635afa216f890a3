"""Decoupled UCT for simultaneous moves (numba): Fig 2.4's MCTS family.

A node is a position where both snakes move. **Decoupled** statistics: each player keeps its
own UCB1 counts and value sums per node over its four directions, picks its move from them
alone (``w/n + c sqrt(ln N / n)``, untried moves first, drawn at random), and the *joint* move
leads to the child (up to 16 per node). A simulation descends until it leaves the tree, adds
one node, and plays a rollout; the result (snake 0's share in ``[0, 1]``, see
:mod:`.kernels`) is added to snake 0's statistics and its complement to snake 1's along the
path. The move played is the root's most visited direction of ours (ties: higher mean, then
the lower direction).

The flags of Fig 2.4, with node budgets instead of clocks:

* depth ``inf``: the tree grows without a depth limit; rollouts run to the end of the game
  (``horizon: 0``), or a ``horizon`` cuts them after that many turns and values the cut by
  ``eval`` (plain or tail-aware Voronoi difference), or ``rollout: eval`` values the new leaf
  at once; ``deepen`` (Fig 2.4 "ID") grows the horizon from 1 to ``horizon`` over the
  simulations;
* pruning: ``root_prune`` keeps only the non-dead-end root moves of both snakes
  (:func:`kernels.pruned_mask`); invalid moves are never expanded at any node;
* per-branch limit: ``branch_cap`` (a fraction of the simulations) caps the visits of any of
  our root moves, so the others keep being explored;
* ``simulations`` is the budget, ``rollout: random | safe | eval`` the playout policy.
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit

from ime.core.bot import DecisionContext
from ime.games.snake import board as B
from ime.games.snake.bots import kernels as K
from ime.games.snake.bots.common import ZooBot, check_choice, check_int

MAX_PATH = 1024


@njit(cache=True)
def _select(node, p, masks, nvis, wsum, total, c, capped, cap, st) -> int:
    """Player ``p``'s move at ``node``: an untried one at random, else UCB1; directions whose
    visits reached ``cap`` are skipped while ``capped`` and another remains."""
    m = masks[node, p]
    if capped:
        keep = 0
        for d in range(4):
            if (m >> d) & 1 and nvis[node, p, d] < cap:
                keep |= 1 << d
        if keep:
            m = keep
    untried = 0
    for d in range(4):
        if (m >> d) & 1 and nvis[node, p, d] == 0:
            untried |= 1 << d
    if untried:
        return K.nth_bit(untried, B.below(st, K.popcount4(untried)))
    best, best_v = 0, -1.0
    logn = math.log(total[node])
    for d in range(4):
        if (m >> d) & 1:
            n = nvis[node, p, d]
            v = wsum[node, p, d] / n + c * math.sqrt(logn / n)
            if v > best_v:
                best, best_v = d, v
    return best


@njit(cache=True)
def duct_search(S0, me, root_mask, opp_mask, sims, c, policy, horizon, deepen, branch_cap,
                ek, seed, visits) -> int:
    """Decoupled UCT from ``S0`` for snake ``me`` over its root moves ``root_mask`` (the
    opponent's: ``opp_mask``), cut rollouts valued by evaluation ``ek``; ``visits``
    (float64[4]) receives our root visit counts."""
    st = np.zeros(1, np.uint64)
    st[0] = seed
    cap = sims + 2
    child = np.full((cap, 16), -1, np.int32)
    nvis = np.zeros((cap, 2, 4))
    wsum = np.zeros((cap, 2, 4))
    total = np.zeros(cap)
    masks = np.zeros((cap, 2), np.int64)
    masks[0, me] = root_mask
    masks[0, 1 - me] = opp_mask
    path = np.zeros((MAX_PATH, 3), np.int64)
    dist, owner, queue = K.scratch_arrays()
    S = S0.copy()
    nodes = 1
    limit = branch_cap * sims
    for i in range(sims):
        S[:] = S0
        h = horizon
        if deepen and horizon > 0:
            h = 1 + (horizon * i) // sims
        node = 0
        depth = 0
        value = 0.5
        while True:
            a0 = _select(node, 0, masks, nvis, wsum, total, c, node == 0 and me == 0
                         and branch_cap < 1.0, limit, st)
            a1 = _select(node, 1, masks, nvis, wsum, total, c, node == 0 and me == 1
                         and branch_cap < 1.0, limit, st)
            path[depth, 0] = node
            path[depth, 1] = a0
            path[depth, 2] = a1
            depth += 1
            B.step(S, a0, a1)
            if S[B.I_DEAD]:
                value = K.share0(S[B.I_DEAD])
                break
            k = a0 * 4 + a1
            ch = child[node, k]
            if ch < 0 or depth >= MAX_PATH:
                if ch < 0 and nodes < cap:
                    ch = nodes
                    nodes += 1
                    child[node, k] = ch
                    masks[ch, 0] = K.moves_or_one(B.valid_mask(S, 0))
                    masks[ch, 1] = K.moves_or_one(B.valid_mask(S, 1))
                value, _ = K.rollout(S, policy, h, ek, st, dist, owner, queue)
                break
            node = ch
        for k in range(depth):
            nd = path[k, 0]
            total[nd] += 1.0
            nvis[nd, 0, path[k, 1]] += 1.0
            wsum[nd, 0, path[k, 1]] += value
            nvis[nd, 1, path[k, 2]] += 1.0
            wsum[nd, 1, path[k, 2]] += 1.0 - value
    best, best_n, best_q = -1, -1.0, -1.0
    for d in range(4):
        if (root_mask >> d) & 1:
            n = nvis[0, me, d]
            q = wsum[0, me, d] / n if n > 0 else 0.0
            visits[d] = n
            if n > best_n or (n == best_n and q > best_q):
                best, best_n, best_q = d, n, q
    return best


POLICIES = {"random": K.POLICY_RANDOM, "safe": K.POLICY_SAFE, "eval": K.POLICY_EVAL}
EVALS = K.DIFF_EVALS
"""Evaluations of a cut rollout (:mod:`.kernels`)."""


class MCTSBot(ZooBot):
    """Decoupled UCT (see the module doc)."""

    family = "mcts"
    deterministic = False

    def __init__(self, bot_id: str = "mcts", simulations: int = 1000, c: float = 0.7,
                 rollout: str = "safe", horizon: int = 0, deepen: bool = False,
                 root_prune: bool = True, branch_cap: float = 1.0, eval: str = "voronoi"):
        super().__init__(bot_id)
        self.simulations = check_int("simulations", simulations, 1)
        self.c = float(c)
        self.policy = POLICIES[check_choice("rollout", rollout, POLICIES)]
        self.horizon = check_int("horizon", horizon, 0)
        self.deepen = bool(deepen)
        self.root_prune = bool(root_prune)
        if not 0.0 < float(branch_cap) <= 1.0:
            raise ValueError(f"snake zoo parameter branch_cap={branch_cap!r}: expected a "
                             "fraction in (0, 1]")
        self.branch_cap = float(branch_cap)
        self.eval = EVALS[check_choice("eval", eval, EVALS)]
        self.visits = np.zeros(4)

    def decide(self, S: np.ndarray, me: int, valid: int, ctx: DecisionContext) -> int:
        if self.root_prune:
            mine, theirs = int(K.pruned_mask(S, me)), int(K.pruned_mask(S, 1 - me))
        else:
            mine, theirs = valid, int(B.valid_mask(S, 1 - me))
        seed = self.seed(ctx)[0]
        return int(duct_search(S, me, mine, K.moves_or_one(theirs), self.simulations, self.c,
                               self.policy, self.horizon, self.deepen, self.branch_cap,
                               self.eval, seed, self.visits))
