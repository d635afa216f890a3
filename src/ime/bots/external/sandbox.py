"""``sandbox: bwrap``: run a bot program inside bubblewrap, with no network and a read-only disk.

The program sees the whole filesystem read-only (``--ro-bind / /``), a fresh private ``/tmp``
(tmpfs, its only writable place, ``TMPDIR=/tmp``; gone when the program ends), its own directory
and its command's files read-only even when they live under ``/tmp``, a minimal ``/dev``, its own
``/proc``. It has no network (``--unshare-all``: network, IPC, PID, UTS, cgroup and, when not
root, user namespaces), no capabilities (``--cap-drop ALL``), and dies with bwrap
(``--die-with-parent``). Its PID namespace also completes containment: when bwrap's init dies the
kernel kills every process left inside, whatever the program did to hide them.

Asking for bwrap where it is not installed, or where it cannot create namespaces, is an error
when the bot is built (with bwrap's own message), never a silent run without the sandbox.
"""

from __future__ import annotations

import functools
import os
import shutil
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path

SANDBOXES = ("none", "bwrap")
_FLAGS = ("--unshare-all", "--die-with-parent", "--cap-drop", "ALL")


def check_sandbox(bot_id: str, sandbox: str) -> None:
    """Fail at build time if ``sandbox`` is unknown, or is bwrap and bwrap cannot run here."""
    if sandbox not in SANDBOXES:
        raise ValueError(f"external bot {bot_id!r}: sandbox must be one of {list(SANDBOXES)}, "
                         f"got {sandbox!r}")
    if sandbox == "bwrap":
        problem = _bwrap_problem(shutil.which("bwrap"))
        if problem:
            raise ValueError(f"external bot {bot_id!r}: sandbox: bwrap: {problem}")


@functools.lru_cache(maxsize=4)
def _bwrap_problem(exe: str | None) -> str:
    """Why bwrap cannot sandbox here ("" when it can): probed once per binary."""
    if exe is None:
        return ("bubblewrap (bwrap) is not installed (e.g. apt-get install bubblewrap, "
                "dnf install bubblewrap); remove 'sandbox' to run without it")
    try:
        out = subprocess.run([exe, "--ro-bind", "/", "/", *_FLAGS, "--", "true"],
                             capture_output=True, text=True, timeout=30)
    except (OSError, subprocess.TimeoutExpired) as e:
        return f"{exe} does not run: {e}"
    if out.returncode != 0:
        return f"{exe} cannot create a sandbox here: {out.stderr.strip()[:300]}"
    return ""


def bwrap_argv(argv: Sequence[str], cwd: str | None) -> list[str]:
    """``argv`` wrapped in bwrap (see the module doc); ``cwd`` is where the program starts."""
    exe = shutil.which("bwrap")
    if exe is None:  # checked at build time; the machine changed under us
        raise FileNotFoundError("bwrap is no longer on PATH")
    where = str(Path(cwd or os.getcwd()).resolve())
    keep = [where, sys.prefix, sys.base_prefix]  # re-exposed (read-only) over the private /tmp
    for arg in argv:
        p = Path(arg) if os.path.isabs(arg) else Path(where) / arg
        if os.sep in arg and p.exists():
            keep.append(str(p.resolve().parent if p.is_file() else p.resolve()))
    binds: list[str] = []
    for d in dict.fromkeys(keep):
        if d == "/tmp" or d.startswith("/tmp/"):
            binds += ["--ro-bind", d, d]
    return [exe, "--ro-bind", "/", "/", "--dev", "/dev", "--proc", "/proc", "--tmpfs", "/tmp",
            *binds, *_FLAGS, "--setenv", "TMPDIR", "/tmp", "--chdir", where, "--", *argv]
