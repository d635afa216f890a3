"""Reversi engine: perft, passes, game end, illegal moves, judge verdicts, log round-trip."""

from __future__ import annotations

import json

import numpy as np
import pytest

from ime.core.bot import Bot, BotFault, decision_rng
from ime.core.game import IllegalMoveError
from ime.games.reversi import GAME
from ime.games.reversi.bitboard import (
    BLACK_START,
    PASS,
    WHITE_START,
    flips,
    flips_python,
    legal_moves,
    legal_moves_python,
    lowest_bit_index,
    perft,
    perft_python,
    play,
    popcount,
)
from ime.games.reversi.game import parse_square, square_name
from ime.matches.judge import run_match
from ime.matches.logs import LogFormatError, read_matches, write_matches

PERFT = [4, 12, 56, 244, 1396, 8200, 55092, 390216, 3005288]


class RandomBot(Bot):
    deterministic = False

    def __init__(self, bot_id: str = "rnd"):
        self.bot_id = bot_id

    def act(self, state, ctx):
        moves = state.legal_actions(ctx.player)
        return moves[int(decision_rng(ctx).integers(len(moves)))]


class ScriptedBot(Bot):
    """Answers with fixed raw responses (to exercise the judge's verdicts)."""

    def __init__(self, raw, bot_id="scripted"):
        self.raw = raw
        self.bot_id = bot_id

    def respond(self, state, ctx):
        if isinstance(self.raw, Exception):
            raise self.raw
        return self.raw

    def act(self, state, ctx):  # pragma: no cover - respond() is used
        raise AssertionError


@pytest.mark.parametrize("depth", range(1, 10))
@pytest.mark.slow
def test_perft_matches_published_counts(depth):
    assert perft(np.uint64(BLACK_START), np.uint64(WHITE_START), depth) == PERFT[depth - 1]


def test_python_reference_perft_agrees():
    assert perft_python(int(BLACK_START), int(WHITE_START), 5) == PERFT[4]


def test_kernels_agree_with_the_python_reference_on_random_boards():
    """The compiled move generator (doubling fills) and flips (ray masks + bit scans) against
    the plain-Python fills, on random boards (any disc pattern, every empty square), including
    the board edges where a wrong mask wraps around."""
    rng = np.random.default_rng(7)
    mask64 = (1 << 64) - 1
    for _ in range(400):
        occ = int(rng.integers(0, 1 << 63)) | (int(rng.integers(0, 2)) << 63)
        col = int(rng.integers(0, 1 << 63)) | (int(rng.integers(0, 2)) << 63)
        p, o = occ & col, occ & ~col & mask64
        P, O = np.uint64(p), np.uint64(o)
        assert int(legal_moves(P, O)) == legal_moves_python(p, o)
        for sq in range(64):
            if not (occ >> sq) & 1:
                assert int(flips(P, O, sq)) == flips_python(p, o, sq), (p, o, sq)


def test_play_is_the_move_kernels_composed():
    """``play`` (one compiled call for the game API's move) against the Python reference, on
    random boards and every empty square, legal or not: the mover's moves before, the boards
    after the flips, and whether neither side can move then."""
    rng = np.random.default_rng(11)
    mask64 = (1 << 64) - 1
    n_over = n_on = 0
    for k in range(300):
        occ = int(rng.integers(0, 1 << 63)) | (int(rng.integers(0, 2)) << 63)
        if k % 3 == 0:  # one or two empty squares (two draws may coincide): moves that end
            occ = mask64 ^ (1 << int(rng.integers(64)))  # the game, and some that do not
            occ &= ~(int(rng.integers(0, 2)) << int(rng.integers(64))) & mask64
        col = int(rng.integers(0, 1 << 63)) | (int(rng.integers(0, 2)) << 63)
        p, o = occ & col, occ & ~col & mask64
        for sq in range(64):
            if (occ >> sq) & 1:
                continue
            moves, n_p, n_o, over = play(np.uint64(p), np.uint64(o), sq)
            f = flips_python(p, o, sq)
            assert moves == legal_moves_python(p, o)
            assert (n_p, n_o) == (p | f | (1 << sq), o ^ f)
            end = legal_moves_python(n_o, n_p) == 0 and legal_moves_python(n_p, n_o) == 0
            assert over == end, (p, o, sq)
            n_over += end
            n_on += not end
    assert n_over > 20 and n_on > 20  # the end test was exercised both ways


def test_bit_counts_and_scans():
    assert popcount(np.uint64(0)) == 0
    assert popcount(np.uint64(0xFFFFFFFFFFFFFFFF)) == 64
    assert lowest_bit_index(np.uint64(1 << 63)) == 63
    assert lowest_bit_index(np.uint64(0b1000)) == 3
    assert lowest_bit_index(np.uint64(0)) == 64  # defined: callers may scan an empty board


def test_start_position_and_first_moves():
    s = GAME.new_initial_state()
    assert s.current_players() == [0]
    assert sorted((a % 8, a // 8) for a in s.legal_actions()) == [(2, 3), (3, 2), (4, 5), (5, 4)]
    assert s.request_for(0) == {"x": -1, "y": -1}
    assert square_name(parse_square("g3")) == "G3"


def _find_forced_pass(seed: int = 0):
    rng = np.random.default_rng(seed)
    for _ in range(500):
        s = GAME.new_initial_state()
        while not s.is_terminal():
            moves = s.legal_actions()
            if moves == [PASS]:
                return s
            s.apply_action(moves[int(rng.integers(len(moves)))])
    raise AssertionError("no forced pass found")


def test_forced_pass_is_an_explicit_turn():
    s = _find_forced_pass()
    mover = s.to_move
    assert legal_moves(*s.own_opp()) == 0
    with pytest.raises(IllegalMoveError):
        s.clone().apply_action(0 if s.board_string()[0] != "-" else 63)
    s.apply_action(PASS)
    assert s.to_move == 1 - mover and not s.is_terminal()
    assert s.request_for(s.to_move) == {"x": -1, "y": -1}
    assert s.legal_actions() != [PASS]  # a pass always leaves the other side a move


def test_pass_with_a_legal_move_loses():
    s = GAME.new_initial_state()
    with pytest.raises(IllegalMoveError) as e:
        s.apply_action(PASS)
    assert "COULDNOT_MOVE" in e.value.reason


def test_illegal_square_raises():
    s = GAME.new_initial_state()
    with pytest.raises(IllegalMoveError):
        s.apply_action(0)
    with pytest.raises(IllegalMoveError):
        s.apply_action(27)  # occupied


def test_game_ends_when_neither_side_can_move():
    board = "XO" + "-" * 62
    s = GAME.state_from_board(board, "X")
    assert s.legal_actions() == [parse_square("C1")]
    s.apply_action(parse_square("C1"))
    assert s.is_terminal()
    assert s.disc_counts() == (3, 0)
    assert s.returns() == [2.0, 0.0]


def test_draw_scores_one_each():
    s = GAME.state_from_board("X" + "-" * 62 + "O", "X")
    assert s.is_terminal() and s.returns() == [1.0, 1.0]


def test_judge_log_shape_matches_botzone():
    res = run_match(GAME, [RandomBot("a"), RandomBot("b")], match_id="m1", seed=3)
    log = res.log
    assert log[0] == {"output": {"command": "request", "content": {"0": {"x": -1, "y": -1}},
                                 "display": ""}}
    assert set(log[1]) == {"0"} and log[1]["0"]["verdict"] == "OK"
    first = log[1]["0"]["response"]
    assert log[2]["output"]["content"] == {"1": first}
    assert log[-1]["output"]["command"] == "finish"
    assert sorted(log[-1]["output"]["content"].values()) in ([0, 2], [1, 1])
    assert all(k % 2 == 0 or len(e) == 1 for k, e in enumerate(log))


@pytest.mark.parametrize(
    "raw, reason",
    [
        ({"x": 0, "y": 0}, "INVALID_MOVE"),
        ({"x": -1, "y": -1}, "HE_THOUGHT_THAT_HE_COULDNOT_MOVE_BUT_IN_FACT_HE_CAN"),
        ("garbage", "INVALID_INPUT_VERDICT_OK"),
        ({"x": "2", "y": 3}, "INVALID_INPUT_VERDICT_OK"),
        (BotFault("TLE", "slept"), "INVALID_INPUT_VERDICT_TLE"),
    ],
)
def test_judge_verdicts(raw, reason):
    res = run_match(GAME, [ScriptedBot(raw), RandomBot()], match_id="f", seed=0)
    assert res.scores == [0.0, 2.0]
    assert res.fault is not None and res.fault.reason == reason and res.fault.player == 0
    final = res.log[-1]["output"]
    assert final["content"] == {"0": 0, "1": 2}
    assert final["display"]["err"] == reason and final["display"]["winner"] == 1


def test_response_as_json_string_is_accepted():
    res = run_match(GAME, [ScriptedBot('{"x":2,"y":3}'), ScriptedBot({"x": 0, "y": 0})],
                    match_id="s", seed=0)
    assert res.log[1]["0"]["response"] == '{"x":2,"y":3}'
    assert res.log[2]["output"]["content"] == {"1": {"x": 2, "y": 3}}
    assert res.fault.player == 1 and res.scores == [2.0, 0.0]  # white's A1 was illegal


def test_log_round_trip_replays_to_same_board(tmp_path):
    results = [run_match(GAME, [RandomBot("a"), RandomBot("b")], match_id=f"m{i}", seed=7)
               for i in range(20)]
    path = tmp_path / "m.jsonl"
    write_matches(path, results)
    report = read_matches(path, GAME)
    assert len(report.accepted) == 20 and not report.rejected
    for orig, back in zip(results, report.accepted, strict=True):
        assert back.match_id == orig.match_id
        assert back.scores == orig.scores
        assert back.final_state.board_string() == orig.final_state.board_string()
        assert back.to_json()["log"] == orig.to_json()["log"]


def test_same_seed_same_bytes(tmp_path):
    def play(p):
        write_matches(p, [run_match(GAME, [RandomBot("a"), RandomBot("b")], match_id=f"m{i}",
                                    seed=11) for i in range(5)])
        return p.read_bytes()

    assert play(tmp_path / "a.jsonl") == play(tmp_path / "b.jsonl")


def test_fork_reproduces_the_rest_of_a_match():
    bots = [RandomBot("a"), RandomBot("b")]
    orig = run_match(GAME, bots, match_id="fork-me", seed=5)
    entries = [e for k, e in enumerate(orig.log) if k % 2 == 1]
    for ply in (0, 10, 31, len(entries) - 1):
        fork = run_match(GAME, bots, match_id="fork-me", seed=5, prefix=entries[:ply])
        assert fork.log == orig.log


def test_replay_rejects_rule_breaking_logs(tmp_path):
    good = run_match(GAME, [RandomBot("a"), RandomBot("b")], match_id="g", seed=1).to_json()
    illegal = json.loads(json.dumps(good))
    illegal["_id"] = "illegal"
    illegal["log"][3]["1"]["response"] = {"x": 0, "y": 0}
    wrong_score = json.loads(json.dumps(good))
    wrong_score["_id"] = "score"
    fin = wrong_score["log"][-1]["output"]["content"]
    fin["0"], fin["1"] = fin["1"], fin["0"]
    if fin["0"] == fin["1"]:
        fin["0"], fin["1"] = 2, 0
    path = tmp_path / "bad.jsonl"
    write_matches(path, [good, illegal, wrong_score])
    text = path.read_text()
    path.write_text(text + '{"_id":"cut","players":[{"type":"bot","bot":"a"}],"log":[{"out\n')
    with pytest.raises(LogFormatError) as e:
        read_matches(path, GAME)
    msg = str(e.value)
    assert "3 of 4 matches are bad" in msg and "bad.jsonl:2: match illegal" in msg
    rep = read_matches(path, GAME, mode="lenient", rejects_path=tmp_path / "rejects.jsonl")
    assert [m.match_id for m in rep.accepted] == ["g"]
    reasons = {b.match_id: b.reason for b in rep.rejected}
    assert "INVALID_MOVE" in reasons["illegal"]
    assert "contradict" in reasons["score"]
    assert "truncated" in reasons["cut"]
    assert len((tmp_path / "rejects.jsonl").read_text().splitlines()) == 3
