"""A slow, obvious Connect Four in pure Python: the reference the bitboards are tested against.

A grid of lists, discs dropped by scanning a column upwards past blocked cells, four in a row
found by walking the four directions from every cell. Nothing here is shared with ``board``.
"""

from __future__ import annotations

from collections.abc import Iterable

EMPTY, BLOCKED = -1, -2


class RefBoard:
    """``grid[y][x]``: ``EMPTY``, ``BLOCKED`` or the player (0/1) whose disc is there."""

    def __init__(self, width: int, height: int, blocked: Iterable = ()):
        self.width, self.height = width, height
        self.grid = [[EMPTY] * width for _ in range(height)]
        for x, y in blocked:
            self.grid[y][x] = BLOCKED
        self.to_move = 0
        self.winner: int | None = None
        self.moves = 0

    def landing_row(self, x: int) -> int | None:
        """Row a disc dropped into column ``x`` lands on (``None``: the column is full)."""
        for y in range(self.height):
            if self.grid[y][x] == EMPTY:
                return y
        return None

    def legal(self) -> list[int]:
        if self.over():
            return []
        return [x for x in range(self.width) if self.landing_row(x) is not None]

    def full(self) -> bool:
        return all(self.landing_row(x) is None for x in range(self.width))

    def over(self) -> bool:
        return self.winner is not None or self.full()

    def four_at(self, x: int, y: int) -> bool:
        """Whether the disc at ``(x, y)`` is part of four in a row."""
        p = self.grid[y][x]
        for dx, dy in ((1, 0), (0, 1), (1, 1), (1, -1)):
            run = 1
            for sign in (1, -1):
                cx, cy = x + sign * dx, y + sign * dy
                while 0 <= cx < self.width and 0 <= cy < self.height and self.grid[cy][cx] == p:
                    run += 1
                    cx, cy = cx + sign * dx, cy + sign * dy
            if run >= 4:
                return True
        return False

    def play(self, x: int) -> None:
        y = self.landing_row(x)
        if y is None or self.over():
            raise ValueError(f"column {x} is not playable")
        self.grid[y][x] = self.to_move
        if self.four_at(x, y):
            self.winner = self.to_move
        self.to_move = 1 - self.to_move
        self.moves += 1

    def undo(self, x: int) -> None:
        """Take back the last disc of column ``x`` (which must be the last move)."""
        y = max(y for y in range(self.height) if self.grid[y][x] >= 0)
        self.grid[y][x] = EMPTY
        self.to_move = 1 - self.to_move
        self.winner = None
        self.moves -= 1

    def winning_columns(self, player: int) -> list[int]:
        """Columns where ``player`` would make four if it were their turn."""
        out = []
        for x in range(self.width):
            y = self.landing_row(x)
            if y is None:
                continue
            self.grid[y][x] = player
            if self.four_at(x, y):
                out.append(x)
            self.grid[y][x] = EMPTY
        return out


    def completing_cells(self, player: int) -> set[tuple[int, int]]:
        """Every empty cell (playable next or not) where a disc of ``player`` would make four:
        what ``board.winning_cells`` and ``wide.winning_cells`` must return."""
        out = set()
        for y in range(self.height):
            for x in range(self.width):
                if self.grid[y][x] != EMPTY:
                    continue
                self.grid[y][x] = player
                if self.four_at(x, y):
                    out.add((x, y))
                self.grid[y][x] = EMPTY
        return out


def course_board(seed: int) -> dict:
    """A board as the Tsinghua course's framework draws one (seed 002 played on such boards;
    the report itself does not describe them): ``M`` rows and ``N`` columns each uniform in
    9..12, and one unplayable cell uniform over the whole board (``noX = rand() % M``, ``noY =
    rand() % N``). Returned as ``game.params``: ``{width: N, height: M, blocked: [[x, y]]}``,
    ``y`` from the bottom. Pure Python, seeded, so a pilot's boards replay."""
    import random

    rng = random.Random(seed)
    height, width = rng.randint(9, 12), rng.randint(9, 12)
    return {"width": width, "height": height,
            "blocked": [[rng.randrange(width), rng.randrange(height)]]}


def perft(board: RefBoard, depth: int) -> int:
    """Leaves ``depth`` plies deep; a won or full position is a leaf (as ``board.perft``)."""
    if depth == 0 or board.over():
        return 1
    total = 0
    for x in board.legal():
        board.play(x)
        total += perft(board, depth - 1)
        board.undo(x)
    return total


def negamax(board: RefBoard) -> int:
    """Exact value for the side to move in Pascal Pons' units: winning with the disc played
    after ``n`` discs scores ``(cells + 1 - n) // 2`` for the winner (``cells``: playable
    cells), so faster wins score more; a draw is 0. Brute force: tiny boards or late positions."""
    cells = sum(c != BLOCKED for row in board.grid for c in row)
    best = None
    for x in board.legal():
        board.play(x)
        if board.winner is not None:
            v = (cells + 1 - board.moves + 1) // 2
        elif board.full():
            v = 0
        else:
            v = -negamax(board)
        board.undo(x)
        best = v if best is None else max(best, v)
    return 0 if best is None else best
