"""``ime identify``'s errors (issue 48): every bad input stops with exit code 2 and a message
naming what is wrong and where (the file, line and match; the missing models and the snakemake
command that trains them). The logs are lines of the hand-made Botzone pack
tests/data/reversi_pack.matches (its players: alice ``5f1a...``, bob ``60aa...``, C ``61c0...``);
the identification itself is tested on a real run in tests/workflow/test_identify_e2e.py.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from ime.cli.main import main

PACK = Path(__file__).resolve().parents[1] / "data" / "reversi_pack.matches"
ALICE = "5f1a2b3c4d5e6f708192a3b4"
LINES = PACK.read_bytes().split(b"\n")


def pack(tmp_path: Path, *lines: int, name: str = "log.matches") -> Path:
    """A log of the pack's lines (1-based)."""
    path = tmp_path / name
    path.write_bytes(b"\n".join(LINES[i - 1] for i in lines) + b"\n")
    return path


def fails(capsys: pytest.CaptureFixture[str], *argv: str) -> str:
    rc = main(["identify", *argv])
    err = capsys.readouterr().err
    assert rc == 2, err
    assert err.startswith("ime identify: error: ")
    return err


def test_a_mistyped_game_names_the_games(capsys: pytest.CaptureFixture[str],
                                         tmp_path: Path) -> None:
    err = fails(capsys, "reversy", str(pack(tmp_path, 1)))
    assert "no game 'reversy'" in err and "did you mean reversi?" in err
    assert "connect4" in err  # the games are listed


def test_an_empty_or_missing_log(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    empty = tmp_path / "empty.jsonl"
    empty.write_text("\n")
    assert f"{empty}: empty log: no matches" in fails(capsys, "reversi", str(empty))
    assert "nope.jsonl: no such log file" in fails(capsys, "reversi",
                                                   str(tmp_path / "nope.jsonl"))


def test_a_log_without_that_player_names_the_players(capsys: pytest.CaptureFixture[str],
                                                     tmp_path: Path) -> None:
    log = pack(tmp_path, 1, 2)
    err = fails(capsys, "reversi", str(log), "--player", "rev9")
    assert f"{log}: no match has the player 'rev9'" in err
    assert f"{ALICE} (2)" in err  # the players it does have, with their matches


def test_an_ambiguous_player_asks_for_one(capsys: pytest.CaptureFixture[str],
                                          tmp_path: Path) -> None:
    err = fails(capsys, "reversi", str(pack(tmp_path, 1, 2)))  # alice vs bob, twice
    assert "ambiguous" in err and ALICE in err and "--player ID or --seat N" in err
    err = fails(capsys, "reversi", str(pack(tmp_path, 1, 3, 4)))  # nobody in all three
    assert "no player plays in every match" in err and "--player ID" in err


def test_bad_lines_name_the_file_line_and_match(capsys: pytest.CaptureFixture[str],
                                                tmp_path: Path) -> None:
    log = pack(tmp_path, 1, 9)  # line 9 of the pack is not JSON
    err = fails(capsys, "reversi", str(log), "--player", ALICE)
    assert f"{log}:2: match ?: malformed JSON" in err
    log = pack(tmp_path, 1, 5, name="illegal.matches")  # alice plays an occupied square
    err = fails(capsys, "reversi", str(log), "--player", ALICE)
    assert f"{log}:2: match 555555555555555555555555: rejected by the judge" in err
    log = pack(tmp_path, 1, 12, name="dup.matches")  # line 12 repeats line 1
    err = fails(capsys, "reversi", str(log), "--player", ALICE)
    assert f"{log}:2:" in err and "duplicate match id" in err


def test_a_seat_the_matches_lack_and_matches_only_faulted(capsys: pytest.CaptureFixture[str],
                                                          tmp_path: Path) -> None:
    log = pack(tmp_path, 1)
    err = fails(capsys, "reversi", str(log), "--seat", "2")
    assert f"{log}:1: match " in err and "has 2 seats, no seat 2" in err
    err = fails(capsys, "reversi", str(pack(tmp_path, 3, name="f.matches")), "--player", ALICE)
    assert "no usable match of" in err and "(1 ended by a fault)" in err


def test_a_pool_without_models_says_which_target_trains_them(
        capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    log = pack(tmp_path, 1, 2)
    err = fails(capsys, "reversi", str(log), "--player", ALICE, "--root", str(tmp_path))
    assert "the pool has no trained models of rev1, rev2, rev3, rev4, rev5" in err
    assert "rule train_reversi builds them: snakemake -j8 " \
           "data/reversi/models/quick/conv/rev1/fold0.pt" in err
    err = fails(capsys, "reversi", str(log), "--player", ALICE, "--root", str(tmp_path),
                "-o", "scale=tiny")
    assert "no trained models of rev1, rev2 " in err  # the tiny scale's pool and models
    assert "data/reversi/models/tiny/conv/rev1/fold0.pt" in err
    assert "--config overrides='[scale=tiny]'" in err
    err = fails(capsys, "reversi", str(log), "--player", ALICE, "--root", str(tmp_path),
                "--net", "conv9")
    assert "--net 'conv9' is not a net of this composition" in err
    err = fails(capsys, "reversi", str(log), "--player", ALICE, "--pool", "rev1")
    assert "--pool needs at least 2 bots" in err
