"""Import a Botzone match pack (``*.matches``) for one bot: select, rename, replay, quarantine.

A pack downloaded from the platform holds one compact JSON match per line; players are named by
24-hex platform bot ids. Importing a bot's matches means:

1. **select** the matches the bot plays in (by its platform id; the other lines are counted as
   skipped, never silently lost; a line too broken to tell who plays is rejected);
2. **rename** platform ids to our names with a mapping (``{"5f...": "rev1"}``), so the accepted
   matches join our own logs under the same bot ids; unmapped opponents keep their platform id;
3. **replay** every selected match through our judge (:func:`ime.matches.logs.validate_match`):
   a match that breaks the rules (illegal move or wrong pass where the log goes on, a judge
   request that differs from the rules, a premature finish, wrong final scores) is rejected with
   the reason; a match the platform itself ended by a fault (TLE, crash, illegal move judged
   there) is a valid log and is kept, counted as ``faulted`` (dataset builders drop those with
   ``read_matches(..., keep_faulted=False)``);
4. **write** the accepted matches as our JSON lines (our judge's log of the replay, mapped names,
   and a ``platform`` audit field with the pack, line and original ids), the rejects as JSON lines
   with file, line, match id, kind and reason, and the counts.

``strict`` (default) writes nothing but the rejects file (and the report) when any selected match
is bad and raises :class:`~ime.matches.logs.LogFormatError` naming the first bad lines and how
many; ``lenient`` writes the good ones and reports the counts.

Every file is written atomically (a temporary file renamed over the old one), and the report
(``report=``) is written whatever happens, its ``status`` saying ``ok`` or ``failed`` and whether
the matches were written, so a report never describes an earlier import. No output may be one
of the inputs: ``--out`` equal to the pack would destroy the pack (:func:`check_paths`).
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ime.core.game import Game
from ime.matches.judge import MatchResult
from ime.matches.logs import (
    BadMatch,
    LogFormatError,
    RawMatch,
    iter_raw_matches,
    validate_match,
    write_rejects,
)
from ime.matches.rawlog import atomic_write, atomic_write_text

PLATFORM_ID = re.compile(r"^[0-9a-f]{24}$")


@dataclass
class ImportReport:
    """What an import did, with every line of the pack accounted for."""

    pack: str
    bot: str
    name: str
    lines: int = 0
    selected: int = 0
    skipped: int = 0
    faulted: int = 0
    seats: dict[int, int] = field(default_factory=dict)
    accepted: list[dict] = field(default_factory=list)
    rejected: list[BadMatch] = field(default_factory=list)

    def counts(self) -> dict[str, Any]:
        """The figures a user (or a pipeline report) needs; every line is in exactly one bin."""
        kinds: dict[str, int] = {}
        for b in self.rejected:
            kinds[b.kind] = kinds.get(b.kind, 0) + 1
        return {
            "pack": self.pack, "bot": self.bot, "name": self.name, "lines": self.lines,
            "selected": self.selected, "skipped_other_bots": self.skipped,
            "accepted": len(self.accepted), "accepted_faulted": self.faulted,
            "rejected": len(self.rejected),
            "rejected_by_kind": dict(sorted(kinds.items(), key=lambda kv: (-kv[1], kv[0]))),
            "seats": {str(k): v for k, v in sorted(self.seats.items())},
        }

    def summary(self) -> str:
        c = self.counts()
        kinds = ", ".join(f"{k}: {n}" for k, n in c["rejected_by_kind"].items())
        return (f"{c['pack']}: {c['lines']} matches, {c['selected']} with {self.name} "
                f"({self.bot}), {c['skipped_other_bots']} without; accepted {c['accepted']} "
                f"({c['accepted_faulted']} ended by a fault), rejected {c['rejected']}"
                + (f" ({kinds})" if kinds else ""))


def resolve_bot(bot: str, names: Mapping[str, str]) -> tuple[str, str]:
    """``(platform id, our name)`` for ``bot`` given as a platform id or as a mapped name."""
    bot = bot.strip()
    if PLATFORM_ID.match(bot.lower()):
        bot = bot.lower()
    if bot in names:
        return bot, names[bot]
    ids = [pid for pid, name in names.items() if name == bot]
    if len(ids) > 1:
        raise ValueError(f"name {bot!r} is mapped from several platform ids: {ids}")
    if ids:
        return ids[0], bot
    if PLATFORM_ID.match(bot):
        return bot, bot
    raise ValueError(f"--bot {bot!r} is neither a 24-hex platform bot id nor a name in the id "
                     f"map ({len(names)} entries)")


def parse_map(items: list[str]) -> dict[str, str]:
    """``["<24-hex>=name", ...]`` (the ``--map`` options) as a dict, checked."""
    out: dict[str, str] = {}
    for item in items:
        pid, sep, name = item.partition("=")
        pid, name = pid.strip().lower(), name.strip()
        if not sep or not pid or not name:
            raise ValueError(f"--map {item!r}: expected PLATFORM_ID=NAME")
        if not PLATFORM_ID.match(pid):
            raise ValueError(f"--map {item!r}: {pid!r} is not a 24-hex platform bot id")
        if out.get(pid, name) != name:
            raise ValueError(f"--map: {pid} mapped to both {out[pid]!r} and {name!r}")
        out[pid] = name
    return out


def load_map_file(path: str | Path) -> dict[str, str]:
    """A YAML or JSON mapping ``platform id -> name``."""
    import yaml

    try:
        data = yaml.safe_load(Path(path).read_text(encoding="utf-8")) or {}
    except (UnicodeDecodeError, yaml.YAMLError) as e:
        raise ValueError(f"{path}: not a YAML/JSON mapping of platform bot id -> name ({e})"
                         ) from e
    if not isinstance(data, Mapping):
        raise ValueError(f"{path}: expected a mapping of platform bot id -> name")
    return parse_map([f"{k}={v}" for k, v in data.items()])


def _player_ids(item: RawMatch) -> list[str] | None:
    players = item.data.get("players")
    if not isinstance(players, list):
        return None
    out = []
    for p in players:
        if isinstance(p, Mapping):
            bid = p.get("bot")
            out.append(str(bid) if bid else str(p.get("type", "unknown")))
        else:
            out.append(str(p))
    return out


def check_paths(inputs: Mapping[str, str | Path | None],
                outputs: Mapping[str, str | Path | None]) -> None:
    """Refuse an output that is one of the inputs, or two outputs that are one file.

    Paths are compared resolved (symlinks, ``..``) and, when both exist, as the same inode
    (hard links), so ``--out pack.matches`` cannot overwrite the pack it reads.
    """
    def same(a: Path, b: Path) -> bool:
        if a.resolve() == b.resolve():
            return True
        try:
            return os.path.samefile(a, b)
        except OSError:
            return False

    ins = [(k, Path(v)) for k, v in inputs.items() if v is not None]
    outs = [(k, Path(v)) for k, v in outputs.items() if v is not None]
    for i, (ko, o) in enumerate(outs):
        for ki, f in ins:
            if same(o, f):
                raise ValueError(f"{ko} {o} is the {ki} {f}: writing it would destroy an input; "
                                 f"choose another {ko}")
        for ko2, o2 in outs[:i]:
            if same(o, o2):
                raise ValueError(f"{ko} {o} and {ko2} {o2} are the same file")


def import_pack(
    pack: str | Path,
    game: Game,
    bot: str,
    *,
    names: Mapping[str, str] | None = None,
    mode: str = "strict",
    out: str | Path | None = None,
    rejects: str | Path | None = None,
    keep_faulted: bool = True,
    report_path: str | Path | None = None,
) -> ImportReport:
    """Import ``bot``'s matches from ``pack`` (see the module doc); returns the report.

    ``out``/``rejects``/``report_path``: where to write the accepted matches, the rejects (JSON
    lines) and the counts (JSON, on failure too); any may be None. None may be the pack.
    """
    if mode not in ("strict", "lenient"):
        raise ValueError(f"mode must be 'strict' or 'lenient', got {mode!r}")
    check_paths({"pack": pack}, {"--out": out, "--rejects": rejects, "--report": report_path})
    names = {k.lower(): v for k, v in (names or {}).items()}
    pid, name = resolve_bot(bot, names)
    report = ImportReport(pack=str(pack), bot=pid, name=name)
    try:
        _select(pack, game, pid, names, report, keep_faulted)
        if rejects is not None:
            write_rejects(rejects, report.rejected)
        if mode == "strict" and report.rejected:
            raise LogFormatError(str(pack), report.rejected, len(report.rejected), report.lines)
        if out is not None:
            with atomic_write(out) as f:
                for doc in report.accepted:
                    f.write(json.dumps(doc, separators=(",", ":"), ensure_ascii=False) + "\n")
    except BaseException as e:
        if report_path is not None:
            write_report(report_path, report, out, error=e)
        raise
    if report_path is not None:
        write_report(report_path, report, out)
    return report


def write_report(path: str | Path, report: ImportReport, out: str | Path | None,
                 error: BaseException | None = None) -> None:
    """The counts as JSON, atomically, with ``status`` (``ok``/``failed``), ``error`` and
    ``matches_written`` (the file the accepted matches went to, or null: nothing written)."""
    doc = {"status": "ok" if error is None else "failed",
           **({"error": str(error) or type(error).__name__} if error is not None else {}),
           "matches_written": str(out) if error is None and out is not None else None,
           **report.counts()}
    atomic_write_text(path, json.dumps(doc, indent=2) + "\n")


def _select(pack: str | Path, game: Game, pid: str, names: Mapping[str, str],
            report: ImportReport, keep_faulted: bool) -> None:
    """Read the pack into ``report``: skipped lines counted, the bot's matches replayed."""
    seen: dict[str, int] = {}
    for item in iter_raw_matches(pack):
        report.lines += 1
        if isinstance(item, BadMatch):
            report.rejected.append(item)
            continue
        ids = _player_ids(item)
        if ids is None:
            report.rejected.append(BadMatch(item.path, item.line, item.match_id,
                                            "'players' must be a list", "structure"))
            continue
        lowered = [i.lower() for i in ids]
        if pid not in lowered:
            report.skipped += 1
            continue
        report.selected += 1
        first = seen.setdefault(item.match_id, item.line)
        if first != item.line:
            report.rejected.append(BadMatch(item.path, item.line, item.match_id,
                                            f"duplicate match id (first at line {first})",
                                            "duplicate"))
            continue
        result = validate_match(item, game, keep_faulted=keep_faulted, record_decisions=False)
        if isinstance(result, BadMatch):
            report.rejected.append(result)
            continue
        assert isinstance(result, MatchResult)
        mapped = [names.get(i, ids[k]) for k, i in enumerate(lowered)]
        doc = result.to_json()
        doc["players"] = [{"type": "bot", "bot": n} for n in mapped]
        doc["platform"] = {"pack": Path(pack).name, "line": item.line, "players": ids}
        report.accepted.append(doc)
        if result.fault is not None:
            report.faulted += 1
        for seat, i in enumerate(lowered):
            if i == pid:
                report.seats[seat] = report.seats.get(seat, 0) + 1
