"""Doudizhu's opponent-model rollouts (issue 49, Deliver 2): ``pimc_om``
(:mod:`ime.games.doudizhu.bots.om_pimc`).

What is checked: without a model the bot is ``ddz_mc`` decision for decision; with one, every
modelled seat's play in every rollout is the model's (a recording model, and a tiny real
imitator whose batched sampler agrees with its own decisions); a wrong model changes decisions;
the rollout budget holds and the same seed replays the same decisions and counts, whatever the
model's batch size; zoo entries name the model as ``om_search`` does.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pytest

from ime.bots.imitator import ImitatorBot
from ime.bots.om_search import OpponentRef, opponent_ref, resolve_specs
from ime.bots.registry import make_bot
from ime.core.bot import DecisionContext
from ime.core.game import Action, State
from ime.core.registry import get_encoder
from ime.games.doudizhu.bots.om_pimc import ModelPIMCBot, RolloutModelConfig
from ime.games.doudizhu.bots.pimc import PIMCBot
from ime.games.doudizhu.bots.view import seat_view
from ime.games.doudizhu.game import GAME


def positions(n: int, seed: int = 0) -> list[State]:
    """Seeded mid-game positions (random plays from seeded deals), every seat to move, each
    with a choice to make."""
    rng = np.random.default_rng(seed)
    out: list[State] = []
    g = 0
    while len(out) < n:
        s = GAME.new_initial_state(seed=5000 + g)
        for _ in range(int(rng.integers(3, 25))):
            if s.is_terminal():
                break
            legal = s.legal_actions()
            s.apply_action(legal[int(rng.integers(len(legal)))])
        g += 1
        if not s.is_terminal() and len(s.legal_actions()) > 2:
            out.append(s)
    return out


def ctx(s: State, seed: int = 0) -> DecisionContext:
    return DecisionContext(seed=seed, match_id="m0", ply=s.ply, player=s.to_move)


class Recording:
    """A model that plays the *last* legal action (unlike the default policy's smallest play)
    and records every position it is asked about: (history, seat, its play)."""

    heads = 1

    def __init__(self) -> None:
        self.asked: list[tuple[tuple, int, Action]] = []

    def plays(self, states: Sequence[State], players: Sequence[int],
              uniforms: np.ndarray | None) -> list[Action]:
        out = []
        for s, p in zip(states, players, strict=True):
            a = s.legal_actions(p)[-1]
            self.asked.append((tuple(s.history), p, a))
            out.append(a)
        return out


class Passer:
    """A wrong model: passes whenever it may, else the first legal play."""

    heads = 1

    def plays(self, states: Sequence[State], players: Sequence[int],
              uniforms: np.ndarray | None) -> list[Action]:
        return [s.legal_actions(p)[0] for s, p in zip(states, players, strict=True)]


def tiny_imitator(seed: int = 0) -> ImitatorBot:
    from ime.nets import build_net

    enc = get_encoder("doudizhu")
    net = build_net({"name": "mlp1", "kind": "mlp", "hidden": [16]}, enc.state_shape,
                    enc.head_sizes, seed=seed)
    return ImitatorBot("imit", [net], game="doudizhu")


# --- no model: ddz_mc itself ---------------------------------------------------------------------
def test_without_a_model_it_is_ddz_mc():
    ddz_mc = make_bot("doudizhu", "ddz_mc")
    ours = make_bot("doudizhu", "plain", {"plain": {"kind": "pimc_om", "params": dict(
        simulations=1000, max_determinizations=100, epsilon=0.15, margin=0.01, halving=True,
        bomb_at=4)}})
    assert isinstance(ours, ModelPIMCBot) and ours.model is None
    for s in positions(1):  # at the zoo's budget (the shares below take more positions)
        c = ctx(s, 3)
        assert ours.act(s, c) == ddz_mc.act(s, c)
    # the shares themselves, bit for bit, at a small budget
    a, b = PIMCBot("a", simulations=120), ModelPIMCBot("b", simulations=120)
    for s in positions(4, seed=1):
        v = seat_view(s, s.to_move)
        cands = a.candidates(v)
        if len(cands) > 1:
            b._state = s
            b.last = {"rollouts": 0}
            assert np.array_equal(a.shares(v, cands, 11), b.shares(v, cands, 11))


# --- the model's plays are the rollouts' plays ---------------------------------------------------
@pytest.mark.parametrize("seats", ["others", "opponents"])
def test_every_modelled_play_in_the_rollouts_is_the_models(seats):
    for s in positions(3, seed=2):
        me = s.to_move
        model = Recording()
        bot = ModelPIMCBot("om", simulations=60, model=model,
                           config=RolloutModelConfig(model_play="argmax", model_seats=seats))
        bot.act(s, ctx(s))
        modelled = set(bot.config.seats(me))
        assert modelled == ({0, 1, 2} - {me} if seats == "others" or me == 0 else {0})
        assert model.asked and bot.last["model_positions"] == len(model.asked)
        assert {p for _, p, _ in model.asked} <= modelled
        answers = {(h, p, a) for h, p, a in model.asked}
        root = s.ply
        checked = 0
        for h, _, _ in model.asked:
            # the plies since the rollout's previous model turn (at most 3 back), after our
            # candidate: so every modelled play followed by another model turn is checked once
            for t in range(max(root + 1, len(h) - 3), len(h)):
                q, cards = h[t]
                if q in modelled:
                    assert (h[:t], q, cards) in answers  # the model's play, not the default's
                    checked += 1
        assert checked > 0
        # the default policy never plays the last legal action everywhere: the model did
        assert bot.last["default_plays"] > 0


def test_model_turns_caps_the_models_plays_per_rollout():
    s = positions(1, seed=4)[0]
    counts = {}
    for turns in (0, 2, None):
        model = Recording()
        bot = ModelPIMCBot("om", simulations=40, model=model,
                           config=RolloutModelConfig(model_play="argmax", model_turns=turns))
        bot.act(s, ctx(s))
        counts[turns] = len(model.asked)
    assert counts[0] == 0
    assert 0 < counts[2] <= 2 * 40 < counts[None]


def test_a_tiny_imitator_plays_its_own_decisions_and_samples_legally():
    imit = tiny_imitator()
    enc = imit.encoder
    states = positions(12, seed=5)
    players = [s.to_move for s in states]
    assert enc.select_batch(states, players, imit.head_policy) == [
        imit.act(s, ctx(s)) for s in states]
    u = np.random.default_rng(0).random((len(states), len(enc.heads)))
    drawn = enc.select_batch(states, players, imit.head_policy, u)
    assert all(a in s.legal_actions() for a, s in zip(drawn, states, strict=True))
    # a draw is the row's: the same rows in another batch give the same plays
    assert enc.select_batch(states[5:], players[5:], imit.head_policy, u[5:]) == drawn[5:]
    bot = ModelPIMCBot("om", simulations=60, model=imit)
    s = states[0]
    assert bot.act(s, ctx(s)) in s.legal_actions()
    assert bot.last["model_positions"] > 0 and bot.last["model_calls"] > 0


# --- a wrong model changes decisions -------------------------------------------------------------
def test_a_wrong_model_changes_decisions():
    true = make_bot("doudizhu", "ddz5")
    states = positions(8, seed=6)
    cfg = RolloutModelConfig(model_play="argmax")
    right = ModelPIMCBot("om", simulations=100, model=true, config=cfg)
    wrong = ModelPIMCBot("om", simulations=100, model=Passer(), config=cfg)
    a = [right.act(s, ctx(s)) for s in states]
    b = [wrong.act(s, ctx(s)) for s in states]
    assert sum(x != y for x, y in zip(a, b, strict=True)) >= 2


# --- budget and replay ---------------------------------------------------------------------------
@pytest.mark.parametrize("halving", [True, False])
def test_the_rollout_budget_holds_and_decisions_replay(halving):
    imit = tiny_imitator()
    for s in positions(2, seed=7):
        runs = []
        for batch in (256, 7, 256):
            bot = ModelPIMCBot("om", simulations=90, halving=halving, model=imit,
                               config=RolloutModelConfig(batch=batch))
            runs.append((bot.act(s, ctx(s, 9)), dict(bot.last)))
        (m0, c0), (m1, c1), (m2, c2) = runs
        assert m0 == m1 == m2 and c0 == c2
        assert {k: c1[k] for k in ("rollouts", "model_positions", "default_plays")} == {
            k: c0[k] for k in ("rollouts", "model_positions", "default_plays")}
        assert c1["model_calls"] >= c0["model_calls"]
        n = len(ModelPIMCBot("x").candidates(seat_view(s, s.to_move)))
        rounds = max(1, int(np.ceil(np.log2(n)))) if halving else 1
        # the budget: simulations, unless one rollout per candidate and round is more
        assert 0 < c0["rollouts"] <= max(90, rounds * n)
        # the same counts as ddz_mc's schedule with the same budget
        plain = ModelPIMCBot("p", simulations=90, halving=halving)
        plain.act(s, ctx(s, 9))
        assert plain.last["rollouts"] == c0["rollouts"]


def test_another_seed_gives_other_rollouts():
    imit = tiny_imitator()
    s = positions(1, seed=8)[0]
    bot = ModelPIMCBot("om", simulations=60, model=imit)
    bot.act(s, ctx(s, 0))
    first = dict(bot.last)
    bot.act(s, ctx(s, 1))
    assert bot.last["rollouts"] == first["rollouts"]
    assert bot.last["default_plays"] != first["default_plays"] or \
        bot.last["model_positions"] != first["model_positions"]


# --- zoo entries ---------------------------------------------------------------------------------
def test_zoo_entries_name_the_model_as_om_search_does(tmp_path):
    from ime.nets import save_checkpoint

    spec = {"kind": "pimc_om", "params": {
        "simulations": 40, "model_play": "sample", "model_seats": "opponents",
        "opponent": {"bot": "ddz1", "net": "mlp1", "fold": 0}}}
    assert opponent_ref(spec) == OpponentRef("ddz1", "mlp1", 0)
    with pytest.raises(ValueError, match="checkpoints"):
        make_bot("doudizhu", "om", {"om": spec})
    enc = get_encoder("doudizhu")
    net = tiny_imitator().models[0]
    path = tmp_path / "fold0.pt"
    save_checkpoint(path, net, game="doudizhu", encoder_version=enc.version, fold=0,
                    in_shape=enc.state_shape, num_actions=enc.head_sizes)
    specs = resolve_specs({"om": spec, "mc": {"kind": "pimc"}}, lambda ref: [str(path)])
    assert specs["mc"] == {"kind": "pimc"} and opponent_ref(specs["om"]) is None
    bot = make_bot("doudizhu", "om", specs)
    assert isinstance(bot, ModelPIMCBot) and bot.config.model_seats == "opponents"
    s = positions(1, seed=9)[0]
    assert bot.act(s, ctx(s)) in s.legal_actions()
    assert bot.last["model_positions"] > 0
    true = make_bot("doudizhu", "t", {"t": {"kind": "pimc_om", "params": {
        "simulations": 40, "model_play": "argmax", "opponent": {"bot": "ddz4", "source": "zoo"}}}})
    assert true.act(s, ctx(s)) in s.legal_actions() and true.last["model_positions"] > 0
    assert opponent_ref({"kind": "pimc_om", "params": {"simulations": 5}}) is None
    with pytest.raises(ValueError, match="unknown params"):
        make_bot("doudizhu", "x", {"x": {"kind": "pimc_om", "params": {"rollouts": 5}}})
    with pytest.raises(ValueError, match="model_play"):
        make_bot("doudizhu", "x", {"x": {"kind": "pimc_om", "params": {"model_play": "max"}}})
    with pytest.raises(ValueError, match="model_seats"):
        RolloutModelConfig(model_seats="teammate")
