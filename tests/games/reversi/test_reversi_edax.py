# ruff: noqa: E501  (the canned outputs are Edax's own lines, verbatim)
"""The Edax side-by-side bench: the evaluation file it writes, how it reads Edax's output, and
(where ``IME_EDAX`` names a built Edax) one quick run of both programs."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from ime.games.reversi import edax

PERFT_OUT = """
  ply           moves        passes          wins         draws        losses    mobility        time   speed
   9,         3005288,           24,            0,            0,            0,    0 - 15,        0:00.013,  247.2 MN/s
  10,        24571056,            0,            0,            0,          228,    0 - 16,        0:00.096,  289.0 MN/s
  11,       212258216,          576,            0,            0,          356,    0 - 18,        0:00.722,  332.4 MN/s
"""

SOLVE_OUT = """
 # | depth|score|       time   |  nodes (N)  |   N/s    | principal variation
---+------+-----+--------------+-------------+----------+---------------------
  1|   20   +38        0:00.549      21000788   38252801 a2 B1 c1 PA b6 C7 a7
  2|   22   +00        0:04.355      93176680   21395334 h4 A3 a2 G6 g5 G7 f8
---+------+-----+--------------+-------------+----------+---------------------
/tmp/x/positions.obf: 114177468 nodes in  0:04.904 (cpu =  0:04.910) (23282029 nodes/s).
"""


def test_zero_eval_file_has_edax_layout(tmp_path: Path) -> None:
    f = edax.zero_eval_file(tmp_path / "eval.dat")
    data = f.read_bytes()
    assert data[:8] == b"XADELAVE"  # "EDAX", "EVAL" as little-endian ints
    assert len(data) == 28 + 2 * 114364 * 61
    assert not any(data[28:])


def test_clock_reads_edax_times() -> None:
    assert edax._clock("0:00.722") == pytest.approx(0.722)
    assert edax._clock("1:02:03.5") == pytest.approx(3723.5)


def _fake_edax(tmp_path: Path, text: str, wait_for_quit: bool = True) -> str:
    """A stand-in console that prints ``text`` once it has read a command, then (as Edax) waits
    for ``quit``, or exits at once (a console that died)."""
    prog = tmp_path / "fake-edax"
    out = tmp_path / "out.txt"
    out.write_text(text)
    prog.write_text(f"#!/bin/sh\nread cmd\ncat {out}\n" + ("read cmd\n" if wait_for_quit else ""))
    prog.chmod(0o755)
    return str(prog)


def test_parses_perft_and_solve_output(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    fake = _fake_edax(tmp_path, PERFT_OUT)
    assert edax.edax_perft(fake, tmp_path / "eval.dat", 11) == (212258216 + 576,
                                                                pytest.approx(0.722))
    monkeypatch.setattr(edax, "_edax", lambda *a, **k: SOLVE_OUT)
    nodes, cpu, best = edax.edax_solve("edax", tmp_path / "eval.dat", edax.FFO_40_44[:2])
    assert (nodes, best) == (114177468, ["A2", "H4"])
    assert cpu == pytest.approx(4.91)
    assert (tmp_path / "positions.obf").read_text().splitlines()[0].endswith(" X;")


def test_missing_output_line_is_an_error(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    with pytest.raises(RuntimeError, match="no ply-11 line"):
        edax.edax_perft(_fake_edax(tmp_path, "garbage\n", wait_for_quit=False),
                        tmp_path / "eval.dat", 11)
    monkeypatch.setattr(edax, "_edax", lambda *a, **k: "garbage")
    with pytest.raises(RuntimeError, match="no summary line"):
        edax.edax_solve("edax", tmp_path / "eval.dat", edax.FFO_40_44[:1])


def test_without_edax_the_section_says_how_to_get_it(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(edax.ENV, raising=False)
    assert "build-edax.sh" in edax.bench_edax(True)["unavailable"]
    assert "no such file" in edax.bench_edax(True, binary="/nonexistent/edax")["unavailable"]


@pytest.mark.skipif(not os.environ.get(edax.ENV), reason="IME_EDAX not set (scripts/build-edax.sh)")
def test_quick_side_by_side_run() -> None:
    r = edax.bench_edax(True)
    assert r["perft_leaves"] == 3005288
    assert r["ffo_ours_best_is_ffo_best"]
    assert r["ffo_best_moves_ours"] == r["ffo_best_moves_edax"] == "A2 H4"
