"""Generic Snake evaluation features and the position the Snake search imitator reads from the
dataset's planes.

Why its own features: the imitator must not read any target's config or code (issue 46), so its
evaluation is a weighted sum of standard, documented Snake quantities, each from *our* (the
deciding snake's) view:

====================  =========================================================================
``territory``         cells we reach strictly first by BFS minus cells the opponent reaches
                      strictly first (Voronoi-style territory difference)
``reach_me``          free cells our head can reach (flood fill)
``reach_opp``         free cells the opponent's head can reach
``mobility_me``       free neighbours of our head
``mobility_opp``      free neighbours of the opponent's head (the most over its candidates)
``head_distance``     Manhattan distance between the heads (the least over the candidates)
``walls_me``          wall or obstacle cells (not snake bodies) next to our head
``walls_opp``         the same for the opponent's head (the least over its candidates)
``near_me``           free cells within 2 steps of our head (BFS): local room
``near_opp``          the same for the opponent's head candidates
``centre_me``         Manhattan distance of our head from the board's centre
``centre_opp``        the same for the opponent's head (the least over its candidates)
``territory_tails``   ``territory`` where the bodies move on: a body cell whose place from its
                      snake's tail is known may be entered from the step at which the tails
                      have left it (the growth rule's turns), a head waiting in its room until
                      then (tail-aware Voronoi; :func:`_arrivals`)
====================  =========================================================================

Both snakes always have the same length in this game (they grow on the same turns), so length is
not a feature.

**What the planes give** (:mod:`ime.games.snake.encode`, ``pad`` or ``ego``): our head, our
body, the opponent's whole snake and the obstacles (and the off-board cells), but neither the
bodies' order nor the opponent's head nor the turn. The rules give more (:func:`snake_orders`):

* a snake is a path of neighbouring cells from its head to its tail, so a body's order is known
  where every such path through its cells agrees (:func:`_ends` enumerates them, up to
  :data:`PATH_STEPS` steps); ours starts at our head;
* the heads start on (1, 1) and (height, width) and both move one cell a turn, so the opponent's
  head is on our head's chessboard colour plus ``(height + width) % 2`` (the judge's boards have
  ``height + width`` odd): with an even length, only one end of its path qualifies;
* the snakes grow on each of the first 10 turns, so while they have at most 11 cells the tails
  are still on the start corners: the opponent's corner cell is its tail;
* the length (both snakes always have the same) gives the turn: ``length - 1`` up to 10 cells,
  then one of three turns (:func:`ime.imitators.snake_search.root_turn`).

Beyond the thesis's planes, the encoder's options give the rest where a run turns them on: the
opponent's head (``game.params.opponent_head``: its only candidate) and the turn
(``game.params.turn_plane``: :attr:`SnakePosition.turn`, so no tail rule has to guess it).

So a :class:`SnakePosition` keeps a grid of ``FREE`` / ``WALL`` (border, obstacle, off the
board) / ``BODY`` cells, our head, our tail's known order, the opponent's *head candidates*
(the ends of its paths the rules allow; one in most positions) with each one's known tail order,
the length and, where known, the turn. The search lets the opponent move from any candidate
(paranoid) and removes the known tails on the turns the growth rule says
(:mod:`ime.imitators.snake_search`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
from numba import njit

from ime.games.snake.encode import TURN_CAP

FEATURES = ("territory", "reach_me", "reach_opp", "mobility_me", "mobility_opp",
            "head_distance", "walls_me", "walls_opp", "near_me", "near_opp", "centre_me",
            "centre_opp", "territory_tails")
FREE, WALL, BODY = 0, 1, 2


TAILS = FEATURES.index("territory_tails")
"""``territory_tails``'s column: the one feature a search may skip where its weight is 0 and no
leaf's features are wanted (it costs as much as all the others)."""


def num_features() -> int:
    return len(FEATURES)


def feature_names() -> list[str]:
    return list(FEATURES)


TAIL_KEEP = 3
"""Cells of a tail's order kept (the tail first): a search of up to 6 plies (3 turns) pops at
most 3 cells a snake."""
PATH_STEPS = 20_000
"""Steps of the path enumeration (a depth-first search) a snake may take before its order is
given up as unknown."""


@dataclass
class SnakePosition:
    """A position as the search sees it: the padded grid (flat, ``stride`` a row), our head's
    cell and the opponent's head candidates (flat cells); ``my_tail`` and ``opp_tails[k]``
    (candidate ``k``'s): the last cells of the body's order known for certain, the tail first
    (empty: unknown); ``length``: our snake's cells (both snakes always have the same);
    ``turn``: the turn being decided where the planes show it (the ``turn_plane``), else -1 (the
    search then reads it from the length under its tail rule)."""

    grid: np.ndarray  # int8[(rows + 2) * (cols + 2)]: FREE, WALL, BODY
    stride: int
    me: int
    opps: np.ndarray  # int64[k >= 1]
    my_tail: tuple[int, ...] = ()
    opp_tails: tuple[tuple[int, ...], ...] = ()
    length: int = 0
    turn: int = -1

    def deltas(self) -> tuple[int, int, int, int]:
        """Flat offsets of directions 0 = x-1 (up), 1 = y+1, 2 = x+1, 3 = y-1."""
        return (-self.stride, 1, self.stride, -1)

    def tails(self) -> tuple[tuple[int, ...], ...]:
        """``opp_tails``, or no known tail for every candidate."""
        return self.opp_tails or tuple(() for _ in self.opps)


class _OutOfSteps(Exception):
    pass


class _Diverged(Exception):
    pass


def _ends(cells: set[int], start: int, stride: int, budget: list[int], one_end: bool = False
          ) -> list[tuple[tuple[int, ...], tuple[int, ...]]]:
    """Every path through all of ``cells`` (4-neighbours) from ``start``, each as (its first
    ``TAIL_KEEP`` cells after ``start``, its last ``TAIL_KEEP`` cells reversed, the end first);
    raises :class:`_OutOfSteps` when ``budget[0]`` steps are spent. ``one_end``: stop at the
    first path that ends elsewhere than the first (the caller wants the order common to all
    from the end, which is then empty)."""
    deltas = (-stride, 1, stride, -1)
    nbrs = {c: [c + d for d in deltas if c + d in cells] for c in cells}
    n = len(cells)
    path = [start]
    seen = {start}
    out: list[tuple[tuple[int, ...], tuple[int, ...]]] = []

    def walk(c: int) -> None:
        budget[0] -= 1
        if budget[0] < 0:
            raise _OutOfSteps
        if len(path) == n:
            out.append((tuple(path[1:1 + TAIL_KEEP]), tuple(path[:0:-1][:TAIL_KEEP])))
            if one_end and path[-1] != out[0][1][0]:
                raise _Diverged
            return
        for x in nbrs[c]:
            if x in seen:
                continue
            # a cell left beside ``c`` with no unvisited neighbour can only be the path's end,
            # so it must be next to ``x`` (or be ``x``)
            dead = False
            for u in nbrs[c]:
                if u != x and u not in seen and u not in nbrs[x] and \
                        all(v in seen or v == x for v in nbrs[u]):
                    dead = True
                    break
            if dead:
                continue
            seen.add(x)
            path.append(x)
            walk(x)
            path.pop()
            seen.remove(x)

    try:
        walk(start)
    except _Diverged:
        pass
    return out


def _common(seqs: list[tuple[int, ...]]) -> tuple[int, ...]:
    """The longest common prefix of ``seqs`` (empty for none)."""
    if not seqs:
        return ()
    first = seqs[0]
    k = 0
    while k < len(first) and all(len(s) > k and s[k] == first[k] for s in seqs):
        k += 1
    return first[:k]


def _known_tail(cells: set[int], head: int, stride: int) -> tuple[int, ...]:
    """The last cells of a snake's order from ``head`` that every path through ``cells``
    agrees on, the tail first (empty: unknown, or a snake of one cell)."""
    if len(cells) <= 1:
        return ()
    try:
        return _common([t for _, t in _ends(cells, head, stride, [PATH_STEPS], True)])
    except _OutOfSteps:
        return ()


def snake_orders(own: set[int], me: int, opp: set[int], stride: int, shift: int | None = None,
                 corners: tuple[int, ...] = (), head: int | None = None
                 ) -> tuple[tuple[int, ...], np.ndarray, tuple[tuple[int, ...], ...]]:
    """Our tail's known order, the opponent's head candidates and each one's known tail order,
    from the snakes' cells: a snake is a path of 4-neighbour cells from its head to its tail,
    so its order is known where every such path through its cells agrees. Our paths start at
    our head; the opponent's head is an end of some path (a cell with a single neighbour of its
    own must be one) whose colour on the chessboard is ours plus ``shift`` (the snakes start on
    cells (1, 1) and (height, width) and both heads move one cell a turn, so ``shift`` is
    ``(height + width) % 2``; ``None``: not used). ``corners``: the start cells (1, 1) and
    (height, width); while the snakes have at most 11 cells no tail has moved yet (they grow on
    each of the first 10 turns), so the opponent's cell among them is its tail. Without an answer
    within :data:`PATH_STEPS` steps: no tail known, and the opponent's candidates are its cells
    with the fewest neighbours of its own. ``head``: the opponent's head where the planes
    show it (the ``opponent_head`` plane): its only candidate, its tail read as ours is."""
    my_tail = _known_tail(own, me, stride)
    if head is not None:
        return my_tail, np.array([head], dtype=np.int64), (_known_tail(opp, head, stride),)
    deltas = (-stride, 1, stride, -1)
    degree = {c: sum(c + d in opp for d in deltas) for c in opp}

    def colour_ok(c: int) -> bool:
        return shift is None or (c // stride + c % stride + me // stride + me % stride
                                 + shift) % 2 == 0

    if len(opp) == 1:
        return my_tail, np.array(sorted(opp), dtype=np.int64), ((),)
    ones = sorted(c for c in opp if degree[c] <= 1)
    starts = ones[:1] if ones else sorted(c for c in opp if colour_ok(c)) or sorted(opp)
    fixed = [c for c in corners if c in opp] if len(opp) <= 11 else []
    if len(fixed) == 1:
        starts = fixed  # the tail: the head is a path's other end
    budget = [PATH_STEPS]
    heads: dict[int, list[tuple[int, ...]]] = {}
    try:
        for s in starts:
            for front, back in _ends(opp, s, stride, budget):
                if len(fixed) != 1:
                    heads.setdefault(s, []).append(back)
                heads.setdefault(back[0], []).append((s, *front)[:min(TAIL_KEEP,
                                                                      len(opp) - 1)])
    except _OutOfSteps:
        heads = {}
    if not heads:
        low = min(degree.values())
        cands = sorted(c for c in opp if degree[c] == low)
        cands = [c for c in cands if colour_ok(c)] or cands
        return my_tail, np.array(cands, dtype=np.int64), tuple(() for _ in cands)
    cands = sorted(c for c in heads if colour_ok(c)) or sorted(heads)
    return my_tail, np.array(cands, dtype=np.int64), tuple(_common(heads[c]) for c in cands)


def planes_to_positions(planes: np.ndarray, rules: bool = True, opponent_head: bool = False,
                        turn_plane: bool = False, order_plane: bool = False
                        ) -> list[SnakePosition]:
    """``[N, C >= 4, rows, cols]`` planes (own head, own body, opponent, obstacles, the
    off-board plane if any, then as the encoder's options say a plane with the opponent's head,
    one holding the turn and one with the bodies' order: :mod:`ime.games.snake.encode`) -> the
    search's positions (see the module doc); ``rules``: use the chessboard colour and the start
    corners for the opponent's head (``False``: any end of its paths). With the order plane
    both bodies' whole orders are known, and the opponent's head."""
    raw = np.asarray(planes)
    p = raw > 0.5
    extra = int(opponent_head) + int(turn_plane) + int(order_plane)
    if p.ndim != 4 or p.shape[1] < 4 + extra:
        what = " and ".join(x for x, on in (("the opponent head plane", opponent_head),
                                             ("the turn plane", turn_plane),
                                             ("the order plane", order_plane)) if on)
        raise ValueError(f"Snake's search imitator reads [N, C>={4 + extra}, H, W] "
                         f"planes{' with ' + what if what else ''}, got {tuple(p.shape)}")
    n, c, h, w = p.shape
    heads_plane = p[:, -extra] if opponent_head else None
    turns = (raw[:, -1 - order_plane].reshape(n, -1).max(axis=1).astype(np.int64) if turn_plane
             else np.full(n, -1, dtype=np.int64))
    places = raw[:, -1].astype(np.int64) if order_plane else None
    turns[turns >= TURN_CAP] = -1  # "this turn or later": unknown
    c -= extra  # the planes before the extra ones
    stride = w + 2
    out = []
    for i in range(n):
        grid = np.full((h + 2, w + 2), WALL, dtype=np.int8)
        inner = np.full((h, w), FREE, dtype=np.int8)
        inner[p[i, 3]] = WALL
        if c > 4:
            inner[p[i, 4]] = WALL
        inner[p[i, 0] | p[i, 1] | p[i, 2]] = BODY
        grid[1:h + 1, 1:w + 1] = inner
        heads = np.argwhere(p[i, 0])
        if len(heads) != 1:
            raise ValueError(f"row {i}: {len(heads)} own heads in plane 0 (one expected)")
        me = int((heads[0, 0] + 1) * stride + heads[0, 1] + 1)
        opp = np.zeros((h + 2, w + 2), dtype=bool)
        opp[1:h + 1, 1:w + 1] = p[i, 2]
        cells = np.flatnonzero(opp.ravel())
        if len(cells) == 0:
            raise ValueError(f"row {i}: no opponent snake in plane 2")
        mine = np.zeros((h + 2, w + 2), dtype=bool)
        mine[1:h + 1, 1:w + 1] = p[i, 0] | p[i, 1]
        own = {int(x) for x in np.flatnonzero(mine.ravel())}
        on = ~p[i, 4] if c > 4 else np.ones((h, w), dtype=bool)
        shift = int(on.any(axis=1).sum() + on.any(axis=0).sum()) % 2 if rules else None
        rows, cols = np.flatnonzero(on.any(axis=1)), np.flatnonzero(on.any(axis=0))
        corners = ((int(rows[0]) + 1) * stride + int(cols[0]) + 1,
                   (int(rows[-1]) + 1) * stride + int(cols[-1]) + 1) if rules else ()
        head = None
        if heads_plane is not None:
            where = np.argwhere(heads_plane[i])
            if len(where) != 1:
                raise ValueError(f"row {i}: {len(where)} opponent heads in the opponent-head "
                                 "plane (one expected)")
            head = int((where[0, 0] + 1) * stride + where[0, 1] + 1)
        if places is not None:
            my_tail, opps, tails = _ordered(places[i], own, me, {int(x) for x in cells}, stride, i)
        else:
            my_tail, opps, tails = snake_orders(own, me, {int(x) for x in cells}, stride, shift,
                                                corners, head)
        out.append(SnakePosition(grid.ravel(), stride, me, opps, my_tail, tails, len(own),
                                 int(turns[i])))
    return out


def _ordered(place: np.ndarray, own: set[int], me: int, opp: set[int], stride: int, row: int
             ) -> tuple[tuple[int, ...], np.ndarray, tuple[tuple[int, ...], ...]]:
    """Our tail's order, the opponent's head and its tail's order from the order plane
    (``place``: ``[rows, cols]``, each snake cell's place from its tail), the tail first."""
    def value(c: int) -> int:
        return int(place[c // stride - 1, c % stride - 1])

    mine = sorted(own, key=value)
    theirs = sorted(opp, key=value)
    if mine[-1] != me or any(value(c) < 1 for c in mine + theirs):
        raise ValueError(f"row {row}: the order plane does not put our head last or leaves a "
                         "snake cell at 0")
    return tuple(mine[:-1]), np.array([theirs[-1]], dtype=np.int64), (tuple(theirs[:-1]),)


@njit(cache=True)
def _bfs(grid, stride, starts, dist, queue):
    """Distances from ``starts`` over FREE cells (-1: unreached); starts get 0."""
    dist[:] = -1
    head, tail = 0, 0
    for s in starts:
        if dist[s] < 0:
            dist[s] = 0
            queue[tail] = s
            tail += 1
    while head < tail:
        c = queue[head]
        head += 1
        for d in (-stride, 1, stride, -1):
            x = c + d
            if grid[x] == 0 and dist[x] < 0:
                dist[x] = dist[c] + 1
                queue[tail] = x
                tail += 1


@njit(cache=True)
def _arrivals(grid, stride, starts, free_at, dist, front, nxt, waiting):
    """The first step at which a head from ``starts`` may stand on each cell (-1: never): a
    FREE cell one step after a neighbour, a body cell with a release step (``free_at >= 0``)
    no earlier than that step (the head waits in its room until the tail has left it). A
    breadth-first search by steps; a body cell first touched before its release waits in
    ``waiting`` until its step comes (the first touch gives its earliest step)."""
    dist[:] = -1
    nf = 0
    for s in starts:
        if dist[s] < 0:
            dist[s] = 0
            front[nf] = s
            nf += 1
    nw = 0
    t = 0
    while nf > 0 or nw > 0:
        nn = 0
        for i in range(nf):
            c = front[i]
            for d in (-stride, 1, stride, -1):
                x = c + d
                if dist[x] != -1:
                    continue
                if grid[x] == 0 or (free_at[x] >= 0 and free_at[x] <= t + 1):
                    dist[x] = t + 1
                    nxt[nn] = x
                    nn += 1
                elif free_at[x] >= 0:
                    dist[x] = -2 - free_at[x]  # waiting for its step (not yet reached)
                    waiting[nw] = x
                    nw += 1
        k = 0
        for i in range(nw):  # the waiting cells whose step is the next one
            x = waiting[i]
            if -2 - dist[x] == t + 1:
                dist[x] = t + 1
                nxt[nn] = x
                nn += 1
            else:
                waiting[k] = x
                k += 1
        nw = k
        front, nxt = nxt, front
        nf = nn
        t += 1


@njit(cache=True)
def _territory_tails(grid, stride, me, opps, place, side, popped, need, dm, do, queue):
    """The ``territory_tails`` feature: cells our head may reach strictly first minus the
    opponent's, where a body cell ``c`` with a known place (``place[c] >= 0``: its index in
    snake ``side[c]``'s order from the tail, of which ``popped[side[c]]`` cells have left) may
    be entered from step ``need[place[c] - popped[side[c]]]`` (never past ``need``'s end)."""
    n = grid.shape[0]
    free_at = np.full(n, -1, np.int64)
    for c in range(n):
        if grid[c] != 0 and place[c] >= 0:
            k = place[c] - popped[side[c]]
            if 0 <= k < need.shape[0]:
                free_at[c] = need[k]
    free_at[me] = -1  # the heads are where the races start, never a cell either wins
    for o in opps:
        free_at[o] = -1
    nxt = np.empty(n, np.int64)
    waiting = np.empty(n, np.int64)
    _arrivals(grid, stride, np.array([me], np.int64), free_at, dm, queue, nxt, waiting)
    _arrivals(grid, stride, opps, free_at, do, queue, nxt, waiting)
    terr = 0
    for c in range(n):
        if grid[c] != 0 and free_at[c] < 0:
            continue
        a, b = dm[c], do[c]
        if a >= 0 and (b < 0 or a < b):
            terr += 1
        elif b >= 0 and (a < 0 or b < a):
            terr -= 1
    return terr


@njit(cache=True)
def features_into(grid, stride, me, opps, place, side, popped, need, tails, out):
    """The feature vector (:data:`FEATURES`) of ``grid`` with our head at ``me`` and the
    opponent's head candidates ``opps`` into ``out``; ``place``, ``side``, ``popped`` and
    ``need``: the bodies' known orders and when their cells leave (:func:`_territory_tails`;
    ``tails`` False: not computed, 0)."""
    n = grid.shape[0]
    dm = np.empty(n, np.int64)
    do = np.empty(n, np.int64)
    queue = np.empty(n, np.int64)
    out[TAILS] = (_territory_tails(grid, stride, me, opps, place, side, popped, need, dm, do,
                                   queue) if tails else 0.0)
    _bfs(grid, stride, np.array([me], np.int64), dm, queue)
    _bfs(grid, stride, opps, do, queue)
    terr, rm, ro, nm, no = 0, 0, 0, 0, 0
    for c in range(n):
        if grid[c] != 0:
            continue
        a, b = dm[c], do[c]
        if a >= 0:
            rm += 1
            if a <= 2:
                nm += 1
        if b >= 0:
            ro += 1
            if b <= 2:
                no += 1
        if a >= 0 and (b < 0 or a < b):
            terr += 1
        elif b >= 0 and (a < 0 or b < a):
            terr -= 1
    mob_me, walls_me = 0, 0
    for d in (-stride, 1, stride, -1):
        if grid[me + d] == 0:
            mob_me += 1
        elif grid[me + d] == 1:
            walls_me += 1
    mob_opp, walls_opp, dist, cen_opp = 0, 4, 1 << 30, 1 << 30
    cx2, cy2 = n // stride - 1, stride - 1  # twice the centre's padded coordinates
    cen_me = abs(2 * (me // stride) - cx2) + abs(2 * (me % stride) - cy2)
    for o in opps:
        mo, wo = 0, 0
        for d in (-stride, 1, stride, -1):
            if grid[o + d] == 0:
                mo += 1
            elif grid[o + d] == 1:
                wo += 1
        mob_opp = max(mob_opp, mo)
        walls_opp = min(walls_opp, wo)
        dist = min(dist, abs(o // stride - me // stride) + abs(o % stride - me % stride))
        cen_opp = min(cen_opp, abs(2 * (o // stride) - cx2) + abs(2 * (o % stride) - cy2))
    out[0] = terr
    out[1] = rm
    out[2] = ro
    out[3] = mob_me
    out[4] = mob_opp
    out[5] = dist
    out[6] = walls_me
    out[7] = walls_opp
    out[8] = nm
    out[9] = no
    out[10] = cen_me / 2.0
    out[11] = cen_opp / 2.0


def features(grid: np.ndarray, stride: int, me: int, opps: np.ndarray,
             mine: Sequence[int] = (), theirs: Sequence[int] = (), need: Sequence[int] = ()
             ) -> np.ndarray:
    """:func:`features_into` as a new array; ``mine`` and ``theirs``: the body cells whose order
    is known, each snake's from its tail, and ``need[k]``: the step from which the ``k``-th of
    either may be entered."""
    grid = np.asarray(grid)
    place = np.full(len(grid), -1, dtype=np.int64)
    side = np.zeros(len(grid), dtype=np.int64)
    for s, cells in enumerate((mine, theirs)):
        for k, c in enumerate(cells):
            place[c], side[c] = k, s
    out = np.zeros(len(FEATURES), dtype=np.float64)
    features_into(grid, np.int64(stride), np.int64(me), np.asarray(opps, dtype=np.int64), place,
                  side, np.zeros(2, dtype=np.int64), np.asarray(need, dtype=np.int64), True,
                  out)
    return out
