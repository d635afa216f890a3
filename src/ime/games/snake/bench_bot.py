"""Snake's program for ``ime.bots.external.bench_external``: a stand-alone, stdlib-only bot.

It plays the engine's first legal action: the lowest direction that the judge accepts this
turn (on the board, no obstacle, no body once this turn's tails are gone), else 0. JSON
interaction; it learns the board and its seat from the first request and the opponent's moves
from the later ones. With the extra argument ``keep`` it keeps running (Botzone's
``>>>BOTZONE_REQUEST_KEEP_RUNNING<<<``) and reads one bare request per later turn. Not imported
by IME: the bench starts it by path.
"""

from __future__ import annotations

import json
import sys

KEEP_RUNNING_MARKER = ">>>BOTZONE_REQUEST_KEEP_RUNNING<<<"
DX = (-1, 0, 1, 0)
DY = (0, 1, 0, -1)


class Board:
    """Both snakes (head first), the obstacles and the turn, as the judge keeps them."""

    def __init__(self, first: dict):
        self.n, self.m = first["height"], first["width"]
        self.obstacles = {(o["x"], o["y"]) for o in first["obstacle"]}
        self.seat = 0 if (first["x"], first["y"]) == (1, 1) else 1
        self.snakes = [[(1, 1)], [(self.n, self.m)]]
        self.turn = 0

    def shrinks(self) -> bool:
        return not (self.turn <= 9 or (self.turn - 9) % 3 == 0)

    def move(self) -> int:
        bodies = [s[:-1] if self.shrinks() else s for s in self.snakes]
        x, y = self.snakes[self.seat][0]
        for d in range(4):
            c = (x + DX[d], y + DY[d])
            if (1 <= c[0] <= self.n and 1 <= c[1] <= self.m and c not in self.obstacles
                    and all(c not in b for b in bodies)):
                return d
        return 0

    def play(self, own: int, opp: int) -> None:
        moves = (own, opp) if self.seat == 0 else (opp, own)
        if self.shrinks():
            for s in self.snakes:
                s.pop()
        for s, d in zip(self.snakes, moves, strict=True):
            x, y = s[0]
            s.insert(0, (x + DX[d], y + DY[d]))
        self.turn += 1


def main() -> None:
    inp = json.loads(sys.stdin.readline())
    reqs, resps = inp["requests"], inp["responses"]
    board = Board(reqs[0])
    for k, resp in enumerate(resps):
        board.play(resp["direction"], reqs[k + 1]["direction"])
    keep = len(sys.argv) > 1
    while True:
        d = board.move()
        print(json.dumps({"response": {"direction": d}}))
        if not keep:
            break
        print(KEEP_RUNNING_MARKER, flush=True)
        line = sys.stdin.readline()
        if not line:
            break
        board.play(d, json.loads(line)["direction"])


if __name__ == "__main__":
    main()
