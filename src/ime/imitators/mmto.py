"""The game-independent half of the MMTO fit: root moves as CSR rows, the fixed-leaf problem of
one pass, its losses, the optimiser and the fit loop's bookkeeping.

Why a module of its own: every search imitator (Reversi's :mod:`ime.imitators.search_fit`,
Connect Four's :mod:`ime.imitators.connect4_fit`, Snake's :mod:`ime.imitators.snake_fit`) fits
its evaluation the same way. A pass searches every training position, keeps each root move's
value and principal-variation leaf features (the gradient of that value with respect to the
weights), and then minimises a loss of the values ``X @ w`` with those leaves held fixed. Only
the search and which rows enter the loss (finished games, root windows) are the game's; the rest
lives here, once. So does the fit loop's bookkeeping that the three fits share word for word
(the checks of a fit config, the seeded subsample of fit positions, the depths and their passes,
the first pass's feature scale, the patience rules): written once, the families cannot drift
apart on it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

LOSSES = ("softmax", "hinge")


@dataclass
class SearchResults:
    """Every root move of a batch of positions (CSR by position)."""

    offsets: np.ndarray  # int64[N + 1]
    squares: np.ndarray  # int64[M]: the move's action code (a square, a column)
    values: np.ndarray  # float64[M]
    features: np.ndarray  # float64[M, K]: signed PV-leaf features (0 for finished games)
    terminal: np.ndarray  # bool[M]
    nodes: np.ndarray  # int64[N]
    exact: np.ndarray  # bool[M]: False where a narrowed root window gave an upper bound
    depths: np.ndarray  # int64[N]: the depth of the iteration kept (the budget's, or the fixed)
    ranks: np.ndarray | None = None  # int64[M]: the move's place in its root's search order
    # (where the game's search gives it: the tie rules that follow the search order read it)


def row_positions(res: SearchResults) -> np.ndarray:
    """The position of every root-move row."""
    return np.repeat(np.arange(len(res.offsets) - 1), np.diff(res.offsets))


def chosen_rows(res: SearchResults, action: np.ndarray) -> np.ndarray:
    """The row of the target's move among each position's root moves."""
    n = len(res.offsets) - 1
    pos = row_positions(res)
    hit = res.squares == np.asarray(action)[pos]
    rows = np.full(n, -1, dtype=np.int64)
    rows[pos[hit]] = np.flatnonzero(hit)
    if (rows < 0).any():
        i = int(np.flatnonzero(rows < 0)[0])
        raise ValueError(f"decision {i}: move {int(action[i])} is not legal in its position")
    return rows


def ranked_choices(res: SearchResults, rank: np.ndarray, none: int = -1,
                   row_rank: np.ndarray | None = None) -> np.ndarray:
    """Each position's best-valued move, ties (values within ``1e-9`` relative) to the lowest
    ``rank[move]`` (a tie rule as a rank per action code), or the lowest ``row_rank[row]`` (a
    rank per root-move row: a tie rule by the search's own order); ``none`` where a position
    has no row."""
    n = len(res.offsets) - 1
    pos = row_positions(res)
    best = np.maximum.reduceat(res.values, res.offsets[:-1])
    tol = 1e-9 * np.maximum(1.0, np.abs(best))
    cand = res.values >= (best - tol)[pos]
    big = np.where(cand, rank[res.squares] if row_rank is None else row_rank, 10_000)
    first = np.minimum.reduceat(big, res.offsets[:-1])
    hit = cand & (big == first[pos])
    out = np.full(n, none, dtype=np.int64)
    out[pos[hit]] = res.squares[hit]
    return out


def root_softmax(res: SearchResults, num_actions: int) -> np.ndarray:
    """Per position, the softmax of its root values over the ``num_actions`` action codes (the
    distribution the fit trains; 0 off the searched moves)."""
    n = len(res.offsets) - 1
    soft = np.zeros((n, num_actions), dtype=np.float64)
    for i in range(n):
        a, b = res.offsets[i], res.offsets[i + 1]
        v = res.values[a:b]
        e = np.exp(v - v.max())
        soft[i, res.squares[a:b]] = e / e.sum()
    return soft


@dataclass
class Problem:
    """The fixed-leaf problem of one pass, in scaled features, over the rows the game keeps."""

    X: np.ndarray
    pos: np.ndarray
    starts: np.ndarray
    chosen: np.ndarray
    kept: int
    prefer: np.ndarray  # bool per row: the tie rule prefers this move to the target's


def build_problem(res: SearchResults, rows: np.ndarray, keep_rows: np.ndarray,
                  keep_pos: np.ndarray, scale: np.ndarray, rank: np.ndarray,
                  row_rank: np.ndarray | None = None) -> Problem:
    """The problem of the rows ``keep_rows`` (bool per row) of the positions ``keep_pos``
    (indices, ascending; each keeps its target row ``rows[i]``); ``rank``: the tie rule's rank
    per action code (the hinge loss's ``prefer``), or ``row_rank`` one per row."""
    n = len(res.offsets) - 1
    pos_all = row_positions(res)
    in_pos = np.zeros(n, dtype=bool)
    in_pos[keep_pos] = True
    keep_rows = keep_rows & in_pos[pos_all]  # only the rows of the positions kept
    X = res.features[keep_rows] / scale
    counts = np.bincount(pos_all[keep_rows], minlength=n)[keep_pos]
    starts = np.concatenate([[0], np.cumsum(counts)[:-1]]).astype(np.int64)
    pos = np.repeat(np.arange(len(keep_pos)), counts)
    new_index = np.cumsum(keep_rows) - 1
    chosen = new_index[rows[keep_pos]]
    r = (rank[res.squares] if row_rank is None else row_rank)[keep_rows]
    prefer = r < r[chosen][pos]
    return Problem(X, pos, starts, chosen, len(keep_pos), prefer)


def terminal_problem(res: SearchResults, action: np.ndarray, scale: np.ndarray,
                     rank: np.ndarray) -> Problem:
    """One pass's problem for a search whose PVs may end the game (values above 0 won, below 0
    lost, 0 drawn, ``terminal`` rows without features): a lost move's row leaves the loss (its
    softmax weight is nil); a drawn move stays as a row of zero features (its value, 0, does
    not depend on the weights); a position leaves the loss where a move wins by force (the
    search's choice then does not depend on the weights) or where the target's own move loses
    by force. Connect Four's and Snake's fits use it."""
    n = len(res.offsets) - 1
    pos_all = row_positions(res)
    rows = chosen_rows(res, action)
    lost = res.terminal & (res.values < 0)
    won = np.zeros(n, dtype=bool)
    np.logical_or.at(won, pos_all, res.terminal & (res.values > 0))
    keep_pos = np.flatnonzero(~won & ~lost[rows])
    return build_problem(res, rows, ~lost, keep_pos, scale, rank)


def loss_and_grad(u: np.ndarray, X: np.ndarray, pos: np.ndarray, starts: np.ndarray,
                  chosen: np.ndarray, l2: float) -> tuple[float, np.ndarray]:
    """Mean softmax cross-entropy of the chosen rows + ``l2 / 2 * |u|^2`` and its gradient."""
    v = X @ u
    vmax = np.maximum.reduceat(v, starts)
    e = np.exp(v - vmax[pos])
    z = np.add.reduceat(e, starts)
    n = len(starts)
    loss = float(np.sum(np.log(z) + vmax - v[chosen])) / n + 0.5 * l2 * float(u @ u)
    p = e / z[pos]
    p[chosen] -= 1.0
    grad = X.T @ p / n + l2 * u
    return loss, grad


def hinge_loss_and_grad(u: np.ndarray, X: np.ndarray, pos: np.ndarray, chosen: np.ndarray,
                        need: np.ndarray, l2: float) -> tuple[float, np.ndarray]:
    """The tie-aware ranking loss: per position, the squared violations of ``v_target >= v_j +
    need_j`` summed over its other moves (``need_j``: the margin where the tie rule prefers
    move ``j`` to the target's, so the target must be strictly better; 0 elsewhere, where a tie
    already goes to the target), averaged, plus ``l2 / 2 * |u|^2``. Zero exactly where the
    search with these values and that tie rule picks the target's move with room to spare,
    which is the decision rule itself; the softmax's cross-entropy instead keeps pulling on
    moves already ranked right."""
    v = X @ u
    d = v - v[chosen][pos] + need
    d[chosen] = 0.0
    h = np.maximum(d, 0.0)
    n = len(chosen)
    loss = float(h @ h) / n + 0.5 * l2 * float(u @ u)
    g = 2.0 * h
    per_pos = np.bincount(pos, weights=g, minlength=n)
    grad = (X.T @ g - X[chosen].T @ per_pos) / n + l2 * u
    return loss, grad


def optimise(prob: Problem, u0: np.ndarray, l2: float, iters: int, loss: str = "softmax",
             hinge_margin: float = 1.0) -> np.ndarray:
    """One pass's weights (scaled) from ``u0``: ``loss`` ``softmax`` (the cross-entropy of the
    target's move) or ``hinge`` (:func:`hinge_loss_and_grad`); L-BFGS, at most ``iters``
    iterations, so the weights move only as far as the fixed leaves stay meaningful."""
    if prob.kept == 0:
        return u0
    if loss == "softmax":
        fun, args = loss_and_grad, (prob.X, prob.pos, prob.starts, prob.chosen, l2)
    elif loss == "hinge":
        need = np.where(prob.prefer, hinge_margin, 0.0)
        fun, args = hinge_loss_and_grad, (prob.X, prob.pos, prob.chosen, need, l2)
    else:
        raise ValueError(f"loss must be one of {LOSSES}, got {loss!r}")
    # imported here: a job that only loads a fitted imitator (scoring, tournaments) imports this
    # module but never fits, and scipy.optimize costs it 0.3-0.5 s
    from scipy.optimize import minimize

    r = minimize(fun, u0, args=args, jac=True, method="L-BFGS-B",
                 options={"maxiter": int(iters)})
    return np.asarray(r.x, dtype=np.float64)


SCALES = tuple(2.0 ** k for k in range(-24, 9))
"""The factors :func:`best_scale` tries (1 among them)."""


def best_scale(prob: Problem, u: np.ndarray, l2: float, loss: str = "softmax",
               hinge_margin: float = 1.0) -> float:
    """The factor of :data:`SCALES` whose multiple of ``u`` has the least ``loss`` on ``prob``
    (1 on a tie). Why: a search's moves do not change when every weight is multiplied by the same
    positive number, but the surrogate's loss does (its margins and its L2 penalty are absolute);
    weights from elsewhere, a saved imitator's on the round-value ladder (a corner of 1,500-6,000
    where the surrogate's own is near 1), start the optimiser where the penalty dwarfs the fit,
    and its first steps flipped the corner's sign (rev1 and rev2, quick fold 0:
    docs/measurements/cpu-2026-12-05-sparse-start/refit_passes.py)."""
    if prob.kept == 0 or not np.any(u):
        return 1.0
    if loss == "softmax":
        def value(v: np.ndarray) -> float:
            return loss_and_grad(v, prob.X, prob.pos, prob.starts, prob.chosen, l2)[0]
    else:
        need = np.where(prob.prefer, hinge_margin, 0.0)

        def value(v: np.ndarray) -> float:
            return hinge_loss_and_grad(v, prob.X, prob.pos, prob.chosen, need, l2)[0]
    losses = {c: value(c * u) for c in SCALES}
    return min(SCALES, key=lambda c: (losses[c], c != 1.0))


def check_loss(loss: str) -> None:
    """Raise where ``loss`` is not one of :data:`LOSSES`."""
    if loss not in LOSSES:
        raise ValueError(f"loss must be one of {LOSSES}, got {loss!r}")


def check_ties(ties: Sequence[str], rules: Sequence[str], game: str) -> None:
    """Raise where a tie rule in ``ties`` is not one of the game's ``rules`` (``game``: its name
    in the message, possessive, e.g. ``"Snake's"``)."""
    bad = [t for t in ties if t not in rules]
    if bad:
        raise ValueError(f"tie rules {bad} are not {game} ({', '.join(rules)})")


def subsample(n: int, cap: int | None, seed: int) -> np.ndarray:
    """The fit's rows among ``n``: all of them, or with ``cap`` below ``n`` a seeded sample of
    ``cap`` (ascending)."""
    if cap is None or n <= cap:
        return np.arange(n)
    return np.sort(np.random.default_rng(seed).choice(n, cap, replace=False))


def depth_schedule(depths: Sequence[int], passes: int | Sequence[int]) -> list[tuple[int, int]]:
    """The depths fitted in turn (ascending) with the most passes at each: ``passes`` (one
    number, or one per depth in ascending order of depth), but one at depth 1, where the leaves
    are the children themselves and one pass is the whole logistic regression."""
    ds = sorted(int(d) for d in depths)
    per_depth = ([int(passes)] * len(ds) if isinstance(passes, int)
                 else [int(x) for x in passes])
    if len(per_depth) != len(ds):
        raise ValueError(f"passes {passes} do not match depths {ds}")
    return [(d, 1 if d == 1 else n) for d, n in zip(ds, per_depth, strict=True)]


def feature_scale(res: SearchResults, k: int) -> np.ndarray:
    """The optimiser's feature scale, from the first pass's search: each of the ``k`` features'
    standard deviation over the rows whose PV does not end the game (1 where it is nil, or with
    no such row)."""
    live = ~res.terminal
    scale = res.features[live].std(axis=0) if live.any() else np.ones(k)
    scale[scale < 1e-9] = 1.0
    return scale


@dataclass
class Patience:
    """A run of fit rounds (the depths, or one depth's passes) and when to stop it: ``best`` the
    best selection agreement so far (-1: none yet), ``stale`` the rounds since it last rose,
    ``limit`` how many such rounds end the run (None: never)."""

    limit: int | None
    best: float = -1.0
    stale: int = 0

    def update(self, acc: float) -> None:
        """Count a round whose best selection agreement was ``acc``."""
        self.stale = 0 if acc > self.best else self.stale + 1
        self.best = max(self.best, acc)

    def spent(self, started: bool) -> bool:
        """Whether the run stops before its next round: a limit, ``started`` (the caller's
        guard: the rounds that count have begun), and ``limit`` rounds without a better
        agreement."""
        return self.limit is not None and started and self.stale >= self.limit
