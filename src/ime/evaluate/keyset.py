"""Key sets on disk: the mined keys as Parquet, their stats, and reading them back.

A key set (:func:`write_keyset`) holds one row per key endgame: where it is (match, ply, seat),
the target's action and outcome, every reference's action and outcome, the stored prefix that
makes the key forkable again (players, seed, initdata, player entries up to the key ply), and the
position as the nets see it: the encoder's planes (``planes``) and the first head's legal mask
(``mask``); a multi-head encoder adds one ``mask_<head>`` column per later head (the mask given
the target's earlier codes). Planes and masks are fixed-size list columns.

Actions are stored as :func:`ime.evaluate.forks.action_key` gives them: integer codes for games
whose actions are integers, canonical JSON strings otherwise.

The file metadata says what it is: format version, game (and ``game_params`` when the game has
board options), target, references, planes shape and the deterministic mining stats. Wall-clock
timings go to their own JSON file, so a key set is byte-identical across runs of one config.

Files are written atomically with page checksums and read with verification
(:mod:`ime.datasets.integrity`); :func:`read_keyset` also checks that masks hold only 0 and 1
and that ``n_legal`` is the mask's sum, naming the file and row of the first key that breaks
one.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
import pyarrow as pa

from ime.datasets.integrity import DataFileError, naming, read_parquet, write_parquet
from ime.evaluate.forks import LoggedMatch
from ime.matches.rawlog import atomic_write_text

KEYSET_VERSION = "ime-keys-v1"
MASK_PREFIX = "mask_"


@dataclass
class MiningStats:
    """Everything the report says about one target's mining run."""

    game: str
    target: str
    references: list[str]
    n_keys_wanted: int
    n_keys: int
    candidates_forked: int
    candidates_available: int
    key_rate: float
    self_fork_checked: int
    self_fork_reproduced: int
    self_fork_failed: int
    self_fork_rate: float
    forced_positions_skipped: int
    matches_total: int
    matches_skipped: dict[str, int]
    matches_with_keys: int
    forks: int
    seconds: float
    forks_per_s: float
    workers: int
    min_legal: int
    seed: int

    TIMING_FIELDS = ("seconds", "forks_per_s", "workers")

    def to_json(self) -> dict:
        return asdict(self)

    def deterministic_json(self) -> dict:
        """Everything but wall-clock timings: same config + seed -> same bytes."""
        return {k: v for k, v in asdict(self).items() if k not in self.TIMING_FIELDS}

    def timing_json(self) -> dict:
        return {"target": self.target, "candidates_forked": self.candidates_forked,
                "forks": self.forks, **{k: getattr(self, k) for k in self.TIMING_FIELDS}}


@dataclass
class MiningResult:
    keys: pd.DataFrame
    candidates: pd.DataFrame
    stats: MiningStats
    planes_shape: tuple[int, ...]
    game_params: dict[str, Any] | None = None


def is_mask_column(name: str) -> bool:
    """``mask`` (first head) or ``mask_<head>`` (a later head)."""
    return name == "mask" or name.startswith(MASK_PREFIX)


def write_keyset(result: MiningResult, keys_path: str | Path,
                 candidates_path: str | Path | None = None,
                 stats_path: str | Path | None = None,
                 timing_path: str | Path | None = None) -> None:
    """Parquet key set (+ candidates table, stats JSON, timing JSON); see the module doc."""
    keys_path = Path(keys_path)
    keys_path.parent.mkdir(parents=True, exist_ok=True)
    meta = {
        "ime.keyset_version": KEYSET_VERSION,
        "ime.game": result.stats.game,
        "ime.target": result.stats.target,
        "ime.references": json.dumps(result.stats.references),
        "ime.planes_shape": json.dumps(list(result.planes_shape)),
        "ime.stats": json.dumps(result.stats.deterministic_json()),
    }
    if result.game_params:
        meta["ime.game_params"] = json.dumps(result.game_params, sort_keys=True)
    _write_parquet(result.keys, keys_path, meta, result.planes_shape)
    if candidates_path is not None:
        _write_parquet(result.candidates, Path(candidates_path), meta, result.planes_shape)
    if stats_path is not None:
        atomic_write_text(stats_path,
                          json.dumps(result.stats.deterministic_json(), indent=2) + "\n")
    if timing_path is not None:
        atomic_write_text(timing_path, json.dumps(result.stats.timing_json(), indent=2) + "\n")


def _write_parquet(df: pd.DataFrame, path: Path, meta: Mapping[str, str],
                   planes_shape: Sequence[int]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    cols = {}
    for name in df.columns:
        if name == "planes" or is_mask_column(name):
            width = int(np.prod(planes_shape)) if name == "planes" else None
            flat = np.concatenate(list(df[name])) if len(df) else np.zeros(0, np.uint8)
            if width is None:
                width = len(df[name].iloc[0]) if len(df) else 0
            cols[name] = pa.FixedSizeListArray.from_arrays(pa.array(flat, pa.uint8()), width)
        else:
            cols[name] = pa.array(df[name].tolist())
    table = pa.table(cols) if cols else pa.table({"match_id": pa.array([], pa.string())})
    table = table.replace_schema_metadata({k.encode(): v.encode() for k, v in meta.items()})
    write_parquet(table, path)


def check_keys(table: pa.Table, path: str | Path) -> None:
    """Masks hold 0/1 and ``n_legal`` is the mask's sum (one head: a code is an action); else
    :class:`DataFileError` naming the file and row. (Actions are stored as the game's actions,
    not as codes: ``ime verify`` checks them against the mask through the game's encoder.)"""
    if table.num_rows == 0 or "mask" not in table.column_names:
        return
    for c in table.column_names:
        if is_mask_column(c):
            m = table.column(c).combine_chunks().flatten().to_numpy()
            if len(m) and m.max() > 1:
                rows = np.flatnonzero((m.reshape(table.num_rows, -1) > 1).any(axis=1))
                raise DataFileError(path, f"{c} holds values other than 0 and 1", int(rows[0]))
    mask = table.column("mask").combine_chunks().flatten().to_numpy().reshape(table.num_rows, -1)
    one_head = not any(c.startswith(MASK_PREFIX) for c in table.column_names)
    if one_head and "n_legal" in table.column_names:  # a code is an action: n_legal = codes
        bad = np.flatnonzero(table.column("n_legal").to_numpy() != mask.sum(axis=1))
        if len(bad):
            raise DataFileError(path, "n_legal is not the mask's number of legal actions",
                                int(bad[0]))


@dataclass
class KeySet:
    """A stored key set: the table, its references, and the planes/masks as arrays.

    ``mask`` is the first head's; ``head_masks`` maps every later head's name to its masks.
    """

    df: pd.DataFrame
    game: str
    target: str
    references: list[str]
    planes: np.ndarray
    mask: np.ndarray
    stats: dict
    head_masks: dict[str, np.ndarray] = field(default_factory=dict)
    game_params: dict[str, Any] | None = None

    def logged_match(self, i: int) -> LoggedMatch:
        """The stored prefix of key ``i`` as a forkable match (entries end at the key ply)."""
        r = self.df.iloc[i]
        return LoggedMatch(
            match_id=str(r["match_id"]), players=tuple(json.loads(r["players_json"])),
            seed=int(r["seed"]), initdata=json.loads(r["initdata_json"]),
            entries=tuple(json.loads(r["prefix_json"])), scores=(), faulted=False,
        )


def read_keyset(path: str | Path) -> KeySet:
    """Read a key set written by :func:`write_keyset`; checks the format version, the pages'
    checksums, the footer and the keys' invariants (see the module doc)."""
    table = read_parquet(path)
    with naming(path, "damaged key-set metadata"):
        meta = {k.decode(): v.decode() for k, v in (table.schema.metadata or {}).items()}
        if meta.get("ime.keyset_version") != KEYSET_VERSION:
            raise ValueError(f"{path}: not an IME key set (version "
                             f"{meta.get('ime.keyset_version')!r}, want {KEYSET_VERSION!r})")
        shape = tuple(json.loads(meta["ime.planes_shape"]))
        json.loads(meta.get("ime.references", "[]"))
        json.loads(meta.get("ime.stats", "{}"))
    check_keys(table, path)
    n = table.num_rows
    array_cols = [c for c in table.column_names if c == "planes" or is_mask_column(c)]
    head_masks: dict[str, np.ndarray] = {}
    if n and "planes" in table.column_names:
        planes = table.column("planes").combine_chunks().flatten().to_numpy()
        planes = planes.reshape((n, *shape))
        mask = table.column("mask").combine_chunks().flatten().to_numpy().reshape(n, -1)
        for c in array_cols:
            if c.startswith(MASK_PREFIX):
                head_masks[c[len(MASK_PREFIX):]] = (
                    table.column(c).combine_chunks().flatten().to_numpy().reshape(n, -1))
    else:
        planes = np.zeros((0, *shape), np.uint8)
        mask = np.zeros((0, 0), np.uint8)
    df = table.drop(array_cols).to_pandas()
    params = meta.get("ime.game_params")
    return KeySet(df=df, game=meta["ime.game"], target=meta["ime.target"],
                  references=json.loads(meta["ime.references"]), planes=planes, mask=mask,
                  stats=json.loads(meta.get("ime.stats", "{}")), head_masks=head_masks,
                  game_params=json.loads(params) if params else None)
