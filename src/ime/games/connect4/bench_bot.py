"""Connect Four's program for ``ime.bots.external.bench_external``: a stand-alone, stdlib-only
bot on the standard 7x6 board (no blocked cells).

It plays the lowest-numbered column that is not full (the engine's ``legal_actions`` order),
the policy the bench also runs in process. JSON interaction (requests ``{"x": column}``, the
first one ``{"x": -1}``); with the extra argument ``keep`` it keeps running (Botzone's
``>>>BOTZONE_REQUEST_KEEP_RUNNING<<<``) and reads one bare request per later turn. Not imported
by IME: the bench starts it by path.
"""

from __future__ import annotations

import json
import sys

WIDTH, HEIGHT = 7, 6
KEEP_RUNNING_MARKER = ">>>BOTZONE_REQUEST_KEEP_RUNNING<<<"


def main() -> None:
    heights = [0] * WIDTH
    inp = json.loads(sys.stdin.readline())
    reqs, resps = inp["requests"], inp["responses"]
    for i, r in enumerate(reqs):
        if r["x"] >= 0:
            heights[r["x"]] += 1
        if i < len(resps):
            heights[resps[i]["x"]] += 1
    keep = len(sys.argv) > 1
    while True:
        col = next(c for c in range(WIDTH) if heights[c] < HEIGHT)
        heights[col] += 1
        print(json.dumps({"response": {"x": col}}))
        if not keep:
            break
        print(KEEP_RUNNING_MARKER, flush=True)
        line = sys.stdin.readline()
        if not line:
            break
        heights[json.loads(line)["x"]] += 1


if __name__ == "__main__":
    main()
