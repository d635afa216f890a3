"""Botzone match logs: JSON lines, one match per line (our judge's output and platform packs).

Reading is where bad input arrives, so every problem is reported with the file, the 1-based line
number and the match id (when one could be read), and nothing is dropped silently:

* ``strict`` (default): the first problems are collected and :class:`LogFormatError` is raised
  naming them and how many matches were bad in the whole file;
* ``lenient``: bad matches go to a rejects list (and optionally a rejects JSON-lines file) with
  their reasons, the good ones continue, and the caller gets the counts.

Every accepted match is replayed through our judge (:func:`replay_match`), so a log that breaks the
rules (illegal move, wrong pass, wrong final score) is rejected with the judge's reason.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ime.games.base import Game
from ime.matches.judge import MatchResult, run_match

MAX_REPORTED = 5


@dataclass
class BadMatch:
    """One rejected line: where it is and why."""

    path: str
    line: int
    match_id: str | None
    reason: str

    def __str__(self) -> str:
        mid = self.match_id or "?"
        return f"{self.path}:{self.line}: match {mid}: {self.reason}"

    def to_json(self) -> dict:
        return {"file": self.path, "line": self.line, "match_id": self.match_id,
                "reason": self.reason}


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
        return str(self.data.get("_id", f"{Path(self.path).name}:{self.line}"))

    def bot_ids(self) -> list[str]:
        return [str(p.get("bot", p.get("name", "?"))) if isinstance(p, Mapping) else str(p)
                for p in self.data.get("players", [])]


@dataclass
class ReadReport:
    """What a read produced: the good matches, the rejects with reasons, and the counts."""

    accepted: list[Any] = field(default_factory=list)
    rejected: list[BadMatch] = field(default_factory=list)
    total: int = 0

    def summary(self) -> str:
        return f"{len(self.accepted)} accepted, {len(self.rejected)} rejected of {self.total}"


def write_matches(path: str | Path, matches: Iterable[MatchResult | Mapping]) -> int:
    """Write matches as compact JSON lines; returns how many were written."""
    n = 0
    with open(path, "w", encoding="utf-8") as f:
        for m in matches:
            data = m.to_json() if isinstance(m, MatchResult) else m
            f.write(json.dumps(data, separators=(",", ":"), ensure_ascii=False))
            f.write("\n")
            n += 1
    return n


def iter_raw_matches(path: str | Path) -> Iterator[RawMatch | BadMatch]:
    """Yield a :class:`RawMatch` per good JSON line or a :class:`BadMatch` per unreadable one."""
    p = str(path)
    try:
        blob = Path(path).read_bytes()
    except OSError as e:
        raise LogFormatError(p, [BadMatch(p, 0, None, f"cannot read file: {e}")], 1, 1) from e
    if not blob.strip():
        yield BadMatch(p, 0, None, "empty file: no matches")
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
            yield BadMatch(p, i, None, f"not UTF-8 (wrong encoding?): {e.reason} at byte {e.start}")
            continue
        try:
            data = json.loads(text)
        except json.JSONDecodeError as e:
            truncated = i == len(lines) or (i == len(lines) - 1 and not lines[-1])
            what = "truncated line" if truncated and e.msg.startswith(("Expecting", "Unterm")) \
                else "malformed JSON"
            yield BadMatch(p, i, _sniff_id(text), f"{what}: {e.msg} at column {e.colno}")
            continue
        if not isinstance(data, dict):
            yield BadMatch(p, i, None, f"a match must be a JSON object, got {type(data).__name__}")
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


def check_structure(m: RawMatch, game: Game) -> str | None:
    """Cheap checks before replay; returns a reason or None."""
    d = m.data
    if "log" not in d:
        return "missing 'log'"
    if not isinstance(d["log"], list) or not d["log"]:
        return "'log' must be a non-empty list"
    players = d.get("players")
    if not isinstance(players, list) or len(players) != game.num_players:
        return f"'players' must list {game.num_players} players for {game.name}"
    tag = d.get("game")
    if tag is not None and str(tag).lower() not in (game.name, game.botzone_game_id):
        return f"wrong game: {tag!r} (expected {game.name})"
    last = d["log"][-1]
    if not (isinstance(last, Mapping) and isinstance(last.get("output"), Mapping)
            and last["output"].get("command") == "finish"):
        return "log does not end with a judge 'finish' entry (truncated match?)"
    for k, e in enumerate(d["log"]):
        if not isinstance(e, Mapping):
            return f"log[{k}] is not an object"
        if k % 2 == 0 and "output" not in e:
            return f"log[{k}] should be a judge entry (has no 'output')"
    return None


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


def replay_match(game: Game, m: RawMatch, *, record_decisions: bool = True) -> MatchResult:
    """Replay a logged match through our judge and check it against the log.

    Raises ValueError with the reason when the log contradicts the rules: a move the judge
    rejects where the log continues, a different end, or different final scores.
    """
    data = m.data
    entries = player_entries(data)
    initdata = parse_initdata(data.get("initdata"))
    res = run_match(game, [None] * game.num_players, match_id=m.match_id, initdata=initdata,
                    prefix=entries, player_ids=m.bot_ids(), record_decisions=record_decisions)
    turns_played = len(res.log) // 2
    if turns_played < len(entries):
        why = res.fault.reason if res.fault else "game over"
        raise ValueError(f"judge ended the match at turn {turns_played} ({why}) but the log "
                         f"has {len(entries)} turns")
    want = finish_scores(data)
    if [round(s, 6) for s in want] != [round(s, 6) for s in res.scores]:
        raise ValueError(f"final scores {want} contradict the rules: replay gives {res.scores}"
                         + (f" ({res.fault.reason})" if res.fault else ""))
    return res


def read_matches(
    path: str | Path,
    game: Game,
    *,
    mode: str = "strict",
    known_players: set[str] | None = None,
    replay: bool = True,
    keep_faulted: bool = True,
    rejects_path: str | Path | None = None,
) -> ReadReport:
    """Read and validate a match file; see the module doc for ``strict`` vs ``lenient``.

    ``accepted`` holds :class:`MatchResult` replays (or :class:`RawMatch` with ``replay=False``).
    ``known_players``: when given, a match naming another bot is rejected ("unknown player").
    ``keep_faulted=False`` rejects matches that ended by a fault (TLE, crash, illegal move):
    they are fine logs but not clean decisions for a dataset.
    """
    if mode not in ("strict", "lenient"):
        raise ValueError(f"mode must be 'strict' or 'lenient', got {mode!r}")
    report = ReadReport()
    for item in iter_raw_matches(path):
        report.total += 1
        if isinstance(item, BadMatch):
            report.rejected.append(item)
            continue
        reason = check_structure(item, game)
        if reason is None and known_players is not None:
            unknown = [b for b in item.bot_ids() if b not in known_players]
            if unknown:
                reason = f"unknown player(s) {unknown}"
        result: Any = item
        if reason is None and replay:
            try:
                result = replay_match(game, item)
            except (ValueError, KeyError, TypeError, IndexError) as e:
                reason = f"rejected by the judge: {e}"
            else:
                if not keep_faulted and result.fault is not None:
                    f = result.fault
                    reason = f"ended by a fault: player {f.player} {f.verdict} {f.reason}"
        if reason is not None:
            report.rejected.append(BadMatch(item.path, item.line, item.match_id, reason))
        else:
            report.accepted.append(result)
    if rejects_path is not None:
        with open(rejects_path, "w", encoding="utf-8") as f:
            for b in report.rejected:
                f.write(json.dumps(b.to_json(), ensure_ascii=False) + "\n")
    if mode == "strict" and report.rejected:
        raise LogFormatError(str(path), report.rejected, len(report.rejected), report.total)
    return report
