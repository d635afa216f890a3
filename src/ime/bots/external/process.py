"""One started bot program: its pipes, its limits, its process group, and the per-match session.

No call can hang: every read and write waits on a deadline (``selectors``). Each program runs in
its own session and process group, marked ``IME_EXTERNAL_BOT=<token>.<serial>``, with
``PR_SET_PDEATHSIG`` = SIGKILL; when it ends (answer, timeout, fault, match end, close) its group
is SIGKILLed and :func:`ime.bots.external.contain.sweep` kills and reaps whatever it left in our
process tree (``setsid`` escapees included). stdout and stderr are read as they come, each bounded
per turn (``stdout_limit``/``stderr_limit``: OLE past it, the head kept for the log); stderr keeps
only its first and last bytes in memory, never a file. An ``atexit`` hook kills what is still
alive at exit, and :mod:`~ime.bots.external.contain` covers death by a signal.
"""

from __future__ import annotations

import atexit
import os
import selectors
import signal
import subprocess
import time
import weakref
from dataclasses import dataclass, field
from typing import Any

from ime.bots.external import contain
from ime.bots.external.guardian import ENV_KEY
from ime.bots.external.sandbox import bwrap_argv
from ime.bots.external.spec import ExternalSpec
from ime.core.bot import BotFault, DecisionContext

KEEP_RUNNING_MARKER = ">>>BOTZONE_REQUEST_KEEP_RUNNING<<<"
STDERR_TAIL = 2000
"""Bytes of stderr kept from the start of a turn and from the end (for fault details)."""
MARKER_EOL_WAIT = 0.1
"""Seconds to wait for the newline after the keep-running marker before taking the turn."""
CHUNK = 65536

_MARKER = KEEP_RUNNING_MARKER.encode()
_MEMORY_HINTS = (b"MemoryError", b"bad_alloc", b"Cannot allocate memory", b"out of memory",
                 b"failed to map segment")


class _Stderr:
    """A program's stderr as it arrives: bytes this turn, this turn's head, the last bytes."""

    def __init__(self, limit: int):
        self.limit = limit
        self.turn = 0
        self.head = bytearray()
        self.tail = bytearray()

    def new_turn(self) -> None:
        self.turn = 0
        self.head.clear()

    def feed(self, chunk: bytes) -> None:
        self.turn += len(chunk)
        if len(self.head) < STDERR_TAIL:
            self.head += chunk[:STDERR_TAIL - len(self.head)]
        self.tail = (self.tail + chunk[-STDERR_TAIL:])[-STDERR_TAIL:]

    @property
    def over(self) -> bool:
        return self.turn > self.limit


_LIVE: weakref.WeakSet[_Program] = weakref.WeakSet()


class _Program:
    """A started bot process: its pipes, its process group, its containment marker."""

    def __init__(self, spec: ExternalSpec, die_with_parent: bool):
        self.spec = spec
        self.err = _Stderr(spec.stderr_limit)
        own = contain.owner()  # subreaper + guardian, once per process
        self.marker = own.marker()
        env = dict(os.environ)
        env.update(spec.env)
        env[ENV_KEY] = self.marker
        argv = list(spec.command)
        contain.check_executable(argv[0], spec.cwd, env)
        if spec.sandbox == "bwrap":
            argv = bwrap_argv(argv, spec.cwd)
        argv, setup = contain.launch(argv, spec.memory_limit_mb, die_with_parent)
        try:
            self.proc = subprocess.Popen(
                argv, cwd=spec.cwd, env=env, bufsize=0,
                stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                start_new_session=True, preexec_fn=setup,
            )
        except OSError as e:
            raise BotFault("RE", f"cannot start {list(spec.command)}: {e}") from e
        own.leaders.add(self.proc.pid)
        assert self.proc.stdin and self.proc.stdout and self.proc.stderr
        self.stdin_fd = self.proc.stdin.fileno()
        self.stdout_fd = self.proc.stdout.fileno()
        self.stderr_fd = self.proc.stderr.fileno()
        self.stderr_open = True
        os.set_blocking(self.stdin_fd, False)
        os.set_blocking(self.stderr_fd, False)
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

    def wait_exit(self, deadline: float, stop_at_ole: bool = True) -> bool:
        """Wait (no longer than ``deadline``, nor past the stderr limit if ``stop_at_ole``) for
        the main process to exit, reading stderr."""
        while not self.exited():
            left = deadline - time.monotonic()
            if left <= 0 or (stop_at_ole and self.err.over):
                return False
            sel = selectors.DefaultSelector()
            if self.pidfd is not None:
                sel.register(self.pidfd, selectors.EVENT_READ)
            if self.stderr_open:
                sel.register(self.stderr_fd, selectors.EVENT_READ)
            wait = left if self.pidfd is not None else min(left, 0.01)
            if sel.get_map():
                sel.select(wait)
            else:  # pragma: no cover - no pidfd and stderr closed
                time.sleep(wait)
            sel.close()
            self.read_stderr()
        return True

    def read_stderr(self) -> None:
        """Read what stderr holds now, without waiting and never past this turn's limit."""
        while self.stderr_open and not self.err.over:
            try:
                chunk = os.read(self.stderr_fd, CHUNK)
            except BlockingIOError:
                return
            except OSError:
                chunk = b""
            if not chunk:
                self.stderr_open = False
                return
            self.err.feed(chunk)

    def finish(self) -> int:
        """Reap an exited process after killing what is left of its group and its escapees.

        The group is killed and the sweep done *before* reaping: until then the leader's pid
        cannot be reused, so ``killpg`` and the sweep reach only this bot's own processes.
        """
        if self.returncode is None:
            self._killpg()
            self.wait_exit(time.monotonic() + 5, stop_at_ole=False)  # its orphans are ours now
            self.read_stderr()
            contain.sweep(self.proc.pid, self.marker)
            try:
                self.returncode = self.proc.wait(timeout=5)
            except subprocess.TimeoutExpired:  # pragma: no cover - unkillable (D state)
                self.returncode = -int(signal.SIGKILL)
        self._close_fds()
        return self.returncode

    def kill(self) -> None:
        """SIGKILL the whole process group, sweep, reap the leader; safe to call twice."""
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
        for f in (self.proc.stdin, self.proc.stdout, self.proc.stderr):
            try:
                if f is not None:
                    f.close()
            except OSError:
                pass
        self.stderr_open = False
        if self.pidfd is not None:
            try:
                os.close(self.pidfd)
            except OSError:
                pass
            self.pidfd = None
        own = contain._current()
        if own is not None:
            own.leaders.discard(self.proc.pid)
        _LIVE.discard(self)

    def stderr_tail(self) -> str:
        return bytes(self.err.tail).decode("utf-8", "replace")

    def stderr_head(self) -> str:
        return bytes(self.err.head).decode("utf-8", "replace")

    def close(self) -> None:
        self.kill()

    # -- one exchange ----------------------------------------------------------------------------
    def drain(self) -> bytes:
        """Whatever the program printed since the last turn (stray output), without waiting."""
        out = bytearray()
        self.read_stderr()
        sel = selectors.DefaultSelector()
        sel.register(self.stdout_fd, selectors.EVENT_READ)
        try:
            while sel.select(0):
                chunk = os.read(self.stdout_fd, CHUNK)
                if not chunk:
                    break
                out += chunk
                if len(out) > self.spec.stdout_limit:
                    break
        finally:
            sel.close()
        return bytes(out)

    def exchange(self, data: bytes, deadline: float, close_stdin: bool) -> tuple[bytes, str]:
        """Write ``data``, read until EOF / the keep-running marker / exit / deadline.

        Returns the output and how it ended: ``"eof"``, ``"marker"``, ``"exit"``, ``"timeout"``,
        ``"ole"`` (stdout past its limit; the output is cut there) or ``"ole_stderr"``. Writing
        is non-blocking too, so a program that never reads its (large) input cannot stall us.
        """
        limit = self.spec.stdout_limit
        sel = selectors.DefaultSelector()
        pending = memoryview(data)
        writing = bool(pending)
        if writing:
            sel.register(self.stdin_fd, selectors.EVENT_WRITE)
        elif close_stdin:
            self._close_stdin()
        sel.register(self.stdout_fd, selectors.EVENT_READ)
        if self.stderr_open:
            sel.register(self.stderr_fd, selectors.EVENT_READ)
        if self.pidfd is not None:
            sel.register(self.pidfd, selectors.EVENT_READ)
        buf = bytearray()
        marker_at = -1
        try:
            while True:
                if self.err.over:
                    return bytes(buf), "ole_stderr"
                left = deadline - time.monotonic()
                if left <= 0:
                    return bytes(buf), "marker" if marker_at >= 0 else "timeout"
                wait = left if self.pidfd is not None else min(left, 0.05)
                events = sel.select(wait)
                if not events and self.pidfd is None and self.exited():
                    return self._last(buf, limit)
                for key, _ in events:
                    if key.fd == self.stdin_fd:
                        try:
                            n = os.write(self.stdin_fd, pending[:CHUNK])
                            pending = pending[n:]
                        except BlockingIOError:
                            continue
                        except OSError:  # broken pipe: it died or closed stdin; reading tells
                            pending = pending[:0]
                        if not pending:
                            sel.unregister(self.stdin_fd)
                            if close_stdin:
                                self._close_stdin()
                    elif key.fd == self.stderr_fd:
                        self.read_stderr()
                        if not self.stderr_open:
                            sel.unregister(self.stderr_fd)
                    elif key.fd == self.stdout_fd:
                        chunk = os.read(self.stdout_fd, CHUNK)
                        if not chunk:
                            return bytes(buf), "eof"
                        start = max(0, len(buf) - len(_MARKER))
                        buf += chunk
                        if len(buf) > limit:
                            return bytes(buf[:limit]), "ole"
                        at = buf.find(_MARKER, start) if marker_at < 0 else marker_at
                        if at >= 0:
                            # the marker's own line end may come in a later write (unbuffered
                            # output); left in the pipe it would prefix the next answer
                            if buf.find(b"\n", at) >= 0:
                                return bytes(buf), "marker"
                            if marker_at < 0:
                                marker_at = at
                                deadline = min(deadline, time.monotonic() + MARKER_EOL_WAIT)
                    else:  # pidfd: the main process exited; take what it left in the pipes
                        return self._last(buf, limit)
        finally:
            sel.close()

    def _last(self, buf: bytearray, limit: int) -> tuple[bytes, str]:
        """The main process exited: the output with what it left in the pipes."""
        self.read_stderr()
        out = bytes(buf) + self.drain()
        return (out[:limit], "ole") if len(out) > limit else (out, "exit")

    def _close_stdin(self) -> None:
        try:
            if self.proc.stdin is not None and not self.proc.stdin.closed:
                self.proc.stdin.close()
        except OSError:
            pass


@atexit.register
def _kill_all_programs() -> None:
    """Interpreter exit: no program may outlive us (nor, through the sweep, its descendants)."""
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
