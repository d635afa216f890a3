"""External bot programs that speak the Botzone protocol, seated in our judge like any zoo bot.

A user's bot (any language) is run exactly as Botzone runs it, so a program that works on the
platform works here unchanged, and its matches are logged like every other match:

* **JSON interaction** (default): each turn starts the program and writes one line
  ``{"requests": [...], "responses": [...], "data": ..., "globaldata": ..., "time_limit": ...,
  "memory_limit": ...}`` with the player's whole transcript (from
  :class:`~ime.core.bot.DecisionContext`), then closes stdin. The program prints one line
  ``{"response": ..., "debug": ..., "data": ..., "globaldata": ...}``.
* **Simple interaction** (Reversi only): stdin is ``n``, then ``2n-1`` lines alternating requests
  and responses (``"x y"``) ending with the new request, then the ``data`` line and ``globaldata``;
  stdout is the response line (``"x y"``), a debug line, a data line and globaldata lines.
* **Keep-running**: a program that prints ``>>>BOTZONE_REQUEST_KEEP_RUNNING<<<`` after its
  response stays alive; later turns of that match write only the new request (the bare request
  JSON, or the ``"x y"`` line). Requires ``keep_running: true`` in the spec; stdin is then never
  closed, so such a program must read line by line, not to EOF.

``data`` is carried between the turns of one match and seat; ``globaldata`` is carried across
every match this bot object plays (Botzone keeps it per bot), unless ``globaldata_scope: match``
resets it at each match start (use that when matches run on several workers and you need the same
bytes on every run: the order in which a worker sees matches is not fixed).

Faults get Botzone's verdicts (the judge then ends the match with ``INVALID_INPUT_VERDICT_<v>``):

=====  ==========================================================================================
TLE    no complete answer before the turn's deadline (``time_limit`` s, and
       ``keep_running_time_limit`` s for later turns of a kept-running process: Botzone's Python
       limits are 6 s and 4 s); the process group is killed at the deadline.
RE     the program could not start, crashed, exited with a non-zero status or by a signal, or
       died between keep-running turns / quit instead of answering a keep-running turn.
MLE    the program died with a memory error while ``memory_limit_mb`` was enforced (RLIMIT_AS).
OLE    more than 1 MiB of output in one turn (Botzone's wrapper limit).
NJ     JSON interaction only: the output (or its first line) is not JSON, including no output at
       all. Botzone's judges name exactly these verdicts (``INVALID_INPUT_VERDICT_NJ`` = "output
       is not JSON"); there is no "NR" verdict in any judge we checked.
=====  ==========================================================================================

Anything that *is* an answer goes to the judge as it is and the judge decides: JSON output without
a ``"response"`` key is the response itself (as Botzone's local runner reads it); a response may be
an object or a string holding JSON. Simple interaction converts the first line the way Botzone's
``response_to_json`` does (JavaScript ``parseInt`` of each space-separated field), so garbage or an
empty line becomes ``{"x": null, ...}`` and the Reversi judge answers ``INVALID_INPUT_VERDICT_OK``.

No call can hang: every read and write waits on a deadline (``selectors``), each program runs in
its own session and process group and the whole group is SIGKILLed on timeout, fault, match end
and :meth:`ExternalBot.close`; on Linux a keep-running process also dies with its parent
(``PR_SET_PDEATHSIG``) so a killed worker leaves nothing behind.
"""

from __future__ import annotations

import atexit
import json
import os
import selectors
import shlex
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
import weakref
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any

from ime.core.bot import Bot, DecisionContext
from ime.core.game import Action, IllegalMoveError, State
from ime.core.bot import BotFault

KEEP_RUNNING_MARKER = ">>>BOTZONE_REQUEST_KEEP_RUNNING<<<"
DEFAULT_TIME_LIMIT = 6.0
"""Botzone's per-turn limit for Python bots (C++: 1 s); seconds of wall time here."""
KEEP_RUNNING_RATIO = 4.0 / 6.0
"""Later keep-running turns get this fraction of ``time_limit`` unless set (Python: 6 s -> 4 s)."""
OUTPUT_LIMIT = 1 << 20
"""Bytes of output per turn before OLE (Botzone's wrapper runs bots with ``-o 1048576``)."""
BOTZONE_MEMORY_LIMIT_MB = 256
"""What the ``memory_limit`` input field says when no limit is enforced (the platform default)."""
STDERR_TAIL = 2000
MARKER_EOL_WAIT = 0.1
"""Seconds to wait for the newline after the keep-running marker before taking the turn."""

_MARKER = KEEP_RUNNING_MARKER.encode()
_MEMORY_HINTS = (b"MemoryError", b"bad_alloc", b"Cannot allocate memory", b"out of memory",
                 b"failed to map segment")
_SPEC_KEYS = {"id", "command", "cwd", "protocol", "keep_running", "time_limit",
              "keep_running_time_limit", "memory_limit_mb", "env", "globaldata",
              "globaldata_scope", "deterministic"}


# --- the spec ------------------------------------------------------------------------------------
@dataclass(frozen=True)
class ExternalSpec:
    """How to run one external bot; built from a ``kind: external`` spec's ``params``."""

    bot_id: str
    command: tuple[str, ...]
    cwd: str | None = None
    protocol: str = "json"
    keep_running: bool = False
    time_limit: float = DEFAULT_TIME_LIMIT
    keep_running_time_limit: float = DEFAULT_TIME_LIMIT * KEEP_RUNNING_RATIO
    memory_limit_mb: int | None = None
    env: Mapping[str, str] = field(default_factory=dict)
    globaldata: str = ""
    globaldata_scope: str = "bot"
    deterministic: bool = False

    @classmethod
    def from_params(cls, bot_id: str, params: Mapping[str, Any]) -> ExternalSpec:
        """Validate a spec up front, so a typo fails when the bot is built, not mid-tournament.

        ``command`` may be a list or a shell-like string (split with :func:`shlex.split`, never
        run through a shell); ``{python}`` in it stands for this interpreter, so an example works
        in any virtual environment. A relative ``cwd`` is taken from the current directory.
        """
        unknown = set(params) - _SPEC_KEYS
        if unknown:
            raise ValueError(f"external bot {bot_id!r}: unknown spec key(s) {sorted(unknown)}; "
                             f"known: {sorted(_SPEC_KEYS)}")
        if params.get("id") not in (None, bot_id):
            raise ValueError(f"external bot {bot_id!r}: spec says id {params['id']!r}")
        raw = params.get("command")
        if isinstance(raw, str):
            argv = shlex.split(raw)
        elif isinstance(raw, Sequence) and all(isinstance(a, (str, int, float)) for a in raw):
            argv = [str(a) for a in raw]
        else:
            raise ValueError(f"external bot {bot_id!r}: 'command' must be a list or a string")
        if not argv:
            raise ValueError(f"external bot {bot_id!r}: empty 'command'")
        argv = [a.replace("{python}", sys.executable) for a in argv]
        cwd = params.get("cwd")
        cwd = str(Path(str(cwd)).expanduser().resolve()) if cwd not in (None, "") else None
        if cwd is not None and not Path(cwd).is_dir():
            raise ValueError(f"external bot {bot_id!r}: cwd {cwd} is not a directory")
        exe = argv[0]
        if os.sep in exe or (os.altsep and os.altsep in exe):
            path = Path(exe) if Path(exe).is_absolute() else Path(cwd or ".") / exe
            if not path.exists():
                raise ValueError(f"external bot {bot_id!r}: program {exe} not found"
                                 + (f" (relative to {cwd})" if cwd else ""))
        elif shutil.which(exe) is None:
            raise ValueError(f"external bot {bot_id!r}: {exe!r} is not on PATH")
        protocol = str(params.get("protocol", "json")).lower()
        if protocol not in ("json", "simple"):
            raise ValueError(f"external bot {bot_id!r}: protocol must be 'json' or 'simple'")
        tl = float(params.get("time_limit", DEFAULT_TIME_LIMIT))
        krtl = float(params.get("keep_running_time_limit", tl * KEEP_RUNNING_RATIO))
        if tl <= 0 or krtl <= 0:
            raise ValueError(f"external bot {bot_id!r}: time limits must be > 0")
        mem = params.get("memory_limit_mb")
        scope = str(params.get("globaldata_scope", "bot"))
        if scope not in ("bot", "match"):
            raise ValueError(f"external bot {bot_id!r}: globaldata_scope must be 'bot' or 'match'")
        env = params.get("env") or {}
        if not isinstance(env, Mapping):
            raise ValueError(f"external bot {bot_id!r}: 'env' must be a mapping")
        return cls(
            bot_id=bot_id, command=tuple(argv), cwd=cwd, protocol=protocol,
            keep_running=bool(params.get("keep_running", False)), time_limit=tl,
            keep_running_time_limit=krtl,
            memory_limit_mb=int(mem) if mem not in (None, 0, "") else None,
            env={str(k): str(v) for k, v in env.items()},
            globaldata=str(params.get("globaldata", "")), globaldata_scope=scope,
            deterministic=bool(params.get("deterministic", False)),
        )


# --- simple interaction codecs -------------------------------------------------------------------
def _js_parse_int(s: str) -> int | None:
    """JavaScript ``parseInt(s)`` (None for NaN): Botzone's simple-IO transform code uses it."""
    s = s.lstrip(" \t\n\r\v\f")
    sign = 1
    if s[:1] in ("+", "-"):
        sign = -1 if s[0] == "-" else 1
        s = s[1:]
    digits = ""
    for c in s:
        if not c.isascii() or not c.isdigit():
            break
        digits += c
    return sign * int(digits) if digits else None


@dataclass(frozen=True)
class SimpleCodec:
    """A game's simple-interaction transform (Botzone ``transform_code``)."""

    request_to_line: Callable[[Any], str]
    response_to_line: Callable[[Any], str]
    line_to_response: Callable[[str], Any]


def _xy_line(obj: Any) -> str:
    if isinstance(obj, str):
        try:
            obj = json.loads(obj)
        except json.JSONDecodeError:
            return obj.strip()
    if isinstance(obj, Mapping):
        return f"{obj.get('x')} {obj.get('y')}"
    return "" if obj is None else str(obj)


def _line_to_xy(line: str) -> dict:
    parts = [_js_parse_int(p) for p in line.split(" ")]
    out: dict[str, int | None] = {"x": parts[0]}
    if len(parts) > 1:  # JSON.stringify drops an undefined y
        out["y"] = parts[1]
    return out


SIMPLE_CODECS: dict[str, SimpleCodec] = {
    "reversi": SimpleCodec(_xy_line, _xy_line, _line_to_xy),
}


# --- one running program -------------------------------------------------------------------------
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


# --- per match-and-seat state --------------------------------------------------------------------
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


@dataclass
class TurnRecord:
    """The last turn of a bot, for debugging and benchmarks (not written to logs)."""

    match_id: str
    player: int
    seconds: float
    kept_running: bool
    debug: Any = ""
    stdout: str = ""


# --- the bot -------------------------------------------------------------------------------------
class ExternalBot(Bot):
    """A bot program run through the Botzone protocol (see the module doc for the rules)."""

    def __init__(self, spec: ExternalSpec, game: str | None = None):
        self.spec = spec
        self.bot_id = spec.bot_id
        self.deterministic = spec.deterministic
        self.game = game
        if spec.protocol == "simple" and game is not None and game not in SIMPLE_CODECS:
            raise ValueError(f"external bot {spec.bot_id!r}: simple interaction is only defined "
                             f"for {sorted(SIMPLE_CODECS)}, not {game}")
        self.globaldata: Any = spec.globaldata
        self.last_turn: TurnRecord | None = None
        self._sessions: dict[tuple[str, int], _Session] = {}
        self._lock = threading.RLock()
        self._warned_marker = False
        self._match_id: str | None = None

    @classmethod
    def from_params(cls, game: str, bot_id: str, params: Mapping[str, Any]) -> ExternalBot:
        """The registry factory: ``make_bot(game, id)`` on a ``kind: external`` spec."""
        return cls(ExternalSpec.from_params(bot_id, params), game=game)

    # -- Bot API ---------------------------------------------------------------------------------
    def act(self, state: State, ctx: DecisionContext) -> Action:
        """An action, for callers that want one (the judge calls :meth:`respond` instead)."""
        response = self.respond(state, ctx)
        try:
            return state.decode_response(ctx.player, response)
        except IllegalMoveError:
            raise
        except Exception as e:  # the judge would call this INVALID_INPUT_VERDICT_OK
            raise IllegalMoveError(ctx.player, "INVALID_INPUT_VERDICT_OK", response) from e

    def respond(self, state: State, ctx: DecisionContext) -> Any:
        """Run one Botzone turn and return the raw response (the judge validates it).

        Raises :class:`~ime.matches.judge.BotFault` with ``TLE``/``RE``/``MLE``/``OLE``/``NJ``.
        """
        with self._lock:
            game = state.game.name
            if self.spec.protocol == "simple" and game not in SIMPLE_CODECS:
                raise ValueError(f"external bot {self.bot_id!r}: simple interaction is not "
                                 f"defined for {game}")
            self._retire_other_matches(ctx.match_id)
            key = (ctx.match_id, ctx.player)
            sess = self._sessions.get(key)
            if sess is not None and not sess.follows(ctx):
                sess.close()  # a fork of this match, or a replay: start over from its transcript
                sess = None
            if sess is None:
                sess = self._sessions[key] = _Session(ctx.match_id, ctx.player)
            try:
                response = self._turn(sess, game, ctx)
            except BotFault:
                sess.close()
                self._sessions.pop(key, None)
                raise
            sess.requests = list(ctx.requests)
            sess.responses = list(ctx.responses) + [response]
            if _ends_match(state, ctx.player, response):
                sess.close()  # Botzone kills a kept-running bot when its match ends
                self._sessions.pop(key, None)
            return response

    def close(self) -> None:
        """Kill every kept-running process of this bot (safe to call more than once)."""
        with self._lock:
            for sess in self._sessions.values():
                sess.close()
            self._sessions.clear()

    def __del__(self) -> None:
        try:
            self.close()
        except Exception:
            pass

    def live_pids(self) -> list[int]:
        """Process ids of kept-running programs (tests use it to check nothing leaks)."""
        return [s.program.pid for s in self._sessions.values() if s.program is not None]

    # -- internals -------------------------------------------------------------------------------
    def _retire_other_matches(self, match_id: str) -> None:
        """A bot plays one match at a time: a new match id ends the previous match's sessions."""
        if match_id != self._match_id:
            self._match_id = match_id
            if self.spec.globaldata_scope == "match":
                self.globaldata = self.spec.globaldata
        for k in [k for k in self._sessions if k[0] != match_id]:
            self._sessions.pop(k).close()

    def _turn(self, sess: _Session, game: str, ctx: DecisionContext) -> Any:
        spec = self.spec
        prog = sess.program
        continuing = prog is not None
        t0 = time.monotonic()
        if prog is not None:
            stray = prog.drain()
            if prog.exited():  # died between turns
                rc = prog.finish()
                detail = _status(rc) + _tail(prog.stderr_tail())
                sess.close()
                raise BotFault("RE", f"kept-running program died between turns: {detail}",
                               raw=stray.decode("utf-8", "replace"))
            payload = self._continue_input(game, ctx)
            limit = spec.keep_running_time_limit
        else:
            payload = self._full_input(game, ctx, sess.data, spec.time_limit)
            limit = spec.time_limit
            prog = sess.program = _Program(
                spec, die_with_parent=spec.keep_running
                and threading.current_thread() is threading.main_thread())
        deadline = t0 + limit
        out, how = prog.exchange(payload, deadline, close_stdin=not spec.keep_running)
        if how == "timeout":
            err = prog.stderr_tail()
            sess.close()
            raise BotFault("TLE", f"no answer within {limit:g} s" + _tail(err),
                           raw=out.decode("utf-8", "replace"))
        if how == "ole":
            sess.close()
            raise BotFault("OLE", f"more than {OUTPUT_LIMIT} bytes of output in one turn")
        kept = False
        err = ""
        at = out.find(_MARKER)
        text = out if at < 0 else out[:at]
        if how == "marker":
            if spec.keep_running:
                kept = True
            else:
                self._warn_marker()
                sess.close()
        else:
            if how == "eof" and not prog.wait_exit(deadline):
                sess.close()
                raise BotFault("TLE", f"closed its output but did not exit within {limit:g} s",
                               raw=out.decode("utf-8", "replace"))
            rc = prog.finish()
            err = prog.stderr_tail()
            sess.close()
            if rc != 0:
                verdict = "MLE" if spec.memory_limit_mb and _memory_error(err, rc) else "RE"
                raise BotFault(verdict, _status(rc) + _tail(err),
                               raw=out.decode("utf-8", "replace"))
            if continuing and not text.strip():  # it quit instead of answering the request
                raise BotFault("RE", "kept-running program exited without answering ("
                               + _status(rc) + ")" + _tail(err))
        seconds = time.monotonic() - t0
        decoded = text.decode("utf-8", "replace")
        if spec.protocol == "simple":
            response, debug, data, globaldata = _parse_simple(decoded, SIMPLE_CODECS[game])
        else:
            try:
                response, debug, data, globaldata = _parse_json(decoded)
            except ValueError as e:
                err = err or prog.stderr_tail()
                sess.close()
                raise BotFault("NJ", f"{e}" + _tail(err), raw=decoded) from None
        sess.data = data if data is not None else ""
        if globaldata not in (None, ""):  # Botzone only updates it when the bot sets it
            self.globaldata = globaldata
        self.last_turn = TurnRecord(ctx.match_id, ctx.player, seconds, kept, debug,
                                    decoded[:STDERR_TAIL])
        return response

    def _full_input(self, game: str, ctx: DecisionContext, data: Any, limit: float) -> bytes:
        """The first-turn (or every-turn) input: the player's whole transcript."""
        mem = self.spec.memory_limit_mb or BOTZONE_MEMORY_LIMIT_MB
        if self.spec.protocol == "simple":
            codec = SIMPLE_CODECS[game]
            lines = [str(len(ctx.requests))]
            for i, req in enumerate(ctx.requests):
                if i:
                    lines.append(codec.response_to_line(ctx.responses[i - 1]))
                lines.append(codec.request_to_line(req))
            lines.append(_text(data))
            lines.append(_text(self.globaldata))
            return ("\n".join(lines) + "\n").encode()
        doc = {"requests": list(ctx.requests), "responses": list(ctx.responses),
               "data": data, "globaldata": self.globaldata,
               "time_limit": limit, "memory_limit": mem}
        return (json.dumps(doc, separators=(",", ":"), ensure_ascii=False) + "\n").encode()

    def _continue_input(self, game: str, ctx: DecisionContext) -> bytes:
        """A later keep-running turn: only the new request."""
        req = ctx.requests[-1]
        if self.spec.protocol == "simple":
            return (SIMPLE_CODECS[game].request_to_line(req) + "\n").encode()
        return (json.dumps(req, separators=(",", ":"), ensure_ascii=False) + "\n").encode()

    def _warn_marker(self) -> None:
        if not self._warned_marker:
            self._warned_marker = True
            print(f"ime: external bot {self.bot_id!r} asked to keep running but its spec has "
                  "keep_running: false; restarting it every turn", file=sys.stderr)


def _ends_match(state: State, player: int, response: Any) -> bool:
    """Does this response end the match (a final move, or one the judge rejects)?

    Only knowable alone when the player is the single mover; in a simultaneous turn the other
    players' answers matter, so only a rejected response counts there.
    """
    after = state.clone()
    try:
        action = after.decode_response(player, response)
        if after.current_players() != [player]:
            return False
        after.apply_action(action)
    except Exception:
        return True
    return after.is_terminal()


def _text(v: Any) -> str:
    if v is None:
        return ""
    return v if isinstance(v, str) else json.dumps(v, separators=(",", ":"), ensure_ascii=False)


def _parse_json(text: str) -> tuple[Any, Any, Any, Any]:
    """Botzone's reading of a JSON-interaction answer: ``(response, debug, data, globaldata)``."""
    s = text.strip()
    if not s:
        raise ValueError("no output (expected one JSON line with a 'response')")
    try:
        obj = json.loads(s)
    except json.JSONDecodeError:
        first = s.splitlines()[0]
        try:
            obj = json.loads(first)
        except json.JSONDecodeError as e:
            raise ValueError(f"output is not JSON ({e.msg} at column {e.colno}): "
                             f"{first[:200]!r}") from None
    if isinstance(obj, dict) and "response" in obj:
        return obj["response"], obj.get("debug", ""), obj.get("data"), obj.get("globaldata")
    return obj, "", None, None


def _parse_simple(text: str, codec: SimpleCodec) -> tuple[Any, Any, Any, Any]:
    lines = text.split("\n")
    first = lines[0].rstrip("\r")
    debug = lines[1] if len(lines) > 1 else ""
    data = lines[2].rstrip("\r") if len(lines) > 2 else None
    glob = "\n".join(lines[3:]).rstrip("\n") if len(lines) > 3 else None
    return codec.line_to_response(first), debug, data, glob


def _status(rc: int) -> str:
    if rc < 0:
        try:
            return f"killed by {signal.Signals(-rc).name}"
        except ValueError:
            return f"killed by signal {-rc}"
    return f"exit status {rc}"


def _tail(stderr: str) -> str:
    stderr = stderr.strip()
    return f"; stderr: ...{stderr[-400:]}" if stderr else ""


def _memory_error(stderr: str, rc: int) -> bool:
    b = stderr.encode("utf-8", "replace")
    return any(h in b for h in _MEMORY_HINTS)


# --- registry ------------------------------------------------------------------------------------
def _factory(game: str, bot_id: str, params: Mapping[str, Any]) -> Bot:
    return ExternalBot.from_params(game, bot_id, params)


def register() -> None:
    """Make ``kind: external`` specs buildable by :func:`ime.bots.registry.make_bot`."""
    from ime.bots.registry import register_kind

    register_kind("external", _factory)


register()


# --- benchmark -----------------------------------------------------------------------------------
_BENCH_BOT = r'''
import json, sys
D = [(1, 0), (-1, 0), (0, 1), (0, -1), (1, 1), (1, -1), (-1, 1), (-1, -1)]
def flips(b, me, x, y):
    if b[x][y]:
        return []
    out = []
    for dx, dy in D:
        run, i, j = [], x + dx, y + dy
        while 0 <= i < 8 and 0 <= j < 8 and b[i][j] == -me:
            run.append((i, j)); i += dx; j += dy
        if run and 0 <= i < 8 and 0 <= j < 8 and b[i][j] == me:
            out += run
    return out
def play(b, me, x, y):
    if x < 0:
        return
    for i, j in flips(b, me, x, y):
        b[i][j] = me
    b[x][y] = me
def choose(b, me):
    for y in range(8):
        for x in range(8):
            if flips(b, me, x, y):
                return {"x": x, "y": y}
    return {"x": -1, "y": -1}
b = [[0] * 8 for _ in range(8)]
b[3][4] = b[4][3] = 1
b[3][3] = b[4][4] = -1
inp = json.loads(sys.stdin.readline())
reqs, resps = inp["requests"], inp["responses"]
me = 1 if reqs[0]["x"] < 0 else -1
for i, r in enumerate(reqs):
    play(b, -me, r["x"], r["y"])
    if i < len(resps):
        play(b, me, resps[i]["x"], resps[i]["y"])
keep = len(sys.argv) > 1
while True:
    move = choose(b, me)
    play(b, me, move["x"], move["y"])
    print(json.dumps({"response": move}))
    if not keep:
        break
    print(">>>BOTZONE_REQUEST_KEEP_RUNNING<<<", flush=True)
    line = sys.stdin.readline()
    if not line:
        break
    r = json.loads(line)
    play(b, -me, r["x"], r["y"])
'''


def bench_external(matches: int = 3, game: str = "reversi",
                   python_flags: Sequence[str] = ()) -> dict[str, float]:
    """Per-turn cost (ms) of an external program vs the same policy in process.

    The same deterministic policy (first legal square in row-major order) plays ``matches``
    matches from seat 0 against an in-process copy of itself, as (a) a JSON-interaction program
    started every turn and (b) a keep-running program; the in-process figure is the same policy
    as a :class:`Bot`. Overhead = external ms/turn - in-process ms/turn; interpreter start-up
    (``python -c pass``) is reported too because it dominates (a): on most machines it is the
    bulk of a one-shot Python bot's turn. ``python_flags`` go to the bench program's
    interpreter (``("-S",)`` skips site-packages: a cheaper start, as for a stdlib-only bot).
    """
    from ime.core.registry import get_game
    from ime.matches.judge import respond, run_match

    g = get_game(game)
    if game != "reversi":
        raise ValueError("bench_external knows a Reversi program only")

    class _First(Bot):
        bot_id = "first"

        def act(self, state: State, ctx: DecisionContext) -> Action:
            return state.legal_actions(ctx.player)[0]

    class _Timed(Bot):
        def __init__(self, inner: Bot):
            self.inner = inner
            self.bot_id = inner.bot_id
            self.times: list[tuple[bool, float]] = []

        def act(self, state: State, ctx: DecisionContext) -> Action:  # pragma: no cover
            raise NotImplementedError

        def respond(self, state: State, ctx: DecisionContext) -> Any:
            t = time.perf_counter()
            r = respond(self.inner, state, ctx)
            self.times.append((len(ctx.requests) == 1, time.perf_counter() - t))
            return r

    def ms(ts: list[float]) -> tuple[float, float, float]:
        ts = sorted(ts)
        return (1e3 * sum(ts) / len(ts), 1e3 * ts[len(ts) // 2],
                1e3 * ts[min(len(ts) - 1, int(0.95 * len(ts)))])

    run_match(g, [_First(), _First()], match_id="bench-warm", seed=0)  # compile the engine
    with tempfile.TemporaryDirectory() as tmp:
        prog = Path(tmp) / "first_bot.py"
        prog.write_text(_BENCH_BOT, encoding="utf-8")
        variants: dict[str, Bot] = {
            "inprocess": _First(),
            "json": ExternalBot(ExternalSpec.from_params(
                "ext_json", {"command": [sys.executable, *python_flags, str(prog)],
                             "time_limit": 30})),
            "keep_running": ExternalBot(ExternalSpec.from_params(
                "ext_kr", {"command": [sys.executable, *python_flags, str(prog), "keep"],
                           "keep_running": True,
                           "time_limit": 30, "keep_running_time_limit": 30})),
        }
        out: dict[str, float] = {}
        logs: dict[str, list] = {}
        for name, bot in variants.items():
            timed = _Timed(bot)
            for m in range(matches):
                res = run_match(g, [timed, _First()], match_id=f"bench-{name}-{m}", seed=0)
                if res.fault is not None:
                    raise RuntimeError(f"bench bot {name} faulted: {res.fault}")
                logs[name] = res.log
            bot.close()
            mean, p50, p95 = ms([t for _, t in timed.times])
            out[f"{name}_ms_per_turn"] = mean
            out[f"{name}_ms_p50"] = p50
            out[f"{name}_ms_p95"] = p95
            out[f"{name}_turns"] = float(len(timed.times))
            if name == "keep_running":
                out["keep_running_first_turn_ms"] = ms([t for f, t in timed.times if f])[0]
                out["keep_running_later_turn_ms"] = ms([t for f, t in timed.times if not f])[0]
        if not (logs["json"] == logs["keep_running"] == logs["inprocess"]):
            raise RuntimeError("bench: the external programs did not play the in-process policy")
    for name in ("json", "keep_running"):
        out[f"{name}_overhead_ms"] = out[f"{name}_ms_per_turn"] - out["inprocess_ms_per_turn"]
    out["keep_running_later_overhead_ms"] = (out["keep_running_later_turn_ms"]
                                             - out["inprocess_ms_per_turn"])
    starts = []
    for _ in range(5):
        t = time.perf_counter()
        subprocess.run([sys.executable, *python_flags, "-c", "pass"], check=True)
        starts.append(time.perf_counter() - t)
    out["python_startup_ms"] = 1e3 * sorted(starts)[2]
    return out
