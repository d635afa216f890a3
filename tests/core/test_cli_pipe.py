"""``ime ... | head``: a reader that goes away ends the command quietly (exit 141, as for SIGPIPE),
not with a ``BrokenPipeError`` traceback (seen with ``ime pipeline show ... | head``)."""

from __future__ import annotations

import os
import subprocess
import sys


def test_a_closed_pipe_ends_ime_quietly() -> None:
    read, write = os.pipe()
    os.close(read)  # the reader is gone before ime writes its first line
    try:
        run = subprocess.run([sys.executable, "-m", "ime", "pipeline", "show", "net=mlp2"],
                             stdout=write, stderr=subprocess.PIPE, text=True, timeout=120)
    finally:
        os.close(write)
    assert run.returncode == 141, run.stderr
    assert "Traceback" not in run.stderr and "BrokenPipeError" not in run.stderr, run.stderr
