"""Botzone match logs: JSON lines, one match per line (our judge's output and platform packs).

Reading is where bad input arrives, so every problem is reported with the file, the 1-based line
number and the match id (when one could be read), and nothing is dropped silently:

* ``strict`` (default): the first problems are collected and :class:`LogFormatError` is raised
  naming them and how many matches were bad in the whole file;
* ``lenient``: bad matches go to a rejects list (and optionally a rejects JSON-lines file) with
  their reasons, the good ones continue, and the caller gets the counts.

Every accepted match is replayed through our judge (:func:`replay_match`), so a log that breaks the
rules (illegal move, wrong pass, wrong final score) is rejected with the judge's reason.

Each rejection carries a short ``kind`` (``malformed_json``, ``truncated``, ``encoding``,
``missing_log``, ``structure``, ``wrong_game``, ``unknown_player``, ``duplicate``,
``illegal_move``, ``wrong_pass``, ``bad_response``, ``wrong_request``, ``early_finish``,
``too_long``, ``wrong_score``, ``faulted``, ``empty_file``...) so reports can count by cause.

The pieces live in :mod:`ime.matches.rawlog` (lines, bad lines, writing) and
:mod:`ime.matches.replay` (validation by replay); their names are re-exported here, so
``from ime.matches.logs import ...`` keeps working.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ime.core.game import Game
from ime.matches.rawlog import (
    MAX_REPORTED,
    BadMatch,
    LogFormatError,
    RawMatch,
    finish_scores,
    iter_raw_matches,
    parse_initdata,
    player_entries,
    write_matches,
    write_rejects,
)
from ime.matches.replay import (
    ReplayError,
    check_structure,
    replay_match,
    validate_match,
)

__all__ = ["MAX_REPORTED", "BadMatch", "LogFormatError", "RawMatch", "ReadReport",
           "ReplayError", "check_structure", "fault_summary", "finish_scores",
           "iter_raw_matches", "parse_initdata", "player_entries", "read_matches",
           "replay_match", "validate_match", "write_matches", "write_rejects"]


@dataclass
class ReadReport:
    """What a read produced: the good matches, the rejects with reasons, and the counts."""

    accepted: list[Any] = field(default_factory=list)
    rejected: list[BadMatch] = field(default_factory=list)
    total: int = 0

    def summary(self) -> str:
        head = f"{len(self.accepted)} accepted, {len(self.rejected)} rejected of {self.total}"
        kinds = self.counts_by_kind()
        if kinds:
            head += " (" + ", ".join(f"{k}: {n}" for k, n in kinds.items()) + ")"
        return head

    def counts_by_kind(self) -> dict[str, int]:
        """Rejections per cause, most frequent first."""
        out: dict[str, int] = {}
        for b in self.rejected:
            out[b.kind] = out.get(b.kind, 0) + 1
        return dict(sorted(out.items(), key=lambda kv: (-kv[1], kv[0])))


def read_matches(
    path: str | Path,
    game: Game,
    *,
    mode: str = "strict",
    known_players: set[str] | None = None,
    replay: bool = True,
    keep_faulted: bool = True,
    rejects_path: str | Path | None = None,
    reject_duplicates: bool = False,
) -> ReadReport:
    """Read and validate a match file; see the module doc for ``strict`` vs ``lenient``.

    ``accepted`` holds :class:`MatchResult` replays (or :class:`RawMatch` with ``replay=False``).
    ``known_players``: when given, a match naming another bot is rejected ("unknown player").
    ``keep_faulted=False`` rejects matches that ended by a fault (TLE, crash, illegal move):
    they are fine logs but not clean decisions for a dataset. ``reject_duplicates=True``
    rejects a match id seen earlier in the file (kind ``duplicate``); by default both are
    returned and the caller decides (the dataset extractor counts and skips repeats).
    """
    if mode not in ("strict", "lenient"):
        raise ValueError(f"mode must be 'strict' or 'lenient', got {mode!r}")
    report = ReadReport()
    seen: dict[str, int] = {}
    for item in iter_raw_matches(path):
        report.total += 1
        if isinstance(item, BadMatch):
            report.rejected.append(item)
            continue
        first = seen.setdefault(item.match_id, item.line)
        if reject_duplicates and first != item.line:
            report.rejected.append(BadMatch(item.path, item.line, item.match_id,
                                            f"duplicate match id (first at line {first})",
                                            "duplicate"))
            continue
        result = validate_match(item, game, known_players=known_players, replay=replay,
                                keep_faulted=keep_faulted)
        if isinstance(result, BadMatch):
            report.rejected.append(result)
        else:
            report.accepted.append(result)
    if rejects_path is not None:
        write_rejects(rejects_path, report.rejected)
    if mode == "strict" and report.rejected:
        raise LogFormatError(str(path), report.rejected, len(report.rejected), report.total)
    return report


def fault_summary(paths: Iterable[str | Path]) -> dict[str, Any]:
    """How many logged matches ended by a fault, by verdict and by faulting bot (no replay).

    For run reports (``ime play``, the pipeline): faulted matches are valid logs but are kept
    out of datasets, so users must see how many there were and whose. Reads our ``fault`` field,
    else a platform log's non-OK player verdict, else the judge's ``err`` in the final display.
    """
    out: dict[str, Any] = {"matches": 0, "faulted": 0, "unreadable": 0, "by_verdict": {},
                           "by_reason": {}, "by_bot": {}}

    def bump(key: str, name: str) -> None:
        out[key][name] = out[key].get(name, 0) + 1

    for path in paths:
        for item in iter_raw_matches(path):
            if isinstance(item, BadMatch):
                out["unreadable"] += 1
                continue
            out["matches"] += 1
            fault = _logged_fault(item.data)
            if fault is None:
                continue
            player, verdict, reason = fault
            out["faulted"] += 1
            bump("by_verdict", verdict)
            bump("by_reason", reason)
            ids = item.bot_ids()
            if player is not None and 0 <= player < len(ids):
                bump("by_bot", ids[player])
    return out


def _logged_fault(data: Mapping) -> tuple[int | None, str, str] | None:
    f = data.get("fault")
    if isinstance(f, Mapping):
        return (int(f.get("player", -1)), str(f.get("verdict", "?")), str(f.get("reason", "?")))
    log = data.get("log")
    if not isinstance(log, list):
        return None
    for k, e in enumerate(log):
        if k % 2 == 1 and isinstance(e, Mapping):
            for p, item in e.items():
                if isinstance(item, Mapping) and str(item.get("verdict", "OK")) != "OK":
                    v = str(item["verdict"])
                    return (int(p) if str(p).isdigit() else None, v,
                            f"INVALID_INPUT_VERDICT_{v}")
    last = log[-1] if log else None
    disp = last.get("output", {}).get("display") if isinstance(last, Mapping) else None
    if isinstance(disp, Mapping) and disp.get("err"):
        winner = disp.get("winner")
        two = isinstance(data.get("players"), list) and len(data["players"]) == 2
        loser = 1 - winner if two and isinstance(winner, int) and winner in (0, 1) else None
        return (loser, "OK", str(disp["err"]))
    return None
