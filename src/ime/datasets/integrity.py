"""Parquet files that cannot be silently corrupt: checksummed pages, verified reads, named files.

A Parquet file has three parts that damage can hit; each is covered here, and the whole file too:

* **pages** (the column data): written with a CRC-32 per page (``write_page_checksum=True``)
  and read with ``page_checksum_verification=True``: a changed byte in a page fails the read;
* **the footer** (schema, key-value metadata, offsets, statistics): it has no checksum, but it
  holds our schema and metadata twice (the Parquet schema and key-value pairs, and the
  serialized Arrow schema that ``store_schema`` adds): :func:`check_footer_copies` requires the
  copies to agree; a changed offset or size fails the read; the row count must be the pages'.
  What is left are bytes no reader uses (statistics, which our readers never filter by, and
  page-header fields outside the checksummed page data): a flip there changes no data read.
  (The footer's statistics are not compared with the data: pyarrow's metadata API aborts the
  whole process, uncatchably, on some damaged column metadata, so it is not touched.)
* **the whole file**: :func:`write_parquet` writes a sidecar ``<file>.sha256`` (one line
  ``<hex>  <name>``, as ``sha256sum`` writes it, so ``sha256sum -c`` checks it too) with the
  sha256 of the final bytes; ``ime verify`` compares it (:func:`check_sidecar`), so a flip in
  any byte, used or not, is reported. Readers do not hash: the checks above already stop every
  change they would see.
* **the meaning** (a mask value of 137): the readers of each format check its invariants
  (:func:`ime.datasets.schema.check_decisions`).

Every failure is a :class:`DataFileError` that names the file (and the row, for an invariant).
Writes are atomic: a temporary file beside the target, renamed over it once complete.
"""

from __future__ import annotations

import base64
import hashlib
import os
import re
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pyarrow as pa
import pyarrow.parquet as pq

ARROW_SCHEMA_KEY = b"ARROW:schema"
SIDECAR_SUFFIX = ".sha256"
"""The sidecar of ``x.parquet`` is ``x.parquet.sha256``."""
_SIDECAR_LINE = re.compile(r"([0-9a-f]{64}) [ *](.+)\n?")


class DataFileError(ValueError):
    """A data file that cannot be read or breaks its format's invariants; names the file."""

    def __init__(self, path: str | Path, reason: str, row: int | None = None):
        where = f"{path}" + (f": row {row}" if row is not None else "")
        super().__init__(f"{where}: {reason}")
        self.path = str(path)
        self.reason = reason
        self.row = row


@contextmanager
def naming(path: str | Path, what: str = "cannot read") -> Iterator[None]:
    """Re-raise a reader's error (pyarrow's name no file) as :class:`DataFileError`."""
    try:
        yield
    except DataFileError:
        raise
    except FileNotFoundError as e:
        raise FileNotFoundError(f"{path}: no such file") from e
    except (OSError, ValueError, KeyError, TypeError, IndexError, pa.ArrowException) as e:
        raise DataFileError(path, f"{what} ({type(e).__name__}: {e}); the file is damaged or "
                                  "not what it should be: rebuild it") from e


def write_parquet(table: pa.Table, path: str | Path, **options: Any) -> None:
    """``pq.write_table`` with page checksums, atomically (temporary file + rename), and its
    sha256 sidecar.

    The old sidecar goes first and the new one comes last (itself atomic), so an interruption
    anywhere leaves a file with its own sidecar or with none (read as "from an older run",
    never as damage), never a new file beside an old file's hash."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    try:
        pq.write_table(table, tmp, write_page_checksum=True, **options)
        digest = file_sha256(tmp)
        sidecar_path(path).unlink(missing_ok=True)
        os.replace(tmp, path)
    finally:
        tmp.unlink(missing_ok=True)
    write_sidecar(path, digest)


def sidecar_path(path: str | Path) -> Path:
    """Where the sha256 of ``path`` is kept: ``<path>.sha256``."""
    path = Path(path)
    return path.with_name(path.name + SIDECAR_SUFFIX)


def file_sha256(path: str | Path) -> str:
    """The hex sha256 of the file's bytes."""
    h = hashlib.sha256()
    with naming(path), open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


def write_sidecar(path: str | Path, digest: str) -> None:
    """Write ``<path>.sha256`` (``<hex>  <name>``, sha256sum's format) atomically."""
    side = sidecar_path(path)
    tmp = side.with_name(f".{side.name}.{os.getpid()}.tmp")
    try:
        tmp.write_text(f"{digest}  {Path(path).name}\n", encoding="ascii")
        os.replace(tmp, side)
    finally:
        tmp.unlink(missing_ok=True)


def check_sidecar(path: str | Path) -> str | None:
    """Why ``path`` does not match its sidecar, or None (also when it has none: files of
    older runs were written without one)."""
    side = sidecar_path(path)
    try:
        text = side.read_text(encoding="ascii")
    except FileNotFoundError:
        return None
    except (OSError, UnicodeDecodeError) as e:
        return f"its checksum file {side.name} cannot be read ({type(e).__name__}: {e})"
    m = _SIDECAR_LINE.fullmatch(text)
    if m is None or m.group(2) != Path(path).name:
        return (f"its checksum file {side.name} is damaged (not one line "
                f"'<sha256>  {Path(path).name}'); rebuild the file to rewrite both")
    got = file_sha256(path)
    if got != m.group(1):
        return (f"its bytes are not those written (sha256 {got[:12]}..., its {side.name} says "
                f"{m.group(1)[:12]}...): changed on disk after it was written; rebuild it")
    return None


def open_parquet(path: str | Path) -> pq.ParquetFile:
    """The file, opened to verify page checksums on every read; its footer checked."""
    with naming(path):
        pf = pq.ParquetFile(path, page_checksum_verification=True)
        check_footer_copies(pf, path)
    return pf


READ_ROWS = 4096
"""Rows :func:`read_parquet` decodes at a time. Why: decoding a row group of fixed-size-list
columns (the states, the masks) at once takes about eight times the table's size on the side:
loading ddz1's 181,452-row thesis dataset into a train job peaked at 4.6 GB, against 2.7 GB in
slices of this many rows, and a thesis-scale train job beside two others had been killed for
memory on a 24 GB box (BENCHMARKS.md, "Memory of a thesis-scale train job"). It is also
faster, and the table is the same (tests/reliability/test_corrupt_data.py)."""


def read_parquet(path: str | Path, columns: Sequence[str] | None = None) -> pa.Table:
    """Read a whole file (or ``columns``) with every page checksum verified and the footer
    checked; any problem is a :class:`DataFileError`. Decoded :data:`READ_ROWS` rows at a
    time: the columns come in chunks."""
    pf = open_parquet(path)
    cols = list(columns) if columns is not None else None
    with naming(path):
        schema = pf.schema_arrow
        if cols is not None:
            schema = pa.schema([schema.field(c) for c in cols], metadata=schema.metadata)
        table = pa.Table.from_batches(
            list(pf.iter_batches(batch_size=READ_ROWS, columns=cols)), schema=schema)
        if table.num_rows != pf.metadata.num_rows:
            raise DataFileError(path, f"the footer says {pf.metadata.num_rows} rows, the pages "
                                      f"hold {table.num_rows}")
    return table


def read_schema(path: str | Path) -> pa.Schema:
    """The Arrow schema (with its metadata) of a file whose footer copies agree."""
    return open_parquet(path).schema_arrow


def check_footer_copies(pf: pq.ParquetFile, path: str | Path) -> None:
    """The key-value metadata must equal the copy inside the stored Arrow schema, and the
    stored schema the file's schema (every file written here stores one)."""
    kv = dict(pf.metadata.metadata or {})
    stored = kv.pop(ARROW_SCHEMA_KEY, None)
    if stored is None:
        raise DataFileError(path, "the footer has no stored Arrow schema (its key "
                                  f"{ARROW_SCHEMA_KEY.decode()!r} is missing or damaged)")
    with naming(path, "the footer's stored Arrow schema is damaged"):
        arrow = pa.ipc.read_schema(pa.py_buffer(base64.b64decode(stored, validate=True)))
    if dict(arrow.metadata or {}) != kv:
        keys = sorted({k.decode(errors="replace") for k in set(kv) ^ set(arrow.metadata or {})}
                      | {k.decode(errors="replace") for k in kv
                         if (arrow.metadata or {}).get(k) != kv[k]})
        raise DataFileError(path, f"the footer's metadata and its stored copy differ "
                                  f"({', '.join(keys[:5])})")
    if not arrow.remove_metadata().equals(pf.schema_arrow.remove_metadata()):
        raise DataFileError(path, "the footer's schema and its stored copy differ")
