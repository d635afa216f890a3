"""Fit a search imitator to a target's decisions (MMTO-style) and choose its search settings.

**The model.** The imitator plays the move its search (:mod:`ime.imitators.reversi_search`)
values highest, ties by a rule. For the fit its choice is softened: the probability of root move
``j`` is ``softmax_j(v_j(w))``, where ``v_j(w)`` is the move's searched value under weights
``w``. The loss is the cross-entropy of the target's move plus an L2 penalty.

**The gradient (MMTO / comparison training).** A depth-limited minimax value equals the
evaluation of its principal variation's leaf, so, while the PV does not change,
``d v_j / d w`` is the leaf's feature vector (signed for the side that moves at the leaf). One
*pass* searches every training position with the current weights, collects each legal move's
PV-leaf features, and then minimises the loss with those leaves held fixed (a convex multinomial
logistic regression, L-BFGS, a bounded number of iterations so that the weights move only as far
as the fixed leaves stay meaningful); the next pass searches again. At depth 1 the leaves are the
children themselves, so depth 1 is exactly logistic regression over one-ply features (one pass).
Deeper fits start from the previous depth's weights. Positions where a root move's PV ends the
game are left out of the loss (their value does not depend on ``w``). Features are scaled by their
standard deviation for the optimiser; weights are stored unscaled.

**The settings** are chosen on a *selection* fold (matches held out of the training rows, never
the evaluation fold): for every (phases, depth) fitted, every pass's weights, tie rule, node
budget and exact-endgame threshold, the agreement with the target on the selection fold's
positions; the best wins (ties: the cheaper search). Nothing reads a bot's config or code.

**Saving.** :meth:`SearchImitator.save` writes a small JSON file (weights by feature name,
settings, fit summary); :meth:`SearchImitator.load` reads it back.
"""

from __future__ import annotations

import functools
import itertools
import json
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import numpy as np

from ime.games.reversi.bitboard import PASS, legal_moves
from ime.imitators.climb_settings import (
    ClimbSetting,
    applied,
    climb_setting,
    setting_neighbours,
)
from ime.imitators.data import Decisions, empties
from ime.imitators.fit_state import FitState
from ime.imitators.mcts_fit import MctsGrid, fit_mcts
from ime.imitators.mmto import (
    Patience,
    Problem,
    SearchResults,
    best_scale,
    build_problem,
    check_loss,
    chosen_rows,
    depth_schedule,
    feature_scale,
    hinge_loss_and_grad,
    loss_and_grad,
    optimise,
    ranked_choices,
    row_positions,
    subsample,
)
from ime.imitators.reversi_features import (
    BASE_NAMES,
    TABLE_FEATURES,
    feature_names,
    num_features,
    weights_by_name,
)
from ime.imitators.reversi_mcts import uct_moves, uct_visits
from ime.imitators.reversi_search import (
    ENDGAME_MODES,
    FULL,
    MAX_MOVES,
    ORDERINGS,
    SEARCHED_TIES,
    SQUARE_TIES,
    LinearSearch,
    SearchSettings,
    endgame_moves,
    leaf_features,
    move_counts,
    order_of,
    pick,
    search_batch,
    solver_mode,
    solver_moves,
    solver_pick_moves,
    solver_threshold,
)
from ime.imitators.round_values import Agreement, Race, climb

FORMAT = "ime-search-imitator-v1"
GAME = "reversi"
REFIT_PASSES = 4
"""Surrogate passes of :func:`_masked_refit` unless told (``FitConfig.round_refit_passes``)."""


@dataclass
class FitConfig:
    """What the fit tries.

    ``depths``: search depths fitted in turn (each warm-started from the previous); ``passes``:
    MMTO passes per depth above 1 (one number, or one per depth); ``inner_iters``: L-BFGS
    iterations per pass; ``l2``: penalty on the scaled weights; ``margin``: the fit's root window
    (moves valued more than this below the best are left out of the loss: their softmax weight
    is below ``exp(-margin)``); ``phases``: evaluation phase counts tried;
    ``ties``/``endgames``/``endgame_modes``/``endgames_wld``/``budgets``: the selection grid
    (``endgames`` 0: no solve; ``endgames_wld``: a win/draw/loss solve above the endgame's
    threshold up to this many empties, 0: none; ``endgame_picks``: how a solve chooses among its
    best moves, ``reversi_search.ENDGAME_PICKS``; ``budgets`` 0: fixed depth, else iterative
    deepening within that many nodes, fitted after the fixed depths: see ``budget_passes``);
    ``orderings``: the move orderings tried with a budget (:data:`ORDERINGS`; ordering changes
    the nodes, so with a budget the depth each position reaches); ``pv_firsts``: whether an
    iteration searches the previous one's best move first, tried both ways by default;
    ``budget_depth``: the deepest
    iteration of a budgeted search (64: as deep as the empties allow); ``budget_passes``: MMTO
    passes under the best budgeted search, each position's leaves from the depth its decision
    reaches, starting from the best fixed-depth weights; ``budget_screen``/``budget_keep``: the
    budget stage first screens its variants on that many selection positions and keeps that
    many for the full selection fold; ``loss``: each pass's objective, ``softmax`` (the
    cross-entropy of the target's move) or ``hinge`` (a tie-aware ranking loss: the target's
    move must be valued at least as high as every other, ``hinge_margin`` higher than those the
    tie rule prefers); ``patience``: stop deepening after this
    many depths in a row without a better selection agreement (None: fit every depth);
    ``pass_patience``: at one depth, stop the passes once this many in a row did not raise its
    selection agreement (``passes`` is then the most); ``max_fit``: at most this many training
    positions per pass (a seeded subsample; None: all); ``round_evals``: the round-value stage
    (:mod:`ime.imitators.round_values`) from the best candidate, at most this many scorings of
    ``round_positions`` fit positions each (0: no such stage), kept if it agrees more on the
    selection fold; ``round_extra_share``: that stage also climbs from a sparse start, the
    square table and the other features weighing at least this share of the most any weighs
    (:func:`leading_features`; 0: no such start); ``round_refit_positions``/
    ``round_refit_passes``: the table and sparse starts are refitted by the surrogate with their
    features alone, on this many of the fit positions (a seeded sample; 0: the climb's own) over
    this many passes (:func:`_masked_refit`); ``round_repeats``: the stage runs again from its
    own result, at most this many times in all, while the selection fold agrees more (each run's
    table and sparse starts are then refitted from climbed weights, not the surrogate's);
    ``round_settings``: under a node budget, the stage's climb also moves the budget a rung of
    ``budgets`` and the round numbers between them, the ordering, ``pv_first`` and the tie rule
    among ``ties`` (:mod:`ime.imitators.climb_settings`); ``round_enter_shares``: the climb's
    near moves of a weight at 0 also try these shares of the largest weight (a term entering at
    its size; :mod:`ime.imitators.round_values`);
    ``mcts_sims`` (empty: no such stage) and the other ``mcts_*`` lists: the Monte-Carlo stage
    last, UCT over the chosen weights with its settings fitted by a coordinate ascent on
    ``mcts_positions`` selection positions for at most ``mcts_rounds`` rounds, then with
    ``mcts_tree_iters`` the weights fitted through UCT's tree on ``mcts_tree_positions`` fit
    positions (L2 ``mcts_tree_l2``) and the ascent again, at most ``mcts_tree_repeats`` runs
    while the selection fold agrees more, then with
    ``mcts_climb_evals`` the weights climbed on UCT's agreement on ``mcts_climb_positions`` fit
    positions, each kept if the whole selection fold agrees more
    (:mod:`ime.imitators.mcts_fit`)."""

    depths: Sequence[int] = (1, 2, 3, 4)
    passes: int | Sequence[int] = 3
    inner_iters: int = 40
    l2: float = 1e-4
    margin: float = 12.0
    phases: Sequence[int] = (1, 2)
    ties: Sequence[str] = SQUARE_TIES
    endgames: Sequence[int] = (0, 8, 10, 12, 14)
    endgame_modes: Sequence[str] = ENDGAME_MODES
    endgames_wld: Sequence[int] = (0,)
    endgame_picks: Sequence[str] = ("value",)
    budgets: Sequence[int] = (0,)
    orderings: Sequence[str] = ORDERINGS
    pv_firsts: Sequence[bool] = (False, True)
    budget_depth: int = 64
    budget_passes: int = 3
    budget_screen: int = 600
    budget_keep: int = 3
    loss: str = "softmax"
    hinge_margin: float = 1.0
    order_min: int = 2
    patience: int | None = None
    pass_patience: int | None = None
    max_fit: int | None = None
    round_evals: int = 0
    round_positions: int = 1500
    round_extra_share: float = 0.1
    round_refit_positions: int = 4000
    round_refit_passes: int = REFIT_PASSES
    round_repeats: int = 2
    round_settings: bool = False
    round_enter_shares: Sequence[float] = ()
    mcts_sims: Sequence[int] = ()
    mcts_cs: Sequence[float] = MctsGrid.c
    mcts_depths: Sequence[int] = MctsGrid.depth
    mcts_playouts: Sequence[str] = MctsGrid.playout
    mcts_scales: Sequence[float] = MctsGrid.scale
    mcts_aboves: Sequence[int] = MctsGrid.above
    mcts_positions: int = MctsGrid.positions
    mcts_rounds: int = MctsGrid.rounds
    mcts_climb_evals: int = MctsGrid.climb_evals
    mcts_climb_positions: int = MctsGrid.climb_positions
    mcts_tree_iters: int = MctsGrid.tree_iters
    mcts_tree_positions: int = MctsGrid.tree_positions
    mcts_tree_l2: float = MctsGrid.tree_l2
    mcts_tree_repeats: int = MctsGrid.tree_repeats
    seed: int = 0

    def mcts_grid(self) -> MctsGrid | None:
        """The Monte-Carlo stage's grid (:mod:`ime.imitators.mcts_fit`), None when it is off."""
        if not self.mcts_sims:
            return None
        return MctsGrid(tuple(self.mcts_sims), tuple(self.mcts_cs), tuple(self.mcts_depths),
                        tuple(self.mcts_playouts), tuple(self.mcts_scales),
                        tuple(self.mcts_aboves), self.mcts_positions, self.mcts_rounds,
                        self.mcts_climb_evals, self.mcts_climb_positions,
                        self.mcts_tree_iters, self.mcts_tree_positions, self.mcts_tree_l2,
                        self.mcts_tree_repeats)


def legal_offsets(P: np.ndarray, O: np.ndarray) -> np.ndarray:
    """CSR offsets of the positions' legal moves (``int64[N + 1]``)."""
    counts = move_counts(np.ascontiguousarray(P, dtype=np.uint64),
                         np.ascontiguousarray(O, dtype=np.uint64))
    if (counts == 0).any():
        i = int(np.flatnonzero(counts == 0)[0])
        raise ValueError(f"position {i} has no legal move (a pass is no decision)")
    if (counts > MAX_MOVES).any():
        raise ValueError(f"a position has more than {MAX_MOVES} legal moves")
    return np.concatenate([[0], np.cumsum(counts)]).astype(np.int64)


_THREADS = 1  # this process's search threads (set_search_threads)
MIN_CHUNK = 32
"""Fewest positions a thread is given (below that, a thread costs more than it saves)."""
CHUNKS_PER_THREAD = 4
"""Slices per thread: a position's search can cost 100x another's (a budget, a solve), so
smaller slices keep the threads busy to the end."""


def set_search_threads(n: int) -> int:
    """Search with ``n`` threads from now on in this process (each thread a slice of the
    positions, the compiled loop without the GIL); returns the previous count. Why: a fit is
    searches of thousands of positions, each independent of the others, so a fold uses every
    core it is given; the results are the same for any count, position by position
    (``tests/imitators/test_fit.py``). Set by the Reversi family's fit from the cores
    :func:`ime.imitators.family.fit_members` gives each fold of the train job."""
    global _THREADS
    old, _THREADS = _THREADS, max(1, int(n))
    return old


def search_all(P: np.ndarray, O: np.ndarray, w: np.ndarray, settings: SearchSettings,
               offsets: np.ndarray | None = None, margin: float = FULL,
               targets: np.ndarray | None = None) -> SearchResults:
    """Search every position with weights ``w`` (one compiled loop); every root move's value and
    PV-leaf features. ``margin`` sets the root window (:mod:`ime.imitators.reversi_search`:
    ``FULL``, ``DECIDE`` or a softmax margin); ``targets``: per position the move searched first
    with a full window (the target's, when fitting)."""
    P = np.ascontiguousarray(P, dtype=np.uint64)
    O = np.ascontiguousarray(O, dtype=np.uint64)
    off = legal_offsets(P, O) if offsets is None else offsets
    m = int(off[-1])
    sq = np.zeros(m, dtype=np.int64)
    val = np.zeros(m, dtype=np.float64)
    lp = np.zeros(m, dtype=np.uint64)
    lo = np.zeros(m, dtype=np.uint64)
    sign = np.zeros(m, dtype=np.float64)
    term = np.zeros(m, dtype=np.bool_)
    exact = np.zeros(m, dtype=np.bool_)
    ranks = np.zeros(m, dtype=np.int64)
    nodes = np.zeros(len(P), dtype=np.int64)
    reached = np.zeros(len(P), dtype=np.int64)
    w = np.ascontiguousarray(w, dtype=np.float64)
    if w.shape != (num_features(settings.phases),):  # the kernels would read past a short one
        raise ValueError(f"{len(w)} weights for {num_features(settings.phases)} features "
                         f"(phases={settings.phases})")
    tg = (np.full(len(P), settings.root_first, dtype=np.int64) if targets is None
          else np.ascontiguousarray(targets, dtype=np.int64))

    def run(a: int, b: int) -> None:  # positions a..b-1 into their own rows of the outputs
        lo_, hi_ = int(off[a]), int(off[b])
        search_batch(P[a:b], O[a:b], np.int64(settings.depth), w, np.int64(settings.phases),
                     np.int64(settings.budget), np.int64(settings.kernel_order_min),
                     np.float64(margin), tg[a:b], off[a:b + 1] - off[a], sq[lo_:hi_],
                     val[lo_:hi_], lp[lo_:hi_], lo[lo_:hi_], sign[lo_:hi_], term[lo_:hi_],
                     exact[lo_:hi_], ranks[lo_:hi_], nodes[a:b], reached[a:b])

    threads = min(_THREADS, len(P) // MIN_CHUNK)
    if threads <= 1:
        run(0, len(P))
    else:  # more slices than threads, taken as threads free up: slow positions spread out
        edges = np.linspace(0, len(P), threads * CHUNKS_PER_THREAD + 1).astype(int)
        with ThreadPoolExecutor(threads) as pool:
            list(pool.map(run, edges[:-1], edges[1:]))
    feats = leaf_features(lp, lo, sign, term, np.int64(settings.phases), np.int64(len(w)))
    return SearchResults(off, sq, val, feats, term, nodes, exact, reached, ranks)


def concat_results(parts: Sequence[SearchResults]) -> SearchResults:
    """The positions of several :class:`SearchResults` one after another (offsets rebased)."""
    offs = [parts[0].offsets[:1]]
    base = 0
    for r in parts:
        offs.append(r.offsets[1:] + base)
        base += int(r.offsets[-1])
    return SearchResults(np.concatenate(offs).astype(np.int64),
                         *(np.concatenate([getattr(r, f) for r in parts])
                           for f in ("squares", "values", "features", "terminal", "nodes",
                                     "exact", "depths", "ranks")))


def search_as_budgeted(P: np.ndarray, O: np.ndarray, A: np.ndarray, w: np.ndarray,
                       settings: SearchSettings, margin: float) -> tuple[SearchResults,
                                                                         np.ndarray]:
    """The fit's search of positions that ``settings`` searches within a node budget: each
    position is searched to the depth its *decision* reaches (the deciding window's iterative
    deepening, which is what the budget counts), with the fit's root window and the target
    first. Returns the results, grouped by that depth, and the targets in the same order (the
    loss does not depend on the positions' order)."""
    reached = search_all(P, O, w, settings, margin=settings.decide_margin).depths
    parts, targets = [], []
    for depth in np.unique(reached):
        rows = np.flatnonzero(reached == depth)
        fixed = replace(settings, depth=int(depth), budget=0)
        parts.append(search_all(P[rows], O[rows], w, fixed, margin=margin, targets=A[rows]))
        targets.append(A[rows])
    return concat_results(parts), np.concatenate(targets)


def tie_ranks(tie: str) -> np.ndarray:
    """Rank of every square (and ``PASS``, last) under tie rule ``tie`` (lower = preferred)."""
    return np.array([order_of(int(s), tie) for s in range(64)] + [10_000], dtype=np.int64)


def row_ranks(res: SearchResults, tie: str) -> np.ndarray | None:
    """Under a searched_* tie rule, each root move's rank by it (lower preferred: the search
    order, or its reverse); None under the square-order rules."""
    if tie not in SEARCHED_TIES:
        return None
    assert res.ranks is not None
    return res.ranks if tie == "searched_first" else -res.ranks


def choices(res: SearchResults, tie: str) -> np.ndarray:
    """The searched move of every position under tie rule ``tie`` (vectorised over rows)."""
    return ranked_choices(res, tie_ranks(tie), none=PASS, row_rank=row_ranks(res, tie))


def _problem(res: SearchResults, action: np.ndarray, scale: np.ndarray,
             tie: str = "first") -> Problem:
    """Rows with exact values (moves outside the fit's window carry a softmax weight below
    ``exp(-margin)`` and are left out) of the positions with no finished game among them."""
    n = len(res.offsets) - 1
    pos_all = row_positions(res)
    rows = chosen_rows(res, action)
    if not res.exact[rows].all():
        raise ValueError("the target's move must be searched exactly (targets=)")
    has_term = np.zeros(n, dtype=bool)
    np.logical_or.at(has_term, pos_all, res.terminal & res.exact)
    keep_rows = res.exact & ~has_term[pos_all]
    return build_problem(res, rows, keep_rows, np.flatnonzero(~has_term), scale, tie_ranks(tie),
                         row_ranks(res, tie))


# the shared MMTO pieces under the names this module's callers and tests use
_Problem = Problem
_loss_and_grad = loss_and_grad
_hinge_loss_and_grad = hinge_loss_and_grad
_optimise = optimise
_subsample = subsample


@dataclass
class SearchImitator:
    """A fitted search imitator: weights, settings, and how it was fitted."""

    weights: np.ndarray
    settings: SearchSettings
    summary: dict[str, Any] = field(default_factory=dict)

    def __post_init__(self) -> None:
        self._search = LinearSearch(self.weights, self.settings)

    def choose(self, P: int, O: int) -> int:
        """The imitator's move (a square, or ``PASS`` with no legal move)."""
        if self.settings.mcts_sims and int(legal_moves(np.uint64(P), np.uint64(O))):
            P64, O64 = np.array([P], dtype=np.uint64), np.array([O], dtype=np.uint64)
            if self.settings.uct(empties(P64, O64))[0]:
                return int(predict(self.weights, self.settings, P64, O64)[0])
        return self._search.choose(P, O)

    def probabilities(self, P: int, O: int) -> dict[int, float]:
        """A move distribution: the softmax of the root values the fit trained, over the moves
        the exact endgame keeps where it applies (where the Monte-Carlo mode decides, the
        root's visit shares). Its argmax need not follow the tie rule; :meth:`choose` does."""
        s = self.settings
        if not int(legal_moves(np.uint64(P), np.uint64(O))):
            return {PASS: 1.0}
        if s.uct(empties(np.array([P], dtype=np.uint64), np.array([O], dtype=np.uint64)))[0]:
            return uct_visits(P, O, self.weights, s.phases, **s.uct_kwargs())
        r = self._search.root(P, O)
        keep = np.ones(len(r.squares), dtype=bool)
        allowed = solver_moves(P, O, s, self.weights)
        if allowed is not None:
            keep = np.isin(r.squares, sorted(allowed))
        v = r.values[keep]
        e = np.exp(v - v.max())
        return {int(q): float(x) for q, x in zip(r.squares[keep], e / e.sum(), strict=True)}

    def choose_many(self, d: Decisions) -> np.ndarray:
        """The imitator's move in every position of ``d`` (one compiled search loop)."""
        return predict(self.weights, self.settings, d.P, d.O)

    def to_json(self) -> dict[str, Any]:
        """The file's content: weights by feature name, settings and the fit's summary."""
        names = feature_names(self.settings.phases)
        return {"format": FORMAT, "game": GAME, "settings": self.settings.to_dict(),
                "weights": {n: float(x) for n, x in zip(names, self.weights, strict=True)},
                "summary": self.summary}

    def save(self, path: str | Path) -> None:
        """Write the imitator as JSON (small: tens of numbers)."""
        Path(path).write_text(json.dumps(self.to_json(), indent=1, sort_keys=True) + "\n")

    @classmethod
    def load(cls, path: str | Path) -> SearchImitator:
        """Read an imitator written by :meth:`save`."""
        data = json.loads(Path(path).read_text())
        if data.get("format") != FORMAT:
            raise ValueError(f"{path}: not a search imitator file (format {data.get('format')!r})")
        settings = SearchSettings(**data["settings"])
        w = weights_by_name(data["weights"], settings.phases, str(path))
        return cls(w, settings, data.get("summary", {}))


def predict(w: np.ndarray, settings: SearchSettings, P: np.ndarray, O: np.ndarray) -> np.ndarray:
    """Moves for many positions (each must have a legal move): search, tie rule, and the exact
    endgame where ``settings.endgame`` allows; UCT where the Monte-Carlo mode decides
    (:meth:`SearchSettings.uct`)."""
    uct = settings.uct(empties(P, O))
    if uct.any():
        out = np.empty(len(P), dtype=np.int64)
        out[uct] = uct_moves(P[uct], O[uct], w, settings.phases, **settings.uct_kwargs())
        rest = np.flatnonzero(~uct)
        if len(rest):
            out[rest] = predict(w, replace(settings, mcts_sims=0), P[rest], O[rest])
        return out
    return solve_endgames(w, settings, P, O,
                          choices(search_all(P, O, w, settings, margin=settings.decide_margin),
                                  settings.tie))


def solve_endgames(w: np.ndarray, settings: SearchSettings, P: np.ndarray, O: np.ndarray,
                   out: np.ndarray) -> np.ndarray:
    """``out`` (the search's moves) with the positions the solver decides under ``settings``
    replaced by the solver's move there (its best moves compared by exact values)."""
    if solver_threshold(settings):
        end = np.flatnonzero(empties(P, O) <= solver_threshold(settings))
        full = search_all(P[end], O[end], w, settings)  # exact values for the solver's moves
        for j, i in enumerate(end):
            allowed = solver_moves(P[i], O[i], settings, w)
            assert allowed is not None
            out[i] = _endgame_pick(full, j, settings.tie, allowed)
    return out


def _endgame_pick(res: SearchResults, i: int, tie: str, allowed: set[int]) -> int:
    a, b = res.offsets[i], res.offsets[i + 1]
    ranks = None if res.ranks is None else res.ranks[a:b]
    return pick(res.squares[a:b], res.values[a:b], tie, allowed, ranks)


def fit(train: Decisions, select: Decisions, config: FitConfig | None = None,
        log: Any = None, state: FitState | None = None) -> SearchImitator:
    """Fit weights on ``train`` and choose the settings on ``select`` (see the module doc).

    ``log``: a callable taking one line of progress (e.g. ``print``), or None; ``state``: keeps
    each finished step (each pass of the surrogate's depth and budget stages, then the whole
    surrogate stage, each run of the round-value stage), so that the same fit stopped and
    started again resumes after the last one (:class:`ime.imitators.fit_state.FitState`, whose
    key must name this fit's inputs; the same result either way)."""
    cfg = config or FitConfig()
    say = log or (lambda _line: None)
    t0 = time.perf_counter()
    check_loss(cfg.loss)
    idx = subsample(len(train), cfg.max_fit, cfg.seed)
    P, O, A = train.P[idx], train.O[idx], train.action[idx]
    candidates = None if state is None else state.get("surrogate")
    if candidates is None:
        candidates = _surrogate_stages(P, O, A, select, cfg, say, state)
        if state is not None:  # the whole stage at once: a resumed fit skips even its replay
            state.put("surrogate", candidates)
    best = max(candidates, key=lambda c: (round(c["acc"], 9), -c["depth"], -c["phases"],
                                          -c["pass_"]))
    if cfg.round_evals:
        rounds = _round_stages(best, P, O, A, select, cfg, say, state)
        candidates += rounds
        for rounded in rounds:  # each run kept only where it agrees more than the one before
            if rounded["acc"] > best["acc"] + 1e-9:
                best = rounded
    settings = _settings_of(best, cfg)
    select_acc, weights = best["acc"], best["weights"]
    grid = cfg.mcts_grid()
    mc = None
    if grid is not None:
        mc = fit_mcts(weights, settings, select, grid, train=train.subset(idx), seed=cfg.seed,
                      say=say, state=state)
        weights, settings, select_acc = mc.weights, mc.settings, mc.acc
    summary = {
        "select_acc": select_acc, "train_positions": int(len(idx)),
        "select_positions": int(len(select)), "fit_seconds": time.perf_counter() - t0,
        "grid": [{"stage": c.get("stage", "surrogate"),
                  **{k2: c[k2] for k2 in ("phases", "depth", "pass_", "tie", "endgame",
                                          "endgame_mode", "endgame_wld", "endgame_pick",
                                          "budget", "ordering", "pv_first", "acc",
                                          "train_acc_before")}}
                 for c in candidates],
    }
    if mc is not None:
        summary["mcts_grid"] = mc.rows
        if mc.climb is not None:
            summary["mcts_climb"] = mc.climb
        if mc.tree is not None:
            summary["mcts_tree"] = mc.tree
    say(f"chosen: {settings} select acc {select_acc:.2f}% in {summary['fit_seconds']:.0f}s")
    return SearchImitator(weights, settings, summary)


def _surrogate_stages(P: np.ndarray, O: np.ndarray, A: np.ndarray, select: Decisions,
                      cfg: FitConfig, say: Any,
                      state: FitState | None = None) -> list[dict[str, Any]]:
    """The surrogate's stages: for each phase count, the MMTO passes at each depth, then the
    budget stage from the best of them; every pass's candidate, scored on ``select``. With a
    ``state``, each pass's result is kept as it ends (``surrogate <phases> <depth> <pass>``, the
    budget stage's ``budget <phases> <pass>``) and a pass already kept is not searched again
    (its log line ends ``[fit state]``): the loop replays them and goes on after the last."""
    off = legal_offsets(P, O)
    sel_off = legal_offsets(select.P, select.O)
    sel_empties = select.empties()
    @functools.cache
    def solved() -> dict[tuple[str, int], set[int]]:
        """The solver's moves on the selection positions (by (mode, row)), computed on first
        use: a resumed fit whose passes are all kept needs none."""
        max_end = max(cfg.endgames) if cfg.endgames else 0
        max_wld = max(cfg.endgames_wld) if cfg.endgames_wld else 0
        out = {(mode, int(i)): endgame_moves(select.P[i], select.O[i], mode)
               for mode in cfg.endgame_modes
               for i in np.flatnonzero(sel_empties <= max_end)} if max_end else {}
        out.update({("wld", int(i)): endgame_moves(select.P[i], select.O[i], "wld")
                    for i in np.flatnonzero(sel_empties <= max_wld)
                    if ("wld", int(i)) not in out})
        return out

    candidates: list[dict[str, Any]] = []
    tie = cfg.ties[0]  # the hinge loss's tie rule: the last candidate's best
    for phases in cfg.phases:
        k = num_features(phases)
        w = np.zeros(k)
        scale: np.ndarray | None = None
        deepen = Patience(cfg.patience)
        for depth, n_passes in depth_schedule(cfg.depths, cfg.passes):
            if deepen.spent(deepen.best >= 0):
                say(f"phases={phases}: no better selection agreement for {deepen.stale} depths; "
                    f"depth {depth} and above not fitted")
                break
            settings = SearchSettings(depth=depth, phases=phases, order_min=cfg.order_min)
            passes = Patience(cfg.pass_patience)
            for it in range(n_passes):
                if passes.spent(it > 0):
                    break
                key = f"surrogate {phases} {depth} {it}"
                kept = None if state is None else state.get(key)
                if kept is None:
                    ts = time.perf_counter()
                    res = search_all(P, O, w, settings, off, cfg.margin, A)
                    t_search = time.perf_counter() - ts
                    if scale is None:
                        scale = feature_scale(res, k)
                    train_acc = float(np.mean(choices(res, "first") == A)) * 100
                    prob = _problem(res, A, scale, tie)
                    u = _optimise(prob, w * scale, cfg.l2, cfg.inner_iters, cfg.loss,
                                  cfg.hinge_margin)
                    w = u / scale
                    cand = _score_candidate(w, settings, select, sel_off, solved(), cfg,
                                            sel_empties, [(0, "static", False)])
                    cand.update(phases=phases, depth=depth, pass_=it, weights=w.copy(),
                                train_acc_before=train_acc, search_s=t_search,
                                mean_nodes=float(res.nodes.mean()))
                    if state is not None:
                        state.put(key, {"candidate": cand, "scale": scale})
                else:
                    cand, scale = kept["candidate"], kept["scale"]
                    w = cand["weights"].copy()
                candidates.append(cand)
                tie = cand["tie"]
                passes.update(cand["acc"])
                say(f"phases={phases} depth={depth} pass={it}: train acc (before step) "
                    f"{cand['train_acc_before']:.2f}%, select acc {cand['acc']:.2f}% "
                    f"({cand['tie']}, endgame {cand['endgame']} {cand['endgame_mode']}"
                    f"{' + wld ' + str(cand['endgame_wld']) if cand['endgame_wld'] else ''}"
                    f"{' ' + cand['endgame_pick'] if cand['endgame_pick'] != 'value' else ''}, "
                    f"budget {cand['budget']}), "
                    f"search {cand['search_s']:.1f}s, {cand['mean_nodes']:.0f} nodes/position"
                    f"{' [fit state]' if kept is not None else ''}")
            deepen.update(passes.best)
        variants = [(int(b), o, bool(f)) for b in cfg.budgets if b > 0 for o in cfg.orderings
                    for f in cfg.pv_firsts]
        if variants:
            start = max((c for c in candidates if c["phases"] == phases),
                        key=lambda c: round(c["acc"], 9))
            candidates += _fit_budgeted(start["weights"], phases, P, O, A, scale, select,
                                        sel_off, solved, cfg, sel_empties, variants, say, state)
    return candidates


def round_values(imitator: SearchImitator, train: Decisions, select: Decisions,
                 config: FitConfig, log: Any = None,
                 state: FitState | None = None) -> SearchImitator:
    """A fitted imitator through the round-value stage alone (its settings kept): the better of
    it and the rounded weights on ``select`` (a saved imitator refitted by
    ``scripts/search_imitator.py --load X --round-evals N``); ``state`` as :func:`fit`'s (its
    key names the imitator it starts from too)."""
    say = log or (lambda _line: None)
    st = imitator.settings
    acc = float(np.mean(predict(imitator.weights, st, select.P, select.O) == select.action))
    best = {"weights": imitator.weights, "acc": acc * 100, **{k: getattr(st, k) for k in (
        "depth", "budget", "tie", "endgame", "phases", "endgame_mode", "endgame_wld",
        "endgame_pick", "ordering", "pv_first")}}
    cfg = replace(config, order_min=st.order_min)
    idx = subsample(len(train), cfg.max_fit, cfg.seed)
    P, O, A = train.P[idx], train.O[idx], train.action[idx]
    cand = best
    for rounded in _round_stages(best, P, O, A, select, cfg, say, state):
        if rounded["acc"] > cand["acc"] + 1e-9:
            cand = rounded
    if cand is best:
        return imitator
    summary = {**imitator.summary, "select_acc": cand["acc"], "round_values": True}
    return SearchImitator(cand["weights"], _settings_of(cand, cfg), summary)


def _settings_of(c: dict[str, Any], cfg: FitConfig) -> SearchSettings:
    """The search settings of a fit candidate."""
    return SearchSettings(depth=c["depth"], budget=c["budget"], tie=c["tie"],
                          endgame=c["endgame"], phases=c["phases"], order_min=cfg.order_min,
                          endgame_mode=c["endgame_mode"], endgame_wld=c["endgame_wld"],
                          endgame_pick=c.get("endgame_pick", "value"),
                          ordering=c["ordering"], pv_first=c["pv_first"])


def _round_stages(best: dict[str, Any], P: np.ndarray, O: np.ndarray, A: np.ndarray,
                  select: Decisions, cfg: FitConfig, say: Any,
                  state: FitState | None = None) -> list[dict[str, Any]]:
    """The round-value stage from ``best``, then again from its own result while that agrees
    more on the selection fold, at most ``cfg.round_repeats`` runs in all; each run's candidate.
    Why again: the stage's table and sparse starts are refitted from the weights it starts
    from, and from climbed weights they begin higher than from the surrogate's (rev1 and rev2,
    quick fold 0: v13's fit and then the stage again from its result, 93.06 -> 96.43 % and
    93.63 -> 95.17 % unseen; docs/measurements/cpu-2026-12-05-refit-scale/)."""
    out: list[dict[str, Any]] = []
    for n in range(cfg.round_repeats):
        if n:
            say(f"round values: the stage again ({n + 1} of {cfg.round_repeats}) from its result")
        cand = None if state is None else state.get(f"round {n + 1}")
        if cand is None:
            cand = _round_values(best, P, O, A, select, cfg, say)
            if state is not None:
                state.put(f"round {n + 1}", cand)
        out.append(cand)
        if cand["acc"] <= best["acc"] + 1e-9:
            break  # no better on the selection fold: the stage would start where it did
        best = cand
    return out


def _round_values(best: dict[str, Any], P: np.ndarray, O: np.ndarray, A: np.ndarray,
                  select: Decisions, cfg: FitConfig, say: Any) -> dict[str, Any]:
    """The round-value stage (:mod:`ime.imitators.round_values`) from the best candidate's
    weights under its settings: climbs the agreement on ``cfg.round_positions`` of the fit's
    positions (the solver's moves computed once), then scores the result on the selection
    fold. It climbs from the weights as fitted, from their phases averaged into one (a table
    does not change with the phase), and from a square table (the most common hand-written
    Reversi evaluation): the surrogate refitted with the square-class features alone. With
    ``cfg.round_settings`` and a node budget, the climb moves the budget, ordering,
    ``pv_first`` and tie rule too (its settings round), and the candidate carries the ones it
    ended on."""
    settings = _settings_of(best, cfg)
    moves = (setting_neighbours(cfg.budgets, cfg.orderings, cfg.pv_firsts, cfg.ties)
             if cfg.round_settings and settings.budget > 0 else None)

    def setting(phases: int) -> int | ClimbSetting:
        return phases if moves is None else climb_setting(settings, phases)

    rows = subsample(len(P), cfg.round_positions, cfg.seed + 2)
    Pr, Or, Ar = P[rows], O[rows], A[rows]
    score = round_scorer(Pr, Or, Ar, settings)

    w = np.asarray(best["weights"], dtype=np.float64)
    # feature blocks per phase anchor: equal blocks are an untapered evaluation
    flat = w.reshape(settings.phases, -1).mean(axis=0)
    one = replace(settings, phases=1)
    squares = np.zeros(len(flat), dtype=bool)
    squares[TABLE_FEATURES] = True
    refit = (subsample(len(P), cfg.round_refit_positions, cfg.seed + 3)
             if cfg.round_refit_positions else rows)

    def refitted(mask: np.ndarray) -> np.ndarray:
        return _masked_refit(flat, mask, one, P[refit], O[refit], A[refit], cfg, score,
                             cfg.round_refit_passes)

    table = refitted(squares)
    # each start with one more coordinate, a disc-count weight (0 at first; see with_disc);
    # the table start moves its squares and the disc only
    starts: list[tuple[np.ndarray, int | ClimbSetting]
                 | tuple[np.ndarray, int | ClimbSetting, np.ndarray]] = [
        (np.append(flat, 0.0), setting(1)),
        (np.append(table, 0.0), setting(1), np.append(squares, True))]
    sparse = squares | leading_features(flat, one, P[rows], O[rows], cfg.round_extra_share)
    if sparse.sum() > squares.sum():  # a share of 0 leads to none
        say("round values: the sparse start's other features: "
            + ", ".join(BASE_NAMES[i] for i in np.flatnonzero(sparse & ~squares)))
        table_plus = refitted(sparse)
        starts.append((np.append(table_plus, 0.0), setting(1), np.append(sparse, True)))
    if settings.phases > 1:
        starts.insert(0, (np.append(w, 0.0), setting(settings.phases)))
    # the climb that goes on: each nonzero weight costs one agreement (round_values)
    out = climb(starts, score.raced, cfg.round_evals, say, per_weight=100.0 / len(rows),
                setting_moves=moves, enter_shares=cfg.round_enter_shares, raced=True)
    s = applied(settings, out["setting"])
    if moves is not None:
        say(f"round values: the climb ended on {s.budget} nodes, ordering {s.ordering}, "
            f"pv_first {s.pv_first}, tie {s.tie} (it began on {settings.budget}, "
            f"{settings.ordering}, {settings.pv_first}, {settings.tie})")
    weights = with_disc(out["weights"], s.phases)
    acc = float(np.mean(predict(weights, s, select.P, select.O) == select.action)) * 100
    say(f"round values: select acc {acc:.2f}% (surrogate's weights {best['acc']:.2f}%), "
        f"{out['evals']} scorings on {len(rows)} fit positions in {out['seconds']:.0f}s "
        f"(raced: {score.race.searched} positions searched, "
        f"{score.race.searched / max(out['evals'] * len(rows), 1):.0%} of the full scorings)")
    return {**best, "acc": acc, "weights": weights, "phases": s.phases, "budget": s.budget,
            "ordering": s.ordering, "pv_first": s.pv_first, "tie": s.tie,
            "stage": "round", "train_acc_before": out["score"]}


def round_scorer(P: np.ndarray, O: np.ndarray, A: np.ndarray,
                 settings: SearchSettings) -> RoundScorer:
    """The round-value climb's score over the moves ``A`` on positions ``(P, O)`` under
    ``settings`` (:class:`RoundScorer`)."""
    return RoundScorer(P, O, A, settings)


class RoundScorer:
    """The round-value climb's score: ``score(v, setting)``, the agreement in % of the search
    under ``settings`` with the climb's setting (a phase count, or a :class:`ClimbSetting`) with
    the moves ``A`` on positions ``(P, O)``, for the climb's point ``v`` (:func:`with_disc`);
    :meth:`raced` is the same raced (:class:`ime.imitators.round_values.Race`: it may stop once
    the point cannot beat the climb's). The solver's best moves are computed once here; the pick
    among them may order by the weights, so it is made per scoring."""

    def __init__(self, P: np.ndarray, O: np.ndarray, A: np.ndarray,
                 settings: SearchSettings) -> None:
        self.P, self.O, self.A, self.settings = P, O, A, settings
        threshold = solver_threshold(settings)
        self.end = (np.flatnonzero(empties(P, O) <= threshold) if threshold
                    else np.zeros(0, int))
        self.best_moves = {int(i): endgame_moves(P[i], O[i], str(solver_mode(settings, int(e))))
                           for i, e in zip(self.end, empties(P[self.end], O[self.end]),
                                           strict=True)}
        # a chunk gives every search thread two slices (fewer stop the threads' sharing)
        self.race = Race(len(A), chunk=max(64, 2 * MIN_CHUNK * _THREADS))

    def moves(self, v: np.ndarray, setting: int | ClimbSetting, rows: np.ndarray
              ) -> np.ndarray:
        """The search's moves on ``rows`` (ascending) for the climb's point ``v``."""
        s = applied(self.settings, setting)
        w = with_disc(v, s.phases)
        P, O = self.P[rows], self.O[rows]
        out = choices(search_all(P, O, w, s, margin=s.decide_margin), s.tie)
        end = np.flatnonzero(np.isin(rows, self.end))
        if len(end):
            full = search_all(P[end], O[end], w, s)
            for j, k in enumerate(end):
                allowed = solver_pick_moves(int(P[k]), int(O[k]), self.best_moves[int(rows[k])],
                                            s.endgame_pick, s.tie, w, s.phases)
                out[k] = _endgame_pick(full, j, s.tie, allowed)
        return out

    def __call__(self, v: np.ndarray, setting: int | ClimbSetting) -> float:
        """The agreement in %, every position searched."""
        return float(np.mean(self.moves(v, setting, np.arange(len(self.A))) == self.A)) * 100

    def raced(self, v: np.ndarray, setting: int | ClimbSetting, bar: float | None
              ) -> Agreement:
        """The agreement, or a bound at most ``bar`` once it cannot beat it."""
        return self.race(lambda rows: self.moves(v, setting, rows) != self.A[rows], bar)


def with_disc(v: np.ndarray, phases: int) -> np.ndarray:
    """The weights of a round-value climb's point ``v``: its last coordinate, a disc-count
    weight, added to every square class's weight (in every phase block). Why a coordinate of
    its own: a table plus a disc count (the commonest Reversi evaluation after the table alone)
    has square weights such as 501, 41, 61 that are round numbers only as a table (500, 40, 60)
    and a disc weight (1) apart, and the climb moves round numbers."""
    w = np.array(v[:-1], dtype=np.float64)
    k = len(w) // phases
    for j in range(phases):
        w[j * k + TABLE_FEATURES] += v[-1]
    return w


def leading_features(w: np.ndarray, settings: SearchSettings, P: np.ndarray, O: np.ndarray,
                     share: float) -> np.ndarray:
    """Mask of the features of the 1-phase weights ``w`` that weigh at least ``share`` of the
    most any feature weighs, each weight measured on the optimiser's scale (times its feature's
    standard deviation at the PV leaves of a 2-ply search of ``P``, ``O``: a ratio feature's
    large weight moves a value less than a count's small one). Why: a hand-written evaluation
    is a square table plus a few other terms (mobility, frontier, parity, edge stability), and
    the surrogate weighs those few most; the rest of its weights are small and dense and break
    the target's ties. ``share`` 0: none."""
    if not share:
        return np.zeros(len(w), dtype=bool)
    res = search_all(P, O, w, replace(settings, depth=2, budget=0, endgame=0))
    weight = np.abs(w) * feature_scale(res, len(w))
    return weight >= share * weight.max()


def _masked_refit(w: np.ndarray, mask: np.ndarray, settings: SearchSettings, P: np.ndarray,
                  O: np.ndarray, A: np.ndarray, cfg: FitConfig,
                  score: Callable[[np.ndarray, int], float] | None = None,
                  passes: int = REFIT_PASSES) -> np.ndarray:
    """``w`` refitted by the surrogate with only the features of ``mask`` (the rest held at
    0), ``passes`` MMTO passes under ``settings`` (with a budget: each position at the depth its
    decision reaches); with ``score`` (the climb's, :func:`round_scorer`) each pass is scored
    and the best kept. Why not just ``w``'s weights of those features: where the other features
    carried part of the fit, those weights alone are off (the climb from them stalls). Why
    several passes, and the best of them: the passes waver, most on few positions; rev1's
    sparse refit (quick fold 0, the climb's 400 positions scoring each pass) went 88.3, 87.8,
    85.8, 85.8, 83.8 ... % refitted on those 400 positions and 90.5, 90.8, 91.0, 90.0 % on 4,000
    (docs/measurements/cpu-2026-12-05-refit-scale/). The first pass first puts ``w`` on the
    surrogate's scale (:func:`best_scale`)."""
    w = np.where(mask, w, 0.0)
    best, best_score = w, -1.0

    def problem(w: np.ndarray) -> Problem:
        if settings.budget:
            res, targets = search_as_budgeted(P, O, A, w, settings, cfg.margin)
        else:
            res, targets = search_all(P, O, w, settings, margin=cfg.margin, targets=A), A
        res.features[:, ~mask] = 0.0
        return _problem(res, targets, np.ones(len(w)), settings.tie)

    for n in range(passes):
        prob = problem(w)
        # weights from elsewhere (a saved imitator's) onto the surrogate's scale first, and
        # searched again there (the fit's root window is on that scale)
        if n == 0 and (c := best_scale(prob, w, cfg.l2, cfg.loss, cfg.hinge_margin)) != 1.0:
            w = w * c
            prob = problem(w)
        w = _optimise(prob, w, cfg.l2, cfg.inner_iters, cfg.loss, cfg.hinge_margin)
        w[~mask] = 0.0
        if score is not None and (s := score(np.append(w, 0.0), 1)) > best_score:
            best, best_score = w.copy(), s
    return w if score is None else best


def _fit_budgeted(w: np.ndarray, phases: int, P: np.ndarray, O: np.ndarray, A: np.ndarray,
                  scale: np.ndarray | None, select: Decisions, sel_off: np.ndarray,
                  solved: Callable[[], dict[tuple[str, int], set[int]]], cfg: FitConfig,
                  sel_empties: np.ndarray, variants: list[tuple[int, str, bool]],
                  say: Any, state: FitState | None = None) -> list[dict[str, Any]]:
    """The budget stage: from weights ``w``, score every (budget, ordering, pv_first) in
    ``variants`` on the selection positions, then run ``cfg.budget_passes`` MMTO passes under
    the best one, each position's PV leaves from the depth its decision reaches within the
    budget (a budgeted bot searches deeper where there are fewer moves; a fixed depth cannot
    copy that). The first scoring screens every variant on ``cfg.budget_screen`` selection
    positions and scores the ``cfg.budget_keep`` best on all of them; later passes score only
    the best variant's neighbours (the next budget below and above, same ordering). Returns the
    candidates (pass 0: ``w`` as it came). ``solved()``: the solver's moves on the selection
    positions; ``state``: each pass kept and replayed as :func:`_surrogate_stages`' are."""
    out: list[dict[str, Any]] = []
    k = num_features(phases)
    sc = np.ones(k) if scale is None else scale
    base = SearchSettings(depth=cfg.budget_depth, phases=phases, order_min=cfg.order_min)
    passes = Patience(cfg.pass_patience)
    for it in range(cfg.budget_passes + 1):
        if passes.spent(it > 1):
            break
        key = f"budget {phases} {it}"
        kept = None if state is None else state.get(key)
        if kept is None:
            ts = time.perf_counter()
            if it == 0 and len(variants) > cfg.budget_keep and len(select) > cfg.budget_screen:
                variants = _screen(w, base, select, solved(), cfg, variants, say)
            cand = _score_candidate(w, base, select, sel_off, solved(), cfg, sel_empties,
                                    variants)
            cand.update(phases=phases, depth=cfg.budget_depth, pass_=it, weights=w.copy(),
                        train_acc_before=float("nan"), search_s=time.perf_counter() - ts,
                        mean_nodes=float("nan"))
        else:
            cand = kept["candidate"]
        budgets = sorted({int(x) for x in cfg.budgets if x > 0})
        b = budgets.index(cand["budget"])
        variants = [(x, cand["ordering"], cand["pv_first"])
                    for x in budgets[max(0, b - 1):b + 2]]
        out.append(cand)
        passes.update(cand["acc"])
        say(f"phases={phases} budget stage pass={it}: select acc {cand['acc']:.2f}% (budget "
            f"{cand['budget']}, ordering {cand['ordering']}"
            f"{', pv first' if cand['pv_first'] else ''}, {cand['tie']}, endgame "
            f"{cand['endgame']} {cand['endgame_mode']})"
            f"{' [fit state]' if kept is not None else ''}")
        if it == cfg.budget_passes:
            if state is not None and kept is None:
                state.put(key, {"candidate": cand, "next": w})
            break
        if kept is None:
            s = replace(base, budget=cand["budget"], ordering=cand["ordering"],
                        pv_first=cand["pv_first"], tie=cand["tie"])
            res, targets = search_as_budgeted(P, O, A, w, s, cfg.margin)
            prob = _problem(res, targets, sc, cand["tie"])
            w = _optimise(prob, w * sc, cfg.l2, cfg.inner_iters, cfg.loss,
                          cfg.hinge_margin) / sc
            if state is not None:  # the pass's candidate and the weights its step gave
                state.put(key, {"candidate": cand, "next": w})
        else:
            w = kept["next"].copy()
    return out


def _screen(w: np.ndarray, base: SearchSettings, select: Decisions,
            solved: dict[tuple[str, int], set[int]], cfg: FitConfig,
            variants: list[tuple[int, str, bool]], say: Any) -> list[tuple[int, str, bool]]:
    """The ``cfg.budget_keep`` variants that agree most on a seeded sample of
    ``cfg.budget_screen`` selection positions (a budget grid is dear at full size)."""
    rows = subsample(len(select), cfg.budget_screen, cfg.seed + 1)
    sub = select.subset(rows)
    remap = {int(r): j for j, r in enumerate(rows)}
    sub_solved = {(m, remap[i]): v for (m, i), v in solved.items() if i in remap}
    sub_off, sub_empties = legal_offsets(sub.P, sub.O), sub.empties()
    scored = []
    for v in variants:
        c = _score_candidate(w, base, sub, sub_off, sub_solved, cfg, sub_empties, [v])
        scored.append((c["acc"], -v[0], v))
    scored.sort(key=lambda t: (-t[0], -t[1]))
    keep = [v for _, _, v in scored[:cfg.budget_keep]]
    accs = ", ".join(f"{a:.1f}%" for a, _, _ in scored[:cfg.budget_keep])
    say(f"budget stage: screened {len(variants)} (budget, ordering, pv first) on {len(rows)} "
        f"selection positions; kept {keep} ({accs})")
    return keep


def _score_candidate(w: np.ndarray, settings: SearchSettings, select: Decisions,
                     sel_off: np.ndarray, solved: dict[tuple[str, int], set[int]],
                     cfg: FitConfig, sel_empties: np.ndarray,
                     variants: Sequence[tuple[int, str, bool]]) -> dict[str, Any]:
    """The best (tie, endgame, endgame mode, budget, ordering) for weights ``w`` at
    ``settings``' depth (with a budget: the deepest iteration), by agreement on the selection
    positions (``solved``: the solver's moves by (mode, row)); ``variants``: the (budget,
    ordering, pv_first) triples tried."""
    best: dict[str, Any] = {"acc": -1.0}
    end = np.flatnonzero(sel_empties <= max(*cfg.endgames, *cfg.endgames_wld, 0))
    for budget, ordering, pv_first in variants:
        s = SearchSettings(depth=settings.depth, budget=budget, phases=settings.phases,
                           order_min=settings.order_min, ordering=ordering, pv_first=pv_first)
        full = search_all(select.P[end], select.O[end], w, s)
        row_of = {int(i): j for j, i in enumerate(end)}
        # a decision's root window and its PV rule (hence its nodes, hence its depth under a
        # budget) depend on the tie rule: one search per (window, PV rule) the tie rules need
        decided: dict[tuple[float, int], SearchResults] = {}
        for tie, epick in itertools.product(cfg.ties, cfg.endgame_picks):
            st = replace(s, tie=tie)
            how = (st.decide_margin, st.root_first)
            if how not in decided:
                decided[how] = search_all(select.P, select.O, w, st, sel_off, st.decide_margin)
            base = choices(decided[how], tie)
            # each row's pick under each solve, computed once for every threshold below
            picks = {key: _endgame_pick(full, row_of[key[1]], tie, solver_pick_moves(
                int(select.P[key[1]]), int(select.O[key[1]]), moves, epick, tie, w,
                settings.phases))
                for key, moves in solved.items() if key[1] in row_of}
            for endgame in cfg.endgames:
                for mode in cfg.endgame_modes if endgame else cfg.endgame_modes[:1]:
                    for wld in cfg.endgames_wld:
                        if wld and wld <= endgame:
                            continue
                        pred = base.copy()
                        for i in row_of:
                            e = sel_empties[i]
                            if endgame and e <= endgame:
                                pred[i] = picks[(mode, i)]
                            elif wld and e <= wld:
                                pred[i] = picks[("wld", i)]
                        acc = float(np.mean(pred == select.action)) * 100
                        if acc > best["acc"] + 1e-12:
                            best = {"acc": acc, "tie": tie, "endgame": int(endgame),
                                    "endgame_mode": mode, "endgame_wld": int(wld),
                                    "endgame_pick": epick if endgame or wld else "value",
                                    "budget": int(budget), "ordering": ordering,
                                    "pv_first": bool(pv_first)}
    return best
