"""Parquet files that cannot be silently corrupt: checksummed pages, verified reads, named files.

A Parquet file has three parts that damage can hit, and each is covered here:

* **pages** (the column data): written with a CRC-32 per page (``write_page_checksum=True``)
  and read with ``page_checksum_verification=True``: a changed byte in a page fails the read;
* **the footer** (schema, key-value metadata, offsets, statistics): it has no checksum, but it
  holds our schema and metadata twice (the Parquet schema and key-value pairs, and the
  serialized Arrow schema that ``store_schema`` adds): :func:`check_footer_copies` requires the
  copies to agree; a changed offset or size fails the read; the row count must be the pages'.
  What is left are bytes no reader uses (statistics, which our readers never filter by, and
  page-header fields outside the checksummed page data): a flip there changes no data read,
  and the sha256 that Snakemake records for a job's inputs lets ``ime verify`` catch it. (The
  footer's statistics are not compared with the data: pyarrow's metadata API aborts the whole
  process, uncatchably, on some damaged column metadata, so it is not touched.)
* **the meaning** (a mask value of 137): the readers of each format check its invariants
  (:func:`ime.datasets.schema.check_decisions`).

Every failure is a :class:`DataFileError` that names the file (and the row, for an invariant).
Writes are atomic: a temporary file beside the target, renamed over it once complete.
"""

from __future__ import annotations

import base64
import os
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pyarrow as pa
import pyarrow.parquet as pq

ARROW_SCHEMA_KEY = b"ARROW:schema"


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
    """``pq.write_table`` with page checksums, atomically (temporary file + rename)."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    try:
        pq.write_table(table, tmp, write_page_checksum=True, **options)
        os.replace(tmp, path)
    finally:
        tmp.unlink(missing_ok=True)


def open_parquet(path: str | Path) -> pq.ParquetFile:
    """The file, opened to verify page checksums on every read; its footer checked."""
    with naming(path):
        pf = pq.ParquetFile(path, page_checksum_verification=True)
        check_footer_copies(pf, path)
    return pf


def read_parquet(path: str | Path, columns: Sequence[str] | None = None) -> pa.Table:
    """Read a whole file (or ``columns``) with every page checksum verified and the footer
    checked; any problem is a :class:`DataFileError`."""
    pf = open_parquet(path)
    with naming(path):
        table = pf.read(columns=list(columns) if columns is not None else None)
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
