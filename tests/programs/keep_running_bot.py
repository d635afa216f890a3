"""Keep-running Reversi bot for the tests (JSON interaction, or simple with ``--simple``).

Turn 1 reads the full transcript, later turns only the bare new request, and the bot keeps its
board in memory. It exits 5 if a later turn is not a bare request (the protocol would be broken).
"""

import json
import sys

from _reversi import replay, xy

SIMPLE = "--simple" in sys.argv
MARKER = ">>>BOTZONE_REQUEST_KEEP_RUNNING<<<"


def read_first():
    if SIMPLE:
        n = int(sys.stdin.readline())
        body = [sys.stdin.readline().strip() for _ in range(2 * n - 1)]
        sys.stdin.readline()  # data
        sys.stdin.readline()  # globaldata
        reqs = [xy(body[2 * i]) for i in range(n)]
        resps = [xy(body[2 * i + 1]) for i in range(n - 1)]
        return reqs, resps
    inp = json.loads(sys.stdin.readline())
    return inp["requests"], inp["responses"]


requests, responses = read_first()
board, me = replay(requests, responses)
while True:
    x, y = board.choose(me)
    board.play(me, x, y)
    print(f"{x} {y}" if SIMPLE else json.dumps({"response": {"x": x, "y": y}}))
    print(MARKER, flush=True)
    line = sys.stdin.readline()
    if not line:
        break
    if SIMPLE:
        r = xy(line)
    else:
        r = json.loads(line)
        if "requests" in r or set(r) != {"x", "y"}:
            sys.exit(5)
    board.play(-me, int(r["x"]), int(r["y"]))
