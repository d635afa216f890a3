"""One player's decisions from match logs: what ``ime identify`` asks the imitators about.

Any Botzone-format file is read (a platform match pack with 24-hex bot ids, an imported pack,
our own logs; gzip too) by the readers every stage uses (:mod:`ime.matches.logs`), and every
match is replayed through our judge, so a log that breaks the rules is refused with its reason.

The player is named by its id in the logs' ``players`` (``--player``) or by its seat
(``--seat``); with neither, the one id that plays in every match is taken, and several such ids
are an error (the matches of two bots against each other could be either's). A match without the
named player is skipped and counted (a pack holds many bots' matches); no match with it at all is
an error naming the files and the players they have. A match id seen before (in any of the
files) is a duplicate: its moves are no new evidence. Matches that ended by a fault (a time-out,
a crash, an illegal move judged on the platform) are skipped and counted, as the datasets skip
them: the faulting side's last "decision" is not a move. Decisions are encoded as the datasets
encode them (:func:`ime.datasets.extract.encode_decisions`); a decision without a choice (a
forced pass) tells nothing about the player and is dropped.

Bad input is an error naming the file, the line and the match id: in ``strict`` mode (the
default) any bad line of a file; in ``lenient`` mode bad lines are skipped and counted.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from ime.evaluate.identify import PlayerDecisions
from ime.matches.logs import BadMatch, LogFormatError, RawMatch, iter_raw_matches, validate_match

MAX_LISTED = 8
"""Player ids listed in an error before ``...``."""


@dataclass
class PlayerLogs:
    """What was read: the player's decisions and every match accounted for."""

    player: str
    """The player's id in the logs (with ``--seat``: ``seat <n>``)."""
    decisions: PlayerDecisions
    matches: list[str] = field(default_factory=list)
    """The match ids used, in file order."""
    seats: dict[int, int] = field(default_factory=dict)
    """Matches per seat the player held."""
    without_player: int = 0
    faulted: int = 0
    rejected: list[BadMatch] = field(default_factory=list)
    forced: int = 0
    """Decisions without a choice, dropped."""

    def summary(self) -> str:
        seats = ", ".join(f"seat {s}: {n}" for s, n in sorted(self.seats.items()))
        parts = [f"{len(self.matches)} matches of {self.player} ({seats}), "
                 f"{len(self.decisions)} moves with a choice"]
        if self.without_player:
            parts.append(f"{self.without_player} matches without it skipped")
        if self.faulted:
            parts.append(f"{self.faulted} ended by a fault skipped")
        if self.rejected:
            parts.append(f"{len(self.rejected)} bad matches skipped (lenient)")
        return "; ".join(parts)


def _canon(bot: str) -> str:
    """A bot id as compared: a platform's 24-hex id in lower case (packs and users differ)."""
    from ime.matches.import_pack import PLATFORM_ID

    return bot.lower() if PLATFORM_ID.match(bot.lower()) else bot


def _ids(item: RawMatch) -> list[str]:
    return [_canon(i) for i in item.bot_ids()]


def _read_items(paths: Sequence[str | Path], mode: str) -> tuple[list[RawMatch], list[BadMatch]]:
    """Every readable match of ``paths`` (file order); bad lines raise in strict mode."""
    items: list[RawMatch] = []
    bad: list[BadMatch] = []
    for path in paths:
        p = Path(path)
        if not p.is_file():
            raise FileNotFoundError(f"{path}: no such log file")
        mine, mine_bad = [], []
        for item in iter_raw_matches(p):
            (mine_bad if isinstance(item, BadMatch) else mine).append(item)
        if len(mine_bad) == 1 and mine_bad[0].kind == "empty_file":
            raise ValueError(f"{path}: empty log: no matches to identify a player from")
        if mine_bad and mode == "strict":
            raise LogFormatError(str(path), mine_bad, len(mine_bad), len(mine) + len(mine_bad))
        items += mine
        bad += mine_bad
    return items, bad


def choose_player(items: Sequence[RawMatch], player: str | None, seat: int | None,
                  paths: Sequence[str | Path]) -> tuple[str | None, int | None]:
    """``(player id, seat)``: the one to identify (module doc); raise when none or ambiguous."""
    where = ", ".join(str(p) for p in paths)
    if player is not None and seat is not None:
        raise ValueError("give --player or --seat, not both")
    if seat is not None:
        if seat < 0:
            raise ValueError(f"--seat must be >= 0, got {seat}")
        return None, seat
    if player is not None:
        pid = _canon(player.strip())
        if not any(pid in _ids(m) for m in items):
            seen = Counter(i for m in items for i in _ids(m))
            listed = ", ".join(f"{i} ({n})" for i, n in seen.most_common(MAX_LISTED))
            more = " ..." if len(seen) > MAX_LISTED else ""
            raise ValueError(f"{where}: no match has the player {player!r}; the players (and "
                             f"their matches): {listed}{more}")
        return pid, None
    common = set(_ids(items[0]))
    for m in items[1:]:
        common &= set(_ids(m))
    if len(common) == 1:
        return common.pop(), None
    if not common:
        seen = Counter(i for m in items for i in _ids(m))
        listed = ", ".join(f"{i} ({n})" for i, n in seen.most_common(MAX_LISTED))
        raise ValueError(f"{where}: no player plays in every match, so which one to identify "
                         f"is not clear; choose one with --player ID (the players and their "
                         f"matches: {listed}{' ...' if len(seen) > MAX_LISTED else ''}) or "
                         "--seat N")
    raise ValueError(f"{where}: the player to identify is ambiguous: {sorted(common)} play in "
                     "every match; choose one with --player ID or --seat N")


def read_player(paths: Sequence[str | Path], game: str,
                game_params: Mapping[str, Any] | None = None, *, player: str | None = None,
                seat: int | None = None, mode: str = "strict", keep_forced: bool = False,
                max_matches: int | None = None) -> PlayerLogs:
    """The decisions of one player in the matches of ``paths`` (module doc); ``max_matches``
    keeps only the first matches with the player (file order)."""
    from ime.core.registry import get_game
    from ime.datasets.extract import dataset_encoder, encode_decisions
    from ime.matches.judge import MatchResult

    if mode not in ("strict", "lenient"):
        raise ValueError(f"mode must be 'strict' or 'lenient', got {mode!r}")
    if not paths:
        raise ValueError("no log file given")
    g = get_game(game, game_params)
    items, bad = _read_items(paths, mode)
    if not items:
        raise ValueError(f"{', '.join(str(p) for p in paths)}: no readable match"
                         + (f" ({len(bad)} bad lines skipped)" if bad else ""))
    pid, seat = choose_player(items, player, seat, paths)
    out_states: list[Any] = []
    out_players: list[int] = []
    out_actions: list[Any] = []
    out_match: list[str] = []
    used: list[str] = []
    seats: Counter[int] = Counter()
    without = faulted = 0
    rejected = list(bad)
    seen: dict[str, str] = {}
    for item in items:
        ids = _ids(item)
        if seat is not None:
            if seat >= len(ids):
                raise ValueError(f"{item.path}:{item.line}: match {item.match_id} has "
                                 f"{len(ids)} seats, no seat {seat}")
            mine = [seat]
        else:
            mine = [s for s, i in enumerate(ids) if i == pid]
        if not mine:
            without += 1
            continue
        if max_matches is not None and len(used) >= max_matches:
            break
        first = seen.setdefault(item.match_id, f"{item.path}:{item.line}")
        if first != f"{item.path}:{item.line}":  # counted once: its moves are not new evidence
            dup = BadMatch(item.path, item.line, item.match_id,
                           f"duplicate match id (first at {first})", "duplicate")
            if mode == "strict":
                raise LogFormatError(item.path, [dup], 1, 1)
            rejected.append(dup)
            continue
        res = validate_match(item, g, keep_faulted=True)
        if isinstance(res, BadMatch):
            if mode == "strict":
                raise LogFormatError(item.path, [res], 1, 1)
            rejected.append(res)
            continue
        assert isinstance(res, MatchResult)
        if res.fault is not None:
            faulted += 1
            continue
        used.append(res.match_id)
        for s in mine:
            seats[s] += 1
        for d in res.decisions:
            if d.player in mine:
                out_states.append(d.state)
                out_players.append(d.player)
                out_actions.append(d.action)
                out_match.append(res.match_id)
    name = pid if pid is not None else f"seat {seat}"
    if not used:
        why = f" ({faulted} ended by a fault)" if faulted else ""
        raise ValueError(f"{', '.join(str(p) for p in paths)}: no usable match of {name}{why}")
    enc = dataset_encoder(game, game_params, keep_forced=keep_forced)
    where = ", ".join(str(p) for p in paths)
    if out_states:
        e = encode_decisions(enc, out_states, out_players, out_actions, where)
        rows = e.pop("rows")
        e.pop("unencodable")
        d = PlayerDecisions.from_encoded(e, [h.name for h in enc.heads],
                                         [out_match[i] for i in rows], enc.state_shape)
    else:
        rows = np.zeros(0, dtype=np.int64)
        d = PlayerDecisions(np.zeros((0, *enc.state_shape), dtype=np.uint8),
                            [np.zeros((0, h.size), dtype=np.uint8) for h in enc.heads],
                            np.zeros((0, len(enc.heads)), dtype=np.int64),
                            np.zeros(0, dtype=object))
    if len(d) == 0:
        raise ValueError(f"{where}: {name} made no move with a choice in {len(used)} matches "
                         "(every decision was forced): nothing to identify it by")
    return PlayerLogs(player=name, decisions=d, matches=used, seats=dict(seats),
                      without_player=without, faulted=faulted, rejected=rejected,
                      forced=len(out_states) - len(rows))
