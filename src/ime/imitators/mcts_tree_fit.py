"""The Monte-Carlo mode's evaluation fitted through UCT's own tree (MMTO for UCT).

Why: the search imitator's weights are fitted for a minimax search's leaves (:mod:`mmto`), and
UCT reads them through playouts, a squashing and visit counts, so the weights that make a depth-2
alpha-beta search play a Monte-Carlo target's moves are not the ones that make UCT play them.
A hill-climb on UCT's agreement (:func:`ime.imitators.mcts_fit.climb_weights`) moves one weight at
a time and stops at a local optimum of a few hundred positions. Here UCT itself supplies the
gradient, as MMTO takes it from a minimax search's principal leaves:

* UCT is run at every fit position (:func:`ime.imitators.reversi_mcts.tree_values`). Each root
  child ``k`` gets its mean value ``Q_k`` for the side to move and, with the tree held fixed,
  that value's gradient ``G_k`` in the weights (the mean over the child's simulations of the
  squashed leaf's slope times the leaf's features).
* The step ``d`` minimises the cross-entropy of ``softmax(beta * (Q + G . d))`` against the
  logged move, plus an L2 penalty ``l2 * |d|^2`` on ``d`` measured in each weight's gradient
  spread (so one penalty suits features of any magnitude). ``beta``, how sharply the visit count
  follows the value, is fitted with it. L-BFGS, in float64.
* UCT is re-run with the stepped weights. The linearisation holds only while the tree keeps its
  shape, so the step is tried whole and halved, scored by UCT's real agreement, and the best is
  kept. Iterations stop at ``iters`` or at the first that does not agree more.

The playout length changes which positions' features the gradient reads, so the first step is
taken once for each playout length of the grid, and the one that agrees most goes on. Only the
logged moves decide; no setting is read from the target.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Sequence
from dataclasses import replace
from typing import Any

import numpy as np

from ime.imitators.data import Decisions, empties
from ime.imitators.mmto import subsample
from ime.imitators.reversi_mcts import TreeValues, tree_values, uct_moves
from ime.imitators.reversi_search import SearchSettings

STEPS = (1.0, 0.5)
"""The fractions of the surrogate's step tried, each scored by UCT's real agreement."""


def tree_step(tv: TreeValues, moves: np.ndarray, *, l2: float) -> tuple[np.ndarray, float]:
    """The surrogate's step in the weights from one batch of trees, and the fitted ``beta``.

    Positions whose logged move is not among their root's children (an unexpanded move) add
    nothing."""
    import torch

    width = tv.square.shape[1]
    hit = tv.square == np.asarray(moves)[:, None]
    rows = np.flatnonzero(hit.any(axis=1))
    nf = tv.grad.shape[2]
    if not len(rows):
        return np.zeros(nf), float("nan")
    mask = torch.from_numpy(np.arange(width)[None, :] < tv.count[rows, None])
    q = torch.from_numpy(tv.value[rows])
    g = torch.from_numpy(tv.grad[rows])
    target = torch.from_numpy(hit[rows].argmax(axis=1))
    spread = g[mask].std(dim=0) + 1e-12  # each weight's gradient spread over the children
    d = torch.zeros(nf, dtype=torch.float64, requires_grad=True)
    log_beta = torch.tensor(math.log(30.0), dtype=torch.float64, requires_grad=True)
    opt = torch.optim.LBFGS([d, log_beta], max_iter=200, line_search_fn="strong_wolfe")

    def loss() -> torch.Tensor:
        opt.zero_grad()
        z = torch.exp(log_beta) * (q + (g * (d / spread)).sum(-1))
        z = z.masked_fill(~mask, -1e9)
        out = torch.nn.functional.cross_entropy(z, target) + l2 * (d ** 2).sum()
        out.backward()
        return out

    opt.step(loss)
    step = (d / spread).detach().numpy().copy()
    return step, float(torch.exp(log_beta).detach())


def fit_through_tree(w: np.ndarray, settings: SearchSettings, train: Decisions, *,
                     iters: int, positions: int, l2: float, depths: Sequence[int],
                     seed: int = 0, say: Callable[[str], None] = lambda _l: None,
                     ) -> tuple[np.ndarray, SearchSettings, dict[str, Any]]:
    """``(weights, settings, info)``: ``w`` stepped through UCT's tree (module doc) on a seeded
    sample of ``positions`` fit positions that UCT decides, the playout length chosen among
    ``depths`` (those above 0: a playout to the end reads no weight) by the first step. Returns
    ``w`` and ``settings`` themselves when no step agrees more on those positions."""
    t0 = time.perf_counter()
    mid = np.flatnonzero(settings.uct(empties(train.P, train.O)))
    idx = mid[subsample(len(mid), positions, seed)]
    P, O, A = train.P[idx], train.O[idx], train.action[idx]
    phases = settings.phases

    def agree(v: np.ndarray, s: SearchSettings) -> float:
        return 100.0 * float(np.mean(uct_moves(P, O, v, phases, **s.uct_kwargs()) == A))

    def step(v: np.ndarray, s: SearchSettings) -> tuple[float, float, np.ndarray, float]:
        """(agreement before, best agreement after, the weights after, beta)."""
        tv = tree_values(P, O, v, phases, **s.uct_kwargs())
        before = 100.0 * float(np.mean(tv.most_visited() == A))
        d, beta = tree_step(tv, A, l2=l2)
        tried = [(agree(v + t * d, s), v + t * d) for t in STEPS]
        acc, after = max(tried, key=lambda x: x[0])  # ties: the whole step
        return before, acc, after, beta

    history: list[dict[str, Any]] = []
    start = None
    best: tuple[float, np.ndarray, SearchSettings] | None = None
    tried_depths = [settings.mcts_depth] + [d for d in depths if d != settings.mcts_depth]
    for dep in [d for d in tried_depths if d > 0]:
        s = replace(settings, mcts_depth=int(dep))
        before, acc, after, beta = step(w, s)
        if dep == settings.mcts_depth:
            start = before
        history.append({"iter": 0, "depth": int(dep), "before": before, "after": acc,
                        "beta": beta})
        say(f"mcts tree fit: playouts of {dep}: {before:.2f} -> {acc:.2f}% on {len(A)} fit "
            f"positions (beta {beta:.0f})")
        if best is None or acc > best[0] + 1e-9:
            best = (acc, after, s)
    if best is None:
        raise ValueError("mcts tree fit: no playout length above 0 among net.search.mcts_depths "
                         f"{list(depths)} (a playout to the end reads no weight)")
    if start is None:
        start = agree(w, settings)
    acc, cur, s = best
    for it in range(1, iters):
        _, nxt_acc, nxt, beta = step(cur, s)
        history.append({"iter": it, "depth": s.mcts_depth, "before": acc, "after": nxt_acc,
                        "beta": beta})
        say(f"mcts tree fit: step {it}: {acc:.2f} -> {nxt_acc:.2f}%")
        if nxt_acc <= acc + 1e-9:
            break
        acc, cur = nxt_acc, nxt
    if acc <= start + 1e-9:
        cur, s, acc = w, settings, start
    info = {"start": start, "score": acc, "depth": s.mcts_depth, "positions": int(len(A)),
            "steps": history, "seconds": time.perf_counter() - t0}
    say(f"mcts tree fit: {start:.2f} -> {acc:.2f}% on {len(A)} fit positions, playouts of "
        f"{s.mcts_depth}, {info['seconds']:.0f}s")
    return cur, s, info
