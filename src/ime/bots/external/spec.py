"""How to run one external bot: the validated ``params`` of a ``kind: external`` spec.

Validation happens when the bot is built, so a typo or a missing program fails before the first
match of a tournament, not in the middle of it.
"""

from __future__ import annotations

import os
import re
import shlex
import shutil
import sys
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ime.bots.external.sandbox import check_sandbox

DEFAULT_TIME_LIMIT = 6.0
"""Botzone's per-turn limit for Python bots (C++: 1 s); seconds of wall time here."""
KEEP_RUNNING_RATIO = 4.0 / 6.0
"""Later keep-running turns get this fraction of ``time_limit`` unless set (Python: 6 s -> 4 s)."""

OUTPUT_LIMIT = 1 << 20
"""Bytes of stdout per turn before OLE (Botzone's wrapper runs bots with ``-o 1048576``)."""
STDERR_LIMIT = 1 << 20
"""Bytes of stderr per turn before OLE (Botzone keeps no stderr; ours is bounded the same way)."""

SPEC_KEYS = frozenset({"id", "command", "cwd", "protocol", "keep_running", "time_limit",
                       "keep_running_time_limit", "memory_limit_mb", "env", "globaldata",
                       "globaldata_scope", "deterministic", "stdout_limit", "stderr_limit",
                       "sandbox"})
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
    stdout_limit: int = OUTPUT_LIMIT
    stderr_limit: int = STDERR_LIMIT
    sandbox: str = "none"

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
        _check_script(bot_id, argv, cwd)
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
        limits = {k: _positive_int(bot_id, k, params.get(k, default))
                  for k, default in (("stdout_limit", OUTPUT_LIMIT),
                                     ("stderr_limit", STDERR_LIMIT))}
        sandbox = str(params.get("sandbox") or "none").lower()
        check_sandbox(bot_id, sandbox)
        return cls(
            bot_id=bot_id, command=tuple(argv), cwd=cwd, protocol=protocol,
            keep_running=bool(params.get("keep_running", False)), time_limit=tl,
            keep_running_time_limit=krtl,
            memory_limit_mb=int(mem) if mem not in (None, 0, "") else None,
            env={str(k): str(v) for k, v in env.items()},
            globaldata=str(params.get("globaldata", "")), globaldata_scope=scope,
            deterministic=bool(params.get("deterministic", False)),
            sandbox=sandbox, **limits,
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


def _positive_int(bot_id: str, key: str, value: Any) -> int:
    try:
        n = int(value)
    except (TypeError, ValueError):
        n = 0
    if n <= 0 or isinstance(value, bool):
        raise ValueError(f"external bot {bot_id!r}: {key} must be a positive number of bytes, "
                         f"got {value!r}")
    return n


_INTERPRETERS: dict[str, tuple[frozenset[str], frozenset[str]]] = {
    # name: (options that take the next argument as their value, options after which no script
    # file follows: code on the command line, a module, stdin)
    "python": (frozenset({"-X", "-W", "-Q"}), frozenset({"-c", "-m", "-"})),
    "pypy": (frozenset({"-X", "-W", "-Q"}), frozenset({"-c", "-m", "-"})),
    "node": (frozenset({"-r", "--require", "--import", "--loader"}),
             frozenset({"-e", "--eval", "-p", "--print", "-"})),
    "ruby": (frozenset({"-I", "-r", "-C", "-E"}), frozenset({"-e", "-"})),
    "perl": (frozenset({"-I", "-M", "-m"}), frozenset({"-e", "-E", "-"})),
    "php": (frozenset({"-d", "-c"}), frozenset({"-r", "-"})),
    "lua": (frozenset({"-l"}), frozenset({"-e", "-"})),
    "rscript": (frozenset(), frozenset({"-e", "-"})),
    **{sh: (frozenset({"-o", "-O"}), frozenset({"-c", "-s", "-"}))
       for sh in ("sh", "bash", "dash", "zsh", "ksh")},
}


def script_argument(argv: Sequence[str]) -> str | None:
    """The script file an interpreter command runs (``python3 -u bot.py`` -> ``bot.py``; ``java
    -jar bot.jar`` -> ``bot.jar``), or None (not an interpreter we know, or code given inline)."""
    name = re.sub(r"[\d.]+$", "", Path(argv[0]).name.lower().removesuffix(".exe"))
    name = {"nodejs": "node", "luajit": "lua"}.get(name, name)
    if name == "java":
        return argv[argv.index("-jar") + 1] if "-jar" in argv[1:-1] else None
    if name not in _INTERPRETERS:
        return None
    takes_value, inline = _INTERPRETERS[name]
    i = 1
    while i < len(argv):
        a = argv[i]
        if a == "--":
            return argv[i + 1] if i + 1 < len(argv) else None
        if a == "-" or not a.startswith("-"):
            return None if a == "-" else a
        flag = a.split("=", 1)[0]
        if flag in inline or (not a.startswith("--") and any(f"-{c}" in inline for c in a[1:])):
            return None
        i += 2 if flag in takes_value and a == flag else 1
    return None


def _check_script(bot_id: str, argv: Sequence[str], cwd: str | None) -> None:
    """An interpreter's script must exist (relative to ``cwd``): otherwise every turn is an RE."""
    script = script_argument(argv)
    if script is None:
        return
    path = Path(script).expanduser()
    path = path if path.is_absolute() else Path(cwd or os.getcwd()) / path
    if not path.exists():
        raise ValueError(f"external bot {bot_id!r}: script {script} not found (looked for "
                         f"{path})")
