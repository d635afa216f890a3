"""A Reversi bot that tries to outlive its turn, or floods its output, for the containment tests.

usage: contain_bot.py MODE MARKER [--keep-running] [--bytes N]

MARKER (any string) is only carried in argv, so the tests can find every process this bot ever
started in /proc/*/cmdline (forked children keep their parent's argv).

MODE: hang (sleeps 60 s), fork (a child in its process group sleeps 60 s; it hangs too), setsid
(a daemon: fork, setsid, fork, the middle process exits, the grandchild sleeps 60 s; it hangs
too), setsid_answer (leaves such a daemon every turn, then answers), scrub_answer (the daemon
execs a sleeper with an EMPTY environment, then answers), stderr_flood (writes to stderr
forever), stderr_burst (N bytes to stderr, then answers), stdout_burst (the answer line padded
to N bytes of stdout).
"""

import json
import os
import sys
import time

from _reversi import replay

mode, marker = sys.argv[1], sys.argv[2]
keep = "--keep-running" in sys.argv
nbytes = int(sys.argv[sys.argv.index("--bytes") + 1]) if "--bytes" in sys.argv else 0
MARKER = ">>>BOTZONE_REQUEST_KEEP_RUNNING<<<"
SLEEPER = [sys.executable, "-S", "-c", "import time, sys; time.sleep(60)", marker]


def sleep_forever() -> None:
    time.sleep(60)
    os._exit(0)


def daemon(scrub: bool) -> None:
    """The classic double fork: the sleeper ends up in its own session, its parent gone."""
    pid = os.fork()
    if pid == 0:
        os.setsid()
        if os.fork() == 0:
            if scrub:
                os.execve(SLEEPER[0], SLEEPER, {})
            sleep_forever()
        os._exit(0)
    os.waitpid(pid, 0)


def turn() -> None:
    if mode == "hang":
        sleep_forever()
    if mode == "fork":
        if os.fork() == 0:
            sleep_forever()
        sleep_forever()
    if mode == "setsid":
        daemon(scrub=False)
        sleep_forever()
    if mode in ("setsid_answer", "scrub_answer"):
        daemon(scrub=mode == "scrub_answer")
    if mode == "stderr_flood":
        block = b"e" * 65536
        while True:
            os.write(2, block)
    if mode == "stderr_burst":
        sys.stderr.write("E" * nbytes)
        sys.stderr.flush()


inp = json.loads(sys.stdin.readline())
board, me = replay(inp["requests"], inp["responses"])
while True:
    turn()
    x, y = board.choose(me)
    board.play(me, x, y)
    line = json.dumps({"response": {"x": x, "y": y}})
    if mode == "stdout_burst":
        line += " " * max(0, nbytes - len(line))
    print(line, flush=True)
    if not keep:
        break
    print(MARKER, flush=True)
    req = sys.stdin.readline()
    if not req:
        break
    r = json.loads(req)
    board.play(-me, int(r["x"]), int(r["y"]))
