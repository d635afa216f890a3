"""How to run one external bot: the validated ``params`` of a ``kind: external`` spec.

Validation happens when the bot is built, so a typo or a missing program fails before the first
match of a tournament, not in the middle of it.
"""

from __future__ import annotations

import os
import shlex
import shutil
import sys
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

DEFAULT_TIME_LIMIT = 6.0
"""Botzone's per-turn limit for Python bots (C++: 1 s); seconds of wall time here."""
KEEP_RUNNING_RATIO = 4.0 / 6.0
"""Later keep-running turns get this fraction of ``time_limit`` unless set (Python: 6 s -> 4 s)."""

SPEC_KEYS = frozenset({"id", "command", "cwd", "protocol", "keep_running", "time_limit",
                       "keep_running_time_limit", "memory_limit_mb", "env", "globaldata",
                       "globaldata_scope", "deterministic"})
"""Every key a ``kind: external`` spec's ``params`` may hold."""


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
        unknown = set(params) - SPEC_KEYS
        if unknown:
            raise ValueError(f"external bot {bot_id!r}: unknown spec key(s) {sorted(unknown)}; "
                             f"known: {sorted(SPEC_KEYS)}")
        if params.get("id") not in (None, bot_id):
            raise ValueError(f"external bot {bot_id!r}: spec says id {params['id']!r}")
        argv = _command(bot_id, params.get("command"))
        cwd = params.get("cwd")
        cwd = str(Path(str(cwd)).expanduser().resolve()) if cwd not in (None, "") else None
        if cwd is not None and not Path(cwd).is_dir():
            raise ValueError(f"external bot {bot_id!r}: cwd {cwd} is not a directory")
        _check_program(bot_id, argv[0], cwd)
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


def _command(bot_id: str, raw: Any) -> list[str]:
    """``command`` as an argv list, ``{python}`` replaced by this interpreter."""
    if isinstance(raw, str):
        argv = shlex.split(raw)
    elif isinstance(raw, Sequence) and all(isinstance(a, (str, int, float)) for a in raw):
        argv = [str(a) for a in raw]
    else:
        raise ValueError(f"external bot {bot_id!r}: 'command' must be a list or a string")
    if not argv:
        raise ValueError(f"external bot {bot_id!r}: empty 'command'")
    return [a.replace("{python}", sys.executable) for a in argv]


def _check_program(bot_id: str, exe: str, cwd: str | None) -> None:
    """A path must exist (relative to ``cwd``); a bare name must be on ``PATH``."""
    if os.sep in exe or (os.altsep and os.altsep in exe):
        path = Path(exe) if Path(exe).is_absolute() else Path(cwd or ".") / exe
        if not path.exists():
            raise ValueError(f"external bot {bot_id!r}: program {exe} not found"
                             + (f" (relative to {cwd})" if cwd else ""))
    elif shutil.which(exe) is None:
        raise ValueError(f"external bot {bot_id!r}: {exe!r} is not on PATH")
