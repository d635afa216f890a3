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
====================  =========================================================================

Both snakes always have the same length in this game (they grow on the same turns), so length is
not a feature.

**What the planes give** (:mod:`ime.games.snake.encode`, ``pad`` or ``ego``): our head, our
body, the opponent's whole snake and the obstacles (and the off-board cells), but neither the
bodies' order nor the opponent's head nor the turn. So a :class:`SnakePosition` keeps a grid of
``FREE`` / ``WALL`` (border, obstacle, off the board) / ``BODY`` cells, our head, and the
opponent's *head candidates*: the ends of its body's path (its cells with the fewest neighbours
of its own, at most 1 for an unfolded snake). The search lets the opponent move from any of
them (paranoid), and bodies stay where they are (tails are not removed in the search).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numba import njit

FEATURES = ("territory", "reach_me", "reach_opp", "mobility_me", "mobility_opp",
            "head_distance", "walls_me", "walls_opp", "near_me", "near_opp", "centre_me",
            "centre_opp")
FREE, WALL, BODY = 0, 1, 2


def num_features() -> int:
    return len(FEATURES)


def feature_names() -> list[str]:
    return list(FEATURES)


@dataclass
class SnakePosition:
    """A position as the search sees it: the padded grid (flat, ``stride`` a row), our head's
    cell and the opponent's head candidates (flat cells)."""

    grid: np.ndarray  # int8[(rows + 2) * (cols + 2)]: FREE, WALL, BODY
    stride: int
    me: int
    opps: np.ndarray  # int64[k >= 1]

    def deltas(self) -> tuple[int, int, int, int]:
        """Flat offsets of directions 0 = x-1 (up), 1 = y+1, 2 = x+1, 3 = y-1."""
        return (-self.stride, 1, self.stride, -1)


def planes_to_positions(planes: np.ndarray) -> list[SnakePosition]:
    """``[N, C >= 4, rows, cols]`` planes (own head, own body, opponent, obstacles, and the
    off-board plane if any) -> the search's positions (see the module doc)."""
    p = np.asarray(planes) > 0.5
    if p.ndim != 4 or p.shape[1] < 4:
        raise ValueError(f"Snake's search imitator reads [N, C>=4, H, W] planes, got "
                         f"{tuple(p.shape)}")
    n, c, h, w = p.shape
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
        flat = opp.ravel()
        own = np.array([sum(bool(flat[x + d]) for d in (-stride, 1, stride, -1))
                        for x in cells])
        out.append(SnakePosition(grid.ravel(), stride, me, cells[own == own.min()]))
    return out


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
def features_into(grid, stride, me, opps, out):
    """The feature vector (:data:`FEATURES`) of ``grid`` with our head at ``me`` and the
    opponent's head candidates ``opps`` into ``out``."""
    n = grid.shape[0]
    dm = np.empty(n, np.int64)
    do = np.empty(n, np.int64)
    queue = np.empty(n, np.int64)
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


def features(grid: np.ndarray, stride: int, me: int, opps: np.ndarray) -> np.ndarray:
    """:func:`features_into` as a new array."""
    out = np.zeros(len(FEATURES), dtype=np.float64)
    features_into(grid, np.int64(stride), np.int64(me), np.asarray(opps, dtype=np.int64), out)
    return out
