"""A depth-limited search of Snake's simultaneous-move game, sequentialised: the Snake search
imitator's engine.

Why this search: both snakes move at once, so the imitator's search is the usual fit for it:
the turn is split into *our* move, then the opponent's reply *knowing* our move (paranoid,
maximin; it never overrates a move). ``depth`` counts these plies: depth 1 evaluates the
position after our move alone, depth 2 after a whole turn, and so on. It is its own search, not
a zoo bot's (the imitator may not use a target's code), and it gives what the MMTO fit needs:
the exact value of *every* root move and its principal variation's leaf features
(:mod:`ime.imitators.mmto`).

* **Values** are from our view: ``w @ features`` at a leaf (:mod:`snake_features`), max at our
  plies, min at the opponent's; alpha-beta (fail-soft) inside, a full window at each root move,
  so root ties are real ties.
* **Moves and deaths** (the judge's rules on the planes' position): at the start of each turn
  that does not grow (:func:`pops`: the position's turn where the planes give it, else the turn
  from the snakes' length, :func:`root_turn`, and the tail rule ``phase``) both tails leave,
  where their order is known (:class:`ime.imitators.snake_features.SnakePosition`; an unknown
  tail stays; the opponent's, if it has several head candidates, leaves at its own ply, the
  candidate's own tail); then our move
  onto a wall or body loses (``-(TERMINAL + plies left)``: a later loss costs less); the
  opponent's reply onto our new head is a head-on collision, a draw (0); onto a wall or body it
  loses (``TERMINAL + plies left`` to us). The opponent moves from any of its head candidates.
  Terminal leaves carry no features. Tail rule ``-1``: bodies stay fixed (the first model).
* **Ties** among root values (within ``1e-9`` relative) by a generic order of the 4 directions
  (:data:`TIE_RULES`), or by the search's own root order (``exits``: the move onto the cell
  with the most free neighbours first, then ``up``'s order; with a budget, the order the
  answering iteration searched in), as a search that keeps the first best move in that order
  does.
* **Node budget** (``budget > 0``): the textbook budgeted alpha-beta. A node is a joint step
  (our move and the opponent's reply), counted over every iteration; the iterations go a whole
  turn (2 plies) deeper each, from 2 plies up to ``depth``. The first always completes; a later
  one is abandoned where the count has reached the budget and a step would go a turn deeper
  (leaves below are still valued), and the last complete one answers. Deepening also stops
  once an iteration ends with the budget spent or a forced result (a win or loss) at the root.
  In an iteration the root moves are searched in turn, each with the best value so far as its
  lower bound, so only the best value is exact; the first iteration takes them in direction
  order, each later one by the previous one's values (a stable sort, the best first), and the
  answer is the first best move in that order (the ``exits`` tie rule reads that order when a
  budget is on: :class:`ime.imitators.mmto.SearchResults` ``ranks``). The children are in the
  ``natural`` order (the direction codes in turn) or ``exits`` (the move onto the cell with the
  most free neighbours first), :data:`ORDERS`: the ordering decides where a budget stops, not a
  complete value, which is why it is a setting the fit chooses. The values the fit reads are
  every root move's exact ones at the answering depth (a search with full windows, not
  counted). Why this search: the hand-written bots of Botzone's Snake deepen within a node
  budget, and the depth a budget reaches differs from position to position; on the true
  positions of an alpha-beta bot with a 400-node budget (docs/imitators.md, "Snake's budgeted
  search") this search with the territory alone plays its move 97 % of the time, the best
  fixed depth 84 %.
* **The ``leaves`` budget** (``kind="leaves"``, :data:`BUDGET_KINDS`; the above is
  ``deepen``): no deepening, one search to the full depth, the root moves in direction order
  each bounded by the best so far, in which every node past the budget's count is valued as a
  leaf. Why: some hand-written bots search a fixed depth this way (the first lines go deep,
  the rest is evaluated at once); on a quick-scale dataset of such a bot the territory alone
  plays 95.3 % of its moves this way, at most 81.2 % deepened within a budget or at a fixed
  depth (docs/imitators.md, "The turn plane, the leaves budget and the climb under a budget").
"""

from __future__ import annotations

from array import array
from collections.abc import Sequence

import numpy as np

from ime.games.snake.board import grows
from ime.imitators.mmto import SearchResults, ranked_choices
from ime.imitators.snake_features import (
    BODY,
    FREE,
    TAILS,
    SnakePosition,
    features_into,
    num_features,
)

INF = 1e30
TERMINAL = 1e6
NO_STEPS = np.zeros(0, dtype=np.int64)
TIE_ORDERS = {"up": (0, 1, 2, 3), "right": (1, 2, 3, 0), "down": (2, 3, 0, 1),
              "left": (3, 0, 1, 2), "reverse": (3, 2, 1, 0)}
"""Tie rules: the directions in order of preference (0 = up, 1 = right, 2 = down, 3 = left):
clockwise from each direction, and counter-codes."""
TIE_RULES = (*TIE_ORDERS, "exits")
"""The tie rules: the direction orders of :data:`TIE_ORDERS`, and ``exits`` (the root moves in
the ``exits`` ordering's order: the searched ranks, ``SearchResults.ranks``)."""
ORDERS = ("natural", "exits")
"""Child orderings of a budgeted search (module doc)."""
BUDGET_KINDS = ("deepen", "leaves")
"""What a node budget does (module doc): ``deepen``, the iterations go deeper while it lasts;
``leaves``, one search to the full depth whose nodes past the budget are leaves."""


def tie_ranks(tie: str) -> np.ndarray:
    """Rank of each direction code under tie rule ``tie`` (lower = preferred); ``exits`` ranks
    by the search's root order (:func:`choices`), with ``up``'s order here."""
    if tie not in TIE_RULES:
        raise ValueError(f"tie must be one of {TIE_RULES}, got {tie!r}")
    rank = np.zeros(4, dtype=np.int64)
    rank[list(TIE_ORDERS["up" if tie == "exits" else tie])] = np.arange(4)
    return rank


def choices(res: SearchResults, tie: str) -> np.ndarray:
    """Each position's best-valued direction, ties by rule ``tie`` (module doc)."""
    if tie == "exits":
        return ranked_choices(res, tie_ranks("up"), row_rank=res.ranks)
    return ranked_choices(res, tie_ranks(tie))


class _OutOfNodes(Exception):
    """A budgeted iteration passed its node budget (it is abandoned)."""


PHASES = (-1, 0, 1, 2)
"""Tail rules: ``-1`` bodies stay fixed (no tail ever leaves); ``k >= 0``: the turn is read from
the snakes' length (:func:`root_turn`), ``k`` the turns since the last growth where the length
leaves it open."""


def root_turn(length: int, phase: int) -> int:
    """The turn (0-based) of a position whose snakes have ``length`` cells: they grow on each of
    turns 0-9 and then on turns 12, 15, ... (``ime.games.snake.board.grows``), so a length up to
    10 gives the turn, and a longer one three turns, of which ``phase`` picks one."""
    if length <= 10:
        return max(length - 1, 0)
    return 10 + 3 * (length - 11) + phase


def pops(length: int, phase: int, turns: int, turn: int = -1) -> list[bool]:
    """Whether the tails leave at the start of each of the next ``turns`` turns; ``turn``: the
    position's turn where known (the ``turn_plane``: it stands in for the length's guess under
    any tail rule but ``-1``)."""
    if phase < 0:
        return [False] * turns
    t0 = turn if turn >= 0 else root_turn(length, phase)
    return [not grows(t0 + j) for j in range(turns)]


Opp = tuple[int, tuple[int, ...]]
"""The opponent as the search carries it: a head and its tail's known order (the tail first)."""


class _Searcher:
    """One position's search with weights ``w`` under tail rule ``phase``."""

    def __init__(self, pos: SnakePosition, w: np.ndarray, phase: int, depth: int,
                 order: str = "natural", nodes: int = 0, limit: int = 0, leaves: int = 0,
                 tails: bool = True):
        # the cells as a bytearray (fast to index from Python) and the numpy view of the same
        # memory that the numba features read: a write through either is seen by both
        self.cells = bytearray(np.ascontiguousarray(pos.grid, dtype=np.int8).tobytes())
        self.grid = np.frombuffer(self.cells, dtype=np.int8)
        self.one_head = np.zeros(1, dtype=np.int64)  # a leaf's opponent head, reused
        self.stride = np.int64(pos.stride)
        self.deltas = pos.deltas()
        self.w = w
        # the turns of the search and, past them, enough for every body cell to leave
        # (territory_tails reads when the tails leave the cells a leaf's bodies hold)
        self.tails = tails
        self.pop = pops(pos.length, phase, depth // 2 + 2 + (2 * pos.length + 8 if tails else 0),
                        pos.turn)
        self.needs: dict[int, np.ndarray] = {}
        # the bodies' known orders (territory_tails): each body cell's index in its snake's
        # order from its tail at the root (-1: unknown) and the snake (0: ours); a head placed
        # by the search takes the next index where the whole order is known. Python arrays,
        # fast to write from Python, under the numpy views the features read; with ``tails``
        # False territory_tails is not computed and no order is kept.
        n = len(self.cells) if tails else 0
        self.places = array("q", [-1]) * n
        self.sides = array("q", [0]) * n
        self.place = np.frombuffer(self.places, dtype=np.int64) if n else NO_STEPS
        self.side = np.frombuffer(self.sides, dtype=np.int64) if n else NO_STEPS
        known = [pos.my_tail, pos.tails()[0] if len(pos.opps) == 1 else ()]
        heads = [pos.me, int(pos.opps[0])]
        self.root_tails = [len(t) for t in known]
        self.next = [-1, -1]  # the index of a snake's first head placed by the search
        for who, cells in enumerate(known if tails else ()):
            for k, c in enumerate(cells):
                self.places[c], self.sides[c] = k, who
            if len(cells) == pos.length - 1 and (who == 0 or len(pos.opps) == 1):
                self.places[heads[who]], self.sides[heads[who]] = len(cells), who
                self.next[who] = len(cells) + 1
        self.moved = [0, 0]
        self.pops_now = array("q", [0, 0])
        self.popped = np.frombuffer(self.pops_now, dtype=np.int64)
        self.exits = order == "exits"
        self.nodes = nodes  # counted on from earlier iterations of a budgeted search
        self.limit = limit  # 0: none; else _OutOfNodes once the count passes it
        self.leaves = leaves  # 0: none; else every node past this count is a leaf

    def step(self, deeper: bool) -> bool:
        """Count one node (a joint step: our move and the opponent's reply); a budgeted
        iteration is abandoned where the count has reached its limit and the step would go a
        turn deeper (a leaf below it is still valued). True where the ``leaves`` count is
        reached: the node is valued as a leaf."""
        self.nodes += 1
        if deeper and self.limit and self.nodes >= self.limit:
            raise _OutOfNodes
        return bool(self.leaves) and self.nodes >= self.leaves

    def free_exits(self, cell: int) -> int:
        """Free cells next to ``cell`` (-1 where ``cell`` itself is not free: a wall cell may
        lie on the grid's border)."""
        cells = self.cells
        if cells[cell] != FREE:
            return -1
        up, right, down, left = self.deltas
        return ((cells[cell + up] == FREE) + (cells[cell + right] == FREE)
                + (cells[cell + down] == FREE) + (cells[cell + left] == FREE))

    def exit_order(self, head: int) -> list[int]:
        """The directions from ``head``, the cell with the most free neighbours first (stable:
        ``up``'s order among equals)."""
        key = [-self.free_exits(head + dd) for dd in self.deltas]
        return sorted(range(4), key=key.__getitem__)

    def dirs(self, head: int) -> range | list[int]:
        """The directions from ``head`` in the search's child order."""
        return self.exit_order(head) if self.exits else range(4)

    def need(self, turn: int) -> np.ndarray:
        """From a leaf in ``turn``: the step (1 = the next turn) by which the ``k + 1``-th tail
        cell of a snake has left, for each ``k`` (the turns whose start pops a tail)."""
        got = self.needs.get(turn)
        if got is None:
            got = np.array([d for d in range(1, len(self.pop) - turn) if self.pop[turn + d]],
                           dtype=np.int64)
            self.needs[turn] = got
        return got

    def put(self, cell: int, who: int) -> tuple[int, int]:
        """Snake ``who``'s head onto ``cell`` (the grid is the caller's): its place in the
        order; returns the cell's old place and snake for :meth:`take`."""
        places, sides = self.places, self.sides
        old = places[cell], sides[cell]
        nxt = self.next[who]
        places[cell] = nxt + self.moved[who] if nxt >= 0 else -1
        sides[cell] = who
        self.moved[who] += 1
        return old

    def take(self, cell: int, who: int, old: tuple[int, int]) -> None:
        """Undo :meth:`put`."""
        self.moved[who] -= 1
        self.places[cell], self.sides[cell] = old

    def leaf(self, me: int, opps: list[Opp], tail: tuple[int, ...], turn: int
             ) -> tuple[float, np.ndarray]:
        """The evaluation of a leaf in ``turn`` with our head at ``me`` (on the grid) and our
        known ``tail``, and its features."""
        f = np.zeros(len(self.w), dtype=np.float64)
        if len(opps) == 1:
            heads = self.one_head
            heads[0] = opps[0][0]
            self.pops_now[1] = self.root_tails[1] - len(opps[0][1])
        else:
            heads = np.array([o for o, _ in opps], dtype=np.int64)
        self.pops_now[0] = self.root_tails[0] - len(tail)
        features_into(self.grid, self.stride, np.int64(me), heads, self.place, self.side,
                      self.popped, self.need(turn) if self.tails else NO_STEPS, self.tails, f)
        return float(self.w @ f), f

    def begin(self, turn: int, tail: tuple[int, ...], opps: list[Opp]
              ) -> tuple[tuple[int, ...], list[Opp], bool, list[int]]:
        """The start of ``turn``: the tails that leave (ours if known; the opponent's if it has
        a single candidate, else at its own ply); (our tail, the opponent, whether its tail was
        handled, the cells freed)."""
        freed: list[int] = []
        done = False
        if self.pop[turn]:
            if tail:
                freed.append(tail[0])
                tail = tail[1:]
            if len(opps) == 1:
                done = True
                o, t = opps[0]
                if t:
                    freed.append(t[0])
                    opps = [(o, t[1:])]
        for c in freed:
            self.cells[c] = FREE
        return tail, opps, done, freed

    def restore(self, freed: list[int]) -> None:
        for c in freed:
            self.cells[c] = BODY

    def ours(self, me: int, tail: tuple[int, ...], opps: list[Opp], depth: int, turn: int,
             alpha: float, beta: float) -> tuple[float, np.ndarray | None]:
        """Our ply (max) at the start of ``turn``, ``depth >= 1`` plies left."""
        tail, opps, done, freed = self.begin(turn, tail, opps)
        best, leaf = -INF, None
        for d in self.dirs(me):
            v, f = self.after_our_move(me + self.deltas[d], tail, opps, depth, turn, done,
                                       alpha, beta)
            if v > best:
                best, leaf = v, f
                alpha = max(alpha, v)
                if alpha >= beta:
                    break
        self.restore(freed)
        return best, leaf

    def after_our_move(self, to: int, tail: tuple[int, ...], opps: list[Opp], depth: int,
                       turn: int, done: bool, alpha: float = -INF, beta: float = INF
                       ) -> tuple[float, np.ndarray | None]:
        """The value of our head moving to ``to`` with ``depth`` plies left (this one
        included), the turn's tails already handled (the opponent's if ``done``)."""
        if self.cells[to] != FREE:
            return -(TERMINAL + depth), None
        if depth == 1:
            self.cells[to] = BODY
            if self.tails:
                old = self.put(to, 0)
                v, f = self.leaf(to, opps, tail, turn)
                self.take(to, 0, old)
            else:
                v, f = self.leaf(to, opps, tail, turn)
            self.cells[to] = FREE
            return v, f
        return self.theirs(to, tail, opps, depth - 1, turn, done, alpha, beta)

    def theirs(self, me: int, tail: tuple[int, ...], opps: list[Opp], depth: int, turn: int,
               done: bool, alpha: float, beta: float) -> tuple[float, np.ndarray | None]:
        """The opponent's ply (min) after our head moved to ``me`` (not yet on the grid)."""
        best, leaf = INF, None
        for o, t in opps:
            freed = -1
            if self.pop[turn] and not done and t:
                freed, t = t[0], t[1:]
                self.cells[freed] = FREE
            for d in self.dirs(int(o)):
                to = int(o) + self.deltas[d]
                f: np.ndarray | None = None
                if to == me:
                    self.step(False)
                    v = 0.0  # head-on: both die
                elif self.cells[to] != FREE:
                    v = TERMINAL + depth
                else:
                    cut = self.step(depth > 1)
                    self.cells[me] = BODY
                    self.cells[to] = BODY
                    if self.tails:
                        mine, theirs = self.put(me, 0), self.put(to, 1)
                    nxt = [(to, t)]
                    if depth == 1 or cut:
                        v, f = self.leaf(me, nxt, tail, turn)
                    else:
                        v, f = self.ours(me, tail, nxt, depth - 1, turn + 1, alpha, beta)
                    if self.tails:
                        self.take(to, 1, theirs)
                        self.take(me, 0, mine)
                    self.cells[me] = FREE
                    self.cells[to] = FREE
                if v < best:
                    best, leaf = v, f
                    beta = min(beta, v)
                    if alpha >= beta:
                        if freed >= 0:
                            self.cells[freed] = BODY
                        return best, leaf
            if freed >= 0:
                self.cells[freed] = BODY
        return best, leaf


def _opps(pos: SnakePosition) -> list[Opp]:
    return [(int(o), tuple(int(c) for c in t)) for o, t in zip(pos.opps, pos.tails(),
                                                                strict=True)]


def legal_directions(pos: SnakePosition, phase: int = -1) -> list[int]:
    """Directions onto a free cell (or a tail cell that leaves this turn under tail rule
    ``phase``), or all four when there is none (any answer dies)."""
    s = _Searcher(pos, np.zeros(num_features()), phase, 1)
    _, _, _, freed = s.begin(0, pos.my_tail, _opps(pos))
    free = [d for d, dd in enumerate(pos.deltas()) if s.cells[pos.me + dd] == FREE]
    return free or [0, 1, 2, 3]


RootValues = tuple[list[tuple[int, float, np.ndarray | None]], dict[int, int]]
"""Each root direction's exact value and PV leaf features, and each direction's place in the
``exits`` root order (the ``exits`` tie rule's ranks)."""


def _root_values(pos: SnakePosition, s: _Searcher, root: list[int], depth: int,
                 bounded: bool = False) -> RootValues:
    """Each root direction's value at ``depth`` plies and its PV leaf's features, and the
    ``exits`` order of the root's directions (on the grid the turn's tails have left). The
    values are exact; with ``bounded`` (an iteration of the budgeted search) each move is
    searched with the best value so far as its lower bound (fail-soft), so only the best one's
    is exact and the others' are upper bounds."""
    tail, opps, done, freed = s.begin(0, pos.my_tail, _opps(pos))
    place = {d: k for k, d in enumerate(s.exit_order(pos.me))}
    out, best = [], -INF
    for d in root:
        v, f = s.after_our_move(pos.me + pos.deltas()[d], tail, opps, depth, 0, done,
                                best if bounded else -INF, INF)
        out.append((d, v, f))
        best = max(best, v)
    s.restore(freed)
    return out, place


def _budgeted(pos: SnakePosition, w: np.ndarray, root: list[int], cap: int, phase: int,
              order: str, budget: int, tails: bool = True) -> tuple[RootValues, int, int]:
    """The textbook budgeted search (module doc): iterations a whole turn deeper each, up to
    ``cap`` plies, within ``budget`` joint steps counted over all of them; the last complete
    iteration answers. Returns each root move's exact value at that iteration's depth (a
    search with full windows, not counted), the root order that iteration searched in (the
    ``exits`` tie rule's ranks: its first best move is the search's choice), the depth and
    the nodes spent."""
    nodes, kept, seq = 0, None, list(root)
    for depth in range(2, max(cap, 2) + 1, 2):
        s = _Searcher(pos, w, phase, depth, order, nodes, budget if kept is not None else 0,
                      tails=tails)
        try:
            vals = {d: v for d, v, _ in _root_values(pos, s, seq, depth, bounded=True)[0]}
        except _OutOfNodes:
            nodes = s.nodes
            break
        nodes, kept = s.nodes, (depth, list(seq))
        if abs(max(vals.values())) >= TERMINAL / 2 or nodes >= budget:
            break  # a forced result, or the budget is spent
        seq = sorted(seq, key=lambda d: -vals[d])  # stable: the best first
    depth, seq = kept  # type: ignore[misc]  # the first iteration always completes
    exact = _Searcher(pos, w, phase, depth, order, tails=tails)
    out, _ = _root_values(pos, exact, root, depth)
    return (out, {d: k for k, d in enumerate(seq)}), depth, nodes


def _leaves(pos: SnakePosition, w: np.ndarray, root: list[int], depth: int, phase: int,
            order: str, budget: int, tails: bool = True) -> tuple[RootValues, int, int]:
    """The ``leaves`` budget (module doc): one search ``depth`` plies deep, the root moves in
    direction order each bounded by the best so far, children in ``order``, every node past
    ``budget`` joint steps valued as a leaf. Returns each root move's value (exact for the
    first best, an upper bound for the others), the root order searched (the ``exits`` tie
    rule's ranks), the depth and the nodes spent."""
    s = _Searcher(pos, w, phase, depth, order, leaves=budget, tails=tails)
    out, _ = _root_values(pos, s, root, depth, bounded=True)
    return (out, {d: k for k, d in enumerate(root)}), depth, s.nodes


def search_all(positions: Sequence[SnakePosition], w: np.ndarray, depth: int,
               roots: Sequence[Sequence[int]] | None = None, phase: int = -1,
               budget: int = 0, order: str = "natural", kind: str = "deepen",
               features: bool = True) -> SearchResults:
    """Search every position to ``depth`` plies with weights ``w`` (``budget > 0``: a node
    budget of ``kind``, :data:`BUDGET_KINDS`, ``depth`` the deepest search, children in
    ``order``; module doc): each root move's exact value (``roots[i]``: the directions
    searched, ascending; else :func:`legal_directions`; with the ``leaves`` budget the first
    best one's, bounds for the others), its PV leaf's features (0 where the PV ends the game),
    whether it does, and its rank in the root order (the ``exits`` tie rule's). ``features``
    False: only the values and moves are wanted, so a feature weighed 0 may read 0 at the
    leaves (``territory_tails`` is then not computed: it costs as much as the others)."""
    if depth < 1:
        raise ValueError(f"depth must be >= 1, got {depth}")
    if budget < 0:
        raise ValueError(f"budget must be >= 0, got {budget}")
    if order not in ORDERS:
        raise ValueError(f"order must be one of {ORDERS}, got {order!r}")
    if kind not in BUDGET_KINDS:
        raise ValueError(f"budget kind must be one of {BUDGET_KINDS}, got {kind!r}")
    w = np.ascontiguousarray(w, dtype=np.float64)
    if len(w) != num_features():
        raise ValueError(f"{len(w)} weights for {num_features()} features")
    tails = features or w[TAILS] != 0
    counts, dirs, vals, feats, term, nodes, depths, ranks = [], [], [], [], [], [], [], []
    for i, pos in enumerate(positions):
        root = sorted(set(int(d) for d in roots[i])) if roots is not None \
            else legal_directions(pos, phase)
        if not root:
            raise ValueError(f"position {i} has no root move")
        if budget and kind == "leaves":
            (out, place), reached, spent = _leaves(pos, w, root, depth, phase, order, budget,
                                                   tails)
        elif budget:
            (out, place), reached, spent = _budgeted(pos, w, root, depth, phase, order, budget,
                                                     tails)
        else:
            s = _Searcher(pos, w, phase, depth, order, tails=tails)
            (out, place), reached, spent = _root_values(pos, s, root, depth), depth, s.nodes
        for d, v, f in out:
            dirs.append(d)
            vals.append(v)
            term.append(f is None)
            feats.append(np.zeros(len(w)) if f is None else f)
            ranks.append(place[d])
        counts.append(len(root))
        nodes.append(spent)
        depths.append(reached)
    off = np.concatenate([[0], np.cumsum(counts)]).astype(np.int64)
    m = int(off[-1])
    return SearchResults(off, np.asarray(dirs, dtype=np.int64), np.asarray(vals, dtype=np.float64),
                         np.asarray(feats, dtype=np.float64).reshape(m, len(w)),
                         np.asarray(term, dtype=bool), np.asarray(nodes, dtype=np.int64),
                         np.ones(m, dtype=bool), np.asarray(depths, dtype=np.int64),
                         np.asarray(ranks, dtype=np.int64))
