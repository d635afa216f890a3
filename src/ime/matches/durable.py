"""Durable match files: append as matches finish, resume an interrupted run from its prefix.

:func:`ime.matches.runner.play_schedule` writes through these. The file being written is at
every moment a prefix of the uninterrupted run's file (whole lines, schedule order), so an
interrupted run is resumed by reading that prefix back (:func:`resume_point`) and playing the
rest; a torn last line (a kill in the middle of a write) is the only damage a kill can do, and
is cut off. A journal (:func:`journal_path`) is the same file under a name that Snakemake does
not manage, keyed by a fingerprint of everything the matches depend on (:func:`run_fingerprint`).
"""

from __future__ import annotations

import hashlib
import json
import logging
import os
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from ime.matches.runner import MatchSpec

log = logging.getLogger("ime.matches.runner")


class ForeignOutputError(ValueError):
    """The output file exists and is not a prefix of this schedule's output."""


def resume_point(path: str | Path, specs: Sequence[MatchSpec], *, seed: int | None = None,
                 truncate: bool = False) -> int:
    """How many matches of ``specs`` ``path`` already holds, in order (0 if it does not exist).

    A line counts when it is complete (ends with a newline), parses, and is the scheduled match
    (``_id``, the bots in their seats and, when given, the ``seed``). An unreadable *last* line
    is a write torn by a kill: with ``truncate=True`` it is cut off. Anything else (a line of
    another match, more lines than the schedule, an unreadable line followed by others) raises
    :class:`ForeignOutputError` naming the file and line.
    """
    path = Path(path)
    try:
        blob = path.read_bytes()
    except FileNotFoundError:
        return 0
    except OSError as e:
        raise OSError(f"{path}: cannot read: {e}") from e
    lines = blob.split(b"\n")
    tail = lines.pop()  # bytes after the last newline: empty, or a torn line
    keep = 0
    for i, raw in enumerate(lines):
        data = _parse_line(raw)
        if data is None:
            if i == len(lines) - 1 and not tail:
                tail = raw  # a complete but unreadable last line: torn as well
                break
            raise ForeignOutputError(f"{path}: line {i + 1} is not a match our judge wrote; "
                                     "it is not an interrupted run of this schedule")
        if i >= len(specs):
            raise ForeignOutputError(f"{path}: holds more matches than the {len(specs)} "
                                     "scheduled; it is not an interrupted run of this schedule")
        want = specs[i]
        players = [p.get("bot") if isinstance(p, Mapping) else p
                   for p in data.get("players") or []]
        if (data.get("_id") != want.match_id or players != list(want.players)
                or (seed is not None and data.get("seed", seed) != seed)):
            raise ForeignOutputError(
                f"{path}: line {i + 1} is match {data.get('_id')!r} ({players}, seed "
                f"{data.get('seed')}), but this run's match {i + 1} is {want.match_id!r} "
                f"({list(want.players)}, seed {seed}): the file is not an interrupted run of "
                "this schedule")
        keep += len(raw) + 1
    if keep < len(blob) and truncate:
        log.warning("%s: dropping a torn last line (%d bytes) before resuming", path,
                    len(blob) - keep)
        with open(path, "r+b") as f:
            f.truncate(keep)
    return blob[:keep].count(b"\n")


def _parse_line(raw: bytes) -> dict | None:
    try:
        data = json.loads(raw)
    except (ValueError, UnicodeDecodeError):
        return None
    return data if isinstance(data, dict) else None


PROGRAM_SUFFIXES = frozenset({".py", ".js", ".jar", ".class", ".sh", ".pt", ".pth", ".onnx",
                              ".bin", ".exe", ".so", ".yaml", ".yml", ".json"})
"""Files named in a bot's spec that define how it plays (with executables): their size and
mtime are part of the fingerprint. Other files a spec names (a log the bot writes) are not,
or a bot writing one would make its own journal unresumable."""


def run_fingerprint(game_name: str, specs: Sequence[MatchSpec], bot_specs: Mapping[str, Mapping],
                    seed: int, game_params: Mapping[str, Any] | None = None) -> str:
    """A short hash of everything a match's bytes depend on: game, options, seed, the specs of
    the bots that play, the program and model files their specs name (size and mtime: an
    edited bot must not resume from its old matches) and the schedule."""
    used = sorted({b for m in specs for b in m.players})
    files: dict[str, list[int]] = {}

    def note_files(value: Any) -> None:
        if isinstance(value, str) and len(value) < 4096:
            for token in value.split():
                path = Path(token)
                if path.is_file() and (path.suffix in PROGRAM_SUFFIXES or os.access(path,
                                                                                   os.X_OK)):
                    st = path.stat()
                    files[token] = [st.st_size, st.st_mtime_ns]
        elif isinstance(value, Mapping):
            for v in value.values():
                note_files(v)
        elif isinstance(value, (list, tuple)):
            for v in value:
                note_files(v)

    chosen = {b: bot_specs.get(b) for b in used}
    note_files(chosen)
    doc = {"game": game_name, "params": dict(game_params or {}), "seed": seed, "bots": chosen,
           "files": files, "schedule": [[m.match_id, list(m.players)] for m in specs]}
    blob = json.dumps(doc, sort_keys=True, default=str).encode()
    return hashlib.blake2b(blob, digest_size=6).hexdigest()


def journal_path(out_path: str | Path, fingerprint: str) -> Path:
    """``<out>.<fingerprint>.journal``: where :func:`play_schedule` appends with a journal."""
    out_path = Path(out_path)
    return out_path.with_name(f"{out_path.name}.{fingerprint}.journal")


class Appender:
    """Appends lines to a file, flushing each; creates the file at the first line only."""

    def __init__(self, path: Path):
        self.path = path
        self.count = 0
        self._f: Any = None

    def append(self, line: str) -> None:
        if self._f is None:
            self._f = open(self.path, "a", encoding="utf-8")  # noqa: SIM115 - closed in close()
        self._f.write(line + "\n")
        self._f.flush()
        self.count += 1

    def sync(self, create: bool = False) -> None:
        """Make what was appended durable; ``create``: an empty schedule still leaves a file."""
        if self._f is None:
            if create and not self.path.exists():
                self.path.touch()
            return
        os.fsync(self._f.fileno())

    def close(self) -> None:
        if self._f is not None:
            self._f.close()
            self._f = None
