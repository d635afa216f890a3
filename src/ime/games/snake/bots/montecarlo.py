"""Plain Monte Carlo (numba): Fig 2.4's MC family, "fast rollouts" without a tree.

For each of our candidate directions, play many one-turn samples: the opponent's move is drawn
from ``opponent`` (``random``: uniform over its valid directions; ``safe``: the same, avoiding a
cell with no free exit), the joint move is played, then a rollout (``rollout`` policy for both
snakes) runs to the end (Fig 2.4 depth ``inf``) or ``horizon`` turns, or, with ``depth: 1``,
the position after that one turn is valued statically (the Voronoi difference, squashed). The
direction with the best mean share is played (ties: the lower direction).

Budgets: ``rollouts`` samples per direction; with ``branch_nodes`` > 0 (Fig 2.4's per-branch
limit) each direction instead gets that many joint steps, whatever its rollouts' lengths, so a
direction whose games run long cannot starve the others. ``root_prune`` drops dead-end
directions first (:func:`kernels.pruned_mask`).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ime.core.bot import DecisionContext
from ime.games.snake import board as B
from ime.games.snake.bots import kernels as K
from ime.games.snake.bots.common import ZooBot, check_choice, check_int
from ime.games.snake.bots.mcts import POLICIES


@njit(cache=True)
def mc_search(S0, me, mask, rollouts, branch_nodes, opp_policy, policy, horizon, depth1, ek,
              seed, means) -> int:
    """Plain Monte Carlo over our directions ``mask``; ``means[d]`` receives each direction's
    mean share for ``me``."""
    st = np.zeros(1, np.uint64)
    st[0] = seed
    dist, owner, queue = K.scratch_arrays()
    T = S0.copy()
    best, best_v = -1, -1.0
    for a in range(4):
        if not (mask >> a) & 1:
            continue
        total = 0.0
        n = 0
        steps = 0
        while (branch_nodes > 0 and steps < branch_nodes) or (branch_nodes <= 0
                                                              and n < rollouts):
            T[:] = S0
            b = K.policy_move(T, 1 - me, opp_policy, st)
            K.seat_step(T, me, a, b)
            steps += 1
            if T[B.I_DEAD]:
                v = K.share0(T[B.I_DEAD])
                v = v if me == 0 else 1.0 - v
            elif depth1:
                v = K.squash(K.evaluate(T, me, ek, dist, owner, queue))
            else:
                v, turns = K.rollout(T, policy, horizon, ek, st, dist, owner, queue)
                v = v if me == 0 else 1.0 - v
                steps += turns
            total += v
            n += 1
        means[a] = total / n
        if means[a] > best_v:
            best, best_v = a, means[a]
    return best


class MonteCarloBot(ZooBot):
    """Plain Monte Carlo rollouts per direction (see the module doc)."""

    family = "montecarlo"
    deterministic = False

    def __init__(self, bot_id: str = "montecarlo", rollouts: int = 64, branch_nodes: int = 0,
                 opponent: str = "random", rollout: str = "random", horizon: int = 0,
                 depth: int = 0, root_prune: bool = False, eval: str = "voronoi"):
        super().__init__(bot_id)
        self.rollouts = check_int("rollouts", rollouts, 1)
        self.branch_nodes = check_int("branch_nodes", branch_nodes, 0)
        self.opp_policy = POLICIES[check_choice("opponent", opponent, POLICIES)]
        self.policy = POLICIES[check_choice("rollout", rollout, POLICIES)]
        self.horizon = check_int("horizon", horizon, 0)
        self.depth1 = check_int("depth", depth, 0, 1) == 1
        self.root_prune = bool(root_prune)
        evals = K.EVALS if self.depth1 else K.DIFF_EVALS
        self.eval = evals[check_choice("eval", eval, evals)]
        self.means = np.zeros(4)

    def decide(self, S: np.ndarray, me: int, valid: int, ctx: DecisionContext) -> int:
        mask = int(K.pruned_mask(S, me)) if self.root_prune else valid
        return int(mc_search(S, me, mask, self.rollouts, self.branch_nodes, self.opp_policy,
                             self.policy, self.horizon, self.depth1, self.eval,
                             self.seed(ctx)[0], self.means))
