"""The guardian: kills an owner's bot programs after the owner has died, by any signal.

A bot program dies with the process that started it (``PR_SET_PDEATHSIG``), but that setting is
not inherited by the program's own children, and nothing in a process killed by SIGKILL can run.
So each process that starts bot programs (``ime play``, a match-pool worker, a test) also starts
one guardian: ``python -S guardian.py TOKEN``, in its own session (a Ctrl-C on the terminal does
not reach it), ignoring SIGINT/SIGTERM/SIGHUP, its stdin the read end of a pipe whose only write
end the owner holds. When the owner ends, however it ends, the read returns EOF and the guardian
kills every process whose environment carries the owner's token
(``IME_EXTERNAL_BOT=<token>.<serial>``, set on every program and inherited by its descendants,
``setsid`` or not), first stopping them all (a forking program cannot outrun the sweep), then
SIGKILLing them. Standard library only: it is started with ``-S`` and imports nothing of ours.
"""

from __future__ import annotations

import os
import signal
import sys
import time

ENV_KEY = "IME_EXTERNAL_BOT"
"""The environment variable that marks a bot program and everything it starts."""


def environ_has(pid: int, needle: bytes) -> bool:
    """Does process ``pid``'s environment hold an entry starting with ``needle``?

    ``needle`` is ``b"KEY=value-prefix"``; a zombie (no memory left) or another user's process
    reads as empty.
    """
    try:
        with open(f"/proc/{pid}/environ", "rb") as f:
            data = f.read()
    except OSError:
        return False
    return data.startswith(needle) or (b"\0" + needle) in data


def proc_state(pid: int) -> str:
    """One-letter state of ``pid`` (``R``, ``S``, ``T``, ``Z``...), ``""`` if it is gone."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as f:
            stat = f.read()
    except OSError:
        return ""
    return stat[stat.rindex(b")") + 2:].split(b" ", 1)[0].decode()


def marked(token: str) -> list[int]:
    """Live (not zombie) processes whose environment carries ``token``'s marker."""
    needle = f"{ENV_KEY}={token}.".encode()
    me = os.getpid()
    out = []
    for entry in os.listdir("/proc"):
        if entry.isdigit() and int(entry) != me and environ_has(int(entry), needle):
            if proc_state(int(entry)) not in ("", "Z", "X"):
                out.append(int(entry))
    return out


def sweep(token: str, timeout: float = 5.0) -> int:
    """Stop, then kill, every live process marked with ``token``; how many were found."""
    deadline = time.monotonic() + timeout
    seen: set[int] = set()
    while time.monotonic() < deadline:  # freeze: a stopped process cannot fork
        fresh = [p for p in marked(token) if p not in seen]
        if not fresh:
            break
        for pid in fresh:
            _signal(pid, signal.SIGSTOP)
        seen.update(fresh)
    while time.monotonic() < deadline:
        alive = marked(token)
        if not alive:
            break
        seen.update(alive)
        for pid in alive:
            _signal(pid, signal.SIGKILL)
        time.sleep(0.005)
    return len(seen)


def _signal(pid: int, sig: int) -> None:
    try:
        os.kill(pid, sig)
    except (ProcessLookupError, PermissionError):
        pass


def main(argv: list[str]) -> int:
    """Wait for EOF on stdin (the owner is gone), then sweep its token."""
    token = argv[1]
    for sig in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
        signal.signal(sig, signal.SIG_IGN)
    while True:
        try:
            if not os.read(0, 4096):
                break
        except InterruptedError:
            continue
        except OSError:
            break
    sweep(token)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
