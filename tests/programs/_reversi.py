"""A tiny stdlib Reversi board for the protocol test bots (no numpy: they must start fast).

Coordinates follow Botzone: a move is ``{"x": x, "y": y}``, ``{"x": -1, "y": -1}`` is a pass, black
(player 0) starts on (3,4) and (4,3). The policy is deterministic: most discs flipped, first in
row-major order (y, then x), so a test can predict every move.
"""

from __future__ import annotations

DIRS = [(1, 0), (-1, 0), (0, 1), (0, -1), (1, 1), (1, -1), (-1, 1), (-1, -1)]


class Board:
    def __init__(self) -> None:
        self.b = [[0] * 8 for _ in range(8)]
        self.b[3][4] = self.b[4][3] = 1  # black
        self.b[3][3] = self.b[4][4] = -1  # white

    def flips(self, me: int, x: int, y: int) -> list[tuple[int, int]]:
        if self.b[x][y]:
            return []
        out: list[tuple[int, int]] = []
        for dx, dy in DIRS:
            run, i, j = [], x + dx, y + dy
            while 0 <= i < 8 and 0 <= j < 8 and self.b[i][j] == -me:
                run.append((i, j))
                i += dx
                j += dy
            if run and 0 <= i < 8 and 0 <= j < 8 and self.b[i][j] == me:
                out += run
        return out

    def play(self, me: int, x: int, y: int) -> None:
        if x < 0:
            return
        for i, j in self.flips(me, x, y):
            self.b[i][j] = me
        self.b[x][y] = me

    def legal(self, me: int) -> list[tuple[int, int]]:
        return [(x, y) for y in range(8) for x in range(8) if self.flips(me, x, y)]

    def choose(self, me: int) -> tuple[int, int]:
        best, move = -1, (-1, -1)
        for x, y in self.legal(me):
            n = len(self.flips(me, x, y))
            if n > best:
                best, move = n, (x, y)
        return move


def my_colour(first_request: dict) -> int:
    """Black (1) if the first request is the opening ``(-1, -1)``, else white (-1)."""
    return 1 if first_request["x"] < 0 else -1


def replay(requests: list, responses: list) -> tuple[Board, int]:
    """The board after a Botzone transcript (the last request applied), and our colour.

    A response may be a string holding JSON (Botzone allows both), so strings are parsed.
    """
    import json

    responses = [json.loads(r) if isinstance(r, str) else r for r in responses]
    board = Board()
    me = my_colour(requests[0])
    for i, r in enumerate(requests):
        board.play(-me, int(r["x"]), int(r["y"]))
        if i < len(responses):
            board.play(me, int(responses[i]["x"]), int(responses[i]["y"]))
    return board, me


def xy(line: str) -> dict:
    """A simple-interaction ``"x y"`` line as a Botzone move object."""
    x, y = line.split()[:2]
    return {"x": int(x), "y": int(y)}
