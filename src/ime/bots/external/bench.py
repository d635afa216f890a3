"""What a turn of an external program costs, against the same policy in process.

The game brings the program (by convention ``bench_bot.py`` in its package): a Python script
that reads Botzone JSON input and plays the first of the player's legal actions in the engine's
``legal_actions`` order, and that keeps running when started with the extra argument ``keep``.
The bench checks that all three variants played the same matches, so a program that does not
follow the in-process policy is an error, not a silently wrong figure.
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from ime.bots.external.bot import ExternalBot
from ime.bots.external.spec import ExternalSpec
from ime.core.bot import Bot, DecisionContext
from ime.core.game import Action, State


class _First(Bot):
    """The bench policy in process: the first legal action."""

    bot_id = "first"

    def act(self, state: State, ctx: DecisionContext) -> Action:
        return state.legal_actions(ctx.player)[0]


class _Timed(Bot):
    """Wraps a bot and records (first turn of the match?, seconds) for every response."""

    def __init__(self, inner: Bot):
        self.inner = inner
        self.bot_id = inner.bot_id
        self.times: list[tuple[bool, float]] = []

    def act(self, state: State, ctx: DecisionContext) -> Action:  # pragma: no cover
        raise NotImplementedError

    def respond(self, state: State, ctx: DecisionContext) -> Any:
        from ime.matches.judge import respond

        t = time.perf_counter()
        r = respond(self.inner, state, ctx)
        self.times.append((len(ctx.requests) == 1, time.perf_counter() - t))
        return r


def _ms(ts: list[float]) -> tuple[float, float, float]:
    """Mean, median and 95th percentile of ``ts`` seconds, in milliseconds."""
    ts = sorted(ts)
    return (1e3 * sum(ts) / len(ts), 1e3 * ts[len(ts) // 2],
            1e3 * ts[min(len(ts) - 1, int(0.95 * len(ts)))])


def bench_external(program: str | os.PathLike[str], game: str, matches: int = 3,
                   python_flags: Sequence[str] = ()) -> dict[str, float]:
    """Per-turn cost (ms) of an external program vs the same policy in process.

    ``program`` (see the module doc) plays ``matches`` matches of ``game`` from seat 0 against
    an in-process copy of its policy, as (a) a JSON-interaction program started every turn and
    (b) a keep-running program; the in-process figure is the same policy as a :class:`Bot`.
    Overhead = external ms/turn - in-process ms/turn; interpreter start-up (``python -c pass``)
    is reported too because it dominates (a): on most machines it is the bulk of a one-shot
    Python bot's turn. ``python_flags`` go to the program's interpreter (``("-S",)`` skips
    site-packages: a cheaper start, as for a stdlib-only bot).
    """
    from ime.core.registry import get_game
    from ime.matches.judge import run_match

    g = get_game(game)
    prog = str(Path(program).resolve())
    if not Path(prog).is_file():
        raise FileNotFoundError(f"bench_external: no program at {prog}")
    run_match(g, [_First()] * g.num_players, match_id="bench-warm", seed=0)  # compile the engine
    variants: dict[str, Bot] = {
        "inprocess": _First(),
        "json": ExternalBot(ExternalSpec.from_params(
            "ext_json", {"command": [sys.executable, *python_flags, prog], "time_limit": 30})),
        "keep_running": ExternalBot(ExternalSpec.from_params(
            "ext_kr", {"command": [sys.executable, *python_flags, prog, "keep"],
                       "keep_running": True, "time_limit": 30, "keep_running_time_limit": 30})),
    }
    out: dict[str, float] = {}
    logs: dict[str, list] = {}
    for name, bot in variants.items():
        timed = _Timed(bot)
        try:
            for m in range(matches):
                # the same match ids for every variant: a game that deals or draws its start
                # from the match id (card games, random boards) gives every variant the same games
                res = run_match(g, [timed, *[_First()] * (g.num_players - 1)],
                                match_id=f"bench-{m}", seed=0)
                if res.fault is not None:
                    raise RuntimeError(f"bench bot {name} faulted: {res.fault}")
                logs[name] = res.log
        finally:
            bot.close()
        mean, p50, p95 = _ms([t for _, t in timed.times])
        out[f"{name}_ms_per_turn"] = mean
        out[f"{name}_ms_p50"] = p50
        out[f"{name}_ms_p95"] = p95
        out[f"{name}_turns"] = float(len(timed.times))
        if name == "keep_running":
            out["keep_running_first_turn_ms"] = _ms([t for f, t in timed.times if f])[0]
            out["keep_running_later_turn_ms"] = _ms([t for f, t in timed.times if not f])[0]
    if not (logs["json"] == logs["keep_running"] == logs["inprocess"]):
        raise RuntimeError(f"bench: {prog} did not play the in-process policy (first legal "
                           "action)")
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
