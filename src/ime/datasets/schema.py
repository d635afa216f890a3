"""The dataset file format: one Parquet file per (game, bot, variant), one row per decision.

Why Parquet with fixed-size list columns: the state (``planes x H x W`` 0/1 bytes) and the legal
mask come back as one contiguous ``uint8`` buffer per column (``read_arrays``), so the trainer turns
a whole dataset into tensors without a Python loop, while the file stays self-describing (schema,
encoder version, dedup policy and counts live in the file's key-value metadata).

Byte-identical output for the same config: rows are sorted by (match_id, ply), the metadata holds
no timestamps, and the writer options are fixed.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq

SCHEMA_VERSION = "ime-decisions-v1"
META_PREFIX = "ime."


def decision_schema(state_len: int, num_actions: int) -> pa.Schema:
    """Columns of a decisions table (per-part extracts and per-bot datasets alike)."""
    return pa.schema([
        pa.field("bot", pa.string(), nullable=False),
        pa.field("match_id", pa.string(), nullable=False),
        pa.field("ply", pa.int16(), nullable=False),
        pa.field("seat", pa.int8(), nullable=False),
        pa.field("players", pa.list_(pa.string()), nullable=False),
        pa.field("state", pa.list_(pa.uint8(), state_len), nullable=False),
        pa.field("mask", pa.list_(pa.uint8(), num_actions), nullable=False),
        pa.field("num_legal", pa.int16(), nullable=False),
        pa.field("action", pa.int16(), nullable=False),
        pa.field("response", pa.string(), nullable=False),
    ])


def make_table(columns: dict[str, Any], state_len: int, num_actions: int) -> pa.Table:
    """Build a decisions table from numpy columns (``state``/``mask`` as ``uint8[N, L]``)."""
    schema = decision_schema(state_len, num_actions)
    n = len(columns["match_id"])
    state = np.ascontiguousarray(columns["state"], dtype=np.uint8).reshape(n, state_len)
    mask = np.ascontiguousarray(columns["mask"], dtype=np.uint8).reshape(n, num_actions)
    arrays = [
        pa.array(columns["bot"], pa.string()),
        pa.array(columns["match_id"], pa.string()),
        pa.array(np.asarray(columns["ply"], dtype=np.int16)),
        pa.array(np.asarray(columns["seat"], dtype=np.int8)),
        pa.array(columns["players"], pa.list_(pa.string())),
        pa.FixedSizeListArray.from_arrays(pa.array(state.reshape(-1)), state_len),
        pa.FixedSizeListArray.from_arrays(pa.array(mask.reshape(-1)), num_actions),
        pa.array(mask.sum(axis=1).astype(np.int16)),
        pa.array(np.asarray(columns["action"], dtype=np.int16)),
        pa.array(columns["response"], pa.string()),
    ]
    return pa.Table.from_arrays(arrays, schema=schema)


def empty_table(state_len: int, num_actions: int) -> pa.Table:
    return decision_schema(state_len, num_actions).empty_table()


def write_table(table: pa.Table, path: str | Path, metadata: dict[str, Any]) -> None:
    """Write with fixed options and JSON-encoded ``ime.*`` metadata; atomic (tmp + rename)."""
    meta = {f"{META_PREFIX}{k}".encode(): json.dumps(v, sort_keys=True).encode()
            for k, v in sorted(metadata.items())}
    table = table.replace_schema_metadata(meta)
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(path.name + ".tmp")
    pq.write_table(table, tmp, compression="zstd", compression_level=3, row_group_size=1 << 17,
                   write_statistics=True, use_dictionary=["bot", "players"],
                   store_schema=True)
    tmp.replace(path)


def read_metadata(path: str | Path) -> dict[str, Any]:
    """The ``ime.*`` metadata of a dataset file, decoded."""
    raw = pq.read_schema(path).metadata or {}
    out = {}
    for k, v in raw.items():
        key = k.decode()
        if key.startswith(META_PREFIX):
            out[key[len(META_PREFIX):]] = json.loads(v.decode())
    return out


@dataclass
class DecisionArrays:
    """A dataset as numpy arrays (what the trainer and the evaluators consume)."""

    match_id: np.ndarray  # object[N]
    ply: np.ndarray  # int16[N]
    seat: np.ndarray  # int8[N]
    state: np.ndarray  # uint8[N, *state_shape]
    mask: np.ndarray  # uint8[N, num_actions]
    action: np.ndarray  # int64[N]
    metadata: dict[str, Any]

    def __len__(self) -> int:
        return len(self.action)


def fixed_list_to_numpy(col: pa.ChunkedArray | pa.Array, width: int) -> np.ndarray:
    """A fixed-size-list<uint8> column as ``uint8[N, width]`` without a Python loop."""
    if isinstance(col, pa.ChunkedArray):
        col = col.combine_chunks() if col.num_chunks != 1 else col.chunk(0)
    flat = col.flatten().to_numpy(zero_copy_only=False)
    return flat.reshape(len(col), width)


def read_arrays(path: str | Path, filters: Any = None) -> DecisionArrays:
    """Load a dataset file into numpy arrays, states reshaped to the encoder's shape."""
    table = pq.read_table(path, filters=filters)
    meta = read_metadata(path)
    shape = tuple(meta.get("state_shape") or (table.schema.field("state").type.list_size,))
    width = int(np.prod(shape))
    num_actions = table.schema.field("mask").type.list_size
    state = fixed_list_to_numpy(table["state"], width).reshape(-1, *shape)
    mask = fixed_list_to_numpy(table["mask"], num_actions)
    return DecisionArrays(
        match_id=table["match_id"].to_numpy(zero_copy_only=False).astype(object),
        ply=table["ply"].to_numpy(),
        seat=table["seat"].to_numpy(),
        state=state,
        mask=mask,
        action=table["action"].to_numpy().astype(np.int64),
        metadata=meta,
    )
