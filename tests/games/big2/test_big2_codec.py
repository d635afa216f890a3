"""Big-2's Botzone-style codec and logs: requests, seat inference, response round trips, our
logs replayed through the judge, invalid plays named by match and ply, an external program."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
from b2_helpers import state_of
from shedding_helpers import (
    assert_external_program_plays,
    assert_logs_replay,
    assert_missing_card_named,
    corrupt,
    seeded_matches,
)

from ime.games.big2 import GAME, Big2Game
from ime.games.big2.bots.basic import SmallestBot
from ime.games.big2.cards import deal
from ime.games.big2.codec import infer_seat
from ime.matches.logs import read_matches
from ime.matches.runner import MatchSpec, play_schedule

BENCH_BOT = Path(__file__).parents[3] / "src" / "ime" / "games" / "big2" / "bench_bot.py"


def test_requests():
    st = GAME.new_initial_state(seed=4)
    assert st.request_for(0) == {"own": st.hands[0], "history": []}
    assert list(st.request_for(0)) == ["own", "history"] and infer_seat(st.request_for(0)) == 0
    first = st.legal_actions()[0]
    st.apply_action(first)
    assert st.request_for(1) == {"own": st.hands[1], "history": [list(first)]}
    assert infer_seat(st.request_for(1)) == 1
    st.apply_action(())
    assert st.request_for(0) == {"history": [[]]}  # the opponent passed: lead again


def test_seat_inference_over_random_games():
    rng = np.random.default_rng(0)
    for g in range(20):
        st = GAME.new_initial_state(seed=g)
        seen = set()
        while not st.is_terminal() and len(seen) < 2:
            p = st.to_move
            if p not in seen:
                assert infer_seat(st.request_for(p)) == p
                seen.add(p)
            legal = st.legal_actions()
            st.apply_action(legal[int(rng.integers(len(legal)))])


def test_every_legal_action_round_trips():
    rng = np.random.default_rng(1)
    for g in range(15):
        st = GAME.new_initial_state(seed=100 + g)
        for _ in range(int(rng.integers(0, 12))):
            if st.is_terminal():
                break
            legal = st.legal_actions()
            st.apply_action(legal[int(rng.integers(len(legal)))])
        if st.is_terminal():
            continue
        p = st.to_move
        for a in st.legal_actions():
            resp = st.encode_response(p, a)
            assert json.loads(json.dumps(resp)) == resp == list(a)
            assert st.decode_response(p, resp) == a
            assert st.decode_response(p, json.dumps(list(reversed(a)))) == a


def test_a_pass_and_other_suits_decode():
    st = state_of("3345", "6678", ["3"])
    assert st.decode_response(1, []) == ()
    other = [c for c in st.hand(1) if c // 4 == 3][1]  # the second 6
    assert st.decode_response(1, [other]) == (other,)


def _seeded_matches(n: int) -> list:
    return seeded_matches(GAME, SmallestBot, n, lambda i: {"hands": deal(1000 + i)})


def test_generated_logs_replay_with_identical_scores(tmp_path):
    matches = _seeded_matches(30)
    assert_logs_replay(tmp_path, matches, GAME)
    last = matches[0].log[-1]["output"]
    assert last["command"] == "finish" and set(last["content"]) == {"0", "1"}


def test_the_generic_runner_writes_logs_that_replay(tmp_path):
    specs = {"rnd": {"kind": "random"}, "small": {"kind": "smallest"},
             "neg": {"kind": "negamax", "params": {"nodes": 500, "first_nodes": 2000,
                                                    "start_depth": 2, "exact_nodes": 2000}}}
    seats = [("rnd", "small"), ("small", "neg"), ("neg", "rnd")]
    schedule = [MatchSpec(i, f"b2-{i:03d}", seats[i % 3]) for i in range(12)]
    out = tmp_path / "run.matches"
    assert play_schedule("big2", schedule, specs, out, seed=5, workers=1, progress=False) == 12
    rep = read_matches(out, GAME)
    assert len(rep.accepted) == 12
    for line, res in zip((json.loads(x) for x in out.read_text().splitlines()), rep.accepted,
                         strict=True):
        assert res.scores == line["scores"] and line["game"] == "big2"
        assert len(line["initdata"]["hands"][0]) == 26


def test_an_invalid_play_in_a_log_is_named_by_match_and_ply(tmp_path):
    (m,) = _seeded_matches(1)
    line = m.to_json()
    other = m.final_state.hands[0][0]
    bad = corrupt(line, 3, [other])  # ply 3 is seat 1's: a card of seat 0
    assert_missing_card_named(tmp_path, line, bad, GAME, 3, 1)
    path = tmp_path / "bad.matches"
    path.write_text(json.dumps(corrupt(line, 0, [])) + "\n")  # the leader passes
    (rej,) = read_matches(path, GAME, mode="lenient").rejected
    assert "turn 0: player 0" in rej.reason and "INVALID_PASS" in rej.reason
    path.write_text(json.dumps(corrupt(line, 0, "[1, 2")) + "\n")  # malformed JSON
    (rej,) = read_matches(path, GAME, mode="lenient").rejected
    assert "turn 0: player 0" in rej.reason and "BAD_FORMAT" in rej.reason


@pytest.mark.parametrize("keep", [False, True])
def test_an_external_program_plays_through_the_adapter(keep):
    assert_external_program_plays(BENCH_BOT, Big2Game(8), {"hands": deal(77, 8)}, keep)
