"""Move counts for the heat maps read from raw logs: bad lines are named, never a bare crash."""

from __future__ import annotations

import json

import numpy as np
import pytest

from ime.bots.registry import make_bot
from ime.core.registry import get_game
from ime.matches.judge import run_match
from ime.matches.logs import LogFormatError
from ime.report.figures import move_counts_from_logs

BOTS = ["opp_random", "opp_greedy"]


@pytest.fixture(scope="module")
def lines() -> list[str]:
    """Three real matches as JSON lines (ids reversi-fig-0..2)."""
    game = get_game("reversi")
    bots = [make_bot("reversi", b) for b in BOTS]
    out = []
    for i in range(3):
        res = run_match(game, bots if i % 2 == 0 else bots[::-1], match_id=f"reversi-fig-{i}",
                        seed=i)
        out.append(json.dumps(res.to_json(), separators=(",", ":")))
    return out


def _write(path, lines):
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def test_counts_are_each_bots_logged_moves(tmp_path, lines):
    counts = move_counts_from_logs([_write(tmp_path / "ok.jsonl", lines)], BOTS, game="reversi")
    moves = {b: 0 for b in BOTS}
    for line in lines:
        m = json.loads(line)
        ids = [p["bot"] for p in m["players"]]
        for entry in m["log"][1::2]:
            for seat, item in entry.items():
                if item["response"]["x"] >= 0:  # a pass is no square
                    moves[ids[int(seat)]] += 1
    assert {b: int(c.sum()) for b, c in counts.items()} == moves
    assert all(c[[27, 28, 35, 36]].sum() == 0 for c in counts.values())  # the start squares


def test_malformed_line_names_file_line_and_match_strict(tmp_path, lines):
    cut = lines[1][: len(lines[1]) // 2]  # truncated mid-line: the id is still readable
    path = _write(tmp_path / "bad.jsonl", [lines[0], cut, lines[2]])
    with pytest.raises(LogFormatError) as err:
        move_counts_from_logs([path], BOTS, game="reversi")
    msg = str(err.value)
    assert f"{path}:2: match reversi-fig-1: truncated line" in msg, msg
    assert "1 of 3 matches are bad" in msg
    assert [(b.line, b.match_id) for b in err.value.bad] == [(2, "reversi-fig-1")]


def test_unreadable_response_is_named_too(tmp_path, lines):
    m = json.loads(lines[2])
    m["log"][1]["0"]["response"] = "{not json"
    path = _write(tmp_path / "resp.jsonl", [lines[0], lines[1], json.dumps(m)])
    with pytest.raises(LogFormatError, match=r"resp\.jsonl:3: match reversi-fig-2: rejected by "
                                             r"the judge: turn 0: player 0's response"):
        move_counts_from_logs([path], BOTS, game="reversi")


def test_lenient_skips_and_counts_the_bad_line(tmp_path, lines):
    clean = move_counts_from_logs([_write(tmp_path / "clean.jsonl", [lines[0], lines[2]])], BOTS,
                                  game="reversi")
    path = _write(tmp_path / "bad.jsonl", [lines[0], "{garbage", lines[2]])
    rejected = []
    counts = move_counts_from_logs([path], BOTS, game="reversi", mode="lenient",
                                   rejected=rejected)
    for b in BOTS:
        np.testing.assert_array_equal(counts[b], clean[b])
    assert [(b.path, b.line, b.kind) for b in rejected] == [(str(path), 2, "malformed_json")]
    with pytest.raises(ValueError, match="mode must be"):
        move_counts_from_logs([path], BOTS, game="reversi", mode="quiet")
