"""Issue 13, fault 4: a flip in bytes no reader uses. Page checksums cover the column data and
the footer's copies are cross-checked, but a changed byte in the footer's statistics (which no
reader of ours uses) reads back as the same data; the byte-flip campaign found 217 such flips
in the key-candidate tables, which no job reads, so Snakemake held no sha256 of them either.
Every Parquet file IME writes now has a sidecar ``<file>.sha256`` that ``ime verify`` checks.

Fails on the code before (no sidecar: ``ime verify`` passes the damaged file).
"""

from __future__ import annotations

import struct
import subprocess

import numpy as np
import pytest
from reliability_helpers import ime_verify, write_decisions, write_keeping_mtime

PARTS = "data/reversi/decisions/tiny/strict/rev1"


def _footer_start(blob: bytes) -> int:
    """Where the Thrift footer begins (its length is the 4 bytes before the final ``PAR1``)."""
    return len(blob) - 8 - struct.unpack("<I", blob[-8:-4])[0]


@pytest.mark.slow
def test_a_flip_in_the_footer_statistics_is_reported(tmp_path):
    """``match_id``'s max statistic (``m0007``) sits in the footer only: changing it leaves
    every page checksum valid and the data read unchanged, and ``ime verify`` reports it."""
    from ime.datasets.integrity import read_parquet
    from ime.datasets.schema import read_arrays

    parts = tmp_path / PARTS
    path = write_decisions(parts / "shard000.parquet")
    blob = path.read_bytes()
    ref = read_arrays(path)
    clean = ime_verify(cwd=tmp_path)
    assert clean.returncode == 0, clean.stdout + clean.stderr

    stat = blob.rindex(b"m0007")
    assert stat > _footer_start(blob), "the statistic is expected in the footer"
    damaged = bytearray(blob)
    damaged[stat + 4] ^= 0x01  # max "m0007" -> "m0006": a statistic no reader uses
    write_keeping_mtime(path, bytes(damaged))

    got = read_arrays(path)  # the premise: page checksums and footer checks cannot see it
    assert np.array_equal(got.state, ref.state) and np.array_equal(got.mask, ref.mask)
    assert np.array_equal(got.action, ref.action) and list(got.match_id) == list(ref.match_id)
    read_parquet(path)

    run = ime_verify(cwd=tmp_path)
    assert run.returncode == 1, run.stdout + run.stderr
    rel = f"{PARTS}/shard000.parquet"
    bad = [line for line in run.stdout.splitlines() if line.startswith("BAD")]
    assert len(bad) == 1 and bad[0].startswith(f"BAD     {rel}: its bytes are not those "
                                               "written"), run.stdout
    assert "shard000.parquet.sha256" in bad[0]
    assert "rebuild: snakemake -j8" in run.stdout, run.stdout
    assert "1 bad" in run.stderr


def test_the_sidecar_is_sha256sum_format_and_follows_rewrites(tmp_path):
    """``sha256sum -c`` accepts the sidecar; rewriting the file rewrites its sidecar (no stale
    hash beside new bytes); no temporary file is left."""
    from ime.datasets.integrity import check_sidecar, sidecar_path

    path = write_decisions(tmp_path / "rev1.parquet", n=60, seed=1)
    side = sidecar_path(path)
    assert side.name == "rev1.parquet.sha256"
    check = subprocess.run(["sha256sum", "-c", side.name], cwd=tmp_path, capture_output=True,
                           text=True)
    assert check.returncode == 0 and "rev1.parquet: OK" in check.stdout, check.stdout
    first = side.read_text()
    write_decisions(path, n=90, seed=2)
    assert side.read_text() != first
    assert check_sidecar(path) is None
    assert sorted(p.name for p in tmp_path.iterdir()) == ["rev1.parquet", "rev1.parquet.sha256"]


@pytest.mark.slow
def test_missing_damaged_and_orphaned_sidecars(tmp_path):
    """No sidecar (a file of an older run) is not a problem; a damaged sidecar is reported
    against its file; a sidecar whose file is gone is a note, not a problem."""
    from ime.datasets.integrity import sidecar_path

    parts = tmp_path / PARTS
    old = write_decisions(parts / "shard000.parquet")
    sidecar_path(old).unlink()
    damaged = write_decisions(parts / "shard001.parquet")
    side = sidecar_path(damaged)
    side.write_text(side.read_text()[:40] + "\n")
    gone = write_decisions(parts / "shard002.parquet")
    gone.unlink()

    run = ime_verify(cwd=tmp_path)
    assert run.returncode == 1, run.stdout + run.stderr
    bad = [line for line in run.stdout.splitlines() if line.startswith("BAD")]
    assert len(bad) == 1 and bad[0].startswith(f"BAD     {PARTS}/shard001.parquet: its "
                                               "checksum file shard001.parquet.sha256 is "
                                               "damaged"), run.stdout
    assert (f"note    {PARTS}/shard002.parquet.sha256: the checksum of shard002.parquet, "
            "which is gone") in run.stdout, run.stdout
