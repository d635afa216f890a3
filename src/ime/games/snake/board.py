"""Snake kernels (numba): Botzone's ``Snake.cpp`` judge as array operations.

Everything a search needs lives in one fixed-size ``int32`` *state vector* ``S`` (any board of
the judge, up to 16 x 12, has the same layout), so a search copies a position with
``S.copy()`` and every kernel has one numba signature:

=================  ===========================================================================
``S[I_STRIDE]``    ``width + 2`` (the padded row length)
``S[I_H]``         height ``n`` (rows, ``x`` = 1..n)
``S[I_W]``         width ``m`` (columns, ``y`` = 1..m)
``S[I_PLY]``       turns played (``t`` of the growth rule for the next turn)
``S[I_START+p]``   ring index of snake ``p``'s tail in its body ring
``S[I_LEN+p]``     length of snake ``p``
``S[I_DEAD]``      dead snakes: bit 0 = snake 0, bit 1 = snake 1 (0 while the game runs)
``S[OFF_BODY..]``  two rings of ``CAP`` flat cells, tail first: segment ``k`` (0 = tail) of
                   snake ``p`` is ``S[OFF_BODY + p*CAP + ((start + k) & RING)]``; the head is
                   segment ``len - 1``
``S[OFF_CELLS..]`` the padded grid, cell ``(x, y)`` at ``OFF_CELLS + x * stride + y`` with
                   ``x`` in 0..n+1, ``y`` in 0..m+1: ``EMPTY``, ``BORDER`` (the padding),
                   ``OBSTACLE``, ``SNAKE0``, ``SNAKE1``
=================  ===========================================================================

A *cell* in the kernels is the flat index ``x * stride + y`` (not offset by ``OFF_CELLS``).
Directions (the judge's ``dx``/``dy``): 0 = ``x - 1``, 1 = ``y + 1``, 2 = ``x + 1``,
3 = ``y - 1``.

The rules of one turn (:func:`step`), as ``Snake.cpp`` plays them:

1. On turn ``t`` (0-based) a snake grows if ``t <= 9`` or ``(t - 9) % 3 == 0``; otherwise both
   tails are removed *before* any head moves (a head may enter a just-vacated tail cell).
2. Snake 0 moves: a direction outside 0..3, or a target off the board, on an obstacle or on any
   body, kills it (it does not move).
3. Snake 1: if its target is snake 0's head *now* (the new head if snake 0 moved), both die.
   Otherwise the same test as snake 0, against the bodies after snake 0's move.
4. Scores: one dead -> 2/0 for the other, both dead -> 1/1.

The board generator reproduces the judge's draws exactly: glibc's ``srand``/``rand``
(``random_r.c``, TYPE_3) and the judge's ``Rand(n) = (rand()*rand()*rand() % n + n) % n + 1``
in 32-bit arithmetic, so ``initdata {"seed": s}`` gives the board the judge gives.
"""

from __future__ import annotations

import numpy as np
from numba import njit

CAP = 256
"""Ring capacity per snake: more than the 16 x 12 = 192 cells of the largest board."""
RING = CAP - 1
MAX_H, MAX_W = 16, 12
"""The largest board the judge draws or accepts (height x width)."""
MIN_H, MIN_W = 10, 10

I_STRIDE, I_H, I_W, I_PLY, I_START, I_LEN, I_DEAD = 0, 1, 2, 3, 4, 6, 8
OFF_BODY = 16
OFF_CELLS = OFF_BODY + 2 * CAP
STATE_SIZE = OFF_CELLS + (MAX_H + 2) * (MAX_W + 2)

EMPTY, BORDER, OBSTACLE, SNAKE0, SNAKE1 = 0, 1, 2, 3, 4

DX = (-1, 0, 1, 0)
DY = (0, 1, 0, -1)

NO_OPTION = -(1 << 40)
"""A size option that is not given (any ``int32`` is an option the judge reads)."""

MOVED0, MOVED1 = 4, 8
"""Bits of :func:`step`'s return code (besides the dead mask in bits 0-1): who moved."""

U64 = np.uint64
_GOLDEN = U64(0x9E3779B97F4A7C15)
_MIX1 = U64(0xBF58476D1CE4E5B9)
_MIX2 = U64(0x94D049BB133111EB)


# --- growth and geometry -------------------------------------------------------------------------
@njit(cache=True)
def grows(turn: int) -> bool:
    """Whether the snakes grow on turn ``turn`` (0-based): the judge's ``whetherGrow``."""
    return turn <= 9 or (turn - 9) % 3 == 0


@njit(cache=True)
def delta(d: int, stride: int) -> int:
    """Flat offset of direction ``d`` (0 = x-1, 1 = y+1, 2 = x+1, 3 = y-1)."""
    if d == 0:
        return -stride
    if d == 1:
        return 1
    if d == 2:
        return stride
    return -1


@njit(cache=True)
def new_state(height: int, width: int, obstacles: np.ndarray) -> np.ndarray:
    """The start position: snake 0 at (1, 1), snake 1 at (height, width), ``obstacles`` an
    ``int64[k, 2]`` of ``(x, y)`` (1-based; duplicates allowed, as in the judge)."""
    S = np.zeros(STATE_SIZE, np.int32)
    stride = width + 2
    S[I_STRIDE] = stride
    S[I_H] = height
    S[I_W] = width
    for x in range(height + 2):
        for y in range(width + 2):
            if x == 0 or y == 0 or x == height + 1 or y == width + 1:
                S[OFF_CELLS + x * stride + y] = BORDER
    for k in range(obstacles.shape[0]):
        S[OFF_CELLS + obstacles[k, 0] * stride + obstacles[k, 1]] = OBSTACLE
    push(S, 0, 1 * stride + 1)
    push(S, 1, height * stride + width)
    return S


@njit(cache=True)
def push(S: np.ndarray, p: int, cell: int) -> None:
    """Add ``cell`` as snake ``p``'s new head (no rule checked: for setting up positions)."""
    S[OFF_BODY + p * CAP + ((S[I_START + p] + S[I_LEN + p]) & RING)] = cell
    S[I_LEN + p] += 1
    S[OFF_CELLS + cell] = SNAKE0 + p


@njit(cache=True)
def clear_snake(S: np.ndarray, p: int) -> None:
    """Remove snake ``p`` from the grid and empty its ring (for setting up positions)."""
    while S[I_LEN + p]:
        pop(S, p)
    S[I_START + p] = 0


@njit(cache=True)
def pop(S: np.ndarray, p: int) -> None:
    """Remove snake ``p``'s tail (no rule checked)."""
    cell = S[OFF_BODY + p * CAP + (S[I_START + p] & RING)]
    S[OFF_CELLS + cell] = EMPTY
    S[I_START + p] = (S[I_START + p] + 1) & RING
    S[I_LEN + p] -= 1


@njit(cache=True)
def head(S: np.ndarray, p: int) -> int:
    """Flat cell of snake ``p``'s head."""
    return S[OFF_BODY + p * CAP + ((S[I_START + p] + S[I_LEN + p] - 1) & RING)]


@njit(cache=True)
def tail(S: np.ndarray, p: int) -> int:
    """Flat cell of snake ``p``'s tail (its head when it has length 1)."""
    return S[OFF_BODY + p * CAP + (S[I_START + p] & RING)]


@njit(cache=True)
def segment(S: np.ndarray, p: int, k: int) -> int:
    """Flat cell of segment ``k`` of snake ``p`` (0 = tail, ``len - 1`` = head)."""
    return S[OFF_BODY + p * CAP + ((S[I_START + p] + k) & RING)]


# --- moves ---------------------------------------------------------------------------------------
@njit(cache=True)
def valid_mask(S: np.ndarray, p: int) -> int:
    """Directions of snake ``p`` the judge's ``validDirection`` accepts this turn, as bits
    ``1 << d``: on the board, not an obstacle, not a body once this turn's tails are gone.

    The opponent's move is ignored (a head-on collision is a tie, not a refusal). Empty when
    the snake is boxed in: then every answer loses.
    """
    stride = S[I_STRIDE]
    h = head(S, p)
    shrink = not grows(S[I_PLY])
    t0 = tail(S, 0)
    t1 = tail(S, 1)
    out = 0
    for d in range(4):
        c = h + delta(d, stride)
        v = S[OFF_CELLS + c]
        if v == EMPTY or (shrink and (c == t0 or c == t1)):
            out |= 1 << d
    return out


@njit(cache=True)
def legal_mask(S: np.ndarray, p: int) -> int:
    """The engine's legal directions: :func:`valid_mask`, or all four when it is empty (a
    boxed-in snake must still answer, and every answer loses)."""
    m = valid_mask(S, p)
    return m if m else 15


@njit(cache=True)
def step(S: np.ndarray, a0: int, a1: int) -> int:
    """Play one turn in place, exactly as the judge does (see the module doc); an action
    outside 0..3 is the judge's invalid direction (the snake dies, unmoved).

    Returns ``dead | MOVED0 * moved0 | MOVED1 * moved1`` (``dead``: bit 0 snake 0, bit 1
    snake 1, also stored in ``S[I_DEAD]``); :func:`undo` takes it back.
    """
    stride = S[I_STRIDE]
    turn = S[I_PLY]
    if not grows(turn):
        pop(S, 0)
        pop(S, 1)
    dead = 0
    code = 0
    if 0 <= a0 <= 3:
        c0 = head(S, 0) + delta(a0, stride)
        if S[OFF_CELLS + c0] == EMPTY:
            push(S, 0, c0)
            code |= MOVED0
        else:
            dead |= 1
    else:
        dead |= 1
    if 0 <= a1 <= 3:
        c1 = head(S, 1) + delta(a1, stride)
        if c1 == head(S, 0):
            dead = 3
        elif S[OFF_CELLS + c1] == EMPTY:
            push(S, 1, c1)
            code |= MOVED1
        else:
            dead |= 2
    else:
        dead |= 2
    S[I_PLY] = turn + 1
    S[I_DEAD] = dead
    return code | dead


@njit(cache=True)
def undo(S: np.ndarray, code: int) -> None:
    """Take back the last :func:`step` (``code`` is what it returned), from a position where
    the game was running; ``S`` is then equal to what it was, byte for byte."""
    turn = S[I_PLY] - 1
    for p in (1, 0):
        if code & (MOVED0 << p):
            slot = OFF_BODY + p * CAP + ((S[I_START + p] + S[I_LEN + p] - 1) & RING)
            S[OFF_CELLS + S[slot]] = EMPTY
            S[slot] = 0  # as before the step: byte for byte
            S[I_LEN + p] -= 1
    if not grows(turn):
        for p in (0, 1):
            S[I_START + p] = (S[I_START + p] - 1) & RING
            S[I_LEN + p] += 1
            S[OFF_CELLS + tail(S, p)] = SNAKE0 + p
    S[I_PLY] = turn
    S[I_DEAD] = 0


@njit(cache=True)
def scores(dead: int) -> tuple:
    """The judge's ``finish`` scores for a dead mask (``(0, 0)`` while nobody is dead)."""
    if dead == 1:
        return 0, 2
    if dead == 2:
        return 2, 0
    if dead == 3:
        return 1, 1
    return 0, 0


# --- flood fill ----------------------------------------------------------------------------------
@njit(cache=True)
def reachable(S: np.ndarray, start: int) -> int:
    """Empty cells reachable from flat cell ``start`` by 4-steps (``start`` not counted), on
    the grid as it is in ``S``."""
    stride = S[I_STRIDE]
    n = (S[I_H] + 2) * stride
    seen = np.zeros(n, np.uint8)
    stack = np.empty(n, np.int32)
    seen[start] = 1
    stack[0] = start
    top = 1
    count = 0
    while top:
        top -= 1
        c = stack[top]
        for d in range(4):
            nb = c + delta(d, stride)
            if not seen[nb] and S[OFF_CELLS + nb] == EMPTY:
                seen[nb] = 1
                stack[top] = nb
                top += 1
                count += 1
    return count


@njit(cache=True)
def area_after(S: np.ndarray, p: int, d: int) -> int:
    """Room for snake ``p`` after it moves ``d`` alone this turn: empty cells reachable from its
    new head, with this turn's tails removed and the opponent's head where it is. ``-1`` when
    ``d`` is not valid (see :func:`valid_mask`)."""
    if not (valid_mask(S, p) >> d) & 1:
        return -1
    T = S.copy()
    if not grows(T[I_PLY]):
        pop(T, 0)
        pop(T, 1)
    c = head(T, p) + delta(d, T[I_STRIDE])
    push(T, p, c)
    return reachable(T, c)


# --- random numbers ------------------------------------------------------------------------------
@njit(cache=True)
def splitmix(st: np.ndarray) -> np.uint64:
    """Next 64 bits of a SplitMix64 stream whose state is ``st[0]`` (``uint64[1]``)."""
    st[0] = st[0] + _GOLDEN
    z = st[0]
    z = (z ^ (z >> U64(30))) * _MIX1
    z = (z ^ (z >> U64(27))) * _MIX2
    return z ^ (z >> U64(31))


@njit(cache=True)
def below(st: np.ndarray, n: int) -> int:
    """A uniform integer in ``[0, n)`` from the SplitMix64 stream ``st``."""
    return int(splitmix(st) % U64(n))


@njit(cache=True)
def _i32(v: int) -> int:
    v &= 0xFFFFFFFF
    return v - (1 << 32) if v >= (1 << 31) else v


@njit(cache=True)
def glibc_srand(seed: int) -> np.ndarray:
    """glibc ``srand(seed)`` (``random_r.c``, TYPE_3): 31 words of state, then the front and
    rear indices at ``[31]`` and ``[32]``; ``seed`` is taken modulo 2**32 (``unsigned int``)."""
    g = np.zeros(33, np.int64)
    seed &= 0xFFFFFFFF
    if seed == 0:
        seed = 1
    word = _i32(seed)
    g[0] = word
    for i in range(1, 31):
        hi = abs(word) // 127773
        lo = abs(word) % 127773
        if word < 0:  # C division truncates toward zero
            hi, lo = -hi, -lo
        word = 16807 * lo - 2836 * hi
        if word < 0:
            word += 2147483647
        g[i] = word
    g[31] = 3
    g[32] = 0
    for _ in range(310):
        glibc_rand(g)
    return g


@njit(cache=True)
def glibc_rand(g: np.ndarray) -> int:
    """glibc ``rand()`` on the state of :func:`glibc_srand` (0 .. 2**31 - 1)."""
    f = g[31]
    r = g[32]
    val = (g[f] + g[r]) & 0xFFFFFFFF
    g[f] = _i32(val)
    g[31] = (f + 1) % 31
    g[32] = (r + 1) % 31
    return val >> 1


@njit(cache=True)
def judge_rand(g: np.ndarray, n: int) -> int:
    """The judge's ``Rand(n)``: ``(rand()*rand()*rand() % n + n) % n + 1`` in C ``int``."""
    a = glibc_rand(g)
    b = glibc_rand(g)
    c = glibc_rand(g)
    prod = _i32(_i32(a * b) * c)
    m = abs(prod) % n
    if prod < 0:
        m = -m
    return (m + n) % n + 1


@njit(cache=True)
def judge_size(g: np.ndarray, width_opt: int, height_opt: int) -> tuple:
    """``(width, height)`` as the judge draws them; an option other than ``NO_OPTION`` replaces
    the draw (the judge still consumes its random numbers), one out of its range becomes 12."""
    width = 9 + judge_rand(g, 3)
    if width_opt != NO_OPTION:
        width = width_opt if 10 <= width_opt <= 12 else 12
    height = 10 + judge_rand(g, 6)
    if (width + height) % 2 == 0:
        height -= 1
    if height_opt != NO_OPTION:
        height = height_opt if 10 <= height_opt <= 16 else 12
    return width, height


@njit(cache=True)
def judge_obstacles(g: np.ndarray, height: int, width: int) -> np.ndarray:
    """The judge's obstacles (``int64[k, 2]`` of ``(x, y)``, in its order): ``width*height/10``
    cells placed as ``/2`` random cells plus their mirror images through the centre, never on
    a start; the whole draw is repeated until every free cell is connected to (1, 1)."""
    n, m = height, width
    count = width * height // 10
    out = np.zeros((count + 1, 2), np.int64)
    while True:
        grid = np.zeros((n + 2, m + 2), np.uint8)
        tot = 0
        for _ in range(count // 2):
            x = judge_rand(g, n)
            y = judge_rand(g, m)
            while grid[x, y] or (x == 1 and y == 1) or (x == n and y == m):
                x = judge_rand(g, n)
                y = judge_rand(g, m)
            out[tot, 0] = x
            out[tot, 1] = y
            tot += 1
            grid[x, y] = 1
            if x != n - x + 1 or y != m - y + 1:
                out[tot, 0] = n - x + 1
                out[tot, 1] = m - y + 1
                tot += 1
                grid[n - x + 1, m - y + 1] = 1
        # the judge's dfs(1, 1), as an explicit stack
        vis = np.zeros((n + 2, m + 2), np.uint8)
        stack = np.empty((n * m + 1, 2), np.int64)
        stack[0, 0] = 1
        stack[0, 1] = 1
        vis[1, 1] = 1
        top = 1
        seen = 1
        while top:
            top -= 1
            cx = stack[top, 0]
            cy = stack[top, 1]
            for d in range(4):
                xx = cx + DX[d]
                yy = cy + DY[d]
                if 0 < xx <= n and 0 < yy <= m and not vis[xx, yy] and not grid[xx, yy]:
                    vis[xx, yy] = 1
                    seen += 1
                    stack[top, 0] = xx
                    stack[top, 1] = yy
                    top += 1
        if seen + tot == width * height:
            return out[:tot].copy()


@njit(cache=True)
def judge_board(seed: int, width_opt: int, height_opt: int) -> tuple:
    """``(width, height, obstacles)`` of the judge's first turn with ``initdata
    {"seed": seed}`` (plus ``"width"``/``"height"`` for options other than ``NO_OPTION``)."""
    g = glibc_srand(seed)
    width, height = judge_size(g, width_opt, height_opt)
    return width, height, judge_obstacles(g, height, width)


# --- playouts ------------------------------------------------------------------------------------
@njit(cache=True)
def random_move(S: np.ndarray, p: int, st: np.ndarray) -> int:
    """A uniform choice among snake ``p``'s valid directions, else among all four."""
    m = legal_mask(S, p)
    k = below(st, (m & 1) + ((m >> 1) & 1) + ((m >> 2) & 1) + ((m >> 3) & 1))
    for d in range(4):
        if (m >> d) & 1:
            if k == 0:
                return d
            k -= 1
    return 0


@njit(cache=True)
def random_playout(S: np.ndarray, st: np.ndarray) -> int:
    """Play uniformly random legal moves for both snakes until the game ends (in place);
    returns the dead mask."""
    while S[I_DEAD] == 0:
        a0 = random_move(S, 0, st)
        a1 = random_move(S, 1, st)
        step(S, a0, a1)
    return S[I_DEAD]


@njit(cache=True)
def random_games(n: int, seed: int, width_opt: int, height_opt: int) -> np.ndarray:
    """``n`` random games, game ``i`` on the judge's board of seed ``seed + i``, moves from a
    SplitMix64 stream seeded ``seed``. Returns ``int64[5]``: games, turns, snake-0 wins,
    snake-1 wins, draws (the bench and the invariant suite use it)."""
    st = np.zeros(1, np.uint64)
    st[0] = U64(seed)
    out = np.zeros(5, np.int64)
    for i in range(n):
        width, height, obs = judge_board(seed + i, width_opt, height_opt)
        S = new_state(height, width, obs)
        dead = random_playout(S, st)
        out[0] += 1
        out[1] += S[I_PLY]
        out[4 if dead == 3 else 2 if dead == 2 else 3] += 1
    return out


@njit(cache=True)
def perft(S: np.ndarray, depth: int) -> int:
    """Leaves of the joint-move tree ``depth`` turns deep (every pair of legal directions is a
    branch; a finished game is a leaf)."""
    if depth == 0 or S[I_DEAD]:
        return 1
    m0 = legal_mask(S, 0)
    m1 = legal_mask(S, 1)
    total = 0
    for a0 in range(4):
        if not (m0 >> a0) & 1:
            continue
        for a1 in range(4):
            if not (m1 >> a1) & 1:
                continue
            code = step(S, a0, a1)
            total += perft(S, depth - 1)
            undo(S, code)
    return total
