"""Decision parts -> one dataset per target bot, the random baseline, Table 4.2, the run report.

Dedup policy (``dataset.dedup``), and why the default keeps duplicates:

* ``keep`` (default): a (state, action) pair that occurs in several matches is kept each time.
  The frequency is real: it is how often the bot meets that position (openings above all), the
  thesis trained on its logs as they were (Table 4.2 counts every pair), and dropping repeats would
  make the training distribution differ from the one the imitator is tested on. Splits are by
  match, so a repeat never puts the *same row* on both sides; the leakage that remains (an opening
  position that occurs in training and validation matches) is measured, not hidden: the stats
  count repeated pairs and their share.
* ``drop_exact``: keep only the first occurrence (in match-id, ply order) of each exact
  (state, action) pair, for users who want every position counted once (thesis 6.2 lists
  deduplication as an open question; the dataset-size sweep can compare both).

Either way the stats report ``duplicate_pairs`` (repeats of an earlier pair) and
``conflicting_states`` (states seen with more than one action: a deterministic bot has none unless
its decision depends on history, so this is a direct measure of the bot's randomness).
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.compute as pc

from ime.datasets.schema import (
    SCHEMA_VERSION,
    DataFileError,
    fixed_list_to_numpy,
    position_part,
    read_decisions,
    table_heads,
    write_table,
)
from ime.matches.rawlog import atomic_write_text

DEDUP_POLICIES = ("keep", "drop_exact")


def random_baseline(num_legal: np.ndarray) -> float:
    """Thesis eq. 4-1: mean over decisions of ``1 / #legal actions``, in percent."""
    num_legal = np.asarray(num_legal, dtype=np.float64)
    if len(num_legal) == 0:
        return float("nan")
    return float(np.mean(1.0 / num_legal) * 100.0)


def state_keys(state: np.ndarray) -> np.ndarray:
    """One opaque bytes key per row for exact state comparison (rows of any shape)."""
    s = np.ascontiguousarray(np.asarray(state).reshape(len(state), -1))
    return s.view(np.dtype((np.void, s.shape[1]))).ravel()


def _row_keys(state: np.ndarray, action: np.ndarray) -> np.ndarray:
    """One opaque bytes key per row for exact (state, action) comparison.

    ``action``: ``[N]`` codes, or ``[N, heads]`` for a multi-head action (every head's code).
    """
    a = np.asarray(action, dtype="<i2").reshape(len(state), -1).view(np.uint8)
    return state_keys(np.hstack([state.reshape(len(state), -1), a]))


def _action_ids(action: np.ndarray) -> np.ndarray:
    """One integer per row identifying its action: the code itself, or (multi-head) the index
    of the row's code tuple among the distinct tuples."""
    action = np.asarray(action)
    if action.ndim == 1:
        return action.astype(np.int64)
    return np.unique(action, axis=0, return_inverse=True)[1].reshape(-1).astype(np.int64)


def seen_states(state: np.ndarray, reference_rows: np.ndarray, rows: np.ndarray) -> np.ndarray:
    """For each of ``rows``: does its exact state also occur among ``reference_rows``?

    Validation rows whose position also appears in the training rows (an opening, or a whole
    game repeated against a deterministic opponent) can be answered from memory; Table 4.4 reports
    the accuracy on the other rows beside the plain one.
    """
    keys = state_keys(state)
    return np.isin(keys[np.asarray(rows)], keys[np.asarray(reference_rows)])


def duplicate_stats(state: np.ndarray, action: np.ndarray) -> dict[str, Any]:
    """Counts of repeated (state, action) pairs and of states played with several actions.

    ``action``: ``[N]`` codes or ``[N, heads]`` (a multi-head action is one action).
    """
    n = len(action)
    if n == 0:
        return {"duplicate_pairs": 0, "duplicate_share": 0.0, "distinct_states": 0,
                "conflicting_states": 0}
    pair_keys = _row_keys(state, action)
    n_pairs = len(np.unique(pair_keys))
    uniq_states, inv = np.unique(state_keys(state), return_inverse=True)
    # a state conflicts when it appears with more than one distinct action
    pairs = np.unique(np.stack([inv, _action_ids(action)], axis=1), axis=0)
    per_state = np.bincount(pairs[:, 0], minlength=len(uniq_states))
    return {
        "duplicate_pairs": int(n - n_pairs),
        "duplicate_share": float((n - n_pairs) / n),
        "distinct_states": int(len(uniq_states)),
        "conflicting_states": int((per_state > 1).sum()),
    }


def first_occurrences(state: np.ndarray, action: np.ndarray) -> np.ndarray:
    """Row indices (ascending) of the first occurrence of each exact (state, action) pair."""
    if len(action) == 0:
        return np.zeros(0, dtype=np.int64)
    _, idx = np.unique(_row_keys(state, action), return_index=True)
    return np.sort(idx)


def build_dataset(
    part_paths: Sequence[str | Path],
    report_paths: Sequence[str | Path],
    bot: str,
    out_path: str | Path,
    stats_path: str | Path,
    *,
    game: str,
    max_matches: int | None = None,
    dedup: str = "keep",
    config: Mapping[str, Any] | None = None,
) -> dict[str, Any]:
    """Concatenate ``bot``'s rows from every part, select, dedup, sort, write Parquet + stats.

    ``max_matches``: keep the first N of the bot's matches in match-id order (schedule order for
    generated logs, time order for Botzone's ObjectId match ids), which is how a dataset-size
    sweep subsamples one set of logs.
    """
    if dedup not in DEDUP_POLICIES:
        raise ValueError(f"dedup must be one of {DEDUP_POLICIES}, got {dedup!r}")
    if not part_paths:
        raise ValueError("no decision parts to build a dataset from")
    tables = []
    meta0: dict[str, Any] = {}
    for p in part_paths:
        part, meta = read_decisions(p)  # checksums, footer and invariants, naming the file
        if not meta0:
            meta0 = meta
        elif (meta.get("encoder_version"), meta.get("state_shape")) != (
                meta0.get("encoder_version"), meta0.get("state_shape")):
            raise ValueError(f"{p}: encoder {meta.get('encoder_version')} differs from "
                             f"{part_paths[0]}'s {meta0.get('encoder_version')}")
        elif bool(meta.get("keep_forced")) != bool(meta0.get("keep_forced")):
            raise ValueError(f"{p}: keep_forced={bool(meta.get('keep_forced'))} differs from "
                             f"{part_paths[0]}'s (parts of one dataset keep the same rows)")
        t = part.filter(pc.equal(part["bot"], bot))
        tables.append(t.replace_schema_metadata(None))
    table = pa.concat_tables(tables).combine_chunks()
    # a match present in two parts (a raw file dropped twice) counts once: keep the first part's
    counts: dict[str, Any] = {"rows_read": table.num_rows}
    ids = table["match_id"].to_numpy(zero_copy_only=False)
    part_of = np.repeat(np.arange(len(tables)), [t.num_rows for t in tables])
    first_part: dict[str, int] = {}
    for mid, k in zip(ids, part_of, strict=True):
        first_part.setdefault(mid, int(k))
    keep = np.fromiter((first_part[m] == k for m, k in zip(ids, part_of, strict=True)),
                       dtype=bool, count=len(ids))
    counts["rows_in_repeated_matches"] = int((~keep).sum())
    table = table.filter(pa.array(keep))
    table = table.sort_by([("match_id", "ascending"), ("ply", "ascending")])
    match_ids = pc.unique(table["match_id"]).to_pylist()
    counts["matches_available"] = len(match_ids)
    if max_matches is not None and len(match_ids) > max_matches:
        chosen = pa.array(sorted(match_ids)[:max_matches])
        table = table.filter(pc.is_in(table["match_id"], value_set=chosen))
    width = table.schema.field("state").type.list_size
    state = fixed_list_to_numpy(table["state"], width)
    heads = table_heads(table.schema, meta0)
    action = table["action"].to_numpy()
    if len(heads) > 1:  # a multi-head action is one action: every head's code counts
        action = np.stack([action, *(table[f"action_{n}"].to_numpy() for n, _ in heads[1:])],
                          axis=1)
    dups = duplicate_stats(position_part(state, meta0), action)
    if dedup == "drop_exact":
        idx = first_occurrences(state, action)
        counts["dropped_duplicates"] = int(table.num_rows - len(idx))
        table = table.take(pa.array(idx))
    else:
        counts["dropped_duplicates"] = 0
    num_legal = table["num_legal"].to_numpy()
    faulted = 0
    rejected = 0
    for r in report_paths:
        rep = read_json(r)
        faulted += int(rep.get("faulted_per_bot", {}).get(bot, 0))
        rejected += int(rep.get("rejected", 0))
    stats = {
        "bot": bot,
        "game": game,
        "matches": len(pc.unique(table["match_id"])),
        "pairs": table.num_rows,
        "baseline": random_baseline(num_legal),
        "mean_legal": float(np.mean(num_legal)) if len(num_legal) else float("nan"),
        "dedup": dedup,
        "max_matches": max_matches,
        "faulted_matches_excluded": faulted,
        "rejected_lines_in_logs": rejected,
        **counts,
        **dups,
    }
    metadata = {
        "schema_version": SCHEMA_VERSION,
        "game": game,
        "bot": bot,
        "encoder_version": meta0.get("encoder_version"),
        "state_shape": meta0.get("state_shape"),
        "num_actions": meta0.get("num_actions"),
        **{k: meta0[k] for k in ("heads", "game_params", "position_planes", "position_tail_planes",
                                  "keep_forced")
           if k in meta0},
        "dedup": dedup,
        "dedup_policy": ("keep: repeated (state, action) pairs are real frequency and are kept"
                         if dedup == "keep" else
                         "drop_exact: only the first occurrence (match_id, ply order) of each "
                         "exact (state, action) pair is kept"),
        "row_order": "match_id, ply",
        "stats": stats,
        "config": dict(config or {}),
    }
    write_table(table, out_path, metadata)
    atomic_write_text(stats_path, json.dumps(stats, indent=1, sort_keys=True) + "\n")
    return stats


def read_json(path: str | Path) -> Any:
    """A JSON file; an unreadable or truncated one is an error naming it."""
    try:
        return json.loads(Path(path).read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise
    except (OSError, UnicodeDecodeError, ValueError) as e:
        raise DataFileError(path, f"cannot read JSON ({e})") from e


def table4_2(stats: Sequence[Mapping[str, Any]]) -> pd.DataFrame:
    """Thesis Table 4.2: per bot, the number of (state, action) pairs and the random baseline."""
    rows = [{"bot": s["bot"], "pairs": int(s["pairs"]), "baseline": round(s["baseline"], 2)}
            for s in stats]
    return pd.DataFrame(rows, columns=["bot", "pairs", "baseline"])


def run_report(
    part_reports: Sequence[Mapping[str, Any]],
    dataset_stats: Sequence[Mapping[str, Any]],
    extra: Mapping[str, Any] | None = None,
) -> dict[str, Any]:
    """What went in and what was left out: matches, rejects, faults, duplicates, per bot."""
    return {
        **dict(extra or {}),
        "log_parts": len(part_reports),
        "log_lines": sum(int(r["total"]) for r in part_reports),
        "matches_accepted": sum(int(r["accepted"]) for r in part_reports),
        "lines_rejected": sum(int(r["rejected"]) for r in part_reports),
        "matches_faulted_excluded": sum(int(r["faulted"]) for r in part_reports),
        "repeated_match_ids": sum(int(r.get("n_duplicate_match_ids", 0)) for r in part_reports),
        "forced_passes_dropped": sum(int(r.get("forced_passes_dropped", 0))
                                     for r in part_reports),
        **({"unencodable_dropped": n} if (n := sum(int(r.get("unencodable_dropped", 0))
                                                   for r in part_reports)) else {}),
        **({"forced_kept": sum(int(r.get("forced_kept", 0)) for r in part_reports)}
           if any(r.get("keep_forced") for r in part_reports) else {}),
        "rejects": [x for r in part_reports for x in r.get("reject_reasons", [])][:50],
        "faults": [x for r in part_reports for x in r.get("faults", [])][:50],
        "bots": {s["bot"]: {k: s[k] for k in (
            "matches", "pairs", "baseline", "faulted_matches_excluded", "duplicate_pairs",
            "duplicate_share", "distinct_states", "conflicting_states", "dropped_duplicates",
            "matches_available")} for s in dataset_stats},
    }
