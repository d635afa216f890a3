"""Issue 13, failure 5: a truncated decisions Parquet failed without naming the file
(``schema.read_metadata``). Every reader of our files now names the path in its error.

Fails on the old package: pyarrow's messages ("Parquet magic bytes not found in footer") name
no file.
"""

from __future__ import annotations

import pytest
from reliability_helpers import write_decisions


@pytest.fixture
def truncated(tmp_path):
    path = write_decisions(tmp_path / "shard000.parquet")
    blob = path.read_bytes()
    path.write_bytes(blob[: len(blob) // 2])
    return path


def test_every_reader_names_a_truncated_file(tmp_path, truncated):
    """The decisions readers (metadata, arrays, the dataset builder) and the key-set reader."""
    from ime.datasets import build, schema
    from ime.evaluate.keys import read_keyset

    report = tmp_path / "shard000.json"
    report.write_text("{}")
    readers = {
        "read_metadata": lambda: schema.read_metadata(truncated),
        "read_arrays": lambda: schema.read_arrays(truncated),
        "build_dataset": lambda: build.build_dataset(
            [truncated], [report], "rev1", tmp_path / "ds.parquet", tmp_path / "ds.json",
            game="reversi"),
        "read_keyset": lambda: read_keyset(truncated),
    }
    unnamed = {}
    for name, read in readers.items():
        with pytest.raises(Exception) as info:
            read()
        if str(truncated) not in str(info.value):
            unnamed[name] = f"{type(info.value).__name__}: {info.value}"
    assert not unnamed, unnamed


def test_a_truncated_part_report_is_named(tmp_path):
    from ime.datasets.build import build_dataset

    part = write_decisions(tmp_path / "shard000.parquet")
    report = tmp_path / "shard000.json"
    report.write_text('{"accepted": 3, "rejec')
    with pytest.raises(Exception) as info:
        build_dataset([part], [report], "rev1", tmp_path / "ds.parquet", tmp_path / "ds.json",
                      game="reversi")
    assert str(report) in str(info.value), f"{type(info.value).__name__}: {info.value}"


def test_verify_names_the_truncated_file_and_fails(tmp_path, truncated):
    from reliability_helpers import ime_verify

    run = ime_verify(str(tmp_path))
    assert run.returncode == 1, run.stdout + run.stderr
    assert f"BAD     {truncated}: cannot read" in run.stdout, run.stdout
