"""The 22-bot Snake zoo (Fig 2.4): legal answers, determinism and forked replays, a few hundred
games with no illegal move, the experts' safety rule, and the kernels the families rest on
(matrix-game solver, evaluations, alpha-beta against minimax, undo discipline)."""

from __future__ import annotations

import numpy as np
import pytest

from ime.core.bot import DecisionContext
from ime.games.snake import GAME
from ime.games.snake import board as B
from ime.games.snake import tools as T
from ime.games.snake.bots import kernels as K
from ime.games.snake.bots.expert import ExpertBot
from ime.games.snake.bots.ladder import ZOO, build, play, random_jobs, run_jobs, zoo_specs
from ime.games.snake.bots.nash import solve_matrix
from ime.games.snake.bots.search import AlphaBetaBot, ab_search, dfs_search
from ime.games.snake.bots.zoo import ZOO_KINDS

SPECS = zoo_specs()
RANDOMISED = ["snk01", "snk02", "snk03", "snk05", "snk06", "snk10", "snk15", "snk20"]


@pytest.fixture(scope="module")
def bots():
    return {b: build(b, SPECS) for b in ZOO}


@pytest.fixture(scope="module")
def positions():
    """Running positions: random games of 5..40 turns, and crowded ones from greedy play."""
    out = T.random_positions(24, seed=7)
    greedy = build("greedy", SPECS)
    for seed in range(12):
        st = GAME.new_initial_state(seed=100 + seed)
        while not st.is_terminal():
            if st.ply > 20 and st.ply % 7 == seed % 7:
                out.append(st.clone())
            ctx = [DecisionContext(0, "pos", st.ply, p) for p in (0, 1)]
            st.apply_actions({p: greedy.act(st, ctx[p]) for p in (0, 1)})
    return out


def test_config_names_the_22_ladder_bots_in_order():
    # the hard identification pool's parameter variants (variant_of) are not ladder bots
    assert [b for b in SPECS if b.startswith("snk") and not SPECS[b].get("variant_of")] == ZOO
    for i, b in enumerate(ZOO, 1):
        assert SPECS[b]["kind"] in ZOO_KINDS
        assert SPECS[b]["thesis"]["bot"] == i
    families = [SPECS[b]["thesis"]["fig2_4"].split(",")[0] for b in ZOO]
    assert families == ["MCTS", "NE", "MCTS", "Alpha-Beta", "NE", "MCTS", "Alpha-Beta",
                        "Alpha-Beta", "Alpha-Beta", "MC", "DFS", "DFS", "Alpha-Beta", "DFS",
                        "MC", "MC", "ES", "ES", "DFS", "MC", "ES", "ES"]


@pytest.mark.slow
def test_every_bot_answers_a_valid_direction(bots, positions):
    for st in positions:
        for p in (0, 1):
            valid = st.valid_actions(p) or st.legal_actions(p)
            ctx = DecisionContext(3, "legal", st.ply, p)
            for b, bot in bots.items():
                before = st.S.copy()
                a = bot.act(st, ctx)
                assert a in valid, (b, st.ply, p, a, valid)
                assert np.array_equal(st.S, before), b  # the state is not touched


@pytest.mark.slow
def test_a_boxed_in_snake_still_answers():
    # head (1, 1) in the corner, its neighbours its own body, on a growing turn
    st = GAME.state_from_bodies(10, 11, [], [[(1, 1), (2, 1), (2, 2), (1, 2)], [(11, 10)]],
                                ply=5)
    assert st.valid_actions(0) == []
    for b in ZOO:
        assert build(b, SPECS).act(st, DecisionContext(0, "boxed", 5, 0)) in range(4)


@pytest.mark.slow
def test_same_context_same_action_and_fresh_instances_agree(positions):
    for b in RANDOMISED:
        one, two = build(b, SPECS), build(b, SPECS)
        for st in positions[::6]:
            for p in (0, 1):
                ctx = DecisionContext(11, "det", st.ply, p)
                assert one.act(st, ctx) == one.act(st, ctx) == two.act(st, ctx)


def test_a_randomised_bot_draws_from_its_context(positions):
    bot = build("snk16", SPECS)
    varied = [st for st in positions[:12]
              if len({bot.act(st, DecisionContext(s, "ctx", st.ply, 0)) for s in range(30)}) > 1]
    assert varied  # the seed reaches the rollouts


@pytest.mark.parametrize("pair", [("snk01", "snk02"), ("snk05", "snk10"), ("snk03", "snk15")])
@pytest.mark.slow
def test_a_fork_from_a_middle_ply_replays_the_match(pair):
    g = play([build(b, SPECS) for b in pair], "fork-me", seed=5)
    assert g.turns > 4
    k = g.turns // 2
    again = play([build(b, SPECS) for b in pair], "fork-me", seed=5, moves=g.moves[:k])
    assert again.moves == g.moves and again.scores == g.scores
    other = play([build(b, SPECS) for b in pair], "fork-me", seed=6, moves=g.moves[:k])
    assert other.moves[:k] == g.moves[:k]


@pytest.mark.slow
def test_three_hundred_random_games_without_an_illegal_move():
    games = run_jobs(random_jobs(ZOO, 300, seed=1), SPECS, workers=2, progress=False)
    assert len(games) == 300
    assert [i for g in games for i in g.illegal] == []
    assert {b for g in games for b in g.players} == set(ZOO)
    ends = {g.scores for g in games}
    assert (2.0, 0.0) in ends and (0.0, 2.0) in ends


def _safe(st, p):
    """Valid directions with a free exit that the opponent's head cannot also enter."""
    return {d for d in st.valid_actions(p)
            if K.exits(st.S, p, d) > 0 and not K.head_risk(st.S, p, d)}


@pytest.mark.parametrize("style", ["rules", "space", "hug", "straight"])
def test_experts_never_take_a_fatal_move_when_a_safe_one_exists(style, positions):
    bot = ExpertBot(style, style=style)
    checked = 0
    for st in positions:
        for p in (0, 1):
            a = bot.act(st, DecisionContext(0, "safe", st.ply, p))
            if st.valid_actions(p):
                assert a in st.valid_actions(p)
            safe = _safe(st, p)
            if safe:
                assert a in safe, (style, str(st), p, a, safe)
                checked += 1
    assert checked > 50


def test_experts_dodge_a_head_on_and_a_pocket():
    # snake 0's head at (5, 5) heading right; (5, 6) is next to snake 1's head at (5, 7);
    # (4, 5) leads into a one-cell pocket closed by obstacles
    obstacles = [(3, 5), (4, 4), (4, 6)]
    st = GAME.state_from_bodies(10, 11, obstacles, [[(5, 5), (5, 4), (5, 3)],
                                                    [(5, 7), (5, 8), (5, 9)]], ply=2)
    assert set(st.valid_actions(0)) == {0, 1, 2}
    for style in ("rules", "space", "hug", "straight"):
        assert ExpertBot(style, style=style).act(st, DecisionContext(0, "x", 2, 0)) == 2


def test_matrix_solver():
    x, y = np.zeros(4), np.zeros(4)
    pennies = np.array([[1.0, 0, 0, 0], [0, 1.0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0]])
    assert solve_matrix(pennies, 3, 3, 400, x, y) == pytest.approx(0.5, abs=1e-3)
    assert x[:2] == pytest.approx([0.5, 0.5], abs=1e-2) and x[2:].sum() == 0
    m = np.array([[0.9, 0.2, 0, 0], [0.1, 0.8, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0]])
    assert solve_matrix(m, 3, 3, 400, x, y) == pytest.approx(0.5, abs=2e-3)
    assert y[0] == pytest.approx(3 / 7, abs=2e-2)
    saddle = np.array([[0.3, 0.6, 0.2, 0], [0.5, 0.7, 0.4, 0], [0.1, 0.9, 0.3, 0],
                       [0, 0, 0, 0]])
    assert solve_matrix(saddle, 7, 7, 10, x, y) == 0.4
    assert list(x) == [0, 1, 0, 0] and list(y) == [0, 0, 1, 0]


def test_evaluations_are_antisymmetric(positions):
    dist, owner, queue = K.scratch()
    for st in positions:
        for kind in (K.EVAL_VORONOI, K.EVAL_TAIL, K.EVAL_AREA):
            v0 = K.evaluate(st.S, 0, kind, dist, owner, queue)
            assert v0 == -K.evaluate(st.S, 1, kind, dist, owner, queue)


def test_tail_aware_voronoi_counts_cells_our_tail_frees():
    # snake 0's head in the corner, boxed by its body; its tail (1, 2) leaves first
    body = [(1, 1), (2, 1), (3, 1), (3, 2), (2, 2), (1, 2)]
    st = GAME.state_from_bodies(10, 11, [], [body, [(11, 10)]], ply=5)
    dist, owner, queue = K.scratch()
    plain = K.voronoi(st.S, 0, dist, owner, queue)
    tail = K.voronoi_tail(st.S, 0, dist, owner, queue)
    assert tail > plain


def test_alpha_beta_finds_the_minimax_value(positions):
    dist, owner, queue = K.scratch()
    info = np.zeros(2, np.int64)
    for st in positions[::3]:
        for p in (0, 1):
            m = B.valid_mask(st.S, p)
            if not m:
                continue
            S = st.S.copy()
            full, cut = np.zeros(4), np.zeros(4)
            d_full = ab_search(S, p, m, 2, 10**9, False, False, False, K.EVAL_VORONOI, full,
                               info, dist, owner, queue)
            d_cut = ab_search(S, p, m, 2, 10**9, False, True, True, K.EVAL_VORONOI, cut,
                              info, dist, owner, queue)
            assert np.array_equal(S, st.S)  # step / undo leave no trace
            assert cut[d_cut] == full[d_full] == max(full[d] for d in range(4) if m >> d & 1)


def test_survival_dfs_restores_the_state_and_sees_a_dead_end():
    # up from (2, 1) is (1, 1), closed by the obstacle (1, 2): one turn, then nothing
    st = GAME.state_from_bodies(10, 11, [(1, 2)], [[(2, 1), (3, 1), (4, 1)], [(11, 10)]],
                                ply=3)
    S = st.S.copy()
    scores = np.zeros(4, np.int64)
    d = dfs_search(S, 0, B.valid_mask(S, 0), 6, 10**6, True, False, False, 0, scores)
    assert np.array_equal(S, st.S)
    assert (d, scores[0], scores[1]) == (1, 1, 6)


def test_bad_parameters_are_refused():
    with pytest.raises(ValueError, match="eval"):
        AlphaBetaBot("x", eval="nope")
    with pytest.raises(ValueError, match="nodes"):
        AlphaBetaBot("x", nodes=0)
    with pytest.raises(ValueError, match="branch_cap"):
        build("snk01", {"snk01": {"kind": "mcts", "params": {"branch_cap": 1.5}}})
    with pytest.raises(ValueError, match="style"):
        ExpertBot("x", style="clever")
