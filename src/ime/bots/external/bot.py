"""The external-program bot: one Botzone turn per :meth:`ExternalBot.respond`, and its registry
factory (``kind: external`` in ``config/bots/<game>.yaml``).

``data`` is carried between the turns of one match and seat; ``globaldata`` across every match
this bot object plays (Botzone keeps it per bot), unless ``globaldata_scope: match`` resets it at
each match start. A program that prints the keep-running marker stays alive for the next turn of
its match (only with ``keep_running: true`` in the spec); a new match, a fork (a transcript that
does not continue the session's), the end of the match and :meth:`ExternalBot.close` kill it.
"""

from __future__ import annotations

import sys
import threading
import time
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from ime.bots.external.contain import die_with_parent
from ime.bots.external.process import (
    _MARKER,
    STDERR_TAIL,
    _Program,
    _Session,
    memory_error,
    status_text,
    stderr_note,
)
from ime.bots.external.protocol import (
    BOTZONE_MEMORY_LIMIT_MB,
    continue_input,
    full_input,
    parse_json,
    parse_simple,
    simple_codec,
)
from ime.bots.external.spec import ExternalSpec
from ime.core.bot import Bot, BotFault, DecisionContext
from ime.core.codec import SimpleCodec
from ime.core.game import Action, IllegalMoveError, State


@dataclass
class TurnRecord:
    """The last turn of a bot, for debugging and benchmarks (not written to logs)."""

    match_id: str
    player: int
    seconds: float
    kept_running: bool
    debug: Any = ""
    stdout: str = ""


class ExternalBot(Bot):
    """A bot program run through the Botzone protocol (the rules: :mod:`ime.bots.external`)."""

    def __init__(self, spec: ExternalSpec, game: str | None = None):
        self.spec = spec
        self.bot_id = spec.bot_id
        self.deterministic = spec.deterministic
        self.game = game
        if spec.protocol == "simple" and game is not None:
            simple_codec(game, spec.bot_id)  # fail now if the game has no simple mode
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

        Raises :class:`~ime.core.bot.BotFault` with ``TLE``/``RE``/``MLE``/``OLE``/``NJ``.
        """
        with self._lock:
            codec = (simple_codec(state.game.name, self.bot_id)
                     if self.spec.protocol == "simple" else None)
            self._retire_other_matches(ctx.match_id)
            key = (ctx.match_id, ctx.player)
            sess = self._sessions.get(key)
            if sess is not None and not sess.follows(ctx):
                sess.close()  # a fork of this match, or a replay: start over from its transcript
                sess = None
            if sess is None:
                sess = self._sessions[key] = _Session(ctx.match_id, ctx.player)
            try:
                response = self._turn(sess, codec, ctx)
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

    def end_match(self, match_id: str) -> None:
        """``match_id`` is over: kill its kept-running programs and all they started (Botzone
        kills a kept-running bot at its match's end). Without this call they live until the bot's
        next match or :meth:`close` (a match that ends on another seat's move is not seen here).
        """
        with self._lock:
            for k in [k for k in self._sessions if k[0] == match_id]:
                self._sessions.pop(k).close()

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

    def _turn(self, sess: _Session, codec: SimpleCodec | None, ctx: DecisionContext) -> Any:
        spec = self.spec
        prog = sess.program
        continuing = prog is not None
        t0 = time.monotonic()
        if prog is not None:
            prog.err.new_turn()  # stderr written since the last answer counts for this turn
            stray = prog.drain()
            if prog.exited():  # died between turns
                rc = prog.finish()
                detail = status_text(rc) + stderr_note(prog.stderr_tail())
                sess.close()
                raise BotFault("RE", f"kept-running program died between turns: {detail}",
                               raw=stray.decode("utf-8", "replace"))
            payload = continue_input(codec, ctx)
            limit = spec.keep_running_time_limit
        else:
            payload = full_input(codec, ctx, sess.data, self.globaldata, spec.time_limit,
                                 spec.memory_limit_mb or BOTZONE_MEMORY_LIMIT_MB)
            limit = spec.time_limit
            prog = sess.program = _Program(spec, die_with_parent=die_with_parent(spec.keep_running))
        deadline = t0 + limit
        out, how = prog.exchange(payload, deadline, close_stdin=not spec.keep_running)
        if prog.err.over and how != "ole":
            how = "ole_stderr"
        if how == "timeout":
            err = prog.stderr_tail()
            sess.close()
            raise BotFault("TLE", f"no answer within {limit:g} s" + stderr_note(err),
                           raw=out.decode("utf-8", "replace"))
        if how in ("ole", "ole_stderr"):
            _output_limit_exceeded(sess, prog, how, out)
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
                if prog.err.over:
                    _output_limit_exceeded(sess, prog, "ole_stderr", out)
                sess.close()
                raise BotFault("TLE", f"closed its output but did not exit within {limit:g} s",
                               raw=out.decode("utf-8", "replace"))
            rc = prog.finish()
            if prog.err.over:  # its last words, read after it exited
                _output_limit_exceeded(sess, prog, "ole_stderr", out)
            err = prog.stderr_tail()
            sess.close()
            if rc != 0:
                verdict = "MLE" if spec.memory_limit_mb and memory_error(err, rc) else "RE"
                raise BotFault(verdict, status_text(rc) + stderr_note(err),
                               raw=out.decode("utf-8", "replace"))
            if continuing and not text.strip():  # it quit instead of answering the request
                raise BotFault("RE", "kept-running program exited without answering ("
                               + status_text(rc) + ")" + stderr_note(err))
        seconds = time.monotonic() - t0
        decoded = text.decode("utf-8", "replace")
        if codec is not None:
            response, debug, data, globaldata = parse_simple(decoded, codec)
        else:
            try:
                response, debug, data, globaldata = parse_json(decoded)
            except ValueError as e:
                err = err or prog.stderr_tail()
                sess.close()
                raise BotFault("NJ", f"{e}" + stderr_note(err), raw=decoded) from None
        sess.data = data if data is not None else ""
        if globaldata not in (None, ""):  # Botzone only updates it when the bot sets it
            self.globaldata = globaldata
        self.last_turn = TurnRecord(ctx.match_id, ctx.player, seconds, kept, debug,
                                    decoded[:STDERR_TAIL])
        return response

    def _warn_marker(self) -> None:
        if not self._warned_marker:
            self._warned_marker = True
            print(f"ime: external bot {self.bot_id!r} asked to keep running but its spec has "
                  "keep_running: false; restarting it every turn", file=sys.stderr)


def _output_limit_exceeded(sess: _Session, prog: _Program, how: str, out: bytes) -> None:
    """Raise OLE for too much stdout or stderr in one turn, with the output's head for the log
    (the judge keeps 500 characters of a fault's detail)."""
    sess.close()
    spec = prog.spec
    if how == "ole":
        head = out[:200].decode("utf-8", "replace")
        raise BotFault("OLE", f"more than {spec.stdout_limit} bytes on stdout in one turn; "
                              f"head: {head!r}", raw=out[:STDERR_TAIL].decode("utf-8", "replace"))
    head = prog.stderr_head()[:200]
    raise BotFault("OLE", f"more than {spec.stderr_limit} bytes on stderr in one turn; "
                          f"head: {head!r}", raw=out.decode("utf-8", "replace"))


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


# --- registry ------------------------------------------------------------------------------------
def _factory(game: str, bot_id: str, params: Mapping[str, Any]) -> Bot:
    return ExternalBot.from_params(game, bot_id, params)


def register() -> None:
    """Make ``kind: external`` specs buildable by :func:`ime.bots.registry.make_bot`."""
    from ime.bots.registry import register_kind

    register_kind("external", _factory)


register()
