"""The opponent-model search (ime.bots.om_search, issue 49): the model's predicted reply is what
the search follows at opponent nodes (against a brute-force reference), a wrong model changes
decisions, the node budget holds, mode ``none`` is the games' own alpha-beta move for move, and a
zoo entry builds with an imitator's checkpoints or the true opponent."""

from __future__ import annotations

import numpy as np
import pytest
import torch
from torch import nn

from ime.bots.imitator import ImitatorBot
from ime.bots.om_search import (
    BotModel,
    OpponentModelSearchBot,
    OpponentRef,
    as_model,
    opponent_ref,
    resolve_specs,
)
from ime.bots.registry import make_bot
from ime.core.bot import Bot, DecisionContext
from ime.core.registry import get_encoder, get_plugin

GAMES = {"reversi": "rev4", "connect4": "c4_ab3", "snake": "snk04"}
"""Each game's search bot whose evaluation our nodes use."""


def positions(game: str, n: int = 8, seed: int = 5) -> list:
    return get_plugin(game).tools.positions(n, seed)


def ctx(state, player=None, seed=0) -> DecisionContext:
    p = state.current_players()[0] if player is None else player
    return DecisionContext(seed=seed, match_id="om", ply=state.ply, player=p)


def evaluation(game: str):
    return make_bot(game, GAMES[game]).search_evaluation()


class Prefer:
    """A known model: prefers legal actions by ``key`` (largest first); its distribution puts
    weight 2^rank on each, so its most probable move is its reply."""

    def __init__(self, key):
        self.key = key
        self.asked = 0

    def _ranked(self, state, player):
        legal = state.legal_actions(player)
        ranks = np.argsort(np.argsort([self.key(a) for a in legal], kind="stable"),
                           kind="stable")
        return legal, ranks

    def distributions(self, states, players):
        self.asked += len(states)
        out = []
        for s, p in zip(states, players, strict=True):
            _, ranks = self._ranked(s, p)
            w = 2.0 ** ranks
            out.append(w / w.sum())
        return out

    def reply(self, state, player):
        legal, ranks = self._ranked(state, player)
        return legal[int(np.argmax(ranks))]


class PreferBot(Bot):
    """The same preference as a bot (its ``act``)."""

    def __init__(self, key):
        self.bot_id = "prefer"
        self.model = Prefer(key)

    def act(self, state, ctx):
        return self.model.reply(state, ctx.player)


HIGH = Prefer(lambda a: a)       # the highest action code (square, column, direction)
LOW = Prefer(lambda a: -a)       # the lowest


def _child(state, actions):
    s = state.clone()
    if len(actions) == 2:
        s.apply_actions(actions)
    else:
        (a,) = actions.values()
        s.apply_action(a)
    return s


def reference(ev, state, me, depth, reply, plies=0):
    """Brute force without pruning: our nodes maximise, the opponent plays ``reply(state, p)``
    (its only move when it has one); a forced free move (Reversi's pass) uses no depth."""
    if state.is_terminal():
        return ev.terminal(state, me, plies)
    if depth <= 0:
        return ev.value(state, me)
    opp = 1 - me
    if state.game.game_type.simultaneous:
        b = reply(state, opp)
        return max(reference(ev, _child(state, {me: a, opp: b}), me, depth - 1, reply,
                             plies + 1) for a in state.legal_actions(me))
    (p,) = state.current_players()
    legal = state.legal_actions(p)
    if len(legal) == 1 and ev.free(state, legal[0]):
        return reference(ev, _child(state, {p: legal[0]}), me, depth, reply, plies + 1)
    if p == me:
        return max(reference(ev, _child(state, {me: a}), me,
                             depth - (0 if ev.free(state, a) else 1), reply, plies + 1)
                   for a in legal)
    b = legal[0] if len(legal) == 1 else reply(state, p)
    return reference(ev, _child(state, {p: b}), me, depth - (0 if ev.free(state, b) else 1),
                     reply, plies + 1)


def reference_move(ev, state, me, depth, reply):
    """(the first root move in search order with the best value, that value)."""
    legal = state.legal_actions(me)
    if state.game.game_type.simultaneous:
        opp = 1 - me
        b = reply(state, opp)
        vals = {a: reference(ev, _child(state, {me: a, opp: b}), me, depth - 1, reply, 1)
                for a in legal}
    else:
        vals = {a: reference(ev, _child(state, {me: a}), me,
                             depth - (0 if ev.free(state, a) else 1), reply, 1) for a in legal}
    order = ev.order(state, me, list(legal), depth)
    best = max(vals.values())
    return next(a for a in order if vals[a] == best), best


# --- (1) the model's predicted reply is followed ------------------------------------------------
@pytest.mark.parametrize("game,depth", [("reversi", 4), ("connect4", 4), ("snake", 2)])
@pytest.mark.parametrize("model", [HIGH, LOW], ids=["high", "low"])
def test_policy_mode_follows_the_models_reply_as_brute_force_does(game, depth, model):
    ev = evaluation(game)
    bot = OpponentModelSearchBot("om", ev, model=model, mode="policy", depth=depth,
                                 nodes=10**7, pv_first=False)
    search = OpponentModelSearchBot("om", ev, model=PreferBot(model.key), mode="search",
                                    depth=depth, nodes=10**7, pv_first=False)
    checked = queries = 0
    for st in positions(game):
        me = st.current_players()[0]
        if len(st.legal_actions(me)) < 2:
            continue
        info = bot.analyse(st, ctx(st, me))
        move, value = reference_move(ev, st, me, depth, model.reply)
        assert (info["move"], info["score"]) == (move, value)
        queries += info["model_queries"]
        assert info["model_positions"] <= info["model_queries"]
        # the same model as a bot that decides (mode search) gives the same move and value
        other = search.analyse(st, ctx(st, me))
        assert (other["move"], other["score"]) == (move, value)
        checked += 1
    assert checked >= 4 and queries > 0


def test_prom_with_a_one_hot_model_is_policy_and_with_mix_zero_is_minimax():
    ev = evaluation("connect4")
    one_hot = BotModel(PreferBot(lambda a: a))
    for st in positions("connect4", 6):
        c = ctx(st)
        pol = OpponentModelSearchBot("p", ev, model=one_hot, mode="policy", depth=4,
                                     nodes=10**7).analyse(st, c)
        prom = OpponentModelSearchBot("q", ev, model=one_hot, mode="prom", depth=4,
                                      nodes=10**7).analyse(st, c)
        assert (prom["move"], prom["score"]) == (pol["move"], pol["score"])
        plain = OpponentModelSearchBot("n", ev, mode="none", depth=4, nodes=10**7,
                                       pv_first=False).analyse(st, c)
        low = OpponentModelSearchBot("m", ev, model=HIGH, mode="prom", mix=0.0, depth=4,
                                     nodes=10**7, pv_first=False).analyse(st, c)
        assert (low["move"], low["score"]) == (plain["move"], plain["score"])


def test_prom_expectation_by_hand_on_a_two_ply_tree():
    """Depth 2 from the start of Connect Four: our column, then the opponent's reply valued by
    the open-line evaluation; PrOM's root value is the model-weighted mean of those leaves."""
    game = get_plugin("connect4").make_game()
    st = game.new_initial_state()
    ev = evaluation("connect4")
    bot = OpponentModelSearchBot("om", ev, model=HIGH, mode="prom", depth=2, nodes=10**7)
    info = bot.analyse(st, ctx(st, 0))
    for a, v in info["scores"].items():
        after = _child(st, {0: a})
        legal = after.legal_actions(1)
        (q,) = HIGH.distributions([after], [1])
        leaves = [ev.value(_child(after, {1: b}), 0) for b in legal]
        assert v == pytest.approx(float(np.dot(q, leaves)))


# --- (2) a wrong model changes the decisions ----------------------------------------------------
@pytest.mark.parametrize("game,depth", [("reversi", 4), ("connect4", 4)])
def test_a_wrong_model_changes_decisions(game, depth):
    ev = evaluation(game)
    right = make_bot(game, GAMES[game])  # the true opponent: the evaluation's own bot
    states = positions(game, 12, 7)
    moves = {}
    for name, model, mode in [("right", right, "search"), ("wrong", LOW, "policy"),
                              ("plain", None, "none")]:
        bot = OpponentModelSearchBot(name, ev, model=model, mode=mode, depth=depth, nodes=20000)
        moves[name] = [bot.act(st, ctx(st)) for st in states]
    differ = sum(a != b for a, b in zip(moves["right"], moves["wrong"], strict=True))
    assert differ >= 2, moves
    assert moves["right"] != moves["plain"] or moves["wrong"] != moves["plain"]


# --- (3) the node budget -----------------------------------------------------------------------
@pytest.mark.parametrize("game", sorted(GAMES))
@pytest.mark.parametrize("mode", ["none", "policy", "prom"])
def test_node_budget_is_respected(game, mode):
    """Nodes never exceed the budget, except by iteration 1 (the root's children; in a
    simultaneous game, our moves times the replies searched), which always completes."""
    ev = evaluation(game)
    model = None if mode == "none" else HIGH
    for budget in (5, 60, 400):
        bot = OpponentModelSearchBot("om", ev, model=model, mode=mode, depth=12, nodes=budget)
        for st in positions(game, 5, 3):
            me = st.current_players()[0]
            info = bot.analyse(st, ctx(st, me))
            first = len(st.legal_actions(me))
            if game == "snake" and mode != "policy":  # every joint step of our moves
                first *= len(st.legal_actions(1 - me))
            assert info["nodes"] <= max(budget, first)
            if info["nodes"] and budget >= first:
                assert info["depth"] >= 1


def test_model_cost_charges_model_positions_to_the_budget():
    ev = evaluation("reversi")
    for st in positions("reversi", 4, 9):
        free = OpponentModelSearchBot("a", ev, model=HIGH, mode="prom", depth=8,
                                      nodes=300).analyse(st, ctx(st))
        dear = OpponentModelSearchBot("b", ev, model=HIGH, mode="prom", depth=8, nodes=300,
                                      model_cost=1).analyse(st, ctx(st))
        slack = len(st.legal_actions(st.to_move))  # one prefetch batch past the limit
        assert dear["nodes"] + dear["model_positions"] <= 300 + slack
        assert dear["depth"] <= free["depth"]


def test_same_inputs_same_move_and_counts_and_seeded_ties():
    ev = evaluation("reversi")
    states = positions("reversi", 5, 11)
    runs = []
    for _ in range(2):
        bot = OpponentModelSearchBot("om", ev, model=HIGH, mode="prom", mix=0.5, depth=5,
                                     nodes=3000, tie="random")
        runs.append([(i["move"], i["nodes"], i["model_positions"], i["model_calls"])
                     for i in (bot.analyse(st, ctx(st, seed=3)) for st in states)])
    assert runs[0] == runs[1]


# --- (4) mode none is the game's own alpha-beta -------------------------------------------------
@pytest.mark.parametrize("params", [
    {"max_depth": 3, "ordering": "none", "tie": "first"},
    {"max_depth": 4, "ordering": "table", "tie": "last"},
    {"max_depth": 4, "ordering": "mobility", "tie": "first", "mobility": 12, "frontier": 4,
     "stable": 10, "pv_first": True},
    {"max_depth": 3, "ordering": "table", "tie": "first", "weights": "corner_edge", "disc": 1,
     "parity": 15},
])
def test_mode_none_plays_reversis_alphabeta_moves(params):
    from ime.games.reversi.bots.search import AlphaBetaBot

    p = {"pv_first": False, **params, "nodes": 10**8, "endgame_empties": 0}
    plain = AlphaBetaBot("ab", p)
    om = OpponentModelSearchBot("om", plain.search_evaluation(), mode="none",
                                depth=p["max_depth"], nodes=10**8, tie=p["tie"],
                                pv_first=p["pv_first"])
    for st in positions("reversi", 10, 13):
        got = om.analyse(st, ctx(st))
        want = plain.analyse(st)
        assert got["move"] == want["move"]
        if got["depth"]:
            assert got["score"] == want["score"]


@pytest.mark.parametrize("depth", [1, 3, 5])
def test_mode_none_plays_connect_fours_alphabeta_moves(depth):
    from ime.games.connect4 import Connect4Game
    from ime.games.connect4.bots.alphabeta import AlphaBetaBot

    plain = AlphaBetaBot("ab", depth=depth, tie="centre")
    om = OpponentModelSearchBot("om", plain.search_evaluation(), mode="none", depth=depth,
                                nodes=10**8, pv_first=False)
    blocked = Connect4Game(6, 5, [[2, 1], [3, 1]])
    rng = np.random.default_rng(1)
    states = positions("connect4", 10, 13)
    for plies in (0, 3, 6, 9):
        st = blocked.new_initial_state()
        for _ in range(plies):
            st.apply_action(int(rng.choice(st.legal_actions())))
        states.append(st)
    for st in states:
        assert om.act(st, ctx(st)) == plain.act(st, ctx(st))


def test_mode_none_plays_connect_fours_alphabeta_moves_on_a_wide_board():
    from ime.games.connect4 import Connect4Game
    from ime.games.connect4.bots.alphabeta import AlphaBetaBot

    wide = Connect4Game(9, 8)
    assert wide.geometry.wide
    plain = AlphaBetaBot("ab", depth=3, tie="centre")
    om = OpponentModelSearchBot("om", plain.search_evaluation(), mode="none", depth=3,
                                nodes=10**8, pv_first=False)
    rng = np.random.default_rng(4)
    for plies in (0, 5, 11, 17):
        st = wide.new_initial_state()
        for _ in range(plies):
            st.apply_action(int(rng.choice(st.legal_actions())))
        assert om.act(st, ctx(st)) == plain.act(st, ctx(st))


@pytest.mark.parametrize("depth", [1, 2, 3])
def test_mode_none_plays_snakes_alphabeta_moves(depth):
    from ime.games.snake.bots.search import AlphaBetaBot

    plain = AlphaBetaBot("ab", depth=depth, nodes=10**8, iterative=False, prune=True,
                         order=False)
    om = OpponentModelSearchBot("om", plain.search_evaluation(), mode="none", depth=depth,
                                nodes=10**8, pv_first=False)
    for st in positions("snake", 10, 13):
        for me in st.current_players():
            assert om.act(st, ctx(st, me)) == plain.act(st, ctx(st, me))


# --- models and zoo entries --------------------------------------------------------------------
class FixedLogits(nn.Module):
    def __init__(self, logits):
        super().__init__()
        self.logits = torch.as_tensor(np.asarray(logits, dtype=np.float32))

    def forward(self, planes, mask):
        return self.logits.expand(planes.shape[0], -1) * mask


def test_an_imitator_is_a_model_its_distribution_and_its_decision():
    logits = np.arange(64, dtype=np.float32) / 8.0  # prefers high squares, softly
    imit = ImitatorBot("imit", [FixedLogits(logits)], game="reversi")
    model = as_model(imit)
    st = positions("reversi", 1, 4)[0]
    after = _child(st, {st.to_move: st.legal_actions(st.to_move)[0]})
    (q,) = model.distributions([after], [after.to_move])
    legal = after.legal_actions(after.to_move)
    e = np.exp(np.asarray(legal) / 8.0)
    assert q == pytest.approx(e / e.sum())
    ctxs = [ctx(after)]
    assert model.replies([after], [after.to_move], ctxs) == [imit.act(after, ctxs[0])]
    ev = evaluation("reversi")
    a = OpponentModelSearchBot("a", ev, model=imit, mode="policy", depth=4, nodes=10**6,
                               pv_first=False).analyse(st, ctx(st))
    b = OpponentModelSearchBot("b", ev, model=HIGH, mode="policy", depth=4, nodes=10**6,
                               pv_first=False).analyse(st, ctx(st))
    assert (a["move"], a["score"]) == (b["move"], b["score"])


def _checkpoint(tmp_path, game: str):
    from ime.nets import build_net, save_checkpoint

    enc = get_encoder(game)
    net = build_net({"name": "mlp1", "kind": "mlp", "hidden": [16]}, enc.state_shape,
                    enc.num_actions, seed=0)
    path = tmp_path / "fold0.pt"
    save_checkpoint(path, net, game=game, encoder_version=enc.version, fold=0,
                    in_shape=enc.state_shape, num_actions=enc.num_actions)
    return str(path)


@pytest.mark.parametrize("game", ["reversi", "connect4"])
def test_zoo_entry_with_an_imitators_checkpoints(tmp_path, game):
    spec = {"kind": "om_search", "params": {
        "evaluation": GAMES[game], "mode": "prom", "mix": 0.8, "depth": 3, "nodes": 500,
        "opponent": {"bot": GAMES[game], "net": "mlp1", "fold": 0}}}
    assert opponent_ref(spec) == OpponentRef(GAMES[game], "mlp1", 0)
    with pytest.raises(ValueError, match="checkpoints"):
        make_bot(game, "om", {"om": spec})
    path = _checkpoint(tmp_path, game)
    specs = resolve_specs({"om": spec, "other": {"kind": "random"}}, lambda ref: [path])
    assert specs["om"]["params"]["opponent"]["checkpoints"] == [path]
    assert specs["other"] == {"kind": "random"} and opponent_ref(specs["om"]) is None
    bot = make_bot(game, "om", specs)
    st = positions(game, 1, 2)[0]
    assert bot.act(st, ctx(st)) in st.legal_actions(st.to_move)
    assert bot.last["model_calls"] > 0


def test_zoo_entry_with_the_true_opponent_and_plain():
    specs = {
        "om_true": {"kind": "om_search", "params": {
            "evaluation": "rev4", "mode": "search", "depth": 2, "nodes": 300,
            "opponent": {"bot": "rev5", "source": "zoo"}}},
        "om_plain": {"kind": "om_search", "params": {
            "evaluation": {"kind": "alphabeta", "params": {"weights": "standard"}},
            "mode": "none", "depth": 3, "nodes": 300}},
    }
    assert opponent_ref(specs["om_true"]) is None
    st = positions("reversi", 1, 2)[0]
    for bot_id in specs:
        bot = make_bot("reversi", bot_id, specs)
        assert bot.act(st, ctx(st)) in st.legal_actions(st.to_move)
    with pytest.raises(ValueError, match="unknown params"):
        make_bot("reversi", "x", {"x": {"kind": "om_search", "params": {
            "evaluation": "rev4", "mode": "none", "budget": 3}}})
    with pytest.raises(ValueError, match="search_evaluation"):
        make_bot("reversi", "x", {"x": {"kind": "om_search", "params": {
            "evaluation": "opp_random", "mode": "none"}}})
