"""A Reversi bot whose first answer is a given raw text, then legal moves (the codec tests).

usage: raw_bot.py RAW [--simple]

JSON interaction: the first turn prints RAW as the whole output line (e.g. ``{"response":
{"x":2.0,"y":3.0}}``), later turns ``{"response": {"x": .., "y": ..}}`` by the policy of
``_reversi.py``. With ``--simple`` (simple interaction) the first response line is RAW (e.g.
``0x3 2``) and later ones are ``"x y"`` lines. So a test sees exactly how the judge reads RAW and
that the match goes on from the move it was read as.
"""

import json
import sys

from _reversi import replay, xy

raw = sys.argv[1]
if "--simple" in sys.argv:
    lines = sys.stdin.read().split("\n")
    n = int(lines[0])
    body = lines[1 : 2 * n]
    requests = [xy(body[2 * i]) for i in range(n)]
    responses = [xy(body[2 * i + 1]) for i in range(n - 1)]
else:
    inp = json.loads(sys.stdin.readline())
    requests, responses = inp["requests"], inp["responses"]
if len(requests) == 1:
    print(raw)
else:
    board, me = replay(requests, responses)
    x, y = board.choose(me)
    print(f"{x} {y}" if "--simple" in sys.argv else json.dumps({"response": {"x": x, "y": y}}))
