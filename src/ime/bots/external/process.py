"""One started bot program: its pipes, its limits, its process group, and the per-match session.

No call can hang: every read and write waits on a deadline (``selectors``), each program runs in
its own session and process group and the whole group is SIGKILLed on timeout, fault, match end
and close; on Linux a keep-running process also dies with its parent (``PR_SET_PDEATHSIG``), so a
killed worker leaves nothing behind, and an ``atexit`` hook kills what is still alive at exit.
"""

from __future__ import annotations

import atexit
import os
import selectors
import signal
import subprocess
import sys
import tempfile
import time
import weakref
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import IO, Any

from ime.bots.external.spec import ExternalSpec
from ime.core.bot import BotFault, DecisionContext

KEEP_RUNNING_MARKER = ">>>BOTZONE_REQUEST_KEEP_RUNNING<<<"
OUTPUT_LIMIT = 1 << 20
"""Bytes of output per turn before OLE (Botzone's wrapper runs bots with ``-o 1048576``)."""
STDERR_TAIL = 2000
MARKER_EOL_WAIT = 0.1
"""Seconds to wait for the newline after the keep-running marker before taking the turn."""

_MARKER = KEEP_RUNNING_MARKER.encode()
_MEMORY_HINTS = (b"MemoryError", b"bad_alloc", b"Cannot allocate memory", b"out of memory",
                 b"failed to map segment")


def _preexec(memory_limit_mb: int | None, die_with_parent: bool) -> Callable[[], None] | None:
    """Set RLIMIT_AS and PR_SET_PDEATHSIG in the child, where the OS allows it."""
    if os.name != "posix" or (memory_limit_mb is None and not die_with_parent):
        return None
    prctl = None
    if die_with_parent and sys.platform.startswith("linux"):
        try:
            import ctypes

            prctl = ctypes.CDLL(None, use_errno=True).prctl
        except (OSError, AttributeError):
            prctl = None
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
            prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG
            if os.getppid() != parent:
                os._exit(1)

    return setup


_LIVE: weakref.WeakSet[_Program] = weakref.WeakSet()


class _Program:
    """A started bot process: its pipes, its stderr file, its process group."""

    def __init__(self, spec: ExternalSpec, die_with_parent: bool):
        self.spec = spec
        self.stderr: IO[bytes] = tempfile.TemporaryFile()
        env = dict(os.environ)
        env.update(spec.env)
        try:
            self.proc = subprocess.Popen(
                list(spec.command), cwd=spec.cwd, env=env, bufsize=0,
                stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=self.stderr,
                start_new_session=True,
                preexec_fn=_preexec(spec.memory_limit_mb, die_with_parent),
            )
        except OSError as e:
            self.stderr.close()
            raise BotFault("RE", f"cannot start {list(spec.command)}: {e}") from e
        assert self.proc.stdin is not None and self.proc.stdout is not None
        self.stdin_fd = self.proc.stdin.fileno()
        self.stdout_fd = self.proc.stdout.fileno()
        os.set_blocking(self.stdin_fd, False)
        self.pidfd: int | None = None
        if hasattr(os, "pidfd_open"):
            try:
                self.pidfd = os.pidfd_open(self.proc.pid)
            except OSError:
                self.pidfd = None
        self.returncode: int | None = None
        _LIVE.add(self)

    @property
    def pid(self) -> int:
        return self.proc.pid

    # -- process state ---------------------------------------------------------------------------
    def exited(self) -> bool:
        """True once the main process has exited (it is not reaped: its group id stays valid)."""
        if self.returncode is not None:
            return True
        if not hasattr(os, "waitid"):  # pragma: no cover - not Linux/macOS
            return self.proc.poll() is not None
        try:
            info = os.waitid(os.P_PID, self.proc.pid, os.WEXITED | os.WNOHANG | os.WNOWAIT)
        except ChildProcessError:
            return True
        return info is not None

    def wait_exit(self, deadline: float) -> bool:
        """Wait (no longer than ``deadline``) for the main process to exit."""
        delay = 0.0002
        while not self.exited():
            left = deadline - time.monotonic()
            if left <= 0:
                return False
            if self.pidfd is not None:
                sel = selectors.DefaultSelector()
                sel.register(self.pidfd, selectors.EVENT_READ)
                sel.select(left)
                sel.close()
            else:
                time.sleep(min(delay, left))
                delay = min(delay * 2, 0.01)
        return True

    def finish(self) -> int:
        """Reap an exited process after killing what is left of its group; its exit status.

        The group is killed *before* reaping: until then the leader's pid cannot be reused, so
        ``killpg`` can only reach this bot's own processes (e.g. a forgotten grandchild).
        """
        if self.returncode is None:
            self._killpg()
            try:
                self.returncode = self.proc.wait(timeout=5)
            except subprocess.TimeoutExpired:  # pragma: no cover - unkillable (D state)
                self.returncode = -int(signal.SIGKILL)
        self._close_fds()
        return self.returncode

    def kill(self) -> None:
        """SIGKILL the whole process group and reap the leader; safe to call twice."""
        if self.returncode is None:
            self._killpg()
        self.finish()

    def _killpg(self) -> None:
        if os.name != "posix":  # pragma: no cover - no process groups: the leader only
            self.proc.kill()
            return
        try:
            os.killpg(self.proc.pid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            pass

    def _close_fds(self) -> None:
        for f in (self.proc.stdin, self.proc.stdout):
            try:
                if f is not None:
                    f.close()
            except OSError:
                pass
        if self.pidfd is not None:
            try:
                os.close(self.pidfd)
            except OSError:
                pass
            self.pidfd = None
        _LIVE.discard(self)

    def stderr_tail(self) -> str:
        try:
            self.stderr.seek(0, os.SEEK_END)
            size = self.stderr.tell()
            self.stderr.seek(max(0, size - STDERR_TAIL))
            return self.stderr.read().decode("utf-8", "replace")
        except (OSError, ValueError):
            return ""

    def close(self) -> None:
        self.kill()
        try:
            self.stderr.close()
        except OSError:
            pass

    # -- one exchange ----------------------------------------------------------------------------
    def drain(self) -> bytes:
        """Whatever the program printed since the last turn (stray output), without waiting."""
        out = bytearray()
        sel = selectors.DefaultSelector()
        sel.register(self.stdout_fd, selectors.EVENT_READ)
        try:
            while sel.select(0):
                chunk = os.read(self.stdout_fd, 65536)
                if not chunk:
                    break
                out += chunk
                if len(out) > OUTPUT_LIMIT:
                    break
        finally:
            sel.close()
        return bytes(out)

    def exchange(self, data: bytes, deadline: float, close_stdin: bool) -> tuple[bytes, str]:
        """Write ``data``, read until EOF / the keep-running marker / exit / deadline.

        Returns the output and how it ended: ``"eof"``, ``"marker"``, ``"exit"``, ``"timeout"``
        or ``"ole"``. Writing is non-blocking too, so a program that never reads its (large)
        input cannot stall us.
        """
        sel = selectors.DefaultSelector()
        pending = memoryview(data)
        writing = bool(pending)
        if writing:
            sel.register(self.stdin_fd, selectors.EVENT_WRITE)
        elif close_stdin:
            self._close_stdin()
        sel.register(self.stdout_fd, selectors.EVENT_READ)
        if self.pidfd is not None:
            sel.register(self.pidfd, selectors.EVENT_READ)
        buf = bytearray()
        marker_at = -1
        try:
            while True:
                left = deadline - time.monotonic()
                if left <= 0:
                    return bytes(buf), "marker" if marker_at >= 0 else "timeout"
                wait = left if self.pidfd is not None else min(left, 0.05)
                events = sel.select(wait)
                if not events and self.pidfd is None and self.exited():
                    return bytes(buf) + self.drain(), "exit"
                for key, _ in events:
                    if key.fd == self.stdin_fd:
                        try:
                            n = os.write(self.stdin_fd, pending[:65536])
                            pending = pending[n:]
                        except BlockingIOError:
                            continue
                        except OSError:  # broken pipe: it died or closed stdin; reading tells
                            pending = pending[:0]
                        if not pending:
                            sel.unregister(self.stdin_fd)
                            if close_stdin:
                                self._close_stdin()
                    elif key.fd == self.stdout_fd:
                        chunk = os.read(self.stdout_fd, 65536)
                        if not chunk:
                            return bytes(buf), "eof"
                        start = max(0, len(buf) - len(_MARKER))
                        buf += chunk
                        if len(buf) > OUTPUT_LIMIT:
                            return bytes(buf[:OUTPUT_LIMIT]), "ole"
                        at = buf.find(_MARKER, start) if marker_at < 0 else marker_at
                        if at >= 0:
                            # the marker's own line end may come in a later write (unbuffered
                            # output); left in the pipe it would prefix the next answer
                            if buf.find(b"\n", at) >= 0:
                                return bytes(buf), "marker"
                            if marker_at < 0:
                                marker_at = at
                                deadline = min(deadline, time.monotonic() + MARKER_EOL_WAIT)
                    else:  # pidfd: the main process exited; take what it left in the pipe
                        return bytes(buf) + self.drain(), "exit"
        finally:
            sel.close()

    def _close_stdin(self) -> None:
        try:
            if self.proc.stdin is not None and not self.proc.stdin.closed:
                self.proc.stdin.close()
        except OSError:
            pass


@atexit.register
def _kill_all_programs() -> None:
    """Interpreter exit: no keep-running program may outlive us."""
    for prog in list(_LIVE):
        try:
            prog.kill()
        except Exception:  # pragma: no cover - best effort at exit
            pass


# --- per match-and-seat state ------------------------------------------------------------------
@dataclass
class _Session:
    """What Botzone keeps for one bot in one match and seat: data, and a kept-running process."""

    match_id: str
    player: int
    requests: list[Any] = field(default_factory=list)
    responses: list[Any] = field(default_factory=list)
    data: Any = ""
    program: _Program | None = None

    def follows(self, ctx: DecisionContext) -> bool:
        """Does ``ctx`` continue exactly the transcript this session has seen?"""
        return (len(ctx.requests) == len(self.requests) + 1
                and len(ctx.responses) == len(self.responses)
                and ctx.requests[:-1] == self.requests and ctx.responses == self.responses)

    def close(self) -> None:
        if self.program is not None:
            self.program.close()
            self.program = None


# --- how a program ended, in words ---------------------------------------------------------------
def status_text(rc: int) -> str:
    """An exit status as a verdict detail: ``exit status 3``, ``killed by SIGKILL``."""
    if rc < 0:
        try:
            return f"killed by {signal.Signals(-rc).name}"
        except ValueError:
            return f"killed by signal {-rc}"
    return f"exit status {rc}"


def stderr_note(stderr: str) -> str:
    """The end of a program's stderr, to append to a fault's detail (empty if none)."""
    stderr = stderr.strip()
    return f"; stderr: ...{stderr[-400:]}" if stderr else ""


def memory_error(stderr: str, rc: int) -> bool:
    """Does the program's stderr say it ran out of memory (MLE under ``memory_limit_mb``)?"""
    b = stderr.encode("utf-8", "replace")
    return any(h in b for h in _MEMORY_HINTS)
