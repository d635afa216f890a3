"""What Snakemake recorded about every file it built, and which built files are stale.

Snakemake 9 keeps one JSON record per output file in ``.snakemake/metadata/`` (the default
``file`` persistence backend), named by the urlsafe base64 of the output's path (split into
``@``-prefixed folders when longer than a file name may be). A record holds the ``rule``, the
``input`` paths, the job's ``params`` and, for every input of at most
``--max-checksum-file-size`` bytes (default 1 MB), its ``sha256`` at the time the job ran
(``input_checksums``). Outputs of a job that never finished are marked in
``.snakemake/incomplete/``. Records survive the deletion of the file they describe.

Snakemake decides what to run by timestamps, like Make: an output is rebuilt when it is missing
or older than an input. A *deleted intermediate* is therefore not rebuilt while the files built
from it exist (``snakemake results/.../table4_4.csv`` says "Nothing to be done" after a model is
deleted), and a file changed in place with its mtime kept (a flipped byte) triggers nothing.
:func:`staleness` finds both from the records: an input that is gone, an input whose bytes are
not those the job read, an input newer than the output (unless Snakemake itself holds its sha256
and the bytes are still those: Snakemake then reruns nothing, and neither is the file stale), an
input that is itself stale.

A record outlives its file, also when the file never was whole: Snakemake writes the records of a
job that fails (with the sha256 of the inputs it read) and deletes the job's outputs. Such a
record is no evidence about its inputs, so only records whose file exists make consumers
(:attr:`Provenance.consumers`); a gone file's record still says that the workflow built it.

:func:`run_configs` finds, in Snakemake's own logs, the run that last built each file and that
run's ``--config``: a rebuild command must compose the variant that the file belongs to, not the
last run's (a results directory of one variant is no target of another).
"""

from __future__ import annotations

import ast
import base64
import hashlib
import json
import os
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any


@dataclass
class Record:
    """One output's Snakemake record (the fields ``ime verify`` uses)."""

    path: str
    rule: str
    inputs: list[str]
    checksums: dict[str, str]
    params: list[Any] = field(default_factory=list)
    incomplete: bool = False
    job: tuple[Any, ...] = ()
    """``(rule, job_hash, starttime)``: the outputs of one job share the rule and hash, and
    start within a fraction of a second of each other."""

    def param(self, key: str) -> Any:
        """The first value of ``key`` in the job's params (dicts, also inside dicts)."""
        for p in self.params:
            found = _find_key(p, key)
            if found is not None:
                return found
        return None


def _find_key(value: Any, key: str) -> Any:
    if isinstance(value, str):
        try:
            value = ast.literal_eval(value)
        except (ValueError, SyntaxError, MemoryError, RecursionError):
            return None
    if isinstance(value, Mapping):
        if key in value:
            return value[key]
        for v in value.values():
            if isinstance(v, Mapping):
                found = _find_key(v, key)
                if found is not None:
                    return found
    return None


def _decode_ids(base: Path) -> Iterator[tuple[str, Path]]:
    """``(path, record file)`` for every record under ``base`` (long ids split in folders)."""
    if not base.is_dir():
        return
    for dirpath, _dirs, files in os.walk(base):
        rel = Path(dirpath).relative_to(base)
        prefix = "".join(part[1:] if part.startswith("@") else part for part in rel.parts)
        for name in files:
            if name == "migration_underway":
                continue
            try:
                yield base64.urlsafe_b64decode(prefix + name).decode(), Path(dirpath) / name
            except (ValueError, UnicodeDecodeError):
                continue


def load_records(root: str | Path) -> dict[str, Record]:
    """Every record of the workflow in ``root`` (keyed by the path as the rules wrote it)."""
    root = Path(root)
    incomplete = {p for p, _ in _decode_ids(root / ".snakemake" / "incomplete")}
    out: dict[str, Record] = {}
    for path, file in _decode_ids(root / ".snakemake" / "metadata"):
        try:
            doc = json.loads(file.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            continue
        checks = {k: v for k, v in (doc.get("input_checksums") or {}).items()
                  if isinstance(v, str)}
        out[path] = Record(path=path, rule=str(doc.get("rule") or "?"),
                           inputs=[str(i) for i in doc.get("input") or []], checksums=checks,
                           params=list(doc.get("params") or []),
                           incomplete=bool(doc.get("incomplete")) or path in incomplete,
                           job=(doc.get("rule"), doc.get("job_hash"), doc.get("starttime")))
    for path in incomplete - set(out):  # a job that never finished has no full record
        out[path] = Record(path=path, rule="?", inputs=[], checksums={}, incomplete=True)
    return out


def file_hash(path: Path, algorithm: str = "sha256") -> str:
    """The hex digest of a file, read in 1 MiB blocks (Snakemake's ``input_checksums``)."""
    h = hashlib.new(algorithm)
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


@dataclass
class Stale:
    """Why a built file no longer matches what it was built from."""

    path: str
    reason: str
    cause: str
    """The input at the root of it: the file to rebuild (``--forcerun``)."""
    kind: str
    """``incomplete``, ``missing_input``, ``missing_source``, ``changed_input``,
    ``newer_input``."""


class Provenance:
    """Staleness of built files, from the records, with results memoised along the chains."""

    def __init__(self, root: str | Path, records: Mapping[str, Record]):
        self.root = Path(root)
        self.records = dict(records)
        self._memo: dict[str, Stale | None] = {}
        self._hashes: dict[str, str | None] = {}
        self.consumers: dict[str, list[str]] = {}
        """The existing files built from each file. A gone file's record is left out: a failed
        job's record (written, then its outputs deleted) holds the sha256 of bytes that were
        bad, and a deleted file describes nothing on disk."""
        self._jobs: dict[tuple[Any, Any], list[str]] = {}
        for out, rec in self.records.items():
            if rec.job and rec.job[1] is not None:
                self._jobs.setdefault(rec.job[:2], []).append(out)
            if self._mtime(out) is None:
                continue
            for i in rec.inputs:
                self.consumers.setdefault(i, []).append(out)

    def abs(self, rel: str) -> Path:
        return self.root / rel

    def _mtime(self, rel: str) -> int | None:
        try:
            return self.abs(rel).stat().st_mtime_ns
        except OSError:
            return None

    def _hash(self, rel: str, algorithm: str) -> str | None:
        key = f"{algorithm}:{rel}"
        if key not in self._hashes:
            try:
                self._hashes[key] = file_hash(self.abs(rel), algorithm)
            except (OSError, ValueError):
                self._hashes[key] = None
        return self._hashes[key]

    def changed_bytes(self, rel: str, recorded: str) -> bool:
        """Do ``rel``'s bytes differ from a recorded ``algorithm:hexdigest``?"""
        algorithm, _, digest = recorded.partition(":")
        if not digest:
            algorithm, digest = "sha256", recorded
        try:
            now = self._hash(rel, algorithm)
        except (ValueError, TypeError):
            return False
        return now is not None and now != digest

    def staleness(self, rel: str, _depth: int = 0) -> Stale | None:
        """Why ``rel`` (a built file) is stale, or None when it is up to date or unrecorded."""
        if rel in self._memo:
            return self._memo[rel]
        self._memo[rel] = None  # a cycle (never in a DAG) ends here
        result = self._staleness(rel, _depth)
        self._memo[rel] = result
        return result

    def _staleness(self, rel: str, depth: int) -> Stale | None:
        rec = self.records.get(rel)
        if rec is None or depth > 200:
            return None
        if rec.incomplete:
            return Stale(rel, "its job never finished (Snakemake marks it incomplete)", rel,
                         "incomplete")
        mine = self._mtime(rel)
        for i in rec.inputs:
            when = self._mtime(i)
            built = i in self.records  # an intermediate, else a source (raw logs, a pack)
            if when is None and built:
                return Stale(rel, f"built from {i}, which is missing (Snakemake does not "
                                  "rebuild a deleted intermediate while this file exists)",
                             i, "missing_input")
            if when is None:
                return Stale(rel, f"built from {i}, which is missing and is not built by the "
                                  "workflow (a source: restore it)", i, "missing_source")
            recorded = rec.checksums.get(i)
            if recorded and self.changed_bytes(i, recorded):
                return Stale(rel, f"built from {i}, whose bytes are no longer those it was "
                                  "built from (sha256 recorded by Snakemake)",
                             i if built else rel, "changed_input")
            if mine is not None and when > mine and not self.read_as_now(rel, i):
                return Stale(rel, f"older than its input {i}, whose bytes Snakemake did not "
                                  "record (snakemake rebuilds it when asked for it)", rel,
                             "newer_input")
        for i in rec.inputs:
            up = self.staleness(i, depth + 1)
            if up is not None:
                return Stale(rel, f"built from {i}, which is stale: {up.reason}", up.cause,
                             up.kind)
        return None

    def read_as_now(self, rel: str, i: str) -> bool:
        """Did the job that wrote ``rel`` read the bytes ``i`` holds now? Snakemake's own test
        for an input newer than a job's outputs (``DAG.update_needrun``): the job is not rerun
        when the records of all its outputs hold one sha256 of ``i`` and it is ``i``'s now (a
        file rebuilt to the same bytes). Mirrored here so that ``ime verify`` never calls a
        file stale that the next run leaves alone."""
        seen = {self.records[o].checksums.get(i) for o in [rel, *self.siblings(rel)]}
        if len(seen) != 1 or None in seen:
            return False
        return not self.changed_bytes(i, seen.pop())

    def damaged_since_read(self, rel: str) -> str | None:
        """A consumer that read ``rel`` recorded its sha256, ``rel`` is not newer than that
        consumer, and its bytes differ: changed in place after it was written (damage, or an
        edit that kept the mtime). Returns the consumer, or None. Only existing consumers
        count (:attr:`consumers`): a failed job's record holds the sha256 of the bytes that
        failed it, which a rebuilt file rightly no longer has."""
        mine = self._mtime(rel)
        for out in self.consumers.get(rel, []):
            recorded = self.records[out].checksums.get(rel)
            if not recorded:
                continue
            theirs = self._mtime(out)
            if mine is not None and theirs is not None and mine > theirs:
                continue  # rebuilt after the consumer ran: the consumer is stale, not this
            if self.changed_bytes(rel, recorded):
                return out
        return None

    def siblings(self, rel: str) -> list[str]:
        """The other outputs of the job that wrote ``rel`` (a rebuild rewrites them too)."""
        rec = self.records.get(rel)
        if rec is None or not rec.job or rec.job[1] is None:
            return []
        start = rec.job[2]
        return sorted(o for o in self._jobs.get(rec.job[:2], [])
                      if o != rel and abs((self.records[o].job[2] or 0) - (start or 0)) < 60)

    def sinks(self, rel: str) -> list[str]:
        """Existing files built (transitively) from ``rel`` or from the other outputs of its
        job, from which no existing file is built: the targets that make a rebuild of ``rel``
        reach every file it makes stale."""
        start = [rel, *self.siblings(rel)]
        seen = set(start)
        stack = list(start)
        out: list[str] = []
        while stack:
            cur = stack.pop()
            users = [c for c in self.consumers.get(cur, []) if self.abs(c).exists()]
            if not users and cur not in start and self.abs(cur).exists():
                out.append(cur)
            for c in users:
                if c not in seen:
                    seen.add(c)
                    stack.append(c)
        return sorted(out)


CONFIG_OPTIONS = ("--config", "--configfile", "--configfiles", "--profile", "--workflow-profile",
                  "--snakefile", "-s")
MANY_VALUES = ("--config", "--configfile", "--configfiles")
"""The options of :data:`CONFIG_OPTIONS` that take every value after them (the others one)."""
OUTPUT_LINE = "    output: "
"""How a Snakemake log lists a job's outputs (one line per job, the paths joined by ", ")."""


@dataclass
class Run:
    """One Snakemake run, from its log."""

    start: float | None
    """When it started (the log's name, ``2026-12-02T003534.650730``, local time)."""
    config: list[str]
    """Its config options (shell-quoted, ready to print)."""
    quiet: bool
    """Its log lists no job (``snakemake -q``): which files it wrote only their records'
    start times say."""


@dataclass
class RunConfigs:
    """The config options of the Snakemake runs in a workflow folder, from their logs."""

    runs: list[Run] = field(default_factory=list)
    """Oldest first."""
    built: dict[str, int] = field(default_factory=dict)
    """Per file, the newest run (its index) whose log lists a job writing it."""

    def of(self, rel: str, started: float | None = None) -> list[str]:
        """The options of the run that wrote ``rel`` last: a composition of the variant it
        belongs to. ``started``: when that job started (its record's ``starttime``), which
        finds a quiet run. The newest run's options when no log accounts for ``rel``."""
        listed = self.built.get(rel)
        if started is not None:
            at = [k for k, run in enumerate(self.runs)
                  if run.start is not None and run.start <= started]
            if at and (listed is None or (at[-1] > listed and self.runs[at[-1]].quiet)):
                return self.runs[at[-1]].config
        if listed is not None:
            return self.runs[listed].config
        return self.runs[-1].config if self.runs else []


def run_configs(root: str | Path) -> RunConfigs:
    """Which run built each file, from ``.snakemake/log/*.snakemake.log`` (oldest first, so the
    newest run that wrote a file wins): each log's ``Command:`` line gives the run's config
    options, its jobs' ``output:`` lines the files, its name when it started. A dry run writes
    no log. Empty when there is no log: the rebuild commands then carry no config."""
    from datetime import datetime

    out = RunConfigs()
    for log in sorted((Path(root) / ".snakemake" / "log").glob("*.snakemake.log")):
        config: list[str] | None = None
        outputs: list[str] = []
        try:
            with open(log, encoding="utf-8", errors="replace") as f:
                for line in f:
                    if config is None and line.strip().startswith("Command:"):
                        config = _config_options(line.split("Command:", 1)[1])
                    elif config is not None and line.startswith(OUTPUT_LINE):
                        outputs += line[len(OUTPUT_LINE):].rstrip("\n").split(", ")
        except OSError:
            continue
        if config is None:
            continue
        try:
            start: float | None = datetime.strptime(
                log.name.split(".snakemake")[0], "%Y-%m-%dT%H%M%S.%f").timestamp()
        except ValueError:
            start = None
        out.built.update(dict.fromkeys(outputs, len(out.runs)))
        out.runs.append(Run(start, config, quiet=not outputs))
    return out


def _config_options(command: str) -> list[str]:
    """The config options (``--config ...``, ``--configfile``, ``--profile``) of a logged
    ``snakemake`` command line, each shell-quoted. Snakemake logs ``" ".join(sys.argv)``, so the
    line is split at spaces, not parsed as shell words: a quote in an argument
    (``overrides=["scale=tiny"]``) is part of it (an argument holding a space cannot be told
    from two)."""
    import shlex

    argv = command.split()
    out: list[str] = []
    i = 0
    while i < len(argv):
        tok = argv[i]
        i += 1
        name = tok.split("=", 1)[0]
        if name in CONFIG_OPTIONS:
            out.append(tok)
            while name == tok and i < len(argv) and not argv[i].startswith("-"):
                out.append(argv[i])
                i += 1
                if name not in MANY_VALUES:
                    break
    return [shlex.quote(t) for t in out]
