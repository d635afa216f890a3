"""``ime zoo agreement``'s matrix keeps its columns apart (issue 45: ``62.9%100.0%``)."""

from __future__ import annotations

import argparse
import re

import pytest

from ime.cli import zoo

BOTS = ["rev1", "rev2", "rev3"]
MATRIX = [[1.0, 0.629, 0.005], [0.629, 1.0, 1.0], [0.005, 1.0, 1.0]]


@pytest.fixture
def printed(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> list[str]:
    """What ``ime zoo agreement`` prints for :data:`MATRIX` (a stub check, no games played)."""
    def check(bots: list[str], positions: int, seed: int) -> dict:
        return {"bots": bots, "matrix": MATRIX, "n_positions": positions, "seed": seed}

    monkeypatch.setattr(zoo, "_check", lambda args, name: check)
    args = argparse.Namespace(game="reversi", bots=BOTS, positions=10, seed=0)
    assert zoo.run_agreement(args) == 0
    return capsys.readouterr().out.splitlines()


def test_every_cell_is_its_own_column_for_the_widest_values(printed: list[str]) -> None:
    rows = printed[1:1 + 1 + len(BOTS)]
    assert rows[0].split() == BOTS
    for bot, values, line in zip(BOTS, MATRIX, rows[1:], strict=True):
        assert not re.search(r"%\S", line), line  # nothing glued to a value's end
        assert line.split() == [bot, *(f"{v:.1%}" for v in values)], line
    # right-aligned under the header: each value ends where its bot's name ends
    ends = [m.end() for m in re.finditer(r"\S+", rows[0])]
    for line in rows[1:]:
        assert [m.end() for m in re.finditer(r"\S+", line)][1:] == ends, (rows[0], line)
    assert printed[-1] == "highest off-diagonal agreement: 100.0%"


def test_long_names_widen_their_column() -> None:
    text = zoo._table(["a", "a_much_longer_name"], [[1.0, 0.5], [0.5, 1.0]], "{:.1%}")
    header, first, _ = text.splitlines()
    assert header.split() == ["a", "a_much_longer_name"]
    assert first.split() == ["a", "100.0%", "50.0%"]
    assert first.index("50.0%") + len("50.0%") == len(header)
