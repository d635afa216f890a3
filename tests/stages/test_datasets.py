"""Logs -> decision parts -> per-bot Parquet datasets (src/ime/datasets)."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from ime.core.bot import Bot, DecisionContext, decision_rng
from ime.datasets.build import (
    build_dataset,
    duplicate_stats,
    first_occurrences,
    random_baseline,
    table4_2,
)
from ime.datasets.extract import extract_part
from ime.datasets.schema import read_arrays, read_metadata
from ime.games.reversi import GAME
from ime.games.reversi.bitboard import PASS
from ime.games.reversi.encode import ENCODER_VERSION, encode_states
from ime.matches.judge import run_match
from ime.matches.logs import LogFormatError, write_matches


class FirstLegal(Bot):
    """Deterministic: the lowest legal square."""

    def __init__(self, bot_id: str):
        self.bot_id = bot_id

    def act(self, state, ctx: DecisionContext) -> int:
        return state.legal_actions()[0]


class SeededRandom(Bot):
    deterministic = False

    def __init__(self, bot_id: str):
        self.bot_id = bot_id

    def act(self, state, ctx: DecisionContext) -> int:
        acts = state.legal_actions()
        return acts[int(decision_rng(ctx).integers(len(acts)))]


class Cheater(Bot):
    """Plays an occupied square at ply 6: the judge ends the match on a fault."""

    def __init__(self, bot_id: str):
        self.bot_id = bot_id

    def act(self, state, ctx: DecisionContext) -> int:
        if ctx.ply >= 6:
            return 27  # D4, occupied from the start
        return state.legal_actions()[0]


def _matches(n: int = 6) -> list:
    first, rnd = FirstLegal("first"), SeededRandom("rnd")
    out = []
    for i in range(n):
        seats = [first, rnd] if i % 2 == 0 else [rnd, first]
        out.append(run_match(GAME, seats, match_id=f"m{i:03d}", seed=1))
    return out


@pytest.fixture()
def logs(tmp_path: Path) -> Path:
    path = tmp_path / "part.jsonl"
    ms = _matches()
    ms.append(run_match(GAME, [Cheater("cheat"), FirstLegal("first")], match_id="m900", seed=1))
    write_matches(path, ms)
    return path


def _extract(logs: Path, tmp_path: Path, mode: str = "strict", name: str = "d") -> dict:
    return extract_part(logs, tmp_path / f"{name}.parquet", tmp_path / f"{name}.json",
                        game="reversi", targets=["first", "rnd"], num_actions=64, mode=mode,
                        rejects_path=tmp_path / f"{name}.rejects.jsonl")


def test_round_trip_states_equal_replay(logs: Path, tmp_path: Path) -> None:
    rep = _extract(logs, tmp_path)
    assert rep["faulted"] == 1 and rep["faulted_per_bot"]["first"] == 1
    stats = build_dataset([tmp_path / "d.parquet"], [tmp_path / "d.json"], "first",
                          tmp_path / "first.parquet", tmp_path / "first.json", game="reversi")
    arr = read_arrays(tmp_path / "first.parquet")
    assert arr.state.shape[1:] == (2, 8, 8) and arr.mask.shape[1] == 64
    assert "m900" not in set(arr.match_id)  # ended by a fault: excluded
    assert stats["faulted_matches_excluded"] == 1
    assert stats["matches"] == 6 and stats["pairs"] == len(arr)
    # replay each match and compare every decision of "first" with the stored row
    expected = []
    for m in _matches():
        res = run_match(GAME, [None, None], match_id=m.match_id,
                        prefix=[e for k, e in enumerate(m.log) if k % 2 == 1],
                        player_ids=m.players, record_decisions=True)
        for d in res.decisions:
            if res.players[d.player] == "first" and d.action != PASS:
                expected.append((m.match_id, d.ply, d.player, d.state, d.action))
    expected.sort(key=lambda r: (r[0], r[1]))
    assert len(expected) == len(arr)
    planes, mask = encode_states([r[3] for r in expected])
    assert np.array_equal(planes, arr.state)
    assert np.array_equal(mask, arr.mask)
    assert list(arr.action) == [r[4] for r in expected]
    assert list(arr.ply) == [r[1] for r in expected]
    assert list(arr.seat) == [r[2] for r in expected]
    assert (arr.mask[np.arange(len(arr)), arr.action] == 1).all()
    meta = read_metadata(tmp_path / "first.parquet")
    assert meta["encoder_version"] == ENCODER_VERSION
    assert meta["dedup"] == "keep" and meta["bot"] == "first"
    assert meta["state_shape"] == [2, 8, 8]


def test_byte_identical(logs: Path, tmp_path: Path) -> None:
    blobs = []
    for k in range(2):
        _extract(logs, tmp_path, name=f"d{k}")
        build_dataset([tmp_path / f"d{k}.parquet"], [tmp_path / f"d{k}.json"], "rnd",
                      tmp_path / f"rnd{k}.parquet", tmp_path / f"rnd{k}.json", game="reversi")
        blobs.append((tmp_path / f"rnd{k}.parquet").read_bytes())
    assert blobs[0] == blobs[1]


def test_strict_and_lenient(logs: Path, tmp_path: Path) -> None:
    bad = tmp_path / "bad.jsonl"
    lines = logs.read_text().splitlines()
    bad.write_text("\n".join([lines[0], '{"_id": "broken", "log": [', *lines[1:]]) + "\n")
    with pytest.raises(LogFormatError, match=r"bad.jsonl:2: match broken"):
        extract_part(bad, tmp_path / "s.parquet", tmp_path / "s.json", game="reversi",
                     targets=["first"], num_actions=64, mode="strict")
    rep = extract_part(bad, tmp_path / "l.parquet", tmp_path / "l.json", game="reversi",
                       targets=["first"], num_actions=64, mode="lenient",
                       rejects_path=tmp_path / "l.rejects.jsonl")
    assert rep["rejected"] == 1 and rep["accepted"] == len(lines)
    rejects = [json.loads(x) for x in (tmp_path / "l.rejects.jsonl").read_text().splitlines()]
    assert rejects[0]["line"] == 2


def test_max_matches_and_dedup(logs: Path, tmp_path: Path) -> None:
    _extract(logs, tmp_path)
    part, rep = [tmp_path / "d.parquet"], [tmp_path / "d.json"]
    st = build_dataset(part, rep, "first", tmp_path / "a.parquet", tmp_path / "a.json",
                       game="reversi", max_matches=2)
    arr = read_arrays(tmp_path / "a.parquet")
    assert sorted(set(arr.match_id)) == ["m000", "m001"] and st["matches"] == 2
    keep = build_dataset(part, rep, "first", tmp_path / "k.parquet", tmp_path / "k.json",
                         game="reversi")
    drop = build_dataset(part, rep, "first", tmp_path / "x.parquet", tmp_path / "x.json",
                         game="reversi", dedup="drop_exact")
    assert keep["duplicate_pairs"] > 0  # the deterministic bot repeats its opening moves
    assert drop["pairs"] == keep["pairs"] - keep["duplicate_pairs"]
    assert drop["dropped_duplicates"] == keep["duplicate_pairs"]
    assert keep["conflicting_states"] == 0  # a deterministic bot never disagrees with itself


def test_duplicate_helpers() -> None:
    s = np.array([[0, 1], [0, 1], [1, 0], [0, 1]], dtype=np.uint8)
    a = np.array([3, 3, 4, 5])
    st = duplicate_stats(s, a)
    assert st["duplicate_pairs"] == 1 and st["distinct_states"] == 2
    assert st["conflicting_states"] == 1
    assert list(first_occurrences(s, a)) == [0, 2, 3]


def test_baseline_and_table() -> None:
    assert random_baseline(np.array([1, 2, 4])) == pytest.approx(100 * (1 + 0.5 + 0.25) / 3)
    df = table4_2([{"bot": "a", "pairs": 10, "baseline": 20.123}])
    assert list(df.columns) == ["bot", "pairs", "baseline"]
    assert df.loc[0, "baseline"] == 20.12


def test_duplicates_are_judged_on_the_position_planes():
    """An encoder whose later planes follow the action played (teacher-forced kicker steps)
    declares ``position_planes``: two rows of one position with different actions are one
    position that conflicts, not two positions."""
    from ime.datasets.build import duplicate_stats
    from ime.datasets.schema import position_part

    state = np.zeros((2, 3, 1, 2), np.uint8)  # one position (plane 0), two kicker planes
    state[1, 1:] = 1  # the second action's kicker planes differ
    action = np.array([[5, 0], [5, 1]])
    meta = {"state_shape": [3, 1, 2], "position_planes": 1}
    assert position_part(state, meta).shape == (2, 2)
    assert position_part(state, {"state_shape": [3, 1, 2]}).shape == (2, 6)
    assert duplicate_stats(position_part(state, meta), action)["conflicting_states"] == 1
    assert duplicate_stats(state.reshape(2, -1), action)["conflicting_states"] == 0
