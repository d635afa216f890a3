"""A Reversi bot that plays legal moves for ``--after N`` turns, then misbehaves as told.

usage: fault_bot.py MODE [--after N] [--keep-running]

MODE: crash (uncaught exception), exit3 (exit status 3), sleep (sleeps 60 s), garbage (prints
non-JSON), nothing (prints nothing, exits 0), illegal (occupied square), wrongpass (passes with a
legal move), ole (2 MiB of output), memory (allocates 2 GiB), grandchild_sleep (starts a sleeping
grandchild, then sleeps), grandchild_exit (starts a grandchild that keeps stdout open, answers and
exits), die_between (keep-running: exits right after printing the marker), bare (prints the move
without the {"response": ...} wrapper), stringresp (response is a string holding JSON), ok.
"""

import json
import os
import subprocess
import sys
import time

from _reversi import replay

mode = sys.argv[1]
after = int(sys.argv[sys.argv.index("--after") + 1]) if "--after" in sys.argv else 0
keep = "--keep-running" in sys.argv
MARKER = ">>>BOTZONE_REQUEST_KEEP_RUNNING<<<"

inp = json.loads(sys.stdin.readline())
board, me = replay(inp["requests"], inp["responses"])
turn = len(inp["requests"]) - 1


def misbehave() -> None:
    x, y = board.choose(me)
    if mode == "crash":
        raise RuntimeError("deliberate crash")
    if mode == "exit3":
        sys.exit(3)
    if mode == "sleep":
        time.sleep(60)
    if mode == "garbage":
        print("hello, I am not JSON")
    elif mode == "nothing":
        pass
    elif mode == "illegal":
        print(json.dumps({"response": {"x": 3, "y": 3}}))
    elif mode == "wrongpass":
        print(json.dumps({"response": {"x": -1, "y": -1}}))
    elif mode == "ole":
        sys.stdout.write("x" * (2 << 20))
    elif mode == "memory":
        blob = bytearray(2 << 30)
        print(len(blob))
    elif mode == "grandchild_sleep":
        subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])
        time.sleep(60)
    elif mode == "grandchild_exit":
        subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])
        print(json.dumps({"response": {"x": x, "y": y}}), flush=True)
    elif mode == "bare":
        print(json.dumps({"x": x, "y": y}))
    elif mode == "stringresp":
        print(json.dumps({"response": json.dumps({"x": x, "y": y})}))
    elif mode == "die_between":
        print(json.dumps({"response": {"x": x, "y": y}}))
        print(MARKER, flush=True)
        os._exit(0)
    sys.stdout.flush()
    os._exit(0)


while True:
    if turn >= after and mode != "ok":
        misbehave()
    x, y = board.choose(me)
    board.play(me, x, y)
    print(json.dumps({"response": {"x": x, "y": y}}))
    if not keep:
        break
    print(MARKER, flush=True)
    line = sys.stdin.readline()
    if not line:
        break
    r = json.loads(line)
    board.play(-me, int(r["x"]), int(r["y"]))
    turn += 1
