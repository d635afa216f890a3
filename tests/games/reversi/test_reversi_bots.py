"""The Reversi bot zoo: legality, reproducibility, exact endgame solving, budgets, the registry."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from ime.bots.registry import load_bot_specs, make_bot, register_kind
from ime.core.bot import DecisionContext
from ime.games.reversi import GAME
from ime.games.reversi.bitboard import PASS
from ime.games.reversi.bots import search as S
from ime.games.reversi.bots.analysis import random_midgame_positions
from ime.games.reversi.bots.evaluation import SearchParams, row_tables, weight_table
from ime.games.reversi.bots.search import AlphaBetaBot
from ime.games.reversi.bots.simple import RandomBot
from ime.games.reversi.game import ReversiState

TARGETS = ["rev1", "rev2", "rev3", "rev4", "rev5"]

# A hand-made late position (A1..H8 row by row, X black, O white, - empty): 6 empties, black to
# move, corners H1 and H8 still open.
HAND_BOARD = (
    "XXXXXXX-"
    "XOOOOOX-"
    "XOXXOXXO"
    "XOXOXOXO"
    "XXOOXXOO"
    "XOXOOXOO"
    "XXOOOO--"
    "XXXXXO--"
)


def ctx_for(state: ReversiState, seed: int = 0, match_id: str = "m") -> DecisionContext:
    return DecisionContext(seed=seed, match_id=match_id, ply=state.ply, player=state.to_move)


def random_game_states(seed: int, games: int) -> list[ReversiState]:
    """Every state of ``games`` seeded random games (passes included)."""
    rng = np.random.default_rng(seed)
    out = []
    for _ in range(games):
        s = GAME.new_initial_state()
        while not s.is_terminal():
            out.append(s.clone())
            la = s.legal_actions()
            s.apply_action(la[int(rng.integers(len(la)))])
    return out


def late_states(seed: int, empties: int, n: int) -> list[ReversiState]:
    """States of seeded random games with exactly ``empties`` empty squares."""
    rng = np.random.default_rng(seed)
    out: list[ReversiState] = []
    while len(out) < n:
        s = GAME.new_initial_state()
        while not s.is_terminal():
            b, w = s.disc_counts()
            if 64 - b - w == empties:
                out.append(s.clone())
                break
            la = s.legal_actions()
            s.apply_action(la[int(rng.integers(len(la)))])
    return out


def brute_force(state: ReversiState) -> int:
    """Final disc difference for the side to move with perfect play, in plain Python."""
    if state.is_terminal():
        b, w = state.disc_counts()
        return (b - w) if state.to_move == 0 else (w - b)
    best = -100
    for a in state.legal_actions():
        child = state.clone()
        child.apply_action(a)
        best = max(best, -brute_force(child))
    return best


@pytest.fixture(scope="module")
def specs() -> dict:
    return load_bot_specs("reversi")


@pytest.fixture(scope="module")
def sample_states() -> list[ReversiState]:
    states = random_game_states(seed=7, games=3)
    return states[::4] + [s for s in states if s.legal_actions() == [PASS]][:3]


def test_config_has_targets_and_opponents(specs: dict) -> None:
    for b in TARGETS:
        assert b in specs
    assert sum(1 for b in specs if b.startswith("opp_")) >= 5


@pytest.mark.slow
def test_every_bot_plays_legal_moves_and_leaves_state_alone(
    specs: dict, sample_states: list[ReversiState]
) -> None:
    for bot_id in specs:
        bot = make_bot("reversi", bot_id, specs)
        for s in sample_states:
            before = (s.board_string(), s.to_move, list(s.history))
            a = bot.act(s, ctx_for(s))
            assert a in s.legal_actions(), (bot_id, a, str(s))
            assert isinstance(a, int)
            assert (s.board_string(), s.to_move, list(s.history)) == before


def test_forced_pass_returns_pass(specs: dict, sample_states: list[ReversiState]) -> None:
    passes = [s for s in sample_states if s.legal_actions() == [PASS]]
    assert passes, "the seeded games should contain a forced pass"
    for bot_id in specs:
        bot = make_bot("reversi", bot_id, specs)
        assert bot.act(passes[0], ctx_for(passes[0])) == PASS


@pytest.mark.slow
def test_decisions_reproduce_across_fresh_instances(specs: dict) -> None:
    positions = random_midgame_positions(12, seed=3)
    for bot_id in specs:
        a = make_bot("reversi", bot_id, specs)
        b = make_bot("reversi", bot_id, specs)
        for i, s in enumerate(positions):
            ctx = ctx_for(s, seed=11, match_id=f"r{i}")
            assert a.act(s, ctx) == b.act(s, ctx) == a.act(s, ctx), bot_id


def test_rev3_is_stochastic_but_seeded(specs: dict) -> None:
    bot = make_bot("reversi", "rev3", specs)
    positions = random_midgame_positions(20, seed=5)
    differ_seed = differ_ply = 0
    for i, s in enumerate(positions):
        base = DecisionContext(seed=1, match_id=f"x{i}", ply=s.ply, player=s.to_move)
        a = bot.act(s, base)
        assert bot.act(s, base) == a
        other_seed = DecisionContext(seed=2, match_id=f"x{i}", ply=s.ply, player=s.to_move)
        other_ply = DecisionContext(seed=1, match_id=f"x{i}", ply=s.ply + 100, player=s.to_move)
        differ_seed += bot.act(s, other_seed) != a
        differ_ply += bot.act(s, other_ply) != a
    assert differ_seed >= 2 and differ_ply >= 2


def test_exact_solver_matches_brute_force() -> None:
    hand = GAME.state_from_board(HAND_BOARD, "X")
    assert not hand.is_terminal() and hand.legal_actions() != [PASS]
    states = [hand] + late_states(seed=1, empties=7, n=4) + late_states(seed=2, empties=8, n=1)
    bot = AlphaBetaBot(
        "solver", {"endgame_empties": 10, "endgame_nodes": 10**7, "endgame_mode": "exact"}
    )
    wld_bot = AlphaBetaBot(
        "wld",
        {"endgame_empties": 10, "endgame_nodes": 10**7, "endgame_mode": "wld", "tie": "random"},
    )
    for s in states:
        truth = brute_force(s)
        P, O = s.own_opp(s.to_move)
        assert S.solve_exact(P, O) == truth
        if len(s.legal_actions()) > 1:
            info = bot.analyse(s)
            assert info["solved"] == 1 and info["score"] == truth
            child = s.clone()
            child.apply_action(info["move"])
            assert -brute_force(child) == truth  # the chosen move achieves the optimum
            wld = wld_bot.analyse(s, seed=5)
            assert wld["solved"] == 1 and wld["score"] == np.sign(truth)
            child = s.clone()
            child.apply_action(wld["move"])
            assert np.sign(-brute_force(child)) == np.sign(truth)  # keeps the win / draw


@pytest.mark.slow
def test_node_budget_is_respected_and_deterministic() -> None:
    positions = random_midgame_positions(5, seed=9)
    for nodes, depth in ((500, 3), (3000, 0), (20000, 8)):
        p = SearchParams(nodes=nodes, max_depth=depth, mobility=5, ordering="mobility")
        w = p.table()
        tab, prm = row_tables(w), p.pack()
        for s in positions:
            P, O = s.own_opp(s.to_move)
            r1 = S.search(P, O, tab, w, prm, np.int64(0))
            r2 = S.search(P, O, tab, w, prm, np.int64(0))
            assert list(r1) == list(r2)
            assert r1[S.R_NODES] <= nodes
            if depth:
                assert r1[S.R_DEPTH] <= depth
            assert r1[S.R_MOVE] in s.legal_actions()


def test_random_ties_follow_the_seed() -> None:
    # Depth 1 on the symmetric start: all four moves tie, so the seed alone decides.
    bot = AlphaBetaBot("t", {"max_depth": 1, "tie": "random"})
    s = GAME.new_initial_state()
    seen = {bot.analyse(s, seed)["move"] for seed in range(40)}
    assert seen == set(s.legal_actions())
    assert bot.analyse(s, 3)["move"] == bot.analyse(s, 3)["move"]
    first = AlphaBetaBot("f", {"max_depth": 1, "tie": "first", "ordering": "none"})
    last = AlphaBetaBot("l", {"max_depth": 1, "tie": "last", "ordering": "none"})
    assert first.analyse(s)["move"] == min(s.legal_actions())
    assert last.analyse(s)["move"] == max(s.legal_actions())


def test_recursive_kernels_keep_one_signature(specs: dict) -> None:
    """A second specialisation of a recursive kernel crashes numba's cache reload (numba#6713)."""
    state = late_states(4, 10, 1)[0]
    for bot_id in TARGETS:
        make_bot("reversi", bot_id, specs).act(state, ctx_for(state))
    for f in (S._negamax, S._solve, S._root, S._order):
        assert len(f.signatures) <= 1, (f.__name__, f.signatures)


def test_registry_errors_and_plugins(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    with pytest.raises(KeyError, match="rev1"):
        make_bot("reversi", "no_such_bot")
    register_kind("test_dummy", lambda game, bot_id, params: RandomBot(bot_id), game="reversi")
    bot = make_bot("reversi", "d", {"d": {"kind": "test_dummy"}})
    assert isinstance(bot, RandomBot) and bot.bot_id == "d"
    with pytest.raises(KeyError, match="unknown kind"):
        make_bot("reversi", "d", {"d": {"kind": "nope"}})
    (tmp_path / "bots").mkdir()
    (tmp_path / "bots" / "reversi.yaml").write_text("only:\n  kind: random\n")
    monkeypatch.setenv("IME_CONFIG_DIR", str(tmp_path))
    assert list(load_bot_specs("reversi")) == ["only"]


@pytest.mark.slow
def test_mcts_leaf_value_is_a_probability_and_exact_at_game_end() -> None:
    from ime.games.reversi.bots.mcts import leaf_value

    sp = SearchParams.from_mapping({"weights": "standard", "mobility": 8})
    tab, prm = row_tables(weight_table("standard")), sp.pack()
    # A finished game (no empty square): 40 discs against 24 wins for P whatever the depth.
    P, O = np.uint64((1 << 40) - 1), np.uint64(~((1 << 40) - 1) & ((1 << 64) - 1))
    for depth in (0, 1, 4):
        np.random.seed(0)
        assert leaf_value(P, O, True, True, np.int64(depth), tab, prm, 50.0) == 1.0
        assert leaf_value(O, P, True, True, np.int64(depth), tab, prm, 50.0) == 0.0
    # Mid-game: a truncated playout's value is a probability, and with depth 0 it is an outcome.
    s = random_midgame_positions(1, seed=9)[0]
    P, O = s.own_opp(s.to_move)
    np.random.seed(1)
    v = leaf_value(P, O, True, True, np.int64(2), tab, prm, 50.0)
    assert 0.0 < v < 1.0
    np.random.seed(1)
    assert leaf_value(P, O, True, True, np.int64(0), tab, prm, 50.0) in (0.0, 0.5, 1.0)


def test_truncated_playouts_make_rev3_agree_with_itself_more(specs: dict) -> None:
    """Why rev3 cuts its playouts (docs/zoo.md): full random playouts left its choice to the seed.

    Same 24 positions, two seeds each: truncated playouts (rev3's config) must agree with
    themselves clearly more often than the same search with playouts to the end.
    """
    params = dict(specs["rev3"]["params"])
    assert params["playout_depth"] > 0
    truncated = make_bot("reversi", "rev3", specs)
    full = make_bot("reversi", "rev3_full", {"rev3_full": {
        "kind": "mcts", "params": {**params, "playout_depth": 0}}})
    positions = [s for s in random_midgame_positions(40, seed=21, min_plies=8, max_plies=30)
                 if len(s.legal_actions()) >= 3][:24]
    agree = {"truncated": 0, "full": 0}
    for i, s in enumerate(positions):
        c1 = DecisionContext(seed=1, match_id=f"a{i}", ply=s.ply, player=s.to_move)
        c2 = DecisionContext(seed=2, match_id=f"a{i}", ply=s.ply, player=s.to_move)
        agree["truncated"] += truncated.act(s, c1) == truncated.act(s, c2)
        agree["full"] += full.act(s, c1) == full.act(s, c2)
    assert agree["truncated"] >= agree["full"] + 4, agree


def test_mcts_rejects_bad_leaf_settings() -> None:
    from ime.games.reversi.bots.mcts import MCTSBot

    with pytest.raises(ValueError, match="playout_depth"):
        MCTSBot("m", playout_depth=-1)
    with pytest.raises(ValueError, match="leaf_scale"):
        MCTSBot("m", leaf_scale=0)
    with pytest.raises(KeyError, match="unknown search parameters"):
        MCTSBot("m", leaf_eval={"no_such_knob": 1})
