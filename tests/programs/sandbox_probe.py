"""A Reversi bot that reports what it can reach, for the ``sandbox: bwrap`` tests.

usage: sandbox_probe.py HOST_DIR

It answers its first move with ``debug`` = a JSON object: ``own_dir`` / ``host_dir`` / ``tmp``
(writing a file in its own directory, in HOST_DIR, in /tmp: "ok" or the errno name),
``tmp_before`` (what /tmp held before it wrote there) and ``net`` (a TCP connect to a TEST-NET
address, 192.0.2.1:9: the errno name, or "connected" / "timeout").
"""

import errno
import json
import os
import socket
import sys

from _reversi import replay


def try_write(directory: str) -> str:
    path = os.path.join(directory, f"probe-{os.getpid()}.txt")
    try:
        with open(path, "w") as f:
            f.write("x")
    except OSError as e:
        return errno.errorcode.get(e.errno, str(e.errno))
    os.remove(path)
    return "ok"


def try_connect() -> str:
    s = socket.socket()
    s.settimeout(1.0)
    try:
        s.connect(("192.0.2.1", 9))
        return "connected"
    except TimeoutError:
        return "timeout"
    except OSError as e:
        return errno.errorcode.get(e.errno, str(e.errno))
    finally:
        s.close()


inp = json.loads(sys.stdin.readline())
board, me = replay(inp["requests"], inp["responses"])
report = {"tmp_before": sorted(os.listdir("/tmp")),
          "own_dir": try_write(os.path.dirname(os.path.abspath(__file__))),
          "host_dir": try_write(sys.argv[1]), "tmp": try_write("/tmp"), "net": try_connect()}
x, y = board.choose(me)
print(json.dumps({"response": {"x": x, "y": y}, "debug": report}))
