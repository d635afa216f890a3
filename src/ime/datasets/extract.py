"""Match logs -> decision rows: replay every match through the judge and encode each decision.

One log part (a generated shard or a dropped-in raw file) is read once for all target bots, so the
expensive replay is done once per match, in parallel over parts; the per-bot datasets
(:mod:`ime.datasets.build`) then only filter and concatenate.

What is kept, and why:

* only decisions of the target bots (the thesis trains one imitator per bot, never pooled);
* only real choices: a forced pass has no legal square, so the net has nothing to predict;
* no decision from a match that ended by a fault (time-out, crash, illegal move): the faulting
  side's last "decision" is not a move, and the match's end is not the game's. Such matches are
  counted (per bot, with the judge's reason) in the part report and the run report.
"""

from __future__ import annotations

import importlib
import json
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from ime.datasets.schema import SCHEMA_VERSION, empty_table, make_table, write_table
from ime.core.registry import get_game
from ime.matches.logs import read_matches

MAX_LISTED = 50


@dataclass(frozen=True)
class Encoder:
    """A game's net-side encoder, found by convention in ``ime.games.<game>.encode``.

    The module must provide ``ENCODER_VERSION`` and ``encode_states(states) -> (planes, mask)``;
    it may provide ``encode_actions(actions) -> int codes`` (default: the actions are the codes).
    """

    game: str
    version: str
    module: Any

    def encode(self, states: Sequence[Any]) -> tuple[np.ndarray, np.ndarray]:
        return self.module.encode_states(states)

    def shapes(self, game: Any) -> tuple[list[int], int]:
        """(state shape, number of actions), read off the encoding of the initial state."""
        planes, mask = self.encode([game.new_initial_state(seed=0)])
        return list(planes.shape[1:]), int(mask.shape[1])

    def action_codes(self, actions: Sequence[Any]) -> np.ndarray:
        f = getattr(self.module, "encode_actions", None)
        if f is not None:
            return np.asarray(f(actions), dtype=np.int64)
        return np.asarray([int(a) for a in actions], dtype=np.int64)


def get_encoder(game: str) -> Encoder:
    try:
        mod = importlib.import_module(f"ime.games.{game}.encode")
    except ImportError as e:
        raise KeyError(f"game {game!r} has no encoder module ime.games.{game}.encode") from e
    return Encoder(game, str(mod.ENCODER_VERSION), mod)


def extract_part(
    log_path: str | Path,
    out_path: str | Path,
    report_path: str | Path,
    *,
    game: str,
    targets: Sequence[str],
    num_actions: int,
    mode: str = "strict",
    rejects_path: str | Path | None = None,
) -> dict[str, Any]:
    """Replay one log file and write the target bots' decisions (Parquet) plus a JSON report.

    Strict mode raises :class:`ime.matches.logs.LogFormatError` (file, line, match id) on the
    first bad matches; lenient mode quarantines them into ``rejects_path`` and counts them.
    """
    g = get_game(game)
    enc = get_encoder(game)
    targets = list(targets)
    target_set = set(targets)
    report = read_matches(log_path, g, mode=mode, keep_faulted=True,
                          rejects_path=rejects_path if mode == "lenient" else None)
    cols: dict[str, list[Any]] = {k: [] for k in
                                  ("bot", "match_id", "ply", "seat", "players", "response")}
    states: list[Any] = []
    actions: list[Any] = []
    matches = Counter()
    faulted = Counter()
    fault_list: list[dict[str, Any]] = []
    seen_ids: set[str] = set()
    duplicate_ids: list[str] = []
    for res in report.accepted:
        if res.match_id in seen_ids:  # the same match twice in one file counts once
            duplicate_ids.append(res.match_id)
            continue
        seen_ids.add(res.match_id)
        involved = [b for b in res.players if b in target_set]
        if res.fault is not None:
            f = res.fault
            for b in dict.fromkeys(involved):
                faulted[b] += 1
            if len(fault_list) < MAX_LISTED:
                fault_list.append({"match_id": res.match_id, "players": res.players,
                                   "faulting_bot": res.players[f.player], **f.to_json()})
            continue
        for b in dict.fromkeys(involved):
            matches[b] += 1
        for d in res.decisions:
            bot = res.players[d.player]
            if bot not in target_set:
                continue
            cols["bot"].append(bot)
            cols["match_id"].append(res.match_id)
            cols["ply"].append(d.ply)
            cols["seat"].append(d.player)
            cols["players"].append(list(res.players))
            cols["response"].append(json.dumps(d.response, separators=(",", ":"),
                                               ensure_ascii=False, sort_keys=True))
            states.append(d.state)
            actions.append(d.action)
    state_shape, enc_actions = enc.shapes(g)
    if enc_actions != num_actions:
        raise ValueError(f"encoder {enc.version} gives {enc_actions} actions but "
                         f"game.num_actions is {num_actions}")
    state_len = int(np.prod(state_shape))
    if states:
        planes, mask = enc.encode(states)
        legal = mask.sum(axis=1) > 0
        codes = np.full(len(actions), -1, dtype=np.int64)
        codes[legal] = enc.action_codes([a for a, k in zip(actions, legal, strict=True) if k])
        rows = np.flatnonzero(legal)
        bad = rows[mask[rows, codes[rows]] == 0]
        if len(bad):
            i = int(bad[0])
            raise ValueError(f"{log_path}: match {cols['match_id'][i]} ply {cols['ply'][i]}: "
                             f"played action {codes[i]} is not in the encoded legal mask "
                             f"(encoder {enc.version} disagrees with the judge)")
        keep = {k: [v[i] for i in rows] for k, v in cols.items()}
        keep["ply"] = np.asarray(keep["ply"])
        keep["state"] = planes[rows].reshape(len(rows), -1)
        keep["mask"] = mask[rows]
        keep["action"] = codes[rows]
        table = make_table(keep, state_len, num_actions)
        forced = int((~legal).sum())
    else:
        table = empty_table(state_len, num_actions)
        forced = 0
    table = table.sort_by([("match_id", "ascending"), ("ply", "ascending")])
    part_report = {
        "file": str(log_path),
        "mode": mode,
        "total": report.total,
        "accepted": len(report.accepted) - len(duplicate_ids),
        "rejected": len(report.rejected),
        "reject_reasons": [b.to_json() for b in report.rejected[:MAX_LISTED]],
        "duplicate_match_ids": duplicate_ids[:MAX_LISTED],
        "n_duplicate_match_ids": len(duplicate_ids),
        "faulted": sum(1 for r in report.accepted if r.fault is not None),
        "faults": fault_list,
        "matches_per_bot": {b: matches[b] for b in targets},
        "faulted_per_bot": {b: faulted[b] for b in targets},
        "forced_passes_dropped": forced,
    }
    per_bot = Counter(table["bot"].to_pylist())
    part_report["decisions_per_bot"] = {b: per_bot.get(b, 0) for b in targets}
    write_table(table, out_path, {
        "schema_version": SCHEMA_VERSION, "game": game, "encoder_version": enc.version,
        "state_shape": state_shape, "num_actions": num_actions, "source_file": str(log_path),
    })
    Path(report_path).parent.mkdir(parents=True, exist_ok=True)
    Path(report_path).write_text(json.dumps(part_report, indent=1, sort_keys=True) + "\n")
    return part_report
