"""The dataset file format: one Parquet file per (game, bot, variant), one row per decision.

Why Parquet with fixed-size list columns: the state (``planes x H x W`` 0/1 bytes) and the legal
mask come back as one contiguous ``uint8`` buffer per column (``read_arrays``), so the trainer turns
a whole dataset into tensors without a Python loop, while the file stays self-describing (schema,
encoder version, dedup policy and counts live in the file's key-value metadata).

**Action heads.** The encoder's first head is the columns ``mask`` (its legal codes) and
``action`` (the code played); ``num_legal`` counts the first head's legal codes. A one-head game
(a board square, a column) has exactly these columns and no head metadata. A multi-head encoder
(a card combination's major code and a kicker code) adds, after ``response``, two columns per
extra head ``h``, in head order: ``mask_<h>`` (``uint8[size]``, the legal codes of ``h`` given
the earlier heads' codes of the action played) and ``action_<h>`` (``int16``, ``-1`` when ``h``
is not used in that decision, with an all-zero mask). Its files also carry the metadata key
``heads``: ``[{"name": ..., "size": ...}, ...]`` for every head, the first included. So one row
is one decision, whatever the number of heads.

**Board options.** When the game was built with options (``game.params`` of the config: a board
size), the metadata key ``game_params`` holds them, so that readers (training's
symmetries, figures) can rebuild the same encoder with :func:`ime.core.registry.get_encoder`.
A game without options writes no such key.

**The position.** An encoder whose later planes depend on the action played (Doudizhu's
teacher-forced kicker steps) declares how many leading planes describe the position; its files
carry it as ``position_planes``, and duplicates, conflicting states and positions seen in
training are judged on those planes (:func:`position_part`). Others write no such key.

Byte-identical output for the same config: rows are sorted by (match_id, ply), the metadata holds
no timestamps, and the writer options are fixed.

**Integrity.** Files are written with page checksums and read with verification
(:mod:`ime.datasets.integrity`), and every reader checks the invariants of a decision
(:func:`check_decisions`): masks hold only 0 and 1, the action played is legal in its mask
(``mask[action] == 1``; a later head's ``-1`` goes with an all-zero mask), and ``num_legal`` is
the first mask's sum. A file that breaks one is a :class:`DataFileError` naming the file and the
row, never data a net trains on.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq

from ime.datasets.integrity import DataFileError, read_parquet, read_schema, write_parquet

SCHEMA_VERSION = "ime-decisions-v1"
META_PREFIX = "ime."

HeadSpec = tuple[str, int]
"""``(name, size)`` of one action head."""


def decision_schema(state_len: int, num_actions: int,
                    extra_heads: Sequence[HeadSpec] = ()) -> pa.Schema:
    """Columns of a decisions table (per-part extracts and per-bot datasets alike).

    ``extra_heads``: the heads after the first, each adding ``mask_<name>`` and
    ``action_<name>`` columns (see the module doc).
    """
    fields = [
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
    ]
    for name, size in extra_heads:
        fields += [pa.field(f"mask_{name}", pa.list_(pa.uint8(), int(size)), nullable=False),
                   pa.field(f"action_{name}", pa.int16(), nullable=False)]
    return pa.schema(fields)


def _fixed_list(values: Any, n: int, width: int) -> pa.FixedSizeListArray:
    flat = np.ascontiguousarray(values, dtype=np.uint8).reshape(n, width)
    return pa.FixedSizeListArray.from_arrays(pa.array(flat.reshape(-1)), width)


def make_table(columns: dict[str, Any], state_len: int, num_actions: int,
               extra_heads: Sequence[HeadSpec] = ()) -> pa.Table:
    """Build a decisions table from numpy columns (``state``/``mask`` as ``uint8[N, L]``;
    ``mask_<h>``/``action_<h>`` for every extra head)."""
    schema = decision_schema(state_len, num_actions, extra_heads)
    n = len(columns["match_id"])
    mask = np.ascontiguousarray(columns["mask"], dtype=np.uint8).reshape(n, num_actions)
    arrays = [
        pa.array(columns["bot"], pa.string()),
        pa.array(columns["match_id"], pa.string()),
        pa.array(np.asarray(columns["ply"], dtype=np.int16)),
        pa.array(np.asarray(columns["seat"], dtype=np.int8)),
        pa.array(columns["players"], pa.list_(pa.string())),
        _fixed_list(columns["state"], n, state_len),
        _fixed_list(mask, n, num_actions),
        pa.array(mask.sum(axis=1).astype(np.int16)),
        pa.array(np.asarray(columns["action"], dtype=np.int16)),
        pa.array(columns["response"], pa.string()),
    ]
    for name, size in extra_heads:
        arrays += [_fixed_list(columns[f"mask_{name}"], n, int(size)),
                   pa.array(np.asarray(columns[f"action_{name}"], dtype=np.int16))]
    return pa.Table.from_arrays(arrays, schema=schema)


def empty_table(state_len: int, num_actions: int,
                extra_heads: Sequence[HeadSpec] = ()) -> pa.Table:
    return decision_schema(state_len, num_actions, extra_heads).empty_table()


def heads_metadata(heads: Sequence[HeadSpec]) -> dict[str, Any]:
    """The ``heads`` metadata entry: present only for more than one head (see the module doc)."""
    if len(heads) <= 1:
        return {}
    return {"heads": [{"name": str(n), "size": int(s)} for n, s in heads]}


def table_heads(schema: pa.Schema, metadata: Mapping[str, Any]) -> list[HeadSpec]:
    """Every head of a decisions file: the metadata's ``heads``, else the one ``mask`` column."""
    heads = metadata.get("heads")
    if heads:
        return [(str(h["name"]), int(h["size"])) for h in heads]
    return [("action", int(schema.field("mask").type.list_size))]


def write_table(table: pa.Table, path: str | Path, metadata: dict[str, Any]) -> None:
    """Write with fixed options and JSON-encoded ``ime.*`` metadata; atomic (tmp + rename)."""
    meta = {f"{META_PREFIX}{k}".encode(): json.dumps(v, sort_keys=True).encode()
            for k, v in sorted(metadata.items())}
    table = table.replace_schema_metadata(meta)
    write_parquet(table, path, compression="zstd", compression_level=3, row_group_size=1 << 17,
                  write_statistics=True, use_dictionary=["bot", "players"], store_schema=True)


def read_metadata(path: str | Path) -> dict[str, Any]:
    """The ``ime.*`` metadata of a dataset file, decoded (a damaged footer names the file)."""
    return decode_metadata(read_schema(path).metadata or {}, path)


def decode_metadata(raw: Mapping[bytes, bytes], path: str | Path) -> dict[str, Any]:
    out = {}
    for k, v in raw.items():
        key = k.decode(errors="replace")
        if key.startswith(META_PREFIX):
            try:
                out[key[len(META_PREFIX):]] = json.loads(v.decode())
            except (UnicodeDecodeError, ValueError) as e:
                raise DataFileError(path, f"metadata {key} is not JSON ({e})") from e
    return out


@dataclass
class DecisionArrays:
    """A dataset as numpy arrays (what the trainer and the evaluators consume).

    ``mask``/``action`` are the first head's; ``masks``/``actions`` hold every head (``actions``
    is ``int64[N, heads]``, ``-1`` where a head is not used), ``heads`` their names and sizes.
    """

    match_id: np.ndarray  # object[N]
    ply: np.ndarray  # int16[N]
    seat: np.ndarray  # int8[N]
    state: np.ndarray  # uint8[N, *state_shape]
    mask: np.ndarray  # uint8[N, num_actions]
    action: np.ndarray  # int64[N]
    metadata: dict[str, Any]
    masks: list[np.ndarray] = field(default_factory=list)
    actions: np.ndarray | None = None
    heads: list[HeadSpec] = field(default_factory=list)

    def __post_init__(self) -> None:
        if not self.masks:
            self.masks = [self.mask]
        if self.actions is None:
            self.actions = self.action.reshape(-1, 1)
        if not self.heads:
            self.heads = [("action", int(self.mask.shape[1]))]

    def __len__(self) -> int:
        return len(self.action)


def position_part(state: np.ndarray, metadata: Mapping[str, Any]) -> np.ndarray:
    """The part of each row's state that describes the position: every value, or the leading
    ``position_planes`` planes when the encoder declares them (metadata ``position_planes``;
    :attr:`ime.core.encoding.Encoder.position_planes`) and its trailing
    ``position_tail_planes`` (:attr:`ime.core.encoding.Encoder.position_tail_planes`)."""
    flat = np.asarray(state).reshape(len(state), -1)
    planes = metadata.get("position_planes")
    if planes is None:
        return flat
    shape = metadata.get("state_shape") or []
    per_plane = int(np.prod(shape[1:])) if len(shape) > 1 else 1
    head = flat[:, : int(planes) * per_plane]
    tail = int(metadata.get("position_tail_planes") or 0)
    return np.concatenate([head, flat[:, flat.shape[1] - tail * per_plane:]], axis=1) if tail \
        else head


def fixed_list_to_numpy(col: pa.ChunkedArray | pa.Array, width: int) -> np.ndarray:
    """A fixed-size-list<uint8> column as ``uint8[N, width]`` without a Python loop."""
    if isinstance(col, pa.ChunkedArray):
        col = col.combine_chunks() if col.num_chunks != 1 else col.chunk(0)
    flat = col.flatten().to_numpy(zero_copy_only=False)
    return flat.reshape(len(col), width)


def read_decisions(path: str | Path) -> tuple[pa.Table, dict[str, Any]]:
    """A decisions file (a part or a dataset), verified: page checksums, footer, invariants."""
    table = read_parquet(path)
    meta = decode_metadata(table.schema.metadata or {}, path)
    check_decisions(table, path, meta)
    return table, meta


def check_decisions(table: pa.Table, path: str | Path, metadata: Mapping[str, Any]) -> None:
    """Raise :class:`DataFileError` naming the file and the first row that breaks an invariant
    of a decision (see the module doc), or whose columns do not have the format's types."""
    try:
        heads = table_heads(table.schema, metadata)
        stype = table.schema.field("state").type
        shape = metadata.get("state_shape") or [stype.list_size]
        width = int(np.prod(shape))
    except (KeyError, AttributeError, TypeError, ValueError) as e:
        raise DataFileError(path, f"not a decisions file ({type(e).__name__}: {e})") from e
    if not pa.types.is_fixed_size_list(stype) or stype.list_size != width:
        raise DataFileError(path, f"column state is {stype}, not uint8[{width}] "
                                  f"(state_shape {shape})")
    for k, (name, size) in enumerate(heads):
        mcol, acol = ("mask", "action") if k == 0 else (f"mask_{name}", f"action_{name}")
        for col in (mcol, acol):
            if col not in table.column_names:
                raise DataFileError(path, f"no column {col!r}: not a decisions file")
        mtype = table.schema.field(mcol).type
        if not pa.types.is_fixed_size_list(mtype) or mtype.list_size != size:
            raise DataFileError(path, f"column {mcol} is {mtype}, not uint8[{size}]")
        mask = fixed_list_to_numpy(table[mcol], size)
        action = table[acol].to_numpy().astype(np.int64)
        _check_head(path, mcol, acol, mask, action, optional=k > 0)
        if k == 0:
            legal = mask.sum(axis=1, dtype=np.int64)
            num_legal = table["num_legal"].to_numpy().astype(np.int64)
            bad = np.flatnonzero(num_legal != legal)
            if len(bad):
                r = int(bad[0])
                raise DataFileError(path, f"num_legal is {num_legal[r]} but the mask has "
                                          f"{legal[r]} legal actions ({len(bad)} such rows)", r)


def _check_head(path: str | Path, mcol: str, acol: str, mask: np.ndarray, action: np.ndarray,
                optional: bool) -> None:
    """One head's invariants: a 0/1 mask, the action legal in it (or ``-1`` with an empty
    mask for a later head that does not apply)."""
    n, size = mask.shape
    over = np.flatnonzero((mask > 1).any(axis=1))
    if len(over):
        r = int(over[0])
        values = sorted({int(v) for v in mask[over].ravel() if v > 1})[:5]
        raise DataFileError(path, f"{mcol} holds values other than 0 and 1 ({values} in "
                                  f"{len(over)} rows)", r)
    unused = action == -1 if optional else np.zeros(n, bool)
    if optional:
        filled = np.flatnonzero(unused & mask.any(axis=1))
        if len(filled):
            raise DataFileError(path, f"{acol} is -1 (head not used) but {mcol} is not empty",
                                int(filled[0]))
    out = np.flatnonzero(~unused & ((action < 0) | (action >= size)))
    if len(out):
        r = int(out[0])
        raise DataFileError(path, f"{acol} {action[r]} is not a code of {mcol} (0..{size - 1})",
                            r)
    rows = np.flatnonzero(~unused)
    illegal = rows[mask[rows, action[rows]] != 1]
    if len(illegal):
        r = int(illegal[0])
        raise DataFileError(path, f"{acol} {action[r]} is not legal in {mcol} "
                                  f"({len(illegal)} such rows)", r)


def read_arrays(path: str | Path, filters: Any = None) -> DecisionArrays:
    """Load a dataset file into numpy arrays, states reshaped to the encoder's shape.

    The whole file is verified (:func:`read_decisions`) before ``filters`` (pyarrow's DNF
    filters) select rows, so a row an error names is a row of the file.
    """
    table, meta = read_decisions(path)
    if filters is not None:
        table = table.filter(pq.filters_to_expression(filters))
    shape = tuple(meta.get("state_shape") or (table.schema.field("state").type.list_size,))
    width = int(np.prod(shape))
    heads = table_heads(table.schema, meta)
    state = fixed_list_to_numpy(table["state"], width).reshape(-1, *shape)
    masks = [fixed_list_to_numpy(table["mask"], heads[0][1])]
    actions = [table["action"].to_numpy().astype(np.int64)]
    for name, size in heads[1:]:
        masks.append(fixed_list_to_numpy(table[f"mask_{name}"], size))
        actions.append(table[f"action_{name}"].to_numpy().astype(np.int64))
    return DecisionArrays(
        match_id=table["match_id"].to_numpy(zero_copy_only=False).astype(object),
        ply=table["ply"].to_numpy(),
        seat=table["seat"].to_numpy(),
        state=state,
        mask=masks[0],
        action=actions[0],
        metadata=meta,
        masks=masks,
        actions=np.stack(actions, axis=1),
        heads=heads,
    )
