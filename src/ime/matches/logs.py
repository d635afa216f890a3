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
"""

from __future__ import annotations

import gzip
import json
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ime.core.bot import Bot, DecisionContext
from ime.core.game import Action, Game, State
from ime.matches.judge import MatchResult, run_match

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


def _structure_problem(m: RawMatch, game: Game) -> tuple[str, str] | None:
    """``(kind, reason)`` of the first structural problem, or None."""
    d = m.data
    tag = d.get("game")
    if tag is not None and str(tag).lower() not in (game.name, game.botzone_game_id.lower()):
        return "wrong_game", f"wrong game: {tag!r} (expected {game.name})"
    if "log" not in d:
        return "missing_log", "missing 'log'"
    if not isinstance(d["log"], list) or not d["log"]:
        return "missing_log", "'log' must be a non-empty list"
    players = d.get("players")
    if not isinstance(players, list):
        return "structure", "'players' must be a list"
    if len(players) != game.num_players:
        return "wrong_game", (f"{len(players)} players but {game.name} has {game.num_players} "
                              "(a log of another game?)")
    for k, pl in enumerate(players):
        if not isinstance(pl, (Mapping, str)):
            return "structure", f"players[{k}] must be an object or a name"
    for k, e in enumerate(d["log"]):
        if not isinstance(e, Mapping):
            return "structure", f"log[{k}] is not an object"
        if k % 2 == 0 and not isinstance(e.get("output"), Mapping):
            return "structure", f"log[{k}] should be a judge entry (has no 'output' object)"
    last = d["log"][-1].get("output")
    if len(d["log"]) % 2 == 0 or not isinstance(last, Mapping) or last.get("command") != "finish":
        return "truncated", "log does not end with a judge 'finish' entry (truncated match?)"
    content = last.get("content")
    if not isinstance(content, Mapping) or any(str(p) not in content
                                               for p in range(game.num_players)):
        return "structure", "the 'finish' entry must give a score to every player"
    return None


def check_structure(m: RawMatch, game: Game) -> str | None:
    """Cheap checks before replay; returns a reason or None."""
    problem = _structure_problem(m, game)
    return None if problem is None else problem[1]


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


class ReplayError(ValueError):
    """The log contradicts the rules; ``kind`` says how (see the module doc)."""

    def __init__(self, kind: str, message: str):
        super().__init__(message)
        self.kind = kind


class _LogEnded(Exception):
    def __init__(self, turn: int, player: int):
        super().__init__(turn, player)
        self.turn = turn
        self.player = player


class _EndOfLog(Bot):
    """Sits in every seat of a replay: reached only when the log stops before the game does."""

    bot_id = "end-of-log"

    def act(self, state: State, ctx: DecisionContext) -> Action:
        raise _LogEnded(len(ctx.requests) - 1, ctx.player)

    def respond(self, state: State, ctx: DecisionContext) -> Any:
        raise _LogEnded(state.ply, ctx.player)


def _canon(v: Any) -> str:
    return json.dumps(v, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def _fault_kind(reason: str) -> str:
    if reason == "INVALID_INPUT_VERDICT_OK":
        return "bad_response"
    if "PASS" in reason or "COULDNOT_MOVE" in reason:
        return "wrong_pass"
    return "illegal_move"


def replay_match(game: Game, m: RawMatch, *, record_decisions: bool = True) -> MatchResult:
    """Replay a logged match through our judge and check it against the log.

    Raises :class:`ReplayError` (a ValueError) with the reason when the log contradicts the
    rules: a move the judge rejects where the log goes on, a judge request that differs from
    what the rules send (the first one differing usually means a log of another game), a finish
    before the game is over, or different final scores.
    """
    data = m.data
    entries = player_entries(data)
    initdata = parse_initdata(data.get("initdata"))
    seats = [_EndOfLog()] * game.num_players
    seed = data.get("seed")  # the logged seed, if any: kept on the replay, never invented
    seed = seed if isinstance(seed, int) and not isinstance(seed, bool) else None
    try:
        res = run_match(game, seats, match_id=m.match_id, initdata=initdata,
                        prefix=entries, player_ids=m.bot_ids(),
                        record_decisions=record_decisions, seed=seed or 0)
        res.seed = seed
    except _LogEnded as e:
        raise ReplayError("early_finish", f"the log finishes after {len(entries)} turns but by "
                          f"the rules the game is not over (player {e.player} to move)") from None
    for k in range(0, len(res.log) - 1, 2):
        want = data["log"][k]["output"].get("content")
        got = res.log[k]["output"]["content"]
        if _canon(want) != _canon(got):
            if k == 0:
                raise ReplayError("wrong_game", f"the first judge request {_canon(want)[:120]} "
                                  f"is not {game.name}'s {_canon(got)[:120]} (a log of another "
                                  "game?)")
            raise ReplayError("wrong_request", f"judge entry log[{k}] sends {_canon(want)[:120]}"
                              f" but the rules send {_canon(got)[:120]}")
    turns_played = len(res.log) // 2
    if turns_played < len(entries):
        if res.fault is not None:
            f = res.fault
            k = 2 * turns_played - 1
            item = data["log"][k].get(str(f.player), {})
            resp = item.get("response", item.get("content")) if isinstance(item, Mapping) else None
            raise ReplayError(
                _fault_kind(f.reason),
                f"turn {turns_played - 1}: player {f.player}'s response {_canon(resp)} loses "
                f"the game ({f.reason}) but the log goes on to {len(entries)} turns")
        raise ReplayError("too_long", f"the game is over after {turns_played} turns but the log "
                          f"has {len(entries)}")
    want_scores = finish_scores(data)
    if [round(s, 6) for s in want_scores] != [round(s, 6) for s in res.scores]:
        raise ReplayError("wrong_score",
                          f"final scores {want_scores} contradict the rules: replay gives "
                          f"{res.scores}" + (f" ({res.fault.reason})" if res.fault else ""))
    top = data.get("scores")
    if isinstance(top, list) and [round(float(s), 6) for s in top] != [
            round(s, 6) for s in want_scores]:
        raise ReplayError("wrong_score", f"top-level 'scores' {top} contradict the log's "
                          f"finish {want_scores}")
    return res


def validate_match(
    item: RawMatch,
    game: Game,
    *,
    known_players: set[str] | None = None,
    replay: bool = True,
    keep_faulted: bool = True,
    record_decisions: bool = True,
) -> MatchResult | RawMatch | BadMatch:
    """One match through every check of :func:`read_matches`: the replay, or why it is bad."""
    problem = _structure_problem(item, game)
    if problem is None and known_players is not None:
        unknown = [b for b in item.bot_ids() if b not in known_players]
        if unknown:
            problem = ("unknown_player", f"unknown player(s) {unknown}")
    if problem is not None:
        return BadMatch(item.path, item.line, item.match_id, problem[1], problem[0])
    if not replay:
        return item
    try:
        result = replay_match(game, item, record_decisions=record_decisions)
    except ReplayError as e:
        return BadMatch(item.path, item.line, item.match_id, f"rejected by the judge: {e}", e.kind)
    except Exception as e:  # a log shaped in a way nobody foresaw: say so, never crash
        return BadMatch(item.path, item.line, item.match_id,
                        f"cannot replay: {type(e).__name__}: {e}", "bad_log")
    if not keep_faulted and result.fault is not None:
        f = result.fault
        return BadMatch(item.path, item.line, item.match_id,
                        f"ended by a fault: player {f.player} {f.verdict} {f.reason}", "faulted")
    return result


def write_rejects(path: str | Path, rejected: Iterable[BadMatch]) -> int:
    """The rejects as JSON lines (file, line, match id, kind, reason); returns how many."""
    n = 0
    with open(path, "w", encoding="utf-8") as f:
        for b in rejected:
            f.write(json.dumps(b.to_json(), ensure_ascii=False) + "\n")
            n += 1
    return n


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
