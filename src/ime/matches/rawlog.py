"""Botzone match-log files as lines: reading them safely, writing them, and their parts.

Reading is where bad input arrives, so :func:`iter_raw_matches` turns every line into either a
:class:`RawMatch` or a :class:`BadMatch` that names the file, the 1-based line number and the
match id (when one could be read), and a whole-file problem (empty, UTF-16, a zip archive) into
one :class:`BadMatch` at line 0. Nothing here knows the rules of a game: validation by replay is
:mod:`ime.matches.replay`, and :mod:`ime.matches.logs` puts the two together.
"""

from __future__ import annotations

import gzip
import json
import os
from collections.abc import Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any

from ime.matches.judge import MatchResult

MAX_REPORTED = 5


@dataclass
class BadMatch:
    """One rejected line: where it is and why."""

    path: str
    line: int
    match_id: str | None
    reason: str
    kind: str = "bad_match"

    def __str__(self) -> str:
        mid = self.match_id or "?"
        return f"{self.path}:{self.line}: match {mid}: {self.reason}"

    def to_json(self) -> dict:
        return {"file": self.path, "line": self.line, "match_id": self.match_id,
                "kind": self.kind, "reason": self.reason}


class LogFormatError(ValueError):
    """Raised in strict mode; its message names file, line and match id of the first problems."""

    def __init__(self, path: str, bad: Sequence[BadMatch], n_bad: int, n_total: int):
        head = "\n  ".join(str(b) for b in bad[:MAX_REPORTED])
        more = f"\n  ... and {n_bad - MAX_REPORTED} more" if n_bad > MAX_REPORTED else ""
        super().__init__(
            f"{path}: {n_bad} of {n_total} matches are bad (strict mode; use lenient mode to "
            f"quarantine them):\n  {head}{more}"
        )
        self.path = path
        self.bad = list(bad)
        self.n_bad = n_bad
        self.n_total = n_total


@dataclass
class RawMatch:
    """A parsed line: the match JSON and where it came from."""

    path: str
    line: int
    data: dict

    @property
    def match_id(self) -> str:
        mid = self.data.get("_id")
        if isinstance(mid, Mapping) and "$oid" in mid:  # a MongoDB export of a match
            mid = mid["$oid"]
        return str(mid) if mid not in (None, "") else f"{Path(self.path).name}:{self.line}"

    def bot_ids(self) -> list[str]:
        return [str(p.get("bot", p.get("name", "?"))) if isinstance(p, Mapping) else str(p)
                for p in self.data.get("players", [])]



@contextmanager
def atomic_write(path: str | Path, mode: str = "w") -> Iterator[IO]:
    """Open a temporary file beside ``path``; on success it replaces ``path`` in one rename.

    A reader sees the old file or the new one, never half of one; a failure (an exception, a
    signal that unwinds) removes the temporary file and leaves ``path`` as it was. The
    directory is created. The temporary name is hidden and holds our pid
    (``.<name>.<pid>.tmp``), so two writers never share one.
    """
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    kwargs = {} if "b" in mode else {"encoding": "utf-8"}
    try:
        with open(tmp, mode, **kwargs) as f:
            yield f
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    finally:
        tmp.unlink(missing_ok=True)


def atomic_write_text(path: str | Path, text: str) -> None:
    """``path.write_text(text)``, atomically (:func:`atomic_write`)."""
    with atomic_write(path) as f:
        f.write(text)


def write_matches(path: str | Path, matches: Iterable[MatchResult | Mapping]) -> int:
    """Write matches as compact JSON lines, atomically; returns how many were written."""
    n = 0
    with atomic_write(path) as f:
        for m in matches:
            data = m.to_json() if isinstance(m, MatchResult) else m
            f.write(json.dumps(data, separators=(",", ":"), ensure_ascii=False))
            f.write("\n")
            n += 1
    return n


_BOMS = [
    (b"\xff\xfe\x00\x00", "UTF-32 (little-endian, with BOM)"),
    (b"\x00\x00\xfe\xff", "UTF-32 (big-endian, with BOM)"),
    (b"\xff\xfe", "UTF-16 (little-endian, with BOM)"),
    (b"\xfe\xff", "UTF-16 (big-endian, with BOM)"),
]


def _file_problem(blob: bytes) -> tuple[str, str] | None:
    """A whole-file reason the bytes cannot be JSON lines (wrong encoding, an archive)."""
    for bom, name in _BOMS:
        if blob.startswith(bom):
            return "encoding", (f"file is {name}, not UTF-8: convert it first, e.g. "
                                f"`iconv -f {name.split()[0]} -t UTF-8`")
    if blob.startswith(b"PK\x03\x04"):
        return "archive", "file is a zip archive: unzip it and read the .matches file inside"
    head = blob[:4096]
    if head.count(b"\x00") > len(head) // 4:
        return "encoding", ("file has NUL bytes every other byte: UTF-16 without a BOM? "
                            "convert it to UTF-8 first")
    return None


def _not_utf8(raw: bytes, e: UnicodeDecodeError) -> str:
    hint = ""
    try:
        raw.decode("gb18030")
        hint = " (it decodes as GBK/GB18030: re-save the file as UTF-8)"
    except UnicodeDecodeError:
        pass
    return f"not UTF-8 (wrong encoding?): {e.reason} at byte {e.start}{hint}"


def iter_raw_matches(path: str | Path) -> Iterator[RawMatch | BadMatch]:
    """Yield a :class:`RawMatch` per good JSON line or a :class:`BadMatch` per unreadable one.

    A problem with the whole file (empty, UTF-16/32, a zip archive) is one :class:`BadMatch` at
    line 0; a gzip-compressed file is read transparently.
    """
    p = str(path)
    try:
        blob = Path(path).read_bytes()
    except OSError as e:
        raise LogFormatError(p, [BadMatch(p, 0, None, f"cannot read file: {e}", "unreadable")],
                             1, 1) from e
    if blob.startswith(b"\x1f\x8b"):
        try:
            blob = gzip.decompress(blob)
        except (OSError, EOFError) as e:
            yield BadMatch(p, 0, None, f"broken gzip file: {e}", "archive")
            return
    if not blob.strip():
        yield BadMatch(p, 0, None, "empty file: no matches", "empty_file")
        return
    problem = _file_problem(blob)
    if problem is not None:
        yield BadMatch(p, 0, None, problem[1], problem[0])
        return
    if blob.startswith(b"\xef\xbb\xbf"):
        blob = blob[3:]
    lines = blob.split(b"\n")
    for i, raw in enumerate(lines, start=1):
        if not raw.strip():
            continue
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError as e:
            yield BadMatch(p, i, _sniff_id(raw.decode("latin-1")), _not_utf8(raw, e), "encoding")
            continue
        try:
            data = json.loads(text)
        except json.JSONDecodeError as e:
            if e.pos >= len(text.rstrip()) or e.msg.startswith("Unterminated string"):
                yield BadMatch(p, i, _sniff_id(text),
                               f"truncated line: the JSON stops after {len(text.rstrip())} "
                               f"characters ({e.msg})", "truncated")
            else:
                yield BadMatch(p, i, _sniff_id(text),
                               f"malformed JSON: {e.msg} at column {e.colno}", "malformed_json")
            continue
        if not isinstance(data, dict):
            yield BadMatch(p, i, None, f"a match must be a JSON object, got "
                           f"{type(data).__name__}", "structure")
            continue
        yield RawMatch(p, i, data)


def _sniff_id(text: str) -> str | None:
    key = '"_id":"'
    at = text.replace(" ", "").find(key)
    if at < 0:
        return None
    rest = text.replace(" ", "")[at + len(key):]
    end = rest.find('"')
    return rest[:end] if end > 0 else None


def player_entries(data: Mapping) -> list[Mapping[str, Any]]:
    """The player entries (odd indices) of a Botzone log."""
    return [e for k, e in enumerate(data["log"]) if k % 2 == 1]


def finish_scores(data: Mapping) -> list[float]:
    content = data["log"][-1]["output"]["content"]
    return [float(content[str(p)]) for p in range(len(content))]


def parse_initdata(initdata: Any) -> Any:
    """Some games store ``initdata`` as a JSON string: parse it, keep other values as they are."""
    if isinstance(initdata, str) and initdata.strip().startswith(("{", "[")):
        return json.loads(initdata)
    return initdata


def write_rejects(path: str | Path, rejected: Iterable[BadMatch]) -> int:
    """The rejects as JSON lines (file, line, match id, kind, reason), atomically; returns how
    many."""
    n = 0
    with atomic_write(path) as f:
        for b in rejected:
            f.write(json.dumps(b.to_json(), ensure_ascii=False) + "\n")
            n += 1
    return n

