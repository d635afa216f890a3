"""Match logs -> decision rows: replay every match through the judge and encode each decision.

One log part (a generated shard or a dropped-in raw file) is read once for all target bots, so the
expensive replay is done once per match, in parallel over parts; the per-bot datasets
(:mod:`ime.datasets.build`) then only filter and concatenate.

The game's encoder (:func:`ime.core.registry.get_encoder`) turns each decision into the deciding
seat's observation, one legal mask per action head and one label per head (see
:mod:`ime.datasets.schema` for the columns of a multi-head encoder).

What is kept, and why:

* only decisions of the target bots (the thesis trains one imitator per bot, never pooled);
* only real choices, by default: a decision whose first-head mask is empty (a forced pass) has
  nothing for the net to predict; such rows are dropped and counted (``forced_passes_dropped``).
  ``keep_forced=True`` (``dataset.keep_forced``) asks the encoder to give a decision with a
  single legal action its mask instead, so it is a row (always right, as the thesis's Doudizhu
  datasets counted them: Table 5.4's 52-59 % baselines); the part report counts them
  (``forced_kept``). Only an encoder with a ``keep_forced`` option can; asking another is an
  error naming the game;
* only decisions the encoder can express: a played action it cannot encode (first-head label
  :data:`ime.core.encoding.UNENCODABLE`, e.g. a Doudizhu space shuttle) is dropped and counted
  (``unencodable_dropped``, in a part report only when some were);
* no decision from a match that ended by a fault (time-out, crash, illegal move): the faulting
  side's last "decision" is not a move, and the match's end is not the game's. Such matches are
  counted (per bot, with the judge's reason) in the part report and the run report.
"""

from __future__ import annotations

import inspect
import json
from collections import Counter
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import numpy as np

from ime.core.encoding import UNENCODABLE, Encoder
from ime.core.registry import get_encoder, get_game, get_plugin
from ime.datasets.schema import (
    SCHEMA_VERSION,
    empty_table,
    heads_metadata,
    make_table,
    write_table,
)
from ime.matches.logs import read_matches

MAX_LISTED = 50


def dataset_encoder(game: str, game_params: Mapping[str, Any] | None = None, *,
                    keep_forced: bool = False) -> Encoder:
    """The game's encoder as the datasets use it: the cached default one, or, with
    ``keep_forced``, one built by the plug-in's ``make_encoder(game, keep_forced=True)``.

    Raises ``ValueError`` naming the game and the config key when the plug-in's encoder factory
    has no ``keep_forced`` option, rather than silently dropping forced decisions anyway.
    """
    if not keep_forced:
        return get_encoder(game, game_params)
    make = get_plugin(game).make_encoder
    try:
        accepts = "keep_forced" in inspect.signature(make).parameters
    except (TypeError, ValueError):  # a builtin or odd callable: no option we can see
        accepts = False
    if not accepts:
        raise ValueError(f"dataset.keep_forced=true: the {game} encoder has no keep_forced "
                         "option (its plug-in's make_encoder(game, keep_forced=...)); set "
                         "dataset.keep_forced=false for this game")
    return make(get_game(game, game_params), keep_forced=True)


def encode_decisions(enc: Encoder, states: Sequence[Any], players: Sequence[int],
                     actions: Sequence[Any], where: str) -> dict[str, Any]:
    """Planes, masks and labels of the decisions whose first-head mask is not empty.

    Returns ``rows`` (the kept indices), ``state``, ``mask``/``action`` (first head),
    ``mask_<h>``/``action_<h>`` for every later head and ``unencodable`` (how many played actions
    the encoder cannot express were dropped). Raises when a played code is not in its head's
    encoded legal mask (the encoder and the judge disagree), naming ``where``.
    """
    obs = enc.encode(states, players, actions)
    legal = obs.masks[0].sum(axis=1) > 0
    rows = np.flatnonzero(legal)
    codes = np.full((len(actions), len(enc.heads)), -1, dtype=np.int64)
    if len(rows):
        codes[rows] = np.asarray(enc.action_codes(
            [states[i] for i in rows], [players[i] for i in rows], [actions[i] for i in rows]),
            dtype=np.int64).reshape(len(rows), len(enc.heads))
    unencodable = int((codes[rows, 0] == UNENCODABLE).sum())
    rows = rows[codes[rows, 0] != UNENCODABLE]
    for h, head in enumerate(enc.heads):
        used = rows[codes[rows, h] >= 0]
        bad = used[obs.masks[h][used, codes[used, h]] == 0]
        if h == 0:
            bad = np.union1d(bad, rows[codes[rows, 0] < 0])
        if len(bad):
            i = int(bad[0])
            raise ValueError(f"{where}: decision {i}: played {head.name} code {codes[i, h]} is "
                             f"not in the encoded legal mask (encoder {enc.version} disagrees "
                             "with the judge)")
    out: dict[str, Any] = {"rows": rows, "state": obs.planes[rows].reshape(len(rows), -1),
                           "mask": obs.masks[0][rows], "action": codes[rows, 0],
                           "unencodable": unencodable}
    for h, head in enumerate(enc.heads[1:], start=1):
        out[f"mask_{head.name}"] = obs.masks[h][rows]
        out[f"action_{head.name}"] = codes[rows, h]
    return out


def extract_part(
    log_path: str | Path,
    out_path: str | Path,
    report_path: str | Path,
    *,
    game: str,
    targets: Sequence[str],
    num_actions: int | None = None,
    mode: str = "strict",
    rejects_path: str | Path | None = None,
    game_params: Mapping[str, Any] | None = None,
    keep_forced: bool = False,
) -> dict[str, Any]:
    """Replay one log file and write the target bots' decisions (Parquet) plus a JSON report.

    Strict mode raises :class:`ime.matches.logs.LogFormatError` (file, line, match id) on the
    first bad matches; lenient mode quarantines them into ``rejects_path`` and counts them.
    ``num_actions``, when given, must be the encoder's first-head size (a config check);
    ``game_params`` are the game's board options (``game.params``), kept in the metadata.
    ``keep_forced``: decisions with a single legal action are rows too (the module doc).
    A target that holds several seats of a match (team seating) gives every seat's decisions.
    """
    g = get_game(game, game_params)
    enc = dataset_encoder(game, game_params, keep_forced=keep_forced)
    if num_actions is not None and enc.num_actions != num_actions:
        raise ValueError(f"encoder {enc.version} gives {enc.num_actions} actions but "
                         f"game.num_actions is {num_actions}")
    extra_heads = [(h.name, h.size) for h in enc.heads[1:]]
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
    state_shape = [int(x) for x in enc.state_shape]
    state_len = int(np.prod(state_shape))
    if states:
        enc_cols = encode_decisions(enc, states, cols["seat"], actions, f"{log_path}")
        rows = enc_cols.pop("rows")
        unencodable = enc_cols.pop("unencodable")
        keep: dict[str, Any] = {k: [v[i] for i in rows] for k, v in cols.items()}
        keep["ply"] = np.asarray(keep["ply"])
        keep.update(enc_cols)
        table = make_table(keep, state_len, enc.num_actions, extra_heads)
        forced = len(states) - len(rows) - unencodable
        kept_forced = (sum(len(states[i].legal_actions(cols["seat"][i])) == 1 for i in rows)
                       if keep_forced else 0)
    else:
        table = empty_table(state_len, enc.num_actions, extra_heads)
        forced = unencodable = kept_forced = 0
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
        **({"unencodable_dropped": unencodable} if unencodable else {}),
        **({"keep_forced": True, "forced_kept": int(kept_forced)} if keep_forced else {}),
    }
    per_bot = Counter(table["bot"].to_pylist())
    part_report["decisions_per_bot"] = {b: per_bot.get(b, 0) for b in targets}
    metadata: dict[str, Any] = {
        "schema_version": SCHEMA_VERSION, "game": game, "encoder_version": enc.version,
        "state_shape": state_shape, "num_actions": enc.num_actions,
        "source_file": str(log_path), **heads_metadata([(h.name, h.size) for h in enc.heads]),
    }
    if game_params:
        metadata["game_params"] = dict(game_params)
    if keep_forced:
        metadata["keep_forced"] = True
    if enc.position_planes is not None:
        metadata["position_planes"] = int(enc.position_planes)
    if enc.position_tail_planes:
        metadata["position_tail_planes"] = int(enc.position_tail_planes)
    write_table(table, out_path, metadata)
    Path(report_path).parent.mkdir(parents=True, exist_ok=True)
    Path(report_path).write_text(json.dumps(part_report, indent=1, sort_keys=True) + "\n")
    return part_report
