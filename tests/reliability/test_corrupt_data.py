"""Issue 13, failure 4: silent corruption. Two bytes XOR-ed inside a dataset gave mask values
36/137/254 and training ran on them. Now pages carry checksums, footers are cross-checked, and
readers check the invariants (mask in {0, 1}, ``mask[action] == 1``, ``num_legal ==
mask.sum()``), naming the file and row.

Run against the old package (``PYTHONPATH=/tmp/base/src``) these tests fail: flips are read
silently and broken invariants are returned as data.
"""

from __future__ import annotations

import random

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from reliability_helpers import decisions_columns, flip, write_decisions


def _same(a, b) -> bool:
    return (len(a) == len(b) and np.array_equal(a.state, b.state)
            and np.array_equal(a.mask, b.mask) and np.array_equal(a.action, b.action)
            and np.array_equal(a.ply, b.ply) and np.array_equal(a.seat, b.seat)
            and list(a.match_id) == list(b.match_id) and a.metadata == b.metadata)


def test_no_byte_flip_in_a_decisions_file_is_read_silently(tmp_path):
    """300 single-byte flips anywhere in the file: each read either fails naming the file or
    returns exactly the original data (a flip in a byte no reader uses)."""
    from ime.datasets.schema import read_arrays

    good = write_decisions(tmp_path / "good.parquet")
    blob = good.read_bytes()
    ref = read_arrays(good)
    bad = tmp_path / "rev1.parquet"
    rng = random.Random(13)
    silent, unnamed = [], []
    for _ in range(300):
        damaged, pos = flip(blob, rng)
        bad.write_bytes(damaged)
        try:
            got = read_arrays(bad)
        except Exception as e:  # any error is a detection, if it says which file
            if str(bad) not in str(e):
                unnamed.append((pos, f"{type(e).__name__}: {e}"[:120]))
            continue
        if not _same(got, ref):
            silent.append(pos)
    assert not silent, f"{len(silent)} of 300 flips read silently as other data: {silent[:10]}"
    assert not unnamed, f"{len(unnamed)} errors do not name the file: {unnamed[:3]}"


def _write_raw(path, table, meta):
    """Write a table as-is (bypassing the project's checks) with the project's metadata."""
    import json

    enc = {f"ime.{k}".encode(): json.dumps(v).encode() for k, v in meta.items()}
    pq.write_table(table.replace_schema_metadata(enc), path)


META = {"schema_version": "ime-decisions-v1", "game": "reversi", "bot": "rev1",
        "encoder_version": "reversi-planes-v1", "state_shape": [2, 8, 8], "num_actions": 64}


@pytest.mark.parametrize("breakage,message", [
    ("mask_value", r"row 7: mask holds values other than 0 and 1 \(\[36, 137\]"),
    ("illegal_action", r"row 7: action \d+ is not legal in mask"),
    ("num_legal", r"row 7: num_legal is 99 but the mask has \d+ legal actions"),
])
def test_readers_check_invariants_and_name_file_and_row(tmp_path, breakage, message):
    """A file with valid pages but broken content (a writer bug, a corrupt source) is refused
    by the dataset reader and by the dataset builder, naming the file and the row."""
    from ime.datasets.build import build_dataset
    from ime.datasets.schema import make_table, read_arrays

    cols = decisions_columns(20)
    if breakage == "mask_value":
        cols["mask"][7, cols["action"][7]] = 36
        cols["mask"][7, (cols["action"][7] + 1) % 64] = 137
    elif breakage == "illegal_action":
        cols["mask"][7, cols["action"][7]] = 0
        cols["mask"][7, (cols["action"][7] + 1) % 64] = 1
    table = make_table(cols, 128, 64)
    if breakage == "num_legal":
        nl = table["num_legal"].to_numpy().copy()
        nl[7] = 99
        table = table.set_column(table.schema.get_field_index("num_legal"), "num_legal",
                                 pa.array(nl.astype(np.int16)))
    path = tmp_path / "part.parquet"
    _write_raw(path, table, META)
    with pytest.raises(ValueError, match=f"{path}: {message}"):
        read_arrays(path)
    (tmp_path / "part.json").write_text("{}")
    with pytest.raises(ValueError, match=f"{path}: {message}"):
        build_dataset([path], [tmp_path / "part.json"], "rev1", tmp_path / "ds.parquet",
                      tmp_path / "ds.json", game="reversi")
    assert not (tmp_path / "ds.parquet").exists()


def test_key_set_masks_are_checked(tmp_path):
    """A key set whose mask holds a 254 is refused by ``read_keyset``, naming file and row."""
    from ime.evaluate.keys import read_keyset

    n = 3
    mask = np.zeros((n, 64), np.uint8)
    mask[:, [19, 26, 37, 44]] = 1
    mask[2, 5] = 254
    planes = np.zeros((n, 128), np.uint8)
    table = pa.table({
        "target": ["rev1"] * n, "match_id": ["a", "b", "c"], "ply": [4, 6, 8], "seat": [0] * n,
        "n_legal": [4] * n, "action": [19, 26, 37],
        "planes": pa.FixedSizeListArray.from_arrays(pa.array(planes.ravel()), 128),
        "mask": pa.FixedSizeListArray.from_arrays(pa.array(mask.ravel()), 64),
    })
    meta = {b"ime.keyset_version": b"ime-keys-v1", b"ime.game": b"reversi",
            b"ime.target": b"rev1", b"ime.references": b"[]",
            b"ime.planes_shape": b"[2, 8, 8]", b"ime.stats": b"{}"}
    path = tmp_path / "rev1.parquet"
    pq.write_table(table.replace_schema_metadata(meta), path)
    with pytest.raises(ValueError, match=f"{path}: row 2: mask holds values other than 0 and 1"):
        read_keyset(path)


def test_files_are_written_with_page_checksums(tmp_path):
    """The writer sets a CRC on every page: a flip in page data fails the read with a
    checksum error naming the file, not a decompression accident."""
    from ime.datasets.schema import read_arrays

    path = write_decisions(tmp_path / "rev1.parquet")
    md = pq.ParquetFile(path).metadata
    col = md.row_group(0).column(md.num_columns - 4)  # the mask's leaf column
    start = col.dictionary_page_offset or col.data_page_offset
    blob = bytearray(path.read_bytes())
    blob[start + col.total_compressed_size - 8] ^= 0x01  # inside the page data, near its end
    path.write_bytes(bytes(blob))
    with pytest.raises(ValueError, match=f"{path}: .*CRC checksum verification failed"):
        read_arrays(path)


def test_a_file_is_read_in_slices_as_the_same_table(tmp_path, monkeypatch):
    """:func:`read_parquet` decodes ``READ_ROWS`` rows at a time (a whole row group of list
    columns at once took about eight times the table on the side): the same table, schema
    metadata included, whole or a few columns, and an empty file too."""
    from ime.datasets import integrity

    path = write_decisions(tmp_path / "rev1.parquet")
    whole = pq.read_table(path)
    monkeypatch.setattr(integrity, "READ_ROWS", 3)
    table = integrity.read_parquet(path)
    assert whole.num_rows > 6 and table.column("state").num_chunks > 2  # it did slice
    assert table.equals(whole, check_metadata=True)
    cols = ["action", "match_id"]
    assert integrity.read_parquet(path, cols).equals(pq.read_table(path, columns=cols),
                                                     check_metadata=True)
    empty = tmp_path / "empty.parquet"
    integrity.write_parquet(whole.slice(0, 0), empty)
    assert integrity.read_parquet(empty).equals(whole.slice(0, 0), check_metadata=True)
