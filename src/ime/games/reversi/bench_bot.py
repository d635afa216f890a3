"""Reversi's program for ``ime.bots.external.bench_external``: a stand-alone, stdlib-only bot.

It plays the first legal square in row-major order (``y`` then ``x``, i.e. the engine's
``legal_actions`` order), the policy the bench also runs in process, so the bench can check that
the program and the in-process bot played the same matches. JSON interaction; with the extra
argument ``keep`` it keeps running (Botzone's ``>>>BOTZONE_REQUEST_KEEP_RUNNING<<<``) and reads
one bare request per later turn. Not imported by IME: the bench starts it by path.
"""

from __future__ import annotations

import json
import sys

DIRS = [(1, 0), (-1, 0), (0, 1), (0, -1), (1, 1), (1, -1), (-1, 1), (-1, -1)]
KEEP_RUNNING_MARKER = ">>>BOTZONE_REQUEST_KEEP_RUNNING<<<"
Board = list[list[int]]


def flips(b: Board, me: int, x: int, y: int) -> list[tuple[int, int]]:
    """The discs that ``me`` (1 black, -1 white) would flip by playing (x, y)."""
    if b[x][y]:
        return []
    out: list[tuple[int, int]] = []
    for dx, dy in DIRS:
        run, i, j = [], x + dx, y + dy
        while 0 <= i < 8 and 0 <= j < 8 and b[i][j] == -me:
            run.append((i, j))
            i += dx
            j += dy
        if run and 0 <= i < 8 and 0 <= j < 8 and b[i][j] == me:
            out += run
    return out


def play(b: Board, me: int, x: int, y: int) -> None:
    """Play (x, y) for ``me``; ``x < 0`` is a pass."""
    if x < 0:
        return
    for i, j in flips(b, me, x, y):
        b[i][j] = me
    b[x][y] = me


def choose(b: Board, me: int) -> dict[str, int]:
    """The first legal square in row-major order, or a pass."""
    for y in range(8):
        for x in range(8):
            if flips(b, me, x, y):
                return {"x": x, "y": y}
    return {"x": -1, "y": -1}


def main() -> None:
    b = [[0] * 8 for _ in range(8)]
    b[3][4] = b[4][3] = 1
    b[3][3] = b[4][4] = -1
    inp = json.loads(sys.stdin.readline())
    reqs, resps = inp["requests"], inp["responses"]
    me = 1 if reqs[0]["x"] < 0 else -1
    for i, r in enumerate(reqs):
        play(b, -me, r["x"], r["y"])
        if i < len(resps):
            play(b, me, resps[i]["x"], resps[i]["y"])
    keep = len(sys.argv) > 1
    while True:
        move = choose(b, me)
        play(b, me, move["x"], move["y"])
        print(json.dumps({"response": move}))
        if not keep:
            break
        print(KEEP_RUNNING_MARKER, flush=True)
        line = sys.stdin.readline()
        if not line:
            break
        r = json.loads(line)
        play(b, -me, r["x"], r["y"])


if __name__ == "__main__":
    main()
