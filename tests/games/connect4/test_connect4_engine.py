"""Connect Four engine against the pure-Python reference: moves, wins, draws, blocked cells,
other board sizes, perft; the codec's verdicts; logs that replay on their own board."""

from __future__ import annotations

import json

import numpy as np
import pytest

from ime.core.bot import Bot, decision_rng
from ime.core.game import IllegalMoveError
from ime.core.registry import get_game, get_plugin
from ime.games.connect4 import GAME, Connect4Game
from ime.games.connect4.board import ONE, column_cells, perft, winning_cells
from ime.games.connect4.reference import RefBoard
from ime.games.connect4.reference import perft as ref_perft
from ime.matches.judge import run_match

BOARDS = [
    (7, 6, []),
    (4, 4, []),
    (5, 4, [[2, 0]]),
    (6, 5, [[0, 4], [3, 2], [3, 3]]),
    (8, 7, [[3, 3], [4, 3]]),
    (9, 6, [[4, 0], [0, 5]]),
    (3, 8, [[1, 1]]),
]


class RandomBot(Bot):
    deterministic = False

    def __init__(self, bot_id: str = "rnd"):
        self.bot_id = bot_id

    def act(self, state, ctx):
        moves = state.legal_actions(ctx.player)
        return moves[int(decision_rng(ctx).integers(len(moves)))]


class ScriptedBot(Bot):
    """Answers with a fixed raw response (to exercise the judge's verdicts)."""

    def __init__(self, raw, bot_id="scripted"):
        self.raw = raw
        self.bot_id = bot_id

    def respond(self, state, ctx):
        return self.raw

    def act(self, state, ctx):  # pragma: no cover - respond() is used
        raise AssertionError


def _ref_winning_columns(state) -> list[int]:
    """Columns where the side to move wins at once, from the bitboard kernels."""
    me, opp = state.own_opp()
    g = state.game.geometry.g
    cells = winning_cells(me, me, opp, g) & state.next_cells()
    return [c for c in range(state.game.width) if cells & column_cells(c, g)]


@pytest.mark.parametrize("width,height,blocked", BOARDS)
def test_random_games_match_the_reference(width, height, blocked):
    game = Connect4Game(width, height, blocked)
    rng = np.random.default_rng(width * 100 + height)
    outcomes = set()
    for _ in range(60):
        st, ref = game.new_initial_state(), RefBoard(width, height, blocked)
        while True:
            assert st.legal_actions() == ref.legal()
            assert st.is_terminal() == ref.over()
            if st.is_terminal():
                break
            assert _ref_winning_columns(st) == ref.winning_columns(ref.to_move)
            col = int(rng.choice(ref.legal()))
            row = ref.landing_row(col)
            st.apply_action(col)
            ref.play(col)
            assert st.display()["y"] == row
            for x in range(width):
                for y in range(height):
                    want = {-2: "#", -1: ".", 0: "X", 1: "O"}[ref.grid[y][x]]
                    assert st.cell(x, y) == want
        expect = [1.0, 1.0] if ref.winner is None else [2.0 * (ref.winner == 0),
                                                        2.0 * (ref.winner == 1)]
        assert st.returns() == expect
        outcomes.add(ref.winner)
    if width * height >= 16:
        assert {0, 1} <= outcomes  # both sides won some games: the test saw wins


def test_blocked_cell_is_skipped_and_breaks_lines():
    game = Connect4Game(5, 5, [[0, 1], [2, 0]])
    st = game.new_initial_state()
    st.apply_action(0)  # lands on (0, 0)
    st.apply_action(2)  # (2, 0) is blocked: lands on (2, 1)
    assert (st.cell(0, 0), st.cell(2, 1), st.cell(2, 0)) == ("X", "O", "#")
    st.apply_action(0)  # (0, 1) is blocked: lands on (0, 2)
    assert st.cell(0, 2) == "X" and st.display() == {"x": 0, "y": 2}
    # a full column: (4, *) five discs
    g = Connect4Game(4, 4, [[1, 3]])
    s = g.new_initial_state()
    for col in [1, 1, 1]:
        s.apply_action(col)
    assert 1 not in s.legal_actions()  # the last cell of column 1 is blocked: it is full
    with pytest.raises(IllegalMoveError, match="INVALID_MOVE"):
        s.apply_action(1)
    # X X # X on a row is not four
    h = Connect4Game(4, 4, [[2, 0]])
    s = h.new_initial_state()
    for col in [0, 0, 1, 1, 3]:
        s.apply_action(col)
    assert not s.is_terminal()


@pytest.mark.parametrize("width,height,blocked", [(4, 4, []), (5, 4, [[2, 0]]),
                                                  (4, 5, [[1, 2], [2, 2]])])
def test_perft_matches_the_reference(width, height, blocked):
    game = Connect4Game(width, height, blocked)
    st = game.new_initial_state()
    for depth in range(0, 8):
        got = perft(st.boards[0], st.boards[1], game.geometry.g, depth)
        assert got == ref_perft(RefBoard(width, height, blocked), depth), depth


def test_perft_standard_board():
    g = GAME.geometry.g
    zero = GAME.new_initial_state().boards[0]
    # no four before the 7th ply; the only cut below 7^7 is the 7 lines that fill one column
    # with the first six discs
    assert [perft(zero, zero, g, d) for d in range(1, 8)] == [
        7, 49, 343, 2401, 16807, 117649, 823543 - 7]
    assert perft(zero, zero, g, 5) == ref_perft(RefBoard(7, 6), 5)


def test_full_board_is_a_draw():
    # 4 columns of 4 filled column pairs so that no four ever appears: a known draw pattern
    game = Connect4Game(4, 4)
    st = game.new_initial_state()
    for col in [0, 1, 0, 1, 1, 0, 1, 0, 2, 3, 2, 3, 3, 2, 3, 2]:
        st.apply_action(col)
    assert st.is_terminal() and st.winner is None and st.returns() == [1.0, 1.0]
    assert st.current_players() == [] and st.legal_actions() == []


def test_codec_verdicts():
    st = GAME.new_initial_state()
    assert st.request_for(0) == {"x": -1}
    for ok, col in [({"x": 3}, 3), ('{"x": 0}', 0), ({"x": 6.0}, 6), ({"x": 2, "y": 9}, 2)]:
        assert st.decode_response(0, ok) == col
    for bad in ["not json", [3], {"y": 3}, {"x": "3"}, {"x": 2.5}, {"x": True},
                {"x": 2 ** 31}, {"x": None}, 7]:
        with pytest.raises(IllegalMoveError) as e:
            st.decode_response(0, bad)
        assert e.value.reason == "INVALID_INPUT_VERDICT_OK", bad
    for bad in [{"x": -1}, {"x": 7}, {"x": 2 ** 31 - 1}]:
        with pytest.raises(IllegalMoveError) as e:
            st.decode_response(0, bad)
        assert e.value.reason == "INVALID_MOVE", bad
    for _ in range(6):
        st.apply_action(2)
    with pytest.raises(IllegalMoveError, match="INVALID_MOVE"):
        st.decode_response(0, {"x": 2})
    assert st.request_for(0) == {"x": 2}
    assert st.encode_response(0, 5) == {"x": 5}


@pytest.mark.parametrize("raw,reason", [({"x": 9}, "INVALID_MOVE"),
                                        ("{oops", "INVALID_INPUT_VERDICT_OK")])
def test_judge_forfeits_a_bad_response(raw, reason):
    res = run_match(GAME, [RandomBot(), ScriptedBot(raw)], match_id="f", seed=1)
    assert res.scores == [2.0, 0.0] and res.fault.reason == reason and res.fault.player == 1
    assert res.log[-1]["output"]["display"] == {"err": reason, "winner": 0}


@pytest.mark.slow
def test_logs_replay_on_their_own_board():
    game = get_game("connect4", {"width": 6, "height": 5, "blocked": [[2, 1]]})
    for i in range(5):
        orig = run_match(game, [RandomBot("a"), RandomBot("b")], match_id=f"m{i}", seed=i)
        line = json.loads(json.dumps(orig.to_json()))
        assert line["initdata"] == {"width": 6, "height": 5, "blocked": [[2, 1]]}
        assert line["log"][0]["output"]["initdata"] == line["initdata"]
        # replayed through the *standard* game, the log's initdata rebuilds its own board
        rec = run_match(GAME, [None, None], match_id=line["_id"], initdata=line["initdata"],
                        prefix=line["log"][1::2])
        assert rec.scores == orig.scores and rec.log == line["log"]
        assert rec.final_state.boards == orig.final_state.boards
        assert rec.final_state.game.geometry == game.geometry


def test_initdata_and_plugin():
    assert GAME.new_initial_state().initdata() == {"width": 7, "height": 6, "blocked": []}
    assert GAME.new_initial_state(initdata="").game is GAME
    assert GAME.new_initial_state(initdata={"width": 7}).game is GAME
    other = GAME.new_initial_state(initdata='{"height": 5, "blocked": [[3, 0]]}').game
    assert (other.width, other.height, other.blocked) == (7, 5, ((3, 0),))
    with pytest.raises(ValueError, match="initdata"):
        GAME.new_initial_state(initdata={"size": 7})
    p = get_plugin("connect4")
    gt = p.game_type
    assert (gt.short_name, gt.num_players, gt.simultaneous, gt.hidden_information,
            gt.botzone_game_id, gt.simple_interaction) == ("connect4", 2, False, False, None,
                                                            False)
    g = get_game("connect4", {"width": 8, "height": 7, "blocked": [[0, 0]]})
    assert g.new_initial_state().legal_actions() == list(range(8))
    assert p.figures.grid(g) == (1, 8) and p.figures.code_label(0) == "a"
    for bad in [{"width": 16, "height": 12}, {"width": 7, "blocked": [[7, 0]]},
                {"blocked": [[1, 1], [1, 1]]}, {"width": 0}]:
        with pytest.raises(ValueError):
            Connect4Game(**bad)


def test_clone_is_independent():
    st = GAME.state_from_moves("4453")
    c = st.clone()
    c.apply_action(0)
    assert st.ply == 4 and c.ply == 5 and st.boards != c.boards
    assert st.boards[0] & (ONE << np.uint64(3 * 7)) and st.to_move == 0


def test_openings_reject_immediate_wins():
    openings = get_plugin("connect4").openings
    quiet = GAME.state_from_moves("4453")
    assert not openings.rejects(quiet, quiet.legal_actions())
    assert openings.balanced(quiet, {})
    threat = GAME.state_from_moves([0, 1, 0, 1, 0])  # X threatens column 0, O to move
    assert not openings.rejects(threat, threat.legal_actions())  # O cannot win at once
    assert not openings.balanced(threat, {}) and openings.balanced(threat, {"allow_threats": True})
    win = GAME.state_from_moves([0, 1, 0, 1, 0, 2])  # X can win at once
    assert openings.rejects(win, win.legal_actions())
    # the solver proves 274552224131661 a draw: kept at any max_score, like an unfinished solve
    drawn = GAME.state_from_moves("274552224131661")
    assert openings.balanced(drawn, {"solver_nodes": 10**6, "max_score": 0})
    assert openings.balanced(quiet, {"solver_nodes": 10, "max_score": 0})
    lost = GAME.state_from_moves("3575316255751336464276636772271112")  # score -3
    assert not openings.balanced(lost, {"solver_nodes": 10**6, "max_score": 2})
    assert openings.balanced(lost, {"solver_nodes": 10**6, "max_score": 3})


def test_states_pickle_for_worker_processes():
    import pickle

    game = Connect4Game(6, 5, [[2, 1]])
    st = game.state_from_moves([2, 2, 3])
    back = pickle.loads(pickle.dumps(st))
    assert back.boards == st.boards and back.history == st.history
    assert back.game.geometry == game.geometry and back.legal_actions() == st.legal_actions()
    back.apply_action(2)
    assert back.cell(2, 3) == "O" and st.ply == 3
