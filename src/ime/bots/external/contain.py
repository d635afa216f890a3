"""Containment: a bot program and everything it starts die with its turn, its match, and us.

External programs are untrusted code. Four layers make sure none outlives what it belongs to:

1. **Process group.** Each program runs in its own session; its group is SIGKILLed when its turn
   or match ends (:mod:`ime.bots.external.process`).
2. **Sweep.** The group misses descendants that called ``setsid`` (or ``setpgid``). The process
   that starts programs (the *owner*) becomes a child subreaper (``PR_SET_CHILD_SUBREAPER``), so
   such an escapee, once its parent is gone, is re-parented to the owner, not to init, and stays
   in the owner's process tree. Every program and its descendants carry
   ``IME_EXTERNAL_BOT=<owner token>.<serial>`` in their environment; when a program ends,
   :func:`sweep` walks the owner's tree (``/proc/<pid>/task/*/children``) and kills and reaps
   every process that carries the program's marker or belongs to its groups or sessions.
3. **Death of the owner.** Every program gets ``PR_SET_PDEATHSIG`` = SIGKILL (:func:`launch`).
   :mod:`ime.bots.external.signals` (``ime play``; match-pool workers, whose own parent-death
   signal is SIGTERM) turns SIGTERM/SIGINT into: kill every live program's group and every
   marked process in our tree (:func:`kill_now`), then exit with 128 + the signal number.
4. **SIGKILL of the owner.** Nothing in the owner runs then, and the parent-death signal is not
   inherited by a program's children; the owner's *guardian*
   (:mod:`ime.bots.external.guardian`) sees the owner's pipe close and kills every process on
   the machine that carries the owner's token.

Who is a victim of a sweep: a process in our tree that carries the marker, or is in one of the
program's groups or sessions (which grow with each victim's), or descends from a victim. In a
process dedicated to running bots (``ime play``, a pool worker: :func:`dedicate`), every child
of ours in another session that is neither a live program nor the guardian is one too: it can
only be an adopted escapee, even one that cleared its environment.

A cgroup v2 would hold every descendant whatever it does, but creating one needs a writable
cgroup tree (root or a systemd delegation), which most users running ``ime`` do not have; the
marker sweep works for any user on Linux. For code that actively hides (scrubs its environment,
double-forks and calls ``setsid`` in a library process), use ``sandbox: bwrap``, whose PID
namespace the kernel tears down whole (:mod:`ime.bots.external.sandbox`). See
docs/reliability.md.
"""

from __future__ import annotations

import functools
import itertools
import os
import secrets
import shutil
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Sequence
from pathlib import Path

from ime.bots.external.guardian import ENV_KEY, environ_has
from ime.core.bot import BotFault

PR_SET_PDEATHSIG = 1
PR_SET_CHILD_SUBREAPER = 36
LINUX = sys.platform.startswith("linux")
GUARDIAN = Path(__file__).with_name("guardian.py")


def _prctl() -> Callable[..., int] | None:
    if not LINUX:
        return None
    try:
        import ctypes

        return ctypes.CDLL(None, use_errno=True).prctl
    except (OSError, AttributeError):  # pragma: no cover - no libc prctl
        return None


_PRCTL = _prctl()


class _Owner:
    """This process as the owner of bot programs: its token, its guardian, its live leaders."""

    def __init__(self) -> None:
        self.pid = os.getpid()
        self.token = f"{self.pid}-{secrets.token_hex(4)}"
        self._serial = itertools.count(1)  # next() is atomic: threads get distinct markers
        self.leaders: set[int] = set()
        self.subreaper = bool(_PRCTL is not None and _PRCTL(PR_SET_CHILD_SUBREAPER, 1) == 0)
        self.guardian: subprocess.Popen | None = None
        self._pipe: int | None = None
        if LINUX:
            self._start_guardian()

    def _start_guardian(self) -> None:
        r, w = os.pipe()  # both ends close on exec: only the guardian gets r, as its stdin
        try:
            self.guardian = subprocess.Popen(
                [sys.executable, "-I", "-S", str(GUARDIAN), self.token], stdin=r,
                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
        except OSError:  # pragma: no cover - cannot start an interpreter: layers 1-3 remain
            os.close(w)
            w = -1
        finally:
            os.close(r)
        self._pipe = w if w >= 0 else None

    def marker(self) -> str:
        """A fresh program marker, ``<token>.<serial>``."""
        return f"{self.token}.{next(self._serial)}"


_OWNER: _Owner | None = None
_OWNER_LOCK = threading.Lock()


def owner() -> _Owner:
    """This process's owner record, created (subreaper, guardian) at its first program."""
    global _OWNER
    with _OWNER_LOCK:
        if _OWNER is None or _OWNER.pid != os.getpid():  # a forked child owns its programs
            _OWNER = _Owner()
        return _OWNER


def _current() -> _Owner | None:
    return _OWNER if _OWNER is not None and _OWNER.pid == os.getpid() else None


def preexec(memory_limit_mb: int | None, die_with_parent: bool) -> Callable[[], None] | None:
    """What the child runs between fork and exec: RLIMIT_AS and ``PR_SET_PDEATHSIG`` = SIGKILL.

    The parent-death signal follows the *thread* that started the child, so callers ask for it
    only when that thread outlives the program (every per-turn program; keep-running ones started
    on the main thread). If the parent died before the call, the child exits at once.
    """
    if os.name != "posix" or (memory_limit_mb is None and not die_with_parent):
        return None
    prctl = _PRCTL if die_with_parent else None
    parent = os.getpid()

    def setup() -> None:  # runs between fork and exec: keep it tiny
        if memory_limit_mb is not None:
            import resource

            limit = int(memory_limit_mb) << 20
            try:
                resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
            except (ValueError, OSError):
                pass
        if prctl is not None:
            prctl(PR_SET_PDEATHSIG, signal.SIGKILL)
            if os.getppid() != parent:
                os._exit(1)

    return setup


@functools.lru_cache(maxsize=1)
def _setpriv() -> str | None:
    """util-linux ``setpriv`` if it can set the parent-death signal here (probed once)."""
    exe = shutil.which("setpriv") if LINUX else None
    if exe is None:
        return None
    try:
        ok = subprocess.run([exe, "--pdeathsig", "KILL", "--", "true"], capture_output=True,
                            timeout=10).returncode == 0
    except (OSError, subprocess.TimeoutExpired):  # pragma: no cover
        ok = False
    return exe if ok else None


def launch(argv: Sequence[str], memory_limit_mb: int | None,
           die_with_parent: bool) -> tuple[list[str], Callable[[], None] | None]:
    """The argv and ``preexec_fn`` that start a program with our limits and parent-death signal.

    Without a memory limit the parent-death signal is set by exec-ing through ``setpriv
    --pdeathsig KILL`` (util-linux), where it exists: a ``preexec_fn`` makes ``subprocess`` fork
    the whole interpreter (no vfork) and run Python in the child, which costs ~15 ms per start in
    a process with numba loaded (measured: 59-62 vs 46-48 ms per one-shot turn). Otherwise
    :func:`preexec` does it with ``prctl`` (and the parent check).
    """
    if die_with_parent and memory_limit_mb is None:
        exe = _setpriv()
        if exe is not None:
            return [exe, "--pdeathsig", "KILL", "--", *argv], None
    return list(argv), preexec(memory_limit_mb, die_with_parent)


def check_executable(exe: str, cwd: str | None, env: dict[str, str]) -> None:
    """RE "cannot start" now, as ``Popen`` would say it, when a launcher (setpriv, bwrap) would
    only report it from inside as an exit status."""
    if os.sep in exe:
        path: str | None = exe if os.path.isabs(exe) else os.path.join(cwd or os.getcwd(), exe)
    else:
        path = shutil.which(exe, path=env.get("PATH"))
    if path is None or not os.path.isfile(path) or not os.access(path, os.X_OK):
        why = "not found" if path is None or not os.path.exists(path) else "not executable"
        raise BotFault("RE", f"cannot start {exe}: {why}" + (f" ({path})" if path else ""))


def die_with_parent(keep_running: bool) -> bool:
    """Should this program get ``PR_SET_PDEATHSIG``? It follows the starting *thread*: always for
    a per-turn program (the thread waits for it), for a keep-running one only from the main
    thread (a worker thread may end before the match; the guardian covers that case)."""
    return not keep_running or threading.current_thread() is threading.main_thread()


# --- the process tree ---------------------------------------------------------------------------
def _stat(pid: int) -> tuple[str, int, int, int] | None:
    """``(state, ppid, pgid, sid)`` of ``pid``, or None if it is gone."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as f:
            raw = f.read()
    except OSError:
        return None
    fields = raw[raw.rindex(b")") + 2:].split()
    return fields[0].decode(), int(fields[1]), int(fields[2]), int(fields[3])


def _children(pid: int) -> list[int]:
    out: list[int] = []
    try:
        tids = os.listdir(f"/proc/{pid}/task")
    except OSError:
        return out
    for tid in tids:
        try:
            with open(f"/proc/{pid}/task/{tid}/children", "rb") as f:
                out += [int(c) for c in f.read().split()]
        except OSError:
            pass
    return out


_HAS_CHILDREN_FILE = os.path.exists(f"/proc/self/task/{os.getpid()}/children")


def subtree(root: int) -> dict[int, tuple[str, int, int, int]]:
    """Every descendant of ``root`` with its ``(state, ppid, pgid, sid)`` (zombies included)."""
    out: dict[int, tuple[str, int, int, int]] = {}
    if _HAS_CHILDREN_FILE:
        todo = _children(root)
        while todo:
            pid = todo.pop()
            st = _stat(pid)
            if st is not None and pid not in out:
                out[pid] = st
                todo += _children(pid)
        return out
    table = {}  # pragma: no cover - kernels without CONFIG_PROC_CHILDREN: scan all of /proc
    for entry in os.listdir("/proc"):  # pragma: no cover
        st = _stat(int(entry)) if entry.isdigit() else None
        if st is not None:
            table[int(entry)] = st
    frontier = {root}  # pragma: no cover
    while frontier:  # pragma: no cover
        frontier = {p for p, st in table.items() if st[1] in frontier and p not in out}
        out.update({p: table[p] for p in frontier})
    return out  # pragma: no cover


def _kill(pid: int, sig: int = signal.SIGKILL) -> None:
    try:
        os.kill(pid, sig)
    except (ProcessLookupError, PermissionError):
        pass


def _victims(procs: dict[int, tuple[str, int, int, int]], needle: bytes, groups: set[int],
             roots: set[int], spare: set[int]) -> dict[int, tuple[str, int, int, int]]:
    """The processes of ``procs`` that belong to a program (see the module doc).

    ``groups``: process groups and sessions of the program(s), grown with each victim's;
    ``roots``: pids whose descendants are victims (the program leaders); ``spare``: pids never to
    touch. In a dedicated owner, our own children outside ``spare`` are roots too.
    """
    me = os.getpid()
    ours = {os.getpgid(0), os.getsid(0), 0, 1}
    adopt = _dedicated.get(me, False)
    found: dict[int, tuple[str, int, int, int]] = {}
    changed = True
    while changed:
        changed = False
        for pid, st in procs.items():
            if pid in found or pid in spare:
                continue
            state, ppid, pgid, sid = st
            if (pgid in groups or sid in groups or ppid in roots or ppid in found
                    or (adopt and ppid == me and sid not in ours)
                    or (state not in ("Z", "X") and environ_has(pid, needle))):
                found[pid] = st
                groups.update({pgid, sid} - ours)
                changed = True
    return found


_dedicated: dict[int, bool] = {}
"""Processes (by pid) that run bots and nothing else: any adopted child of theirs is a bot's."""


def dedicate() -> None:
    """Declare this process dedicated to bots (``ime play``, a pool worker; see the module doc)."""
    _dedicated[os.getpid()] = True


def undedicate() -> None:
    _dedicated.pop(os.getpid(), None)


def _reap_or_kill(found: dict[int, tuple[str, int, int, int]], me: int) -> int:
    """SIGKILL the live victims, reap the dead ones that are our children; how many killed."""
    n = 0
    for pid, (state, ppid, _, _) in found.items():
        if state not in ("Z", "X"):
            _kill(pid)
            n += 1
        elif ppid == me:  # a dead escapee re-parented to us
            try:
                os.waitpid(pid, os.WNOHANG)
            except ChildProcessError:
                pass
    return n


def _spare(own: _Owner, keep: set[int]) -> set[int]:
    return keep | ({own.guardian.pid} if own.guardian is not None else set())


def sweep(leader: int, marker: str, timeout: float = 2.0) -> int:
    """Kill and reap whatever is left of program ``leader`` in our tree; how many were killed.

    Call it after ``leader`` has exited (its children are then re-parented to us) and before it
    is reaped (so its pid, which is its group and session id, cannot be reused yet).
    """
    own = _current()
    if own is None or not LINUX:  # pragma: no cover - no program was started here
        return 0
    me = os.getpid()
    needle = f"{ENV_KEY}={marker}\0".encode()
    groups = {leader}
    killed = 0
    deadline = time.monotonic() + timeout
    while True:
        procs = subtree(me)
        spare = _spare(own, own.leaders - {leader}) | {leader}
        found = _victims(procs, needle, groups, {leader}, spare)
        if not found or time.monotonic() > deadline:
            return killed
        killed += _reap_or_kill(found, me)
        time.sleep(0.001)


def kill_now(timeout: float = 2.0) -> None:
    """Kill (no reaping: we are about to exit) every program of this process and its marks.

    Safe in a signal handler: it only reads /proc and sends SIGKILL.
    """
    own = _current()
    if own is None or not LINUX:
        return
    leaders = set(own.leaders)
    for pid in leaders:
        try:
            os.killpg(pid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            pass
    needle = f"{ENV_KEY}={own.token}.".encode()
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        found = _victims(subtree(own.pid), needle, set(leaders), leaders, _spare(own, set()))
        alive = [p for p, st in found.items() if st[0] not in ("Z", "X")]
        if not alive:
            return
        for pid in alive:
            _kill(pid)
        time.sleep(0.002)
