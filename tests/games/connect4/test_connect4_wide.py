"""Wide boards (over 64 bits: the course's 9-12 boards of seed 002) against the pure-Python
reference: moves, wins, perft, lines across the word boundaries, the blocked cell, the bots on
12x12, and logs and encodings of wide boards."""

from __future__ import annotations

import json

import numpy as np
import pytest

from ime.core.bot import DecisionContext
from ime.core.registry import get_game
from ime.games.connect4 import GAME, Connect4Game
from ime.games.connect4 import wide as wd
from ime.games.connect4.bots import BOT_KINDS
from ime.games.connect4.bots.simple import RandomBot
from ime.games.connect4.reference import RefBoard, course_board
from ime.games.connect4.reference import perft as ref_perft
from ime.matches.judge import run_match

WIDE = [
    (12, 12, [[5, 3]]),
    (11, 11, [[0, 10]]),
    (9, 12, [[4, 0]]),
    (12, 9, []),
    (10, 10, [[9, 9]]),
    (9, 9, [[8, 4]]),
]


def _cells(b: int, stride: int) -> set[tuple[int, int]]:
    out = set()
    while b:
        low = b & -b
        i = low.bit_length() - 1
        out.add((i // stride, i % stride))
        b ^= low
    return out


def _winning(geo, p: int, me: int, opp: int) -> int:
    w = wd.winning_cells(wd.to_words(p), wd.to_words(me), wd.to_words(opp), geo.g, geo.gw)
    return wd.from_words(w)


def test_course_boards_are_wide_and_seeded():
    boards = [course_board(s) for s in range(200)]
    assert boards[:3] == [course_board(s) for s in range(3)]
    assert {b["width"] for b in boards} == {9, 10, 11, 12}
    assert {b["height"] for b in boards} == {9, 10, 11, 12}
    for b in boards:
        (x, y), = b["blocked"]
        assert 0 <= x < b["width"] and 0 <= y < b["height"]
        assert Connect4Game(**b).geometry.wide  # 9 * 10 = 90 bits: every course board
    assert not GAME.geometry.wide
    with pytest.raises(ValueError, match="192"):
        Connect4Game(16, 12)  # 208 bits


@pytest.mark.parametrize("width,height,blocked", WIDE)
@pytest.mark.slow
def test_random_games_match_the_reference(width, height, blocked):
    game = Connect4Game(width, height, blocked)
    geo = game.geometry
    assert geo.wide
    rng = np.random.default_rng(width * 100 + height)
    outcomes = set()
    for _ in range(12):
        st, ref = game.new_initial_state(), RefBoard(width, height, blocked)
        while True:
            assert st.legal_actions() == ref.legal()
            assert st.is_terminal() == ref.over()
            if st.is_terminal():
                break
            me, opp = st.own_opp()
            for player, bits in ((ref.to_move, me), (1 - ref.to_move, opp)):
                got = _cells(_winning(geo, bits, me, opp), geo.stride)
                assert got == ref.completing_cells(player)
            col = int(rng.choice(ref.legal()))
            row = ref.landing_row(col)
            st.apply_action(col)
            ref.play(col)
            assert st.display()["y"] == row
            both = st.boards[0] | st.boards[1]
            assert not both & geo.blocked_mask  # the blocked cell is never filled
            # the numba kernels agree with the Python-int state
            assert bool(wd.has_four(wd.to_words(st.boards[1 - st.to_move]), geo.g)) == (
                ref.winner is not None)
            nxt = wd.possible(wd.to_words(st.boards[0]), wd.to_words(st.boards[1]), geo.gw)
            assert wd.from_words(nxt) == st.next_cells()
        for x in range(width):
            for y in range(height):
                want = {-2: "#", -1: ".", 0: "X", 1: "O"}[ref.grid[y][x]]
                assert st.cell(x, y) == want
        outcomes.add(ref.winner)
    assert {0, 1} <= outcomes


@pytest.mark.parametrize("width,height,blocked", WIDE[:3])
@pytest.mark.slow
def test_perft_from_midgame_positions_matches_the_reference(width, height, blocked):
    """Perft 1-3 from positions 20-50 random plies in, where fours are made and cut the tree."""
    game = Connect4Game(width, height, blocked)
    geo = game.geometry
    rng = np.random.default_rng(7)
    cut = tried = 0
    while tried < 8:
        st, ref = game.new_initial_state(), RefBoard(width, height, blocked)
        for _ in range(int(rng.integers(20, 50))):
            col = int(rng.choice(ref.legal()))
            st.apply_action(col)
            ref.play(col)
            if ref.over():
                break
        if ref.over():
            continue
        tried += 1
        me, opp = (wd.to_words(b) for b in st.own_opp())
        for depth in range(1, 4):
            got = wd.perft(me, opp, geo.g, geo.gw, depth)
            assert got == ref_perft(ref, depth), depth
        cut += wd.perft(me, opp, geo.g, geo.gw, 3) < len(ref.legal()) ** 3
    assert cut > 0  # some tree was cut by a four (or a full column): the test saw wins


def _lines(width: int, height: int):
    for x in range(width):
        for y in range(height):
            for name, dx, dy in (("horizontal", 1, 0), ("vertical", 0, 1), ("diagonal", 1, 1),
                                 ("anti-diagonal", 1, -1)):
                cells = [(x + k * dx, y + k * dy) for k in range(4)]
                if all(0 <= cx < width and 0 <= cy < height for cx, cy in cells):
                    yield name, cells


@pytest.mark.parametrize("width,height", [(12, 12), (11, 11), (9, 10)])
def test_fours_across_the_word_boundaries(width, height):
    """Every line of four whose cells lie in two words is found, in each direction, by both
    the three-word kernels and the Python-int rule; three of its cells are no four, and give
    the fourth as a winning cell."""
    geo = Connect4Game(width, height).geometry
    s = geo.stride
    seen = set()
    for name, cells in _lines(width, height):
        bits = [x * s + y for x, y in cells]
        words = {b // 64 for b in bits}
        if len(words) < 2:
            continue
        seen.add((name, min(words)))
        p = sum(1 << b for b in bits)
        assert wd.has_four(wd.to_words(p), geo.g) and wd.py_has_four(p, s), (name, cells)
        for k in range(4):
            three = p & ~(1 << bits[k])
            assert not wd.has_four(wd.to_words(three), geo.g)
            assert not wd.py_has_four(three, s)
            if name != "vertical" or k == 3:  # under a stack is no position (gravity)
                assert _cells(_winning(geo, three, three, 0), s) >= {cells[k]}
    names = {"horizontal", "vertical", "diagonal", "anti-diagonal"}
    boundaries = range((width * s - 1) // 64)
    # every direction crosses a boundary, every boundary is crossed (both on 12x12: bits 64
    # and 128; no vertical line crosses bit 64 there, which is column 4's sentinel)
    assert {n for n, _ in seen} == names and {w for _, w in seen} == set(boundaries)


def test_no_four_wraps_across_columns_or_words():
    """Cells that are consecutive bits but not a line (the top of one column and the bottom of
    the next, straddling bit 64 on 12x12) are no four."""
    geo = Connect4Game(12, 12).geometry
    s = geo.stride  # 13: column 4 holds bits 52..63 (+ sentinel 64), column 5 bits 65..
    p = sum(1 << (4 * s + y) for y in (10, 11)) | sum(1 << (5 * s + y) for y in (0, 1))
    assert not wd.has_four(wd.to_words(p), geo.g) and not wd.py_has_four(p, s)
    vertical = sum(1 << (4 * s + y) for y in (8, 9, 10, 11))  # bits 60..63: under bit 64
    assert wd.has_four(wd.to_words(vertical), geo.g)


def test_blocked_cell_as_the_course_rules():
    """A disc dropped onto the blocked cell lands on the cell above it; a blocked bottom cell
    lifts the whole column; a blocked top cell makes the column full one disc early."""
    game = Connect4Game(12, 12, [[5, 0]])
    st = game.new_initial_state()
    st.apply_action(5)
    assert st.display() == {"x": 5, "y": 1} and st.cell(5, 0) == "#"
    game = Connect4Game(10, 11, [[2, 4]])
    st = game.new_initial_state()
    for _ in range(4):
        st.apply_action(2)
    st.apply_action(2)
    assert st.display() == {"x": 2, "y": 5}
    top = Connect4Game(9, 9, [[0, 8]]).new_initial_state()
    for i in range(8):
        assert 0 in top.legal_actions(), i
        top.apply_action(0)
    assert not top.is_terminal() and 0 not in top.legal_actions()  # 4 X and 4 O alternate


def _uct(sims: int, heuristic: bool, bot_id: str):
    return BOT_KINDS["uct"]("connect4", bot_id, {"simulations": sims,
                                                 "heuristic_rollouts": heuristic,
                                                 "win_in_selection": heuristic})


@pytest.mark.slow
def test_seeded_mcts_game_on_12x12_finishes_legally_and_replays():
    game = get_game("connect4", {"width": 12, "height": 12, "blocked": [[6, 2]]})
    a, b = _uct(300, True, "heur"), _uct(300, False, "plain")
    first = run_match(game, [a, b], match_id="w12", seed=3)
    again = run_match(game, [_uct(300, True, "heur"), _uct(300, False, "plain")],
                      match_id="w12", seed=3)
    assert first.fault is None and first.final_state.is_terminal()
    assert json.dumps(first.to_json()) == json.dumps(again.to_json())  # same seed, same bytes
    ref = RefBoard(12, 12, [[6, 2]])
    for col in first.final_state.history:
        assert col in ref.legal()
        ref.play(col)
    assert ref.over() and ref.grid[2][6] == -2
    want = [1.0, 1.0] if ref.winner is None else [2.0 * (ref.winner == 0),
                                                    2.0 * (ref.winner == 1)]
    assert first.scores == want


@pytest.mark.parametrize("kind,params", [("uct", {"simulations": 200}),
                                         ("uct", {"simulations": 200, "heuristic_rollouts": False,
                                                  "win_in_selection": False}),
                                         ("alphabeta", {"depth": 3, "tie": "centre"}),
                                         ("greedy", {})])
@pytest.mark.slow
def test_bots_take_a_win_across_the_word_boundary(kind, params):
    """X holds (3, 0), (4, 0), (5, 0) on 12x12, bits 39, 52, 65: the line to (6, 0), bit 78,
    spans two words; every bot (X to move) completes it."""
    game = Connect4Game(12, 12, [[0, 0]])
    st = game.state_from_moves([3, 2, 4, 11, 5, 11])
    assert not st.is_terminal() and st.to_move == 0
    assert st.column_cell(6) == 1 << (6 * 13)
    bot = BOT_KINDS[kind]("connect4", kind, params)
    ctx = DecisionContext(seed=1, match_id="m", ply=st.ply, player=0)
    assert bot.act(st, ctx) == 6


def test_logs_of_wide_boards_round_trip():
    params = course_board(11)
    game = get_game("connect4", params)
    assert game.geometry.wide
    for i in range(3):
        orig = run_match(game, [RandomBot("a"), RandomBot("b")], match_id=f"w{i}", seed=i)
        line = json.loads(json.dumps(orig.to_json()))
        assert line["initdata"] == params
        rec = run_match(GAME, [None, None], match_id=line["_id"], initdata=line["initdata"],
                        prefix=line["log"][1::2])
        assert rec.scores == orig.scores and rec.log == line["log"]
        assert rec.final_state.boards == orig.final_state.boards
        assert rec.final_state.game.geometry == game.geometry


def test_encoder_on_a_wide_board():
    from ime.core.registry import get_plugin

    game = Connect4Game(12, 11, [[3, 0]])
    enc = get_plugin("connect4").make_encoder(game)
    st = game.state_from_moves([3, 3, 0, 11, 11, 11] + [7] * 11)
    obs = enc.encode([st])
    planes, (mask,) = obs.planes, obs.masks
    assert planes.shape == (1, 3, 11, 12)
    for x in range(12):
        for y in range(11):
            c = st.cell(x, y)
            top = 10 - y
            assert planes[0, 0, top, x] == (c == "XO"[st.to_move])
            assert planes[0, 1, top, x] == (c == "OX"[st.to_move])
            assert planes[0, 2, top, x] == (c == "#")
    assert mask[0].tolist() == [int(c in st.legal_actions()) for c in range(12)]


def test_solver_refuses_a_wide_board():
    from ime.games.connect4.solver import Solver

    with pytest.raises(ValueError, match="wide board"):
        Solver(Connect4Game(12, 12).geometry, 10)
