"""Doudizhu's Botzone codec and logs: requests, seat inference, our logs and Botzone's judge's
logs replayed through our judge, invalid plays named by match and ply, external programs."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
from ddz_helpers import play, state_from
from shedding_helpers import (
    assert_external_program_plays,
    assert_logs_replay,
    assert_missing_card_named,
    corrupt,
    seeded_matches,
)

from ime.games.doudizhu.bots.basic import SmallestBot
from ime.games.doudizhu.cards import deal
from ime.games.doudizhu.codec import history_of, infer_seat
from ime.games.doudizhu.game import GAME
from ime.matches.logs import read_matches
from ime.matches.runner import MatchSpec, play_schedule

DATA = Path(__file__).parent / "data"
BENCH_BOT = Path(__file__).parents[3] / "src" / "ime" / "games" / "doudizhu" / "bench_bot.py"


def test_requests_first_three_carry_own_and_publiccard():
    st = GAME.new_initial_state(seed=4)
    alloc, public = deal(4)
    assert st.request_for(0) == {"own": alloc[0], "history": [[], []], "publiccard": public}
    assert list(st.request_for(0)) == ["own", "history", "publiccard"]  # the judge's key order
    a = st.legal_actions()[3]
    st.apply_action(a)
    assert st.request_for(1) == {"own": alloc[1], "history": [[], list(a)],
                                 "publiccard": public}
    st.apply_action(())
    assert st.request_for(2) == {"own": alloc[2], "history": [list(a), []],
                                 "publiccard": public}
    b = st.legal_actions()[-1]
    st.apply_action(b)
    assert st.request_for(0) == {"history": [[], list(b)]}
    assert history_of([]) == [[], []] and history_of([(1,), (), (2, 3)]) == [[], [2, 3]]


def test_request_history_is_sorted_as_the_judge_sorts_it():
    st = state_from("3333", "", "")
    st.apply_action(st.decode_response(0, [3, 1, 2, 0]))
    assert st.request_for(1)["history"] == [[], [0, 1, 2, 3]]
    assert st.encode_response(1, (5, 9)) == [5, 9]


def test_seat_inference_from_the_first_request():
    rng = np.random.default_rng(3)
    for g in range(40):
        st = GAME.new_initial_state(seed=g)
        while st.ply < 3:
            p = st.to_move
            assert infer_seat(st.request_for(p)) == p
            legal = st.legal_actions()
            st.apply_action(legal[int(rng.integers(len(legal)))] if g % 2 else legal[0])
    st = state_from("3", "", "")
    play(st, "3", "")  # farmer 1 passes: farmer 2 still sees the landlord's play first
    assert st.request_for(2)["history"][1] == [] and infer_seat(st.request_for(2)) == 2


def test_codec_round_trip():
    st = GAME.new_initial_state(seed=9)
    for a in st.legal_actions()[:50]:
        assert st.decode_response(0, st.encode_response(0, a)) == a
        assert st.decode_response(0, json.dumps(list(reversed(a)))) == a


def _seeded_matches(n: int) -> list:
    return seeded_matches(GAME, SmallestBot, n, lambda i: {"allocation": deal(1000 + i)[0]})


def test_generated_logs_replay_with_identical_scores(tmp_path):
    matches = _seeded_matches(30)
    replayed = assert_logs_replay(tmp_path, matches, GAME)
    for orig, back in zip(matches, replayed, strict=True):
        assert back.final_state.winner == orig.final_state.winner


def test_the_generic_runner_writes_logs_that_replay(tmp_path):
    specs = {"rnd": {"kind": "random"}, "small": {"kind": "smallest"}}
    seats = [("rnd", "small", "rnd"), ("small", "small", "small"), ("rnd", "rnd", "small")]
    schedule = [MatchSpec(i, f"ddz-{i:03d}", seats[i % 3]) for i in range(20)]
    out = tmp_path / "run.matches"
    assert play_schedule("doudizhu", schedule, specs, out, seed=5, workers=1,
                         progress=False) == 20
    rep = read_matches(out, GAME)
    assert len(rep.accepted) == 20
    lines = [json.loads(x) for x in out.read_text().splitlines()]
    for line, res in zip(lines, rep.accepted, strict=True):
        assert [round(s, 9) for s in res.scores] == [round(s, 9) for s in line["scores"]]
        assert line["game"] == "doudizhu" and line["initdata"]["allocation"]


def test_an_invalid_play_in_a_log_gets_the_judges_verdict_naming_match_and_ply(tmp_path):
    (m,) = _seeded_matches(1)
    line = m.to_json()
    other = m.final_state.allocation[2][0]
    bad = corrupt(line, 4, [other])  # ply 4 is seat 1's: a card of seat 2
    rej = assert_missing_card_named(tmp_path, line, bad, GAME, 4, 1)
    assert "m0" in str(rej) and "bad.matches:2" in str(rej)
    path = tmp_path / "bad.matches"
    # the same play as the log's last move, finished with the judge's fault scores: accepted
    cut = json.loads(json.dumps(bad))
    cut["log"] = cut["log"][:10] + [{"output": {"command": "finish",
                                                "content": {"0": 2.5, "1": -1, "2": -1}}}]
    cut["scores"] = [2.5, -1, -1]
    path.write_text(json.dumps(cut) + "\n")
    (res,) = read_matches(path, GAME).accepted
    assert res.fault.ply == 4 and res.fault.player == 1
    assert res.fault.reason.startswith("MISSING_CARD") and res.scores == [2.5, -1.0, -1.0]
    path.write_text(json.dumps(corrupt(line, 0, [])) + "\n")  # the landlord's first: a pass
    (rej,) = read_matches(path, GAME, mode="lenient").rejected
    assert rej.kind == "wrong_pass" and "turn 0: player 0" in rej.reason
    assert "INVALID_PASS" in rej.reason


def test_botzones_own_judge_logs_replay_through_our_judge():
    """Match-pack lines whose judge entries are the output of Botzone's FightTheLandlord judge
    (``FightTheLandlord.py3``, run turn by turn): our requests equal its requests, our scores
    its scores, our fault codes its codes (an invalid combination shows as BAD_FORMAT there)."""
    rep = read_matches(DATA / "botzone_judge.matches", GAME)
    assert len(rep.accepted) == 10
    codes = []
    for res, raw in zip(rep.accepted, (DATA / "botzone_judge.matches").read_text().splitlines(),
                        strict=True):
        data = json.loads(raw)
        finish = data["log"][-1]["output"]
        assert res.scores == [finish["content"][k] for k in "012"]
        shown = finish["display"].get("errorInfo")
        assert shown == (None if res.fault is None else res.final_state.display()["errorInfo"])
        codes.append(res.fault.reason.split(":")[0] if res.fault else "finish")
        for k in range(0, len(data["log"]), 2):
            want, got = data["log"][k]["output"], res.log[k]["output"]
            assert want["content"] == got["content"]
            if k:  # the judge module writes no display with the first request
                assert want["display"] == got["display"], k
    assert sorted(set(codes)) == ["INVALID_CARDTYPE", "INVALID_PASS", "LESS_COMPARE",
                                  "MISMATCH_CARDLENGTH", "MISMATCH_CARDTYPE", "MISSING_CARD",
                                  "REPEATED_CARD", "finish"]


@pytest.mark.parametrize("keep", [False, True])
def test_an_external_program_plays_through_the_adapter(keep):
    assert_external_program_plays(BENCH_BOT, GAME, {"allocation": deal(77)[0]}, keep)
