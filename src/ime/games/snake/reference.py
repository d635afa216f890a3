"""A slow, plain-Python transcription of Botzone's ``Snake.cpp`` judge, line by line.

It shares no code with the numba kernels of :mod:`ime.games.snake.board`, so tests can play
both side by side; ``ime perft snake --python`` counts leaves with it. Snakes are lists of
``(x, y)`` with the head first (the judge's ``list<point>``), obstacles a set.
"""

from __future__ import annotations

from dataclasses import dataclass, field

DX = (-1, 0, 1, 0)
DY = (0, 1, 0, -1)


class GlibcRand:
    """glibc ``srand``/``rand`` (TYPE_3 additive feedback, ``random_r.c``)."""

    def __init__(self, seed: int):
        seed &= 0xFFFFFFFF
        if seed == 0:
            seed = 1
        word = seed - (1 << 32) if seed >= 1 << 31 else seed
        r = [word]
        for _ in range(1, 31):
            hi = int(word / 127773)  # C truncating division
            lo = word - hi * 127773
            word = 16807 * lo - 2836 * hi
            if word < 0:
                word += 2147483647
            r.append(word)
        self.r = [v & 0xFFFFFFFF for v in r]
        self.f, self.b = 3, 0
        for _ in range(310):
            self.rand()

    def rand(self) -> int:
        self.r[self.f] = (self.r[self.f] + self.r[self.b]) & 0xFFFFFFFF
        out = self.r[self.f] >> 1
        self.f = (self.f + 1) % 31
        self.b = (self.b + 1) % 31
        return out

    def judge_rand(self, n: int) -> int:
        """``(rand()*rand()*rand() % n + n) % n + 1`` with C's 32-bit ``int``."""
        prod = (self.rand() * self.rand() * self.rand()) & 0xFFFFFFFF
        if prod >= 1 << 31:
            prod -= 1 << 32
        m = abs(prod) % n * (-1 if prod < 0 else 1)
        return (m + n) % n + 1


def judge_board(seed: int, width_opt: int | None = None, height_opt: int | None = None
                ) -> tuple[int, int, list[tuple[int, int]]]:
    """``(width, height, obstacles)`` of the judge's first turn for ``initdata {"seed": seed}``
    (plus ``"width"``/``"height"`` when the options are given)."""
    g = GlibcRand(seed)
    width = 9 + g.judge_rand(3)
    if width_opt is not None:
        width = width_opt if 10 <= width_opt <= 12 else 12
    height = 10 + g.judge_rand(6)
    if (width + height) % 2 == 0:
        height -= 1
    if height_opt is not None:
        height = height_opt if 10 <= height_opt <= 16 else 12
    n, m = height, width
    count = width * height // 10
    while True:
        grid: set[tuple[int, int]] = set()
        obs: list[tuple[int, int]] = []
        for _ in range(count // 2):
            x, y = g.judge_rand(n), g.judge_rand(m)
            while (x, y) in grid or (x, y) == (1, 1) or (x, y) == (n, m):
                x, y = g.judge_rand(n), g.judge_rand(m)
            obs.append((x, y))
            grid.add((x, y))
            if x != n - x + 1 or y != m - y + 1:
                obs.append((n - x + 1, m - y + 1))
                grid.add((n - x + 1, m - y + 1))
        vis = {(1, 1)}
        todo = [(1, 1)]
        while todo:
            x, y = todo.pop()
            for k in range(4):
                c = (x + DX[k], y + DY[k])
                if 0 < c[0] <= n and 0 < c[1] <= m and c not in vis and c not in grid:
                    vis.add(c)
                    todo.append(c)
        if len(vis) + len(obs) == width * height:
            return width, height, obs


def grows(num: int) -> bool:
    return num <= 9 or (num - 9) % 3 == 0


@dataclass
class RefGame:
    """One match as the judge holds it: the board, both snakes (head first), the turn count and
    who lost (``lose[p]``)."""

    height: int
    width: int
    obstacles: set[tuple[int, int]]
    snakes: list[list[tuple[int, int]]] = field(default_factory=list)
    num: int = 0
    lose: list[int] = field(default_factory=lambda: [0, 0])

    def __post_init__(self) -> None:
        if not self.snakes:
            self.snakes = [[(1, 1)], [(self.height, self.width)]]

    def copy(self) -> RefGame:
        return RefGame(self.height, self.width, self.obstacles,
                       [list(s) for s in self.snakes], self.num, list(self.lose))

    @property
    def over(self) -> bool:
        return bool(self.lose[0] or self.lose[1])

    def in_body(self, c: tuple[int, int]) -> bool:
        return any(c in s for s in self.snakes)

    def valid(self, pid: int, k: int) -> bool:
        """The judge's ``validDirection`` on the current bodies."""
        if k < 0 or k > 3:
            return False
        x, y = self.snakes[pid][0]
        c = (x + DX[k], y + DY[k])
        if c[0] > self.height or c[1] > self.width or c[0] < 1 or c[1] < 1:
            return False
        return c not in self.obstacles and not self.in_body(c)

    def valid_now(self, pid: int) -> list[int]:
        """Directions ``validDirection`` would accept this turn, once the tails are removed."""
        g = self.copy()
        if not grows(g.num):
            for s in g.snakes:
                s.pop()
        return [k for k in range(4) if g.valid(pid, k)]

    def play(self, d0: int | None, d1: int | None) -> None:
        """One turn; ``None`` is an invalid input (not an object, no integer direction)."""
        if not grows(self.num):
            for s in self.snakes:
                s.pop()
        for pid, d in ((0, d0), (1, d1)):
            if d is None:
                self.lose[pid] = 1
                continue
            x, y = self.snakes[1][0]
            if 0 <= d <= 3 and pid == 1 and self.snakes[0][0] == (x + DX[d], y + DY[d]):
                self.lose = [1, 1]
                continue
            if self.valid(pid, d):
                hx, hy = self.snakes[pid][0]
                self.snakes[pid].insert(0, (hx + DX[d], hy + DY[d]))
            else:
                self.lose[pid] = 1
        self.num += 1

    def scores(self) -> tuple[int, int]:
        if self.lose == [1, 1]:
            return 1, 1
        if self.lose[0]:
            return 0, 2
        if self.lose[1]:
            return 2, 0
        return 0, 0


def perft(g: RefGame, depth: int) -> int:
    """Leaves of the joint-move tree (legal = valid directions, or all four when none)."""
    if depth == 0 or g.over:
        return 1
    legal = [g.valid_now(p) or [0, 1, 2, 3] for p in (0, 1)]
    total = 0
    for a0 in legal[0]:
        for a1 in legal[1]:
            h = g.copy()
            h.play(a0, a1)
            total += perft(h, depth - 1)
    return total
