"""The Connect Four zoo: every configured bot is legal and reproducible from (seed, match, ply,
player); the tactical rules (win, block) hold; the solver bot plays optimal moves."""

from __future__ import annotations

import numpy as np
import pytest

from ime.bots.registry import load_bot_specs, make_bot
from ime.core.bot import DecisionContext
from ime.games.connect4 import GAME, Connect4Game
from ime.games.connect4.bots import BOT_KINDS
from ime.games.connect4.bots.alphabeta import AlphaBetaBot, evaluate, windows
from ime.games.connect4.bots.perfect import SolverBot
from ime.games.connect4.bots.simple import GreedyBot
from ime.games.connect4.bots.uct import UCTBot, rollout
from ime.games.connect4.solver import Solver

SPECS = load_bot_specs("connect4")


def ctx(state, seed=0, match="m"):
    return DecisionContext(seed=seed, match_id=match, ply=state.ply, player=state.to_move)


def random_states(game, n, seed):
    rng = np.random.default_rng(seed)
    out = []
    while len(out) < n:
        st = game.new_initial_state()
        while not st.is_terminal():
            out.append(st.clone())
            st.apply_action(int(rng.choice(st.legal_actions())))
    return [out[i] for i in rng.choice(len(out), n, replace=False)]


STATES = random_states(GAME, 12, 0)
BLOCKED = Connect4Game(6, 5, [[2, 1], [3, 1]])


@pytest.mark.parametrize("bot_id", sorted(SPECS))
@pytest.mark.slow
def test_configured_bots_are_legal_and_reproducible(bot_id):
    bot, twin = make_bot("connect4", bot_id), make_bot("connect4", bot_id)
    assert bot.bot_id == bot_id
    acts = []
    for st in [*STATES, *random_states(BLOCKED, 4, 1)]:
        before = (list(st.boards), st.ply)
        a = bot.act(st, ctx(st))
        assert a in st.legal_actions() and (list(st.boards), st.ply) == before
        acts.append(a)
    # the same decisions again, in reverse order and by a fresh instance
    again = [twin.act(st, ctx(st)) for st in reversed([*STATES, *random_states(BLOCKED, 4, 1)])]
    assert acts == again[::-1]


@pytest.mark.parametrize("kind,params", [("random", {}), ("greedy", {}),
                                         ("alphabeta", {"depth": 2, "tie": "random"}),
                                         ("uct", {"simulations": 50})])
def test_randomised_bots_vary_with_seed_match_and_ply(kind, params):
    bot = BOT_KINDS[kind]("connect4", kind, params)
    st = GAME.new_initial_state()
    seen = {bot.act(st, DecisionContext(s, f"m{s}", 0, 0)) for s in range(30)}
    assert len(seen) > 1


def test_every_bot_wins_at_once_and_greedy_blocks():
    # X to move with three in column 0: column 0 wins at once
    win = GAME.state_from_moves([0, 1, 0, 1, 0, 2])
    # O to move, X threatens column 0
    block = GAME.state_from_moves([0, 1, 0, 2, 0])
    bots = [GreedyBot(), AlphaBetaBot(depth=1), AlphaBetaBot(depth=4),
            UCTBot(simulations=200), UCTBot(simulations=200, heuristic_rollouts=False),
            SolverBot(solve_empties=0)]
    for bot in bots:
        for s in range(5):
            assert bot.act(win, ctx(win, s)) == 0, (bot, s)
    for bot in [GreedyBot(), AlphaBetaBot(depth=2), UCTBot(simulations=2000), SolverBot()]:
        for s in range(5):
            assert bot.act(block, ctx(block, s)) == 0, (bot, s)


def test_heuristic_rollouts_win_and_block():
    # the side to move has a playable win: a heuristic rollout always wins at once
    st = GAME.state_from_moves([0, 1, 0, 1, 0, 2])
    me, opp = st.own_opp()
    g = GAME.geometry.g
    np.random.seed(0)
    assert all(rollout(me, opp, g, True) == 2 for _ in range(50))
    plain = [rollout(me, opp, g, False) for _ in range(200)]
    assert 0 in plain or 1 in plain  # random rollouts sometimes miss it


def test_evaluation_is_antisymmetric_and_counts_open_lines():
    weights = np.array([1, 5, 25], dtype=np.int64)
    wins = windows(GAME.geometry)
    assert len(wins) == 69  # the 69 lines of the 7x6 board
    assert len(windows(BLOCKED.geometry)) < len(windows(Connect4Game(6, 5).geometry))
    for st in STATES:
        me, opp = st.own_opp()
        assert evaluate(me, opp, wins, weights) == -evaluate(opp, me, wins, weights)
    centre, edge = GAME.state_from_moves([3]), GAME.state_from_moves([0])
    assert evaluate(centre.boards[0], centre.boards[1], wins, weights) > \
        evaluate(edge.boards[0], edge.boards[1], wins, weights)


def test_solver_bot_plays_optimal_moves_and_falls_back():
    bot = SolverBot(solve_empties=24, nodes=10**7)
    solver = Solver(GAME.geometry, 16)
    for st in random_states(GAME, 40, 3):
        empties = GAME.geometry.cells - st.ply
        col = bot.act(st, ctx(st))
        if empties <= 24:
            scores = solver.analyze(*st.own_opp())
            assert scores[col] == scores.max()
    assert bot.solved > 0 and bot.fell_back > 0
    tiny = SolverBot(nodes=10, solve_empties=42)
    st = GAME.state_from_moves("4453")
    assert tiny.act(st, ctx(st)) == tiny.fallback.act(st, ctx(st)) and tiny.fell_back == 1


def test_uct_info_and_budget():
    bot = UCTBot(simulations=500)
    st = GAME.state_from_moves("44")
    bot.act(st, ctx(st))
    visits, nodes, rate = bot.info
    assert 0 < visits <= 500 and 1 < nodes <= 502 and 0.0 <= rate <= 1.0
    with pytest.raises(ValueError):
        UCTBot(simulations=0)
    with pytest.raises(ValueError):
        AlphaBetaBot(depth=0)
