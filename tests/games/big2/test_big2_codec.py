"""Big-2's Botzone-style codec and logs: requests, seat inference, response round trips, our
logs replayed through the judge, invalid plays named by match and ply, an external program."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import numpy as np
import pytest
from b2_helpers import state_of

from ime.bots.external.bot import ExternalBot
from ime.bots.external.spec import ExternalSpec
from ime.core.bot import Bot, DecisionContext
from ime.games.big2 import GAME
from ime.games.big2.bots.basic import RandomBot, SmallestBot
from ime.games.big2.cards import deal
from ime.games.big2.codec import infer_seat
from ime.matches.judge import run_match
from ime.matches.logs import read_matches, write_matches
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
    out = []
    for i in range(n):
        bots = [(RandomBot if (i + p) % 3 else SmallestBot)(f"b{p}") for p in range(2)]
        out.append(run_match(GAME, bots, match_id=f"m{i}", seed=i,
                             initdata={"hands": deal(1000 + i)}))
    return out


def test_generated_logs_replay_with_identical_scores(tmp_path):
    matches = _seeded_matches(30)
    assert all(m.fault is None for m in matches)
    path = tmp_path / "a.matches"
    write_matches(path, matches)
    rep = read_matches(path, GAME)  # strict: every match replays through the judge
    assert len(rep.accepted) == 30
    for orig, back in zip(matches, rep.accepted, strict=True):
        assert back.scores == orig.scores and back.log == orig.log
        assert [d.action for d in back.decisions] == [c for _, c in orig.final_state.history]
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


def _corrupt(line: dict, turn: int, response) -> dict:
    bad = json.loads(json.dumps(line))
    entry = bad["log"][2 * turn + 1]
    (key,) = entry
    entry[key]["response"] = response
    return bad


def test_an_invalid_play_in_a_log_is_named_by_match_and_ply(tmp_path):
    (m,) = _seeded_matches(1)
    line = m.to_json()
    other = m.final_state.hands[0][0]
    bad = _corrupt(line, 3, [other])  # ply 3 is seat 1's: a card of seat 0
    path = tmp_path / "bad.matches"
    path.write_text(json.dumps(line) + "\n" + json.dumps(bad) + "\n")
    rep = read_matches(path, GAME, mode="lenient")
    assert len(rep.accepted) == 1 and len(rep.rejected) == 1
    (rej,) = rep.rejected
    assert rej.kind == "illegal_move" and rej.match_id == "m0" and rej.line == 2
    assert "turn 3: player 1" in rej.reason and "MISSING_CARD" in rej.reason
    with pytest.raises(ValueError, match="MISSING_CARD"):
        read_matches(path, GAME)  # strict
    path.write_text(json.dumps(_corrupt(line, 0, [])) + "\n")  # the leader passes
    (rej,) = read_matches(path, GAME, mode="lenient").rejected
    assert "turn 0: player 0" in rej.reason and "INVALID_PASS" in rej.reason
    path.write_text(json.dumps(_corrupt(line, 0, "[1, 2")) + "\n")  # malformed JSON
    (rej,) = read_matches(path, GAME, mode="lenient").rejected
    assert "turn 0: player 0" in rej.reason and "BAD_FORMAT" in rej.reason


class _First(Bot):
    bot_id = "first"

    def act(self, state, ctx: DecisionContext):
        return state.legal_actions(ctx.player)[0]


@pytest.mark.parametrize("keep", [False, True])
def test_an_external_program_plays_through_the_adapter(keep):
    params = {"command": [sys.executable, str(BENCH_BOT), *(["keep"] if keep else [])],
              "time_limit": 30}
    if keep:
        params.update(keep_running=True, keep_running_time_limit=30)
    for seat in (1, 0):
        ext = ExternalBot(ExternalSpec.from_params("ext", params))
        try:
            bots: list[Bot] = [_First(), _First()]
            bots[seat] = ext
            init = {"hands": deal(77, 8)}
            from ime.games.big2 import Big2Game

            game = Big2Game(8)
            res = run_match(game, bots, match_id=f"x{seat}", seed=1, initdata=init)
            ref = run_match(game, [_First()] * 2, match_id=f"x{seat}", seed=1, initdata=init)
        finally:
            ext.close()
        assert res.fault is None and res.scores == ref.scores
        assert [e for e in res.log if "output" not in e] == [
            e for e in ref.log if "output" not in e]
