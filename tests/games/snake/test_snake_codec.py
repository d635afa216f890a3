"""Snake's Botzone codec: initdata (object or JSON string), requests, responses and their
verdicts, seat inference and a bot's rebuilding of the game from its transcript."""

from __future__ import annotations

import json

import numpy as np
import pytest

from ime.core.bot import Bot, decision_rng
from ime.core.game import IllegalMoveError
from ime.games.snake import GAME
from ime.games.snake.codec import (
    INVALID_INPUT,
    INVALID_MOVE,
    load_initdata,
    obstacles_from_json,
    seat_from_request,
)
from ime.matches.judge import run_match


class Uniform(Bot):
    deterministic = False

    def __init__(self, bot_id: str):
        self.bot_id = bot_id

    def act(self, state, ctx):
        legal = state.legal_actions(ctx.player)
        return legal[int(decision_rng(ctx).integers(len(legal)))]


def test_initdata_round_trip_object_and_string():
    for seed in range(30):
        st = GAME.new_initial_state(seed=seed)
        init = st.initdata()
        assert list(init) == ["0", "1", "height", "obstacle", "width"]  # jsoncpp's order
        assert init["0"] == {"x": 1, "y": 1}
        assert init["1"] == {"x": st.height, "y": st.width}
        for again in (GAME.new_initial_state(init), GAME.new_initial_state(json.dumps(init)),
                      GAME.new_initial_state(init, seed=seed + 1)):
            assert again.initdata() == init
            np.testing.assert_array_equal(again.S, st.S)


def test_initdata_is_read_as_the_judge_reads_it():
    assert load_initdata("") == {} and load_initdata(None) == {}
    assert load_initdata("not json") == {} and load_initdata('"a string"') == {}
    assert load_initdata('{"seed": 3}') == {"seed": 3}
    # no board stored: drawn from initdata's seed, else the seed argument
    assert GAME.new_initial_state({"seed": 3}).initdata() == GAME.random_initdata(3)
    assert GAME.new_initial_state("", seed=8).initdata() == GAME.random_initdata(8)
    assert GAME.new_initial_state({"seed": 3}, seed=8).initdata() == GAME.random_initdata(3)
    st = GAME.new_initial_state({"seed": 4, "width": 12, "height": 15})
    assert (st.width, st.height) == (12, 15)
    stored = GAME.new_initial_state({"width": 11, "height": 12, "obstacle": []})
    assert stored.obstacles == () and (stored.width, stored.height) == (11, 12)


def test_bad_stored_obstacles_are_refused():
    with pytest.raises(ValueError, match="off the"):
        obstacles_from_json([{"x": 0, "y": 3}], 10, 11)
    with pytest.raises(ValueError, match="start"):
        obstacles_from_json([{"x": 11, "y": 10}], 10, 11)
    with pytest.raises(ValueError, match="x"):
        obstacles_from_json([{"x": "1", "y": 3}], 10, 11)
    with pytest.raises(ValueError, match="list"):
        obstacles_from_json({"x": 1}, 10, 11)


def test_requests():
    st = GAME.new_initial_state(seed=5)
    obs = [{"x": x, "y": y} for x, y in st.obstacles]
    assert st.request_for(0) == {"height": st.height, "obstacle": obs, "width": st.width,
                                 "x": 1, "y": 1}
    assert st.request_for(1) == {"height": st.height, "obstacle": obs, "width": st.width,
                                 "x": st.height, "y": st.width}
    assert list(st.request_for(1)) == ["height", "obstacle", "width", "x", "y"]
    assert seat_from_request(st.request_for(0)) == 0
    assert seat_from_request(st.request_for(1)) == 1
    a0, a1 = st.legal_actions(0)[0], st.legal_actions(1)[-1]
    st.apply_actions({0: a0, 1: a1})
    assert st.request_for(0) == {"direction": a1}
    assert st.request_for(1) == {"direction": a0}
    with pytest.raises(ValueError):
        seat_from_request({"direction": 1})


@pytest.mark.parametrize("response, reason", [
    ({"direction": 4}, INVALID_MOVE),
    ({"direction": -1}, INVALID_MOVE),
    ({"direction": 2**31 - 1}, INVALID_MOVE),
    ({"direction": 2**31}, INVALID_INPUT),
    ({"direction": "1"}, INVALID_INPUT),
    ('{"direction": 1}', INVALID_INPUT),  # Snake.cpp reads objects only
    ({"direction": True}, INVALID_INPUT),
    ({"direction": 1.5}, INVALID_INPUT),
    ({}, INVALID_INPUT),
    ([1], INVALID_INPUT),
    (None, INVALID_INPUT),
    (1, INVALID_INPUT),
])
def test_response_verdicts(response, reason):
    st = GAME.new_initial_state(seed=5)
    with pytest.raises(IllegalMoveError) as e:
        st.decode_response(0, response)
    assert e.value.reason == reason and e.value.player == 0


def test_responses_decode_and_encode():
    st = GAME.new_initial_state(seed=5)
    for p in (0, 1):
        for d in st.legal_actions(p):
            assert st.encode_response(p, d) == {"direction": d}
            assert st.decode_response(p, {"direction": d}) == d
            assert st.decode_response(p, {"direction": float(d), "debug": "x"}) == d
    illegal = next(d for d in range(4) if d not in st.legal_actions(0))
    with pytest.raises(IllegalMoveError) as e:
        st.decode_response(0, {"direction": illegal})
    assert e.value.reason == INVALID_MOVE


def test_bots_rebuild_the_game_from_their_transcript():
    for m in range(6):
        res = run_match(GAME, [Uniform("u0"), Uniform("u1")], match_id=f"t{m}", seed=m,
                        initdata=GAME.random_initdata(100 + m))
        log = res.log
        n_turns = len(log) // 2
        st = GAME.new_initial_state(res.initdata)
        for t in range(n_turns):
            for p in (0, 1):
                reqs = [log[2 * k]["output"]["content"][str(p)] for k in range(t + 1)]
                resps = [log[2 * k + 1][str(p)]["response"] for k in range(t)]
                rebuilt, seat = GAME.state_from_transcript(reqs, resps)
                assert seat == p
                np.testing.assert_array_equal(rebuilt.S, st.S)
                assert rebuilt.request_for(p) == reqs[-1]
            entry = log[2 * t + 1]
            st.apply_actions({p: entry[str(p)]["response"]["direction"] for p in (0, 1)})
        assert st.returns() == res.scores
