"""Simple-interaction Reversi bot for the tests: ``n``, 2n-1 ``"x y"`` lines, data, globaldata.

Output: the move line, a debug line, a data line (the turn count, checked next turn: exit 3 if it
did not come back).
"""

import sys

from _reversi import replay, xy

lines = sys.stdin.read().split("\n")
n = int(lines[0])
body = lines[1 : 2 * n]
requests = [xy(body[2 * i]) for i in range(n)]
responses = [xy(body[2 * i + 1]) for i in range(n - 1)]
data = lines[2 * n] if len(lines) > 2 * n else ""
if n > 1 and data != str(n - 1):
    print(f"data not carried: {data!r} at turn {n}", file=sys.stderr)
    sys.exit(3)
board, me = replay(requests, responses)
x, y = board.choose(me)
print(f"{x} {y}")
print(f"debug turn {n}")
print(str(n))
