"""Doudizhu's program for ``ime.bots.external.bench_external``: a stand-alone, stdlib-only
FightTheLandlord bot speaking Botzone's JSON interaction.

It plays the engine's first legal action: when following, the pass; when leading, the lowest
single (the lowest card id it holds). Its hand is its first request's ``own`` minus its own
responses; it leads when both plays of ``history`` are passes (or at the game's start). It also
prints its seat, inferred as Botzone's sample bots do, in ``debug``. With the extra argument
``keep`` it keeps running (``>>>BOTZONE_REQUEST_KEEP_RUNNING<<<``) and reads one bare request per
later turn. Not imported by IME: the bench and the tests start it by path.
"""

from __future__ import annotations

import json
import sys

KEEP_RUNNING_MARKER = ">>>BOTZONE_REQUEST_KEEP_RUNNING<<<"


def seat_of(first_request: dict) -> int:
    history = first_request["history"]
    if not history[0]:
        return 0 if not history[1] else 1
    return 2


def choose(hand: set[int], request: dict) -> list[int]:
    history = request["history"]
    if history[0] or history[1]:
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
