"""``ime verify``: a ``git fsck`` for IME trees.

It walks ``data/`` and ``results/`` (or any paths) and reports every file that is

* **bad**: its content breaks its format (:mod:`ime.verify.checks`: Parquet checksums, footer
  and invariants, logs that do not replay, models that do not load, JSON/CSV that do not
  parse), or its bytes differ from those a later job read (the ``sha256`` Snakemake recorded
  as that job's input) although it is not newer than that job's output: it changed in place;
* **stale**: built by the workflow from inputs that are gone, changed or newer, or themselves
  stale (:mod:`ime.verify.records`) -- what Snakemake's timestamps miss;
* **missing**: recorded as built, gone, and still the input of files that exist.

Each problem comes with the Snakemake commands that rebuild it, with the config of the run that
built the files they name (from Snakemake's logs: a variant's files are targets of that
variant's composition only, so the last run's config fails for another's), and ``--forcerun``
where Snakemake would not rebuild by itself. A newer input whose bytes are those Snakemake
recorded makes nothing stale, as it makes Snakemake rerun nothing: ``ime verify`` promises no
rebuild that the next run would not do. The records are Snakemake's own (``.snakemake/metadata``,
found in the nearest folder above the paths that has one); without them only content is
checked. A record whose file is gone (a failed job's) is no evidence about its inputs.
"""

from __future__ import annotations

import time
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from ime.datasets.integrity import SIDECAR_SUFFIX
from ime.verify.checks import check_file
from ime.verify.records import (
    Provenance,
    Record,
    RunConfigs,
    Stale,
    load_records,
    run_configs,
)

LEFTOVER_SUFFIXES = (".tmp", ".part")
DATA_SUFFIXES = (".parquet", ".jsonl", ".pt", ".json", ".csv")


@dataclass
class Problem:
    """One file and what is wrong with it; ``fix`` is a command (or an instruction).

    ``stale``: files built from this one (directly or not) that are stale because of it; they
    are listed under it rather than one by one, since one rebuild mends them all.
    ``then``: commands to run after ``fix``, one per other variant whose files are built from
    this one (each variant's files are targets of its own ``--config`` only).
    """

    status: str  # BAD, STALE, MISSING
    path: str
    reason: str
    fix: str = ""
    cause: str | None = None
    stale: list[str] = field(default_factory=list)
    then: list[str] = field(default_factory=list)


@dataclass
class VerifyReport:
    root: Path
    checked: int = 0
    seconds: float = 0.0
    records: int = 0
    problems: list[Problem] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)

    def counts(self) -> dict[str, int]:
        out: dict[str, int] = {}
        for p in self.problems:
            out[p.status.lower()] = out.get(p.status.lower(), 0) + 1
            if p.stale:
                out["stale"] = out.get("stale", 0) + len(p.stale)
        return out

    def summary(self) -> str:
        counts = ", ".join(f"{n} {k}" for k, n in self.counts().items()) or "no problems"
        prov = (f"{self.records} Snakemake records" if self.records else
                "no Snakemake records found: staleness not checked")
        return (f"checked {self.checked} files under {self.root} in {self.seconds:.1f} s "
                f"({prov}): {counts}")

    def show(self, rel: str) -> str:
        """A path as the user typed it: relative to the working folder when under it (the
        workflow folder, usually), else absolute. Rebuild commands keep the workflow's paths."""
        path = (self.root / rel).resolve()
        try:
            return path.relative_to(Path.cwd().resolve()).as_posix()
        except ValueError:
            return str(path)

    def lines(self, verbose: bool = False) -> list[str]:
        """The problems as printed: each with its reason, the stale files it explains, and
        the command that rebuilds it."""
        out = []
        for p in self.problems:
            out.append(f"{p.status:<7} {self.show(p.path)}: {p.reason}")
            if p.stale:
                shown = p.stale if verbose else p.stale[:5]
                more = "" if len(shown) == len(p.stale) else (
                    f" and {len(p.stale) - len(shown)} more (-v lists them)")
                out.append(f"        {len(p.stale)} file(s) built from it are stale: "
                           + ", ".join(shown) + more)
            out.append(f"        rebuild: {p.fix}")
            out += [f"        then:    {cmd}" for cmd in p.then]
        return out


def find_root(paths: Sequence[Path]) -> Path:
    """The nearest folder at or above the first path (or the working folder) that holds a
    ``.snakemake`` folder; when none does, the working folder, or the first path's folder when
    it is not under the working folder."""
    start = (paths[0] if paths else Path.cwd()).resolve()
    for d in [start, *start.parents]:
        if (d / ".snakemake" / "metadata").is_dir():
            return d
    cwd = Path.cwd().resolve()
    if start == cwd or cwd in start.parents:
        return cwd
    return start if start.is_dir() else start.parent


def walk(paths: Iterable[Path]) -> Iterator[Path]:
    """Every file under ``paths`` (hidden folders skipped), each once, in sorted order."""
    seen: set[Path] = set()
    for p in paths:
        files = [p] if p.is_file() else sorted(
            f for f in p.rglob("*")
            if f.is_file() and not any(d.startswith(".") for d in f.relative_to(p).parts[:-1]))
        for f in files:
            r = f.resolve()
            if r not in seen:
                seen.add(r)
                yield f


def verify(paths: Sequence[str | Path] = (), root: str | Path | None = None) -> VerifyReport:
    """Check every file under ``paths`` (default ``data`` and ``results`` of the root)."""
    t0 = time.perf_counter()
    given = [Path(p) for p in paths]
    base = Path(root).resolve() if root is not None else find_root(given)
    if not given:
        given = [base / d for d in ("data", "results") if (base / d).exists()]
    for p in given:
        if not p.exists():
            raise FileNotFoundError(f"{p}: no such file or folder")
    records = load_records(base)
    prov = Provenance(base, records)
    runs = run_configs(base)
    report = VerifyReport(root=base, records=len(records))
    walked: set[str] = set()
    found: list[Problem] = []
    for f in walk(given):
        rel = _rel(f, base)
        walked.add(rel)
        note = _leftover(f)
        if note is not None:
            report.notes.append(f"{rel}: {note}")
            continue
        known = f.name.endswith(DATA_SUFFIXES)
        if not known and rel not in records and rel not in prov.consumers:
            continue  # neither our format nor the workflow's file: nothing to check
        report.checked += 1
        rec = records.get(rel)
        game, params = _game_of(rel, rec)
        reason = check_file(f, game, params) if known else None
        if reason is None:
            consumer = prov.damaged_since_read(rel)
            if consumer is not None:
                reason = (f"its bytes are not those {consumer} was built from (sha256 recorded "
                          "by Snakemake) and it is not newer: changed in place after it was "
                          "written")
        if reason is not None:
            found.append(Problem("BAD", rel, reason, cause=rel))
            continue
        stale = prov.staleness(rel)
        if stale is not None:
            found.append(Problem("STALE", rel, stale.reason,
                                 fix=_fix_stale(stale, _config(prov, runs, rel)),
                                 cause=stale.cause))
    for rel, rec in sorted(records.items()):
        if rel in walked or not _under(base / rel, given) or (base / rel).exists():
            continue
        users = [c for c in prov.consumers.get(rel, []) if (base / c).exists()]
        if users:
            found.append(Problem("MISSING", rel, f"built by rule {rec.rule}, deleted, and still "
                                                 f"the input of {len(users)} existing file(s)",
                                 cause=rel))
    report.problems = _group(found, prov, runs)
    report.seconds = time.perf_counter() - t0
    return report


def _leftover(f: Path) -> str | None:
    if (f.name.startswith(".") and f.name.endswith(LEFTOVER_SUFFIXES)) or (
            f.name.endswith(".part")):
        return "a temporary file of an interrupted write (safe to delete)"
    if f.name.endswith(".journal"):
        return "the journal of an interrupted match run (its job resumes from it)"
    if f.name.endswith(SIDECAR_SUFFIX):
        data = f.with_name(f.name[:-len(SIDECAR_SUFFIX)])
        return None if data.exists() else (
            f"the checksum of {data.name}, which is gone (safe to delete)")
    return None


def _group(found: list[Problem], prov: Provenance, runs: RunConfigs) -> list[Problem]:
    """Stale files under the bad or missing file that explains them; a rebuild command each."""
    roots = {p.path: p for p in found if p.status in ("BAD", "MISSING")}
    out = [p for p in found if p.status != "STALE" or p.cause not in roots]
    for p in found:
        if p.status == "STALE" and p.cause in roots:
            roots[p.cause].stale.append(p.path)
    for p in roots.values():
        p.fix, *p.then = _rebuild(prov, p.path, runs)
    return out


def _rel(f: Path, base: Path) -> str:
    try:
        return f.resolve().relative_to(base).as_posix()
    except ValueError:
        return str(f)


def _under(p: Path, roots: Sequence[Path]) -> bool:
    rp = p.resolve()
    return any(rp == r.resolve() or r.resolve() in rp.parents for r in roots)


def _game_of(rel: str, rec: Record | None) -> tuple[str | None, dict | None]:
    """The game named by the path (``data/<game>/``, ``results/<game>/``) and its board
    options recorded in the job's params."""
    from ime.core.registry import known_games

    parts = rel.split("/")
    game = parts[1] if len(parts) > 2 and parts[0] in ("data", "results") else None
    if game == "raw" and len(parts) > 3:
        game = parts[2]
    if game not in known_games():
        game = None
    params = rec.param("game_params") if rec is not None else None
    return game, dict(params) if isinstance(params, dict) and params else None


def _snakemake(targets: Sequence[str], config: Sequence[str], *extra: str) -> str:
    """The command; the targets first and the config options last (``--forcerun`` and
    ``--config`` take every value after them)."""
    return " ".join(["snakemake", "-j8", *targets, *extra, *config])


def _rebuild(prov: Provenance, rel: str, runs: RunConfigs) -> list[str]:
    """The commands that rebuild ``rel`` and what is built from it, up to the files nothing
    else uses (named, not the default target, which need not reach them all).

    The files are grouped by the run that built them, one command per group with that run's
    config. The first forces ``rel`` (Snakemake would not rebuild a damaged or deleted file
    whose consumers exist) and its consumers rerun as "updated by another job"; the others
    need no force: once ``rel`` is rebuilt, Snakemake reruns exactly the files whose inputs'
    bytes differ from those they were built from (or were not recorded), and the others are
    not stale."""
    if rel not in prov.records:
        if rel.split("/")[:2] == ["data", "raw"] or not rel.startswith(("data/", "results/")):
            return ["not built by the workflow: restore it from its source"]
        return [_snakemake([rel], _config(prov, runs, rel), "--forcerun", rel)
                + "  (no Snakemake record of it)"]
    groups: dict[tuple[str, ...], list[str]] = {}
    for sink in prov.sinks(rel):
        groups.setdefault(tuple(_config(prov, runs, sink)), []).append(sink)
    own = tuple(_config(prov, runs, rel))
    if not groups:
        groups[own] = [rel]
    first, *rest = sorted(groups, key=lambda config: (config != own, config))
    return [_snakemake(groups[first], first, "--forcerun", rel),
            *(_snakemake(groups[config], config) for config in rest)]


def _config(prov: Provenance, runs: RunConfigs, rel: str) -> list[str]:
    """The config options of the run that built ``rel`` (its log, or its record's start)."""
    rec = prov.records.get(rel)
    started = rec.job[2] if rec is not None and len(rec.job) > 2 else None
    return runs.of(rel, started if isinstance(started, (int, float)) else None)


def _fix_stale(stale: Stale, config: Sequence[str]) -> str:
    """The command for a stale file, with the config of the run that built it. An incomplete
    job and a newer input whose bytes Snakemake did not record are Snakemake's own reasons to
    rerun (no force); a missing or changed input is not, so its file is forced."""
    if stale.kind == "incomplete":
        return _snakemake([stale.path], config, "--rerun-incomplete")
    if stale.kind == "newer_input":
        return _snakemake([stale.path], config)
    if stale.kind == "missing_source":
        return (f"restore {stale.cause} (a source, not built by the workflow), then "
                + _snakemake([stale.path], config, "--forcerun", stale.path))
    return _snakemake([stale.path], config, "--forcerun", stale.cause)


__all__ = ["Problem", "VerifyReport", "find_root", "verify", "walk"]
