"""A deterministic Reversi search over a linear evaluation (numba): the search imitator's engine.

Why its own search rather than a zoo bot's: the imitator must not use any target's code, and the
fit needs two things a playing bot does not give: the exact searched value of *every* legal root
move (for the softmax over moves and for an exact tie rule) and, for each, its principal
variation's leaf (whose features are the gradient of that value with respect to the weights, as
in MMTO / comparison training).

Search: negamax alpha-beta, fail-soft, on :func:`ime.imitators.reversi_features.evaluate`.

* **Root**: every legal move gets a value. With a full window (``margin = FULL``, what
  :meth:`LinearSearch.root` and the tests use) each is the exact depth-limited minimax value of
  that move (independent of move ordering) and ties are real ties. Two narrower windows give the
  same answers for less: to *decide* (``margin = DECIDE``), each move after the first is
  searched with alpha just below the best so far, so only moves that could be best or tied get
  exact values (the others fail low); to *fit* (``margin = m > 0``, the fitter's), the target's
  move is searched first with a full window and the others with alpha ``m`` below the best so
  far, so every move whose softmax weight is at least ``exp(-m)`` of the best's is exact and
  the rest are upper bounds (flagged ``exact = False``). The root's moves are searched best
  static evaluation first.
* **Inside**: plain alpha-beta; at nodes with ``order_min`` or more plies left the children are
  searched best static evaluation first (ordering changes the node count, never a value).
* **Passes** cost no depth (a pass is always followed by a move or the end). A finished game is
  worth ``sign(d) * TERMINAL + d`` for the final disc difference ``d`` (Botzone's rule: empties
  count for nobody), above any evaluation.
* **Depth / node budget**: ``budget = 0`` searches exactly ``depth`` plies. ``budget > 0``
  deepens iteratively from 1 ply up to ``depth`` and keeps the last iteration that finished
  within ``budget`` nodes in all (iteration 1 always finishes). Nodes are counted, never time,
  so a decision is a pure function of (position, weights, settings). The budget counts the
  nodes of the search as run, and a narrower root window searches fewer: a decision
  (:meth:`LinearSearch.choose`, :func:`ime.imitators.search_fit.predict`) counts the deciding
  window's (the full window's where the exact endgame applies).
* **Ties** (root values within ``TIE_EPS`` relative): ``first``/``last`` take the lowest/highest
  square ``y * 8 + x`` (row-major scan); ``first_col``/``last_col`` the same in column-major
  order (``x * 8 + y``), the two usual ways a bot enumerates a board.
* **Exact endgame**: with ``endgame = N > 0``, a position with at most ``N`` empties is solved
  by the engine's solver (:mod:`ime.games.reversi.solver`): ``endgame_mode="exact"`` keeps the
  root moves of the best final disc difference, ``"wld"`` those of the best win/draw/loss
  outcome (a cheaper solve many programs use); among those the search's values and then the
  tie rule choose. ``endgame_wld = M > endgame`` adds a win/draw/loss solve for the positions
  with more than ``endgame`` and at most ``M`` empties (many programs solve for the outcome a
  few plies before they solve for the disc difference).
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any

import numpy as np
from numba import njit

from ime.core.bits import ctpop, cttz
from ime.games.reversi.bitboard import PASS, flips, flips_inline, legal_moves, legal_moves_inline
from ime.imitators.reversi_features import (
    PHASES,
    evaluate,
    features_into,
    num_features,
    square_weight,
)
from ime.imitators.reversi_mcts import PLAYOUTS

U64 = np.uint64
ZERO = U64(0)
ONE = U64(1)
INF = 1e30
FULL = 1e30  # root margin: every move exact
DECIDE = -1.0  # root margin: exact only where a move could be best or tied
DECIDE_STRICT = -2.0  # root margin: exact only where a move is better than every earlier one
TERMINAL = 1e6
TIE_EPS = 1e-9
MAX_PLY = 128  # plies from the root, passes included
MAX_MOVES = 40  # Reversi's most legal moves in a position is 33
TIE_RULES = ("first", "last", "first_col", "last_col", "searched_first", "searched_last")
SQUARE_TIES = TIE_RULES[:4]
"""Tie rules by square order (the fit's default grid)."""
SEARCHED_TIES = ("searched_first", "searched_last")
"""Tie rules by the root's own search order (its move ordering, the last iteration's best first
with ``pv_first``), not by the square: a search that keeps a move only when it is strictly
better keeps the first searched of equal moves (``searched_first``), one that also takes an
equal move the last (``searched_last``)."""
ENDGAME_MODES = ("exact", "wld")
ORDERINGS = ("static", "none", "square", "fastest")
ENDGAME_PICKS = ("value", "fastest_first", "fastest_last", "solver_first", "solver_last")
"""How the imitator chooses among the solver's best moves (``SearchSettings.endgame_pick``)."""
# The kernels' ``order_min`` also encodes the ordering: a number of plies for ``static``;
NO_ORDER = 1 << 20  # one no node reaches for ``none``: children (and root moves) in square order;
SQUARE_ORDER = -1  # and this for ``square``: every node's moves by their square's weight;
FASTEST_ORDER = -16  # and this for ``fastest``: fewest replies first, FASTEST_PLIES or more left
FASTEST_PLIES = 2
"""``ordering="fastest"`` sorts a node's moves fewest opponent replies first only where at least
this many plies are left, and by the square's weight nearer the leaves, where counting every
reply would cost more than the cut-offs it buys (the usual way fastest-first is used)."""
FASTEST_KEY = 1e9  # a reply outweighs any square weight in the sort key
PV_FIRST = -2  # ``target`` of an iterative deepening that searches the last iteration's best first
PV_FIRST_EARLIEST = -3  # the same, the best being the earliest searched of equal moves
PV_FIRST_LATEST = -4  # and the latest searched (the searched_* tie rules' PV)


@dataclass(frozen=True)
class SearchSettings:
    """The search's own settings, chosen by the fit (:mod:`ime.imitators.search_fit`).

    ``depth``: plies (the deepest iteration with a budget); ``budget``: node budget, 0 for a
    fixed depth; ``tie``: one of :data:`TIE_RULES`; ``endgame``: solve at or below this many
    empties (0: never), ``endgame_mode`` one of :data:`ENDGAME_MODES`; ``phases``: 1 to 4
    evaluation phases; ``order_min``: sort children at nodes with at least this many plies left;
    ``ordering``: ``static`` sorts the root's moves and those children by their static value,
    best first; ``none`` searches every node's moves in square order (``y * 8 + x``), as a bot
    without move ordering does; ``square`` sorts every node's moves by the fitted weight of the
    square played (its class's ``sq`` weight at the position's phase), best first, as a bot
    that orders by a square table does; ``fastest`` sorts them fewest opponent replies first
    (fastest-first, the common mobility ordering), equal counts by the square's weight, at
    nodes with :data:`FASTEST_PLIES` or more plies left, and by the square's weight below.
    Ordering never changes a value, only the nodes a search
    spends, so it matters only under a node ``budget``, where it decides how deep each
    position's search gets; ``pv_first``: with a budget, each iteration searches the previous
    iteration's best root move first (the usual iterative-deepening ordering);
    ``endgame_pick``: among the solver's best moves (where it solves), ``value`` takes the one
    the search values most (then the tie rule); ``fastest_first`` / ``fastest_last`` take the
    first / last of them in a fastest-first ordering (the opponent's fewest replies first, ties
    by the tie rule), as an endgame solver that orders its moves so and keeps the first or the
    last move that proves the best outcome does (:func:`solver_pick_moves`); ``solver_first`` /
    ``solver_last`` the same with the equal-reply moves ordered by the evaluation's square
    weight, best first, then by square, the solver's whole move order.

    ``mcts_sims > 0`` turns on the Monte-Carlo mode (:mod:`ime.imitators.reversi_mcts`): a
    position with more than ``mcts_above`` empties is decided by UCT over the same evaluation,
    with ``mcts_sims`` simulations, exploration ``mcts_c``, playouts of at most ``mcts_depth``
    moves (0: to the end) by rule ``mcts_playout``, leaves squashed with ``mcts_scale``, seeded
    from the position and ``mcts_seed``; the others by the search above. With ``mcts_sims = 0``
    (the default) the mode is off and :meth:`to_dict` leaves its fields out, so imitators fitted
    without it keep their files' bytes.
    """

    depth: int = 1
    budget: int = 0
    tie: str = "first"
    endgame: int = 0
    phases: int = 1
    order_min: int = 2
    endgame_mode: str = "exact"
    endgame_wld: int = 0
    ordering: str = "static"
    pv_first: bool = False
    endgame_pick: str = "value"
    mcts_sims: int = 0
    mcts_c: float = 0.707
    mcts_depth: int = 2
    mcts_playout: str = "corners_xc"
    mcts_scale: float = 4.0
    mcts_above: int = 12
    mcts_seed: int = 0

    def __post_init__(self) -> None:
        if self.depth < 1:
            raise ValueError(f"depth must be >= 1, got {self.depth}")
        if self.budget < 0:
            raise ValueError(f"budget must be >= 0, got {self.budget}")
        if self.tie not in TIE_RULES:
            raise ValueError(f"tie must be one of {TIE_RULES}, got {self.tie!r}")
        if self.endgame < 0:
            raise ValueError(f"endgame must be >= 0, got {self.endgame}")
        if self.endgame_wld and self.endgame_wld <= self.endgame:
            raise ValueError(f"endgame_wld {self.endgame_wld} must be 0 or above endgame "
                             f"{self.endgame}")
        if self.endgame_mode not in ENDGAME_MODES:
            raise ValueError(f"endgame_mode must be one of {ENDGAME_MODES}, "
                             f"got {self.endgame_mode!r}")
        if self.phases not in PHASES:
            raise ValueError(f"phases must be one of {PHASES}, got {self.phases}")
        if self.ordering not in ORDERINGS:
            raise ValueError(f"ordering must be one of {ORDERINGS}, got {self.ordering!r}")
        if self.endgame_pick not in ENDGAME_PICKS:
            raise ValueError(f"endgame_pick must be one of {ENDGAME_PICKS}, "
                             f"got {self.endgame_pick!r}")
        if self.mcts_sims < 0 or self.mcts_c < 0 or self.mcts_depth < 0 \
                or self.mcts_scale <= 0 or self.mcts_above < 0:
            raise ValueError(f"bad Monte-Carlo settings: mcts_sims {self.mcts_sims} (>= 0), "
                             f"mcts_c {self.mcts_c} (>= 0), mcts_depth {self.mcts_depth} "
                             f"(>= 0), mcts_scale {self.mcts_scale} (> 0), mcts_above "
                             f"{self.mcts_above} (>= 0)")
        if self.mcts_playout not in PLAYOUTS:
            raise ValueError(f"mcts_playout must be one of {PLAYOUTS}, "
                             f"got {self.mcts_playout!r}")

    @property
    def root_first(self) -> int:
        """The kernels' ``target`` of a decision: :data:`PV_FIRST` (its searched_* variants
        under those tie rules) or -1 (none)."""
        if not (self.pv_first and self.budget):
            return -1
        return {"searched_first": PV_FIRST_EARLIEST,
                "searched_last": PV_FIRST_LATEST}.get(self.tie, PV_FIRST)

    @property
    def decide_margin(self) -> float:
        """The root window of a decision: :data:`DECIDE_STRICT` under ``searched_first`` (an
        equal later move fails low, as in a search that keeps only strictly better moves, and
        costs the nodes it costs there), else :data:`DECIDE`."""
        return DECIDE_STRICT if self.tie == "searched_first" else DECIDE

    @property
    def kernel_order_min(self) -> int:
        """``order_min`` as the kernels take it: :data:`NO_ORDER` for ``ordering="none"``,
        :data:`SQUARE_ORDER` for ``"square"``, :data:`FASTEST_ORDER` for ``"fastest"``."""
        return {"static": self.order_min, "none": NO_ORDER, "square": SQUARE_ORDER,
                "fastest": FASTEST_ORDER}[self.ordering]

    def uct(self, n_empties: np.ndarray) -> np.ndarray:
        """Which positions (by their empties) the Monte-Carlo mode decides."""
        return (np.asarray(n_empties) > self.mcts_above) & (self.mcts_sims > 0)

    def uct_kwargs(self) -> dict[str, Any]:
        """The Monte-Carlo mode's settings as :func:`ime.imitators.reversi_mcts.uct_moves`
        takes them."""
        return {"sims": self.mcts_sims, "c": self.mcts_c, "depth": self.mcts_depth,
                "playout": self.mcts_playout, "scale": self.mcts_scale, "seed": self.mcts_seed}

    def to_dict(self) -> dict[str, Any]:
        """Plain values (for the imitator's JSON file; without the Monte-Carlo mode's fields
        when it is off)."""
        d = asdict(self)
        if not self.mcts_sims:
            d = {k: v for k, v in d.items() if not k.startswith("mcts_")}
        return d


class Workspace:
    """Preallocated per-ply buffers of one search (the kernels allocate nothing)."""

    def __init__(self, phases: int) -> None:
        self.buf = np.zeros((MAX_PLY, num_features(phases)), dtype=np.float64)
        self.pv = np.zeros((MAX_PLY, MAX_PLY), dtype=np.int64)
        self.pvlen = np.zeros(MAX_PLY, dtype=np.int64)
        self.mv = np.zeros((MAX_PLY, MAX_MOVES), dtype=np.int64)
        self.key = np.zeros((MAX_PLY, MAX_MOVES), dtype=np.float64)
        self.counters = np.zeros(2, dtype=np.int64)  # nodes, aborted


@njit(cache=True, inline="always")
def _terminal_value(P, O):
    d = ctpop(P) - ctpop(O)
    if d > 0:
        return TERMINAL + d
    if d < 0:
        return -TERMINAL + d
    return 0.0


@njit(cache=True, inline="always")
def _move_key(P, O, sq, depth, w, phases, order_min):
    """The sort key (ascending: searched first) of move ``sq`` under the orderings that do not
    evaluate the child: ``square`` (the square's weight, best first) and ``fastest`` (the
    opponent's replies, fewest first, then the square's weight; the weight alone with fewer
    than :data:`FASTEST_PLIES` plies left)."""
    k = -square_weight(sq, P, O, w, phases)
    if order_min == FASTEST_ORDER and depth >= FASTEST_PLIES:
        f = flips_inline(P, O, sq)
        k += FASTEST_KEY * ctpop(legal_moves_inline(O ^ f, P | f | (ONE << U64(sq))))
    return k


@njit(cache=True)
def _negamax(P, O, depth, alpha, beta, w, phases, buf, pv, pvlen, mv, key, ply, counters,
             budget, order_min):
    """Fail-soft alpha-beta value of (P, O) for the side owning ``P``; fills ``pv[ply]``."""
    counters[0] += 1
    pvlen[ply] = 0
    if budget > 0 and counters[0] > budget:
        counters[1] = 1
        return 0.0
    moves = legal_moves_inline(P, O)
    if moves == ZERO:
        if legal_moves_inline(O, P) == ZERO:
            return _terminal_value(P, O)
        v = -_negamax(O, P, depth, -beta, -alpha, w, phases, buf, pv, pvlen, mv, key, ply + 1,
                      counters, budget, order_min)
        pv[ply, 0] = PASS
        n = pvlen[ply + 1]
        for i in range(n):
            pv[ply, i + 1] = pv[ply + 1, i]
        pvlen[ply] = n + 1
        return v
    if depth <= 0:
        return evaluate(P, O, w, phases, buf[ply])
    n = 0
    while moves:
        sq = cttz(moves)
        moves &= moves - ONE
        mv[ply, n] = sq
        n += 1
    if n > 1 and (order_min == SQUARE_ORDER or depth >= order_min):
        for i in range(n):
            sq = mv[ply, i]
            if order_min < 0:  # SQUARE_ORDER, FASTEST_ORDER
                key[ply, i] = _move_key(P, O, sq, depth, w, phases, order_min)
                continue
            f = flips_inline(P, O, sq)
            # the child's evaluation is from the opponent's view: lower is better for us
            key[ply, i] = evaluate(O ^ f, P | f | (ONE << U64(sq)), w, phases, buf[ply])
        for i in range(1, n):  # insertion sort, ascending key (stable: square order on ties)
            k = key[ply, i]
            s = mv[ply, i]
            j = i - 1
            while j >= 0 and key[ply, j] > k:
                key[ply, j + 1] = key[ply, j]
                mv[ply, j + 1] = mv[ply, j]
                j -= 1
            key[ply, j + 1] = k
            mv[ply, j + 1] = s
    best = -INF
    for i in range(n):
        sq = mv[ply, i]
        f = flips_inline(P, O, sq)
        v = -_negamax(O ^ f, P | f | (ONE << U64(sq)), depth - 1, -beta, -alpha, w, phases, buf,
                      pv, pvlen, mv, key, ply + 1, counters, budget, order_min)
        if counters[1]:
            return 0.0
        if v > best:
            best = v
            pv[ply, 0] = sq
            m = pvlen[ply + 1]
            for t in range(m):
                pv[ply, t + 1] = pv[ply + 1, t]
            pvlen[ply] = m + 1
            if v > alpha:
                alpha = v
                if alpha >= beta:
                    break
    return best


@njit(cache=True, inline="always")
def _sort_root(key, mv, n):
    """Insertion-sort the root's first ``n`` entries of ``mv[0]`` by ``key[0]``, ascending and
    stable (equal keys keep their order: square order, as the moves were listed)."""
    for i in range(1, n):
        kv = key[0, i]
        idx = mv[0, i]
        j = i - 1
        while j >= 0 and key[0, j] > kv:
            key[0, j + 1] = key[0, j]
            mv[0, j + 1] = mv[0, j]
            j -= 1
        key[0, j + 1] = kv
        mv[0, j + 1] = idx


@njit(cache=True)
def _root_once(P, O, depth, w, phases, buf, pv, pvlen, mv, key, counters, budget, order_min,
               margin, target, pv_rank, out_sq, out_val, out_lp, out_lo, out_sign, out_term,
               out_exact, out_rank):
    """Every root move searched ``depth`` plies (window by ``margin``, see the module doc;
    ``target``: the square searched first with a full window, -1 for none); per move, in square
    order, its value, whether it is exact, its PV leaf (the leaf's boards, the sign that turns
    the leaf's value into the root mover's, and whether the leaf is a finished game) and its
    rank in the search order (``out_rank``: with ``pv_rank`` the ``target``, a decision's last
    best move, ranks first; without, the fit's target ranks where the ordering puts it, as a
    decision would search it). Returns the move count, or -1 when the budget ran out."""
    moves = legal_moves_inline(P, O)
    n = 0
    while moves:
        sq = cttz(moves)
        moves &= moves - ONE
        out_sq[n] = sq
        n += 1
    # search order: the target, then best static evaluation first (``key[0]``, ``mv[0]``), or
    # square order when ``order_min`` is ``NO_ORDER``, the square's weight for ``SQUARE_ORDER``
    for i in range(n):
        sq = out_sq[i]
        f = flips_inline(P, O, sq)
        if order_min >= NO_ORDER:
            key[0, i] = 0.0  # no ordering: square order (the sort is stable)
        elif order_min < 0:  # SQUARE_ORDER, FASTEST_ORDER
            key[0, i] = _move_key(P, O, sq, depth, w, phases, order_min)
        else:
            key[0, i] = evaluate(O ^ f, P | f | (ONE << U64(sq)), w, phases, buf[0])
        mv[0, i] = i
    _sort_root(key, mv, n)  # ascending key, stable: square order on ties
    # the ranks of the ordering; then the target (a PV, or the fit's) to the front
    for r in range(n):
        out_rank[mv[0, r]] = r
    if target >= 0:
        for i in range(n):
            if out_sq[i] == target:
                key[0, i] = -INF
            else:
                key[0, i] = float(out_rank[i])
            mv[0, i] = i
        _sort_root(key, mv, n)
    if pv_rank and target >= 0:
        for r in range(n):
            out_rank[mv[0, r]] = r
    best = -INF
    for r in range(n):
        i = mv[0, r]
        sq = out_sq[i]
        f = flips_inline(P, O, sq)
        cP = O ^ f
        cO = P | f | (ONE << U64(sq))
        alpha = -INF
        if r > 0 and margin < FULL:
            if margin < -1.5:  # DECIDE_STRICT: an equal move fails low
                alpha = best
            elif margin < 0.0:
                alpha = best - 2.0 * TIE_EPS * max(1.0, abs(best))
            else:
                alpha = best - margin
        # every scalar typed explicitly: a literal argument (``1``) would compile a second
        # signature of the recursive kernel, and numba crashes reloading that from its cache
        v = -_negamax(cP, cO, np.int64(depth - 1), np.float64(-INF), np.float64(-alpha), w,
                      phases, buf, pv, pvlen, mv, key, np.int64(1), counters, np.int64(budget),
                      np.int64(order_min))
        if counters[1]:
            return -1
        if v > best:
            best = v
        # replay the child's PV to its leaf
        lp = cP
        lo = cO
        k = pvlen[1]
        for t in range(k):
            s = pv[1, t]
            if s == PASS:
                tmp = lp
                lp = lo
                lo = tmp
            else:
                ff = flips_inline(lp, lo, s)
                tmp = lo ^ ff
                lo = lp | ff | (ONE << U64(s))
                lp = tmp
        out_val[i] = v
        out_exact[i] = v > alpha
        out_lp[i] = lp
        out_lo[i] = lo
        out_sign[i] = 1.0 if k % 2 == 1 else -1.0
        out_term[i] = (legal_moves_inline(lp, lo) == ZERO) and (legal_moves_inline(lo, lp) == ZERO)
    return n


@njit(cache=True)
def _root(P, O, depth, w, phases, buf, pv, pvlen, mv, key, counters, budget, order_min, margin,
          target, out_sq, out_val, out_lp, out_lo, out_sign, out_term, out_exact, out_rank,
          tmp_sq, tmp_val, tmp_lp, tmp_lo, tmp_sign, tmp_term, tmp_exact, tmp_rank):
    """Fixed depth (``budget == 0``) or iterative deepening within ``budget`` nodes; returns
    (moves, depth reached, nodes). ``target`` :data:`PV_FIRST` (with a budget): each iteration
    searches the previous one's best move first (the lowest square among equal values;
    :data:`PV_FIRST_EARLIEST` / :data:`PV_FIRST_LATEST`: the earliest / latest searched)."""
    counters[0] = 0
    counters[1] = 0
    if budget == 0:
        n = _root_once(P, O, depth, w, phases, buf, pv, pvlen, mv, key, counters, np.int64(0),
                       order_min, margin, target, np.int64(0), out_sq, out_val, out_lp, out_lo,
                       out_sign, out_term, out_exact, out_rank)
        return n, depth, counters[0]
    n = 0
    reached = 0
    # deeper than the empties searches the same tree again (passes cost no depth)
    top = min(depth, np.int64(64) - np.int64(ctpop(P | O)))
    is_pv = target <= PV_FIRST
    first = np.int64(-1) if is_pv else target
    for d in range(1, max(top, 1) + 1):
        m = _root_once(P, O, np.int64(d), w, phases, buf, pv, pvlen, mv, key, counters,
                       np.int64(budget if d > 1 else 0), order_min, margin, first,
                       np.int64(1 if is_pv else 0), tmp_sq, tmp_val, tmp_lp, tmp_lo, tmp_sign,
                       tmp_term, tmp_exact, tmp_rank)
        if m < 0:
            break
        n = m
        reached = d
        if is_pv:  # the next iteration searches this one's best move first
            bi = 0
            for i in range(1, n):
                if tmp_val[i] > tmp_val[bi]:
                    bi = i
            if target != PV_FIRST:  # among the equal best, the earliest / latest searched
                tol = TIE_EPS * max(1.0, abs(tmp_val[bi]))  # as pick()
                for i in range(n):
                    if tmp_val[i] >= tmp_val[bi] - tol and (
                            (target == PV_FIRST_EARLIEST and tmp_rank[i] < tmp_rank[bi])
                            or (target == PV_FIRST_LATEST and tmp_rank[i] > tmp_rank[bi])):
                        bi = i
            first = tmp_sq[bi]
        for i in range(n):
            out_sq[i] = tmp_sq[i]
            out_val[i] = tmp_val[i]
            out_lp[i] = tmp_lp[i]
            out_lo[i] = tmp_lo[i]
            out_sign[i] = tmp_sign[i]
            out_term[i] = tmp_term[i]
            out_exact[i] = tmp_exact[i]
            out_rank[i] = tmp_rank[i]
        if counters[0] >= budget:
            break
    return n, reached, counters[0]


@njit(cache=True, nogil=True)
def search_batch(Ps, Os, depth, w, phases, budget, order_min, margin, targets, offsets, out_sq,
                 out_val, out_lp, out_lo, out_sign, out_term, out_exact, out_rank, nodes,
                 reached):
    """:func:`_root` over many positions (the fit's inner loop): position ``i``'s moves land in
    rows ``offsets[i]:offsets[i + 1]`` of the ``out_*`` arrays (its legal moves, square order);
    ``targets[i]`` is searched first (-1: none); ``nodes[i]`` gets its node count and
    ``reached[i]`` the depth of the iteration kept; ``out_rank`` each move's place in the kept
    iteration's search order. It holds no lock (``nogil``): every position
    is searched with the call's own buffers, so threads may search disjoint slices at once
    (:func:`ime.imitators.search_fit.search_all`)."""
    nf = w.shape[0]
    buf = np.zeros((MAX_PLY, nf), dtype=np.float64)
    pv = np.zeros((MAX_PLY, MAX_PLY), dtype=np.int64)
    pvlen = np.zeros(MAX_PLY, dtype=np.int64)
    mv = np.zeros((MAX_PLY, MAX_MOVES), dtype=np.int64)
    key = np.zeros((MAX_PLY, MAX_MOVES), dtype=np.float64)
    counters = np.zeros(2, dtype=np.int64)
    t_sq = np.zeros(MAX_MOVES, dtype=np.int64)
    t_val = np.zeros(MAX_MOVES, dtype=np.float64)
    t_lp = np.zeros(MAX_MOVES, dtype=np.uint64)
    t_lo = np.zeros(MAX_MOVES, dtype=np.uint64)
    t_sign = np.zeros(MAX_MOVES, dtype=np.float64)
    t_term = np.zeros(MAX_MOVES, dtype=np.bool_)
    t_exact = np.zeros(MAX_MOVES, dtype=np.bool_)
    t_rank = np.zeros(MAX_MOVES, dtype=np.int64)
    r_sq = np.zeros(MAX_MOVES, dtype=np.int64)
    r_val = np.zeros(MAX_MOVES, dtype=np.float64)
    r_lp = np.zeros(MAX_MOVES, dtype=np.uint64)
    r_lo = np.zeros(MAX_MOVES, dtype=np.uint64)
    r_sign = np.zeros(MAX_MOVES, dtype=np.float64)
    r_term = np.zeros(MAX_MOVES, dtype=np.bool_)
    r_exact = np.zeros(MAX_MOVES, dtype=np.bool_)
    r_rank = np.zeros(MAX_MOVES, dtype=np.int64)
    for i in range(Ps.shape[0]):
        n, dep, cnt = _root(Ps[i], Os[i], depth, w, phases, buf, pv, pvlen, mv, key, counters,
                            budget, order_min, margin, targets[i], r_sq, r_val, r_lp, r_lo,
                            r_sign, r_term, r_exact, r_rank, t_sq, t_val, t_lp, t_lo, t_sign,
                            t_term, t_exact, t_rank)
        nodes[i] = cnt
        reached[i] = dep
        o = offsets[i]
        for j in range(n):
            out_sq[o + j] = r_sq[j]
            out_val[o + j] = r_val[j]
            out_lp[o + j] = r_lp[j]
            out_lo[o + j] = r_lo[j]
            out_sign[o + j] = r_sign[j]
            out_term[o + j] = r_term[j]
            out_exact[o + j] = r_exact[j]
            out_rank[o + j] = r_rank[j]


@njit(cache=True)
def move_counts(Ps, Os):
    """Legal-move count of every position (``int64[N]``)."""
    out = np.zeros(Ps.shape[0], dtype=np.int64)
    for i in range(Ps.shape[0]):
        out[i] = ctpop(legal_moves_inline(Ps[i], Os[i]))
    return out


@njit(cache=True)
def leaf_features(lp, lo, sign, term, phases, nf):
    """Rows of signed PV-leaf features: ``d value / d w`` of each root move (0 for a finished
    game, whose value does not depend on the weights)."""
    out = np.zeros((lp.shape[0], nf), dtype=np.float64)
    buf = np.zeros(nf, dtype=np.float64)
    for i in range(lp.shape[0]):
        if term[i]:
            continue
        features_into(lp[i], lo[i], phases, buf)
        for k in range(nf):
            out[i, k] = sign[i] * buf[k]
    return out


def order_of(sq: int, tie: str) -> int:
    """Enumeration rank of square ``sq`` under tie rule ``tie`` (lower = preferred). The
    searched_* rules rank by the search's order, which a square alone does not give: here, where
    there is no search (a ``fastest_*`` endgame pick), they fall back to square order, first or
    last."""
    x, y = sq % 8, sq // 8
    if tie in ("first", "searched_first"):
        return sq
    if tie in ("last", "searched_last"):
        return -sq
    if tie == "first_col":
        return x * 8 + y
    if tie == "last_col":
        return -(x * 8 + y)
    raise ValueError(f"tie must be one of {TIE_RULES}, got {tie!r}")


def pick(squares: np.ndarray | list[int], values: np.ndarray | list[float], tie: str,
         allowed: set[int] | None = None, ranks: np.ndarray | list[int] | None = None) -> int:
    """The chosen square: the best value, ties (within ``TIE_EPS`` relative) by ``tie``;
    ``allowed``: only these squares compete (the exact endgame's); ``ranks``: each square's
    place in the search order (the searched_* tie rules need it)."""
    rank = dict(zip((int(s) for s in squares), (int(r) for r in ranks), strict=True)) \
        if ranks is not None else {}
    if tie in SEARCHED_TIES and not rank:
        raise ValueError(f"tie rule {tie!r} needs the search order (ranks=)")
    pairs = [(int(s), float(v)) for s, v in zip(squares, values, strict=True)
             if allowed is None or int(s) in allowed]
    best = max(v for _, v in pairs)
    tol = TIE_EPS * max(1.0, abs(best))
    if tie == "searched_first":
        return min((s for s, v in pairs if v >= best - tol), key=lambda s: rank[s])
    if tie == "searched_last":
        return max((s for s, v in pairs if v >= best - tol), key=lambda s: rank[s])
    return min((s for s, v in pairs if v >= best - tol), key=lambda s: order_of(s, tie))


def solver_threshold(s: SearchSettings) -> int:
    """The most empties at which ``s`` solves at all (0: never)."""
    return max(s.endgame, s.endgame_wld)


def solver_mode(s: SearchSettings, n_empties: int) -> str | None:
    """Which solve ``s`` makes at ``n_empties`` (``exact``/``wld``), or None: the search alone."""
    if s.endgame and n_empties <= s.endgame:
        return s.endgame_mode
    if s.endgame_wld and n_empties <= s.endgame_wld:
        return "wld"
    return None


def solver_moves(P: int, O: int, s: SearchSettings,
                 w: np.ndarray | None = None) -> set[int] | None:
    """The root moves the solver keeps under ``s`` in the position (narrowed to one by
    ``s.endgame_pick`` unless it is ``value``; ``w``: the weights, which the ``solver_*``
    picks order by), or None where it does not solve."""
    mode = solver_mode(s, 64 - bin(int(P) | int(O)).count("1"))
    if mode is None:
        return None
    return solver_pick_moves(P, O, endgame_moves(P, O, mode), s.endgame_pick, s.tie, w,
                             s.phases)


def solver_pick_moves(P: int, O: int, moves: set[int], pick: str, tie: str,
                      w: np.ndarray | None = None, phases: int = 1) -> set[int]:
    """``moves`` (the solver's best) as endgame pick ``pick`` leaves them: all of them for
    ``value`` (the search's values choose), else the first (``fastest_first``) or the last
    (``fastest_last``) in fastest-first order: by the opponent's legal replies after the move,
    fewest first, ties by tie rule ``tie``'s square order. Why: a solver stops at the first
    move that proves the best outcome in its own move order, or with last-of-equal ties keeps
    the last; fastest-first is the usual endgame order, and which of the equally good moves a
    target plays is otherwise lost to the imitator (measured: rev2's and rev4's picks among
    their winning moves, reproduction/imitators-thesis-reversi/). ``solver_first`` /
    ``solver_last``: the same in the order a fastest-first solver searches, fewest replies,
    then the highest square weight under ``w`` (the evaluation's table), then the lowest
    square; a solver that keeps only a strictly better move plays the first of equally good
    ones, one that takes equal ones the last (docs/imitators.md, v9)."""
    if pick == "value" or len(moves) < 2:
        return moves
    if pick not in ENDGAME_PICKS:
        raise ValueError(f"endgame_pick must be one of {ENDGAME_PICKS}, got {pick!r}")
    solver = pick.startswith("solver_")
    if solver and w is None:
        raise ValueError(f"endgame_pick {pick!r} orders by the weights (w=)")
    wf = np.ascontiguousarray(w, dtype=np.float64) if solver else None

    def key(sq: int) -> tuple[int, float, int]:
        f = int(flips(U64(P), U64(O), sq))
        replies = int(legal_moves(U64(int(O) ^ f), U64(int(P) | f | (1 << sq))))
        if solver:
            return (bin(replies).count("1"),
                    -float(square_weight(np.int64(sq), U64(P), U64(O), wf, np.int64(phases))),
                    sq)
        return bin(replies).count("1"), 0.0, order_of(sq, tie)

    ranked = sorted(moves, key=key)
    return {ranked[0] if pick in ("fastest_first", "solver_first") else ranked[-1]}


def endgame_moves(P: int, O: int, mode: str) -> set[int]:
    """The root moves the solver keeps (see the module doc): ``exact``, the moves of the best
    final disc difference; ``wld``, the moves of the best win/draw/loss outcome."""
    from ime.games.reversi.solver import solve, solve_wld

    if mode == "exact":
        return set(solve(int(P), int(O), all_best=True).best_moves)
    if mode != "wld":
        raise ValueError(f"endgame_mode must be one of {ENDGAME_MODES}, got {mode!r}")
    m = int(legal_moves(U64(P), U64(O)))
    outcome: dict[int, int] = {}
    for sq in range(64):
        if (m >> sq) & 1:
            f = int(flips(U64(P), U64(O), sq))
            outcome[sq] = -solve_wld(int(O) ^ f, int(P) | f | (1 << sq))
    top = max(outcome.values())
    return {sq for sq, v in outcome.items() if v == top}


@dataclass
class RootResult:
    """One search from the root: every legal move's value, the depth reached and the nodes."""

    squares: np.ndarray
    values: np.ndarray
    depth: int
    nodes: int
    exact: np.ndarray  # bool per move: False for an upper bound (a narrowed window failed low)
    ranks: np.ndarray  # int per move: its place in the root's search order


class LinearSearch:
    """The searcher of one fitted imitator: weights + :class:`SearchSettings`, deterministic."""

    def __init__(self, weights: np.ndarray, settings: SearchSettings) -> None:
        w = np.ascontiguousarray(weights, dtype=np.float64)
        if w.shape != (num_features(settings.phases),):
            raise ValueError(f"{len(w)} weights for {num_features(settings.phases)} features "
                             f"(phases={settings.phases})")
        self.w = w
        self.settings = settings
        self._ws = Workspace(settings.phases)
        # the results and, apart, the iteration in progress (16 distinct arrays)
        self._out = [np.zeros(MAX_MOVES, dtype=t) for _ in range(2) for t in
                     (np.int64, np.float64, np.uint64, np.uint64, np.float64, np.bool_,
                      np.bool_, np.int64)]

    def root(self, P: int, O: int, margin: float = FULL) -> RootResult:
        """Search the position (side to move owns ``P``); every legal move's value (exact with
        the default full window; ``margin``: see the module doc)."""
        s, ws = self.settings, self._ws
        n, reached, nodes = _root(U64(P), U64(O), np.int64(s.depth), self.w,
                                  np.int64(s.phases), ws.buf, ws.pv, ws.pvlen, ws.mv, ws.key,
                                  ws.counters, np.int64(s.budget), np.int64(s.kernel_order_min),
                                  np.float64(margin), np.int64(s.root_first), *self._out)
        return RootResult(self._out[0][:n].copy(), self._out[1][:n].copy(), int(reached),
                          int(nodes), self._out[6][:n].copy(), self._out[7][:n].copy())

    def choose(self, P: int, O: int) -> int:
        """The imitator's move in the position: a square, or ``PASS`` when there is none."""
        P64, O64 = U64(P), U64(O)
        if int(legal_moves(P64, O64)) == 0:
            return PASS
        s = self.settings
        margin = s.decide_margin
        allowed = solver_moves(int(P64), int(O64), s, self.w)
        if allowed is not None:
            margin = FULL  # the solver may rule out the search's best: compare the rest exactly
        r = self.root(int(P64), int(O64), margin)
        return pick(r.squares, r.values, s.tie, allowed, r.ranks)

