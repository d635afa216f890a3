"""Big-2's stand-alone program for the external-bot adapter: stdlib only, speaking our
Botzone-style JSON interaction (``docs/games/big2.md``, "Protocol").

It plays the engine's first legal action: when following, the pass; when leading, the lowest
single (the lowest card id it holds). Its hand is its first request's ``own`` minus its own
responses; it leads when ``history`` is empty (the game's start) or holds a pass. It prints its
seat, inferred from its first request, in ``debug``. With the extra argument ``keep`` it keeps
running (``>>>BOTZONE_REQUEST_KEEP_RUNNING<<<``) and reads one bare request per later turn. Not
imported by IME: tests start it by path.
"""

from __future__ import annotations

import json
import sys

KEEP_RUNNING_MARKER = ">>>BOTZONE_REQUEST_KEEP_RUNNING<<<"


def seat_of(first_request: dict) -> int:
    return 0 if not first_request["history"] else 1


def choose(hand: set[int], request: dict) -> list[int]:
    history = request["history"]
    if history and history[-1]:
        return []
    return [min(hand)]


def main() -> None:
    inp = json.loads(sys.stdin.readline())
    reqs, resps = inp["requests"], inp["responses"]
    hand = set(reqs[0]["own"])
    for r in resps:
        hand -= set(r)
    seat = seat_of(reqs[0])
    request = reqs[-1]
    keep = len(sys.argv) > 1
    while True:
        play = choose(hand, request)
        hand -= set(play)
        print(json.dumps({"response": play, "debug": f"seat {seat}"}))
        if not keep:
            break
        print(KEEP_RUNNING_MARKER, flush=True)
        line = sys.stdin.readline()
        if not line:
            break
        request = json.loads(line)


if __name__ == "__main__":
    main()
