"""Every registered game keeps the plug-in contract (``ime.core``), checked on seeded random games.

These tests are parametrised over :func:`ime.core.registry.known_games`, so a new game package is
checked the moment it registers itself: engine, Botzone codec, encoder (masks agree with the legal
actions, labels decode back to the action played), symmetries, and replay through the judge.
"""

from __future__ import annotations

import numpy as np
import pytest

from ime.core.bot import Bot, DecisionContext, decision_rng
from ime.core.encoding import UNENCODABLE, Encoder
from ime.core.game import Game, GameType, State
from ime.core.registry import (
    GENERIC_ARTIFACTS,
    GamePlugin,
    get_encoder,
    get_game,
    get_plugin,
    known_games,
    register_game,
)
from ime.matches.judge import run_match

GAMES = known_games()


class UniformBot(Bot):
    """Plays a uniformly random legal action from the per-decision generator."""

    def __init__(self, bot_id: str = "uniform"):
        self.bot_id = bot_id

    def act(self, state: State, ctx: DecisionContext):
        legal = state.legal_actions(ctx.player)
        return legal[int(decision_rng(ctx).integers(len(legal)))]


def random_states(game: Game, n_games: int, seed: int) -> list[tuple[State, int, object]]:
    """(state, player, action played) of every decision of ``n_games`` seeded random games."""
    rng = np.random.default_rng(seed)
    out = []
    for _ in range(n_games):
        st = game.new_initial_state(seed=int(rng.integers(1 << 30)))
        while not st.is_terminal():
            movers = st.current_players()
            actions = {}
            for p in movers:
                legal = st.legal_actions(p)
                actions[p] = legal[int(rng.integers(len(legal)))]
                out.append((st.clone(), p, actions[p]))
            st.apply_actions(actions)
    return out


def test_reversi_is_registered():
    assert "reversi" in GAMES
    plugin = get_plugin("reversi")
    assert plugin.game_type.num_players == 2 and not plugin.game_type.simultaneous
    assert plugin.artifacts["s1s2_imitator.csv"] == "table4_5.csv"


def test_unknown_game_names_the_known_ones():
    with pytest.raises(KeyError, match="unknown game 'chess'.*reversi"):
        get_plugin("chess")


def test_register_rejects_unknown_artifacts():
    gt = GameType("badgame", "Bad", 2)
    plugin = GamePlugin(gt, make_game=lambda: None, make_encoder=lambda g: None,
                        artifacts={"nonsense.csv": "table9_9.csv"})
    with pytest.raises(ValueError, match="unknown artifacts"):
        register_game(plugin)
    assert "badgame" not in known_games()


def test_generic_artifacts_are_described():
    assert all(desc for desc in GENERIC_ARTIFACTS.values())


@pytest.mark.parametrize("name", GAMES)
@pytest.mark.slow
def test_game_type_matches_engine(name):
    plugin = get_plugin(name)
    game = get_game(name)
    assert game.name == name == plugin.game_type.short_name
    assert game.num_players == plugin.game_type.num_players >= 2
    st = game.new_initial_state(seed=0)
    movers = st.current_players()
    assert movers and all(0 <= p < game.num_players for p in movers)
    if not plugin.game_type.simultaneous:
        assert len(movers) == 1


@pytest.mark.parametrize("name", GAMES)
@pytest.mark.slow
def test_codec_round_trip_and_clone(name):
    game = get_game(name)
    for st, p, a in random_states(game, 3, seed=1)[:200]:
        assert st.decode_response(p, st.encode_response(p, a)) == a
        c = st.clone()
        c.apply_actions({q: (a if q == p else c.legal_actions(q)[0])
                         for q in c.current_players()})
        assert st.legal_actions(p) and a in st.legal_actions(p)  # the original is untouched


@pytest.mark.parametrize("name", GAMES)
@pytest.mark.slow
def test_encoder_masks_labels_and_decode(name):
    game = get_game(name)
    enc = get_encoder(name)
    assert isinstance(enc, Encoder) and enc.heads
    sample = random_states(game, 4, seed=2)
    states = [s for s, _, _ in sample]
    players = [p for _, p, _ in sample]
    actions = [a for _, _, a in sample]
    obs = enc.encode(states, players, actions)
    assert obs.planes.dtype == np.uint8 and obs.planes.shape == (len(sample), *enc.state_shape)
    assert len(obs.masks) == len(enc.heads)
    for m, h in zip(obs.masks, enc.heads, strict=True):
        assert m.shape == (len(sample), h.size) and set(np.unique(m)) <= {0, 1}
    codes = enc.action_codes(states, players, actions)
    assert codes.shape == (len(sample), len(enc.heads))
    for i, (st, p, a) in enumerate(sample):
        if obs.masks[0][i].sum() == 0:  # a forced decision carries no choice (rows dropped)
            continue
        if codes[i, 0] == UNENCODABLE:  # an action the heads cannot express (rows dropped)
            continue
        assert codes[i, 0] >= 0, "a real choice has a first-head label"
        for h in range(len(enc.heads)):
            if codes[i, h] >= 0:
                assert obs.masks[h][i, codes[i, h]] == 1
        assert enc.decode(st, p, [int(c) for c in codes[i]]) == a
    # the observation of one state equals its row of the batch (its position planes: later
    # planes may follow the action played, which observe() does not know)
    k = enc.position_planes or obs.planes.shape[1]
    np.testing.assert_array_equal(enc.observe(states[0], players[0])[:k], obs.planes[0][:k])


@pytest.mark.parametrize("name", GAMES)
def test_symmetries_are_permutations(name):
    enc = get_encoder(name)
    for group in enc.symmetry_groups:
        syms = enc.symmetries(group)
        assert syms and syms[0].name == "id"
        for s in syms:
            assert sorted(s.cells.tolist()) == list(range(len(s.cells)))
            for perm, head in zip(s.actions, enc.heads, strict=True):
                assert sorted(perm.tolist()) == list(range(head.size))
    with pytest.raises(ValueError):
        enc.symmetries("no-such-group")


@pytest.mark.parametrize("name", GAMES)
def test_select_returns_a_legal_action(name):
    game = get_game(name)
    enc = get_encoder(name)
    rng = np.random.default_rng(3)

    def policy(obs):
        return [rng.random(m.shape) * m for m in obs.masks]

    for st, p, _ in random_states(game, 2, seed=4)[:100]:
        assert enc.select(st, p, policy) in st.legal_actions(p)


@pytest.mark.parametrize("name", GAMES)
def test_judge_plays_and_replays_bit_for_bit(name):
    game = get_game(name)
    bots = [UniformBot(f"u{i}") for i in range(game.num_players)]
    first = run_match(game, bots, match_id="m1", seed=5)
    again = run_match(game, bots, match_id="m1", seed=5)
    assert first.to_json() == again.to_json()
    entries = [e for e in first.to_json()["log"] if "output" not in e]
    replay = run_match(game, [None] * game.num_players, match_id="m1", seed=5,
                       initdata=first.to_json().get("initdata"), prefix=entries,
                       player_ids=[b.bot_id for b in bots])
    assert replay.to_json()["log"] == first.to_json()["log"]
    assert replay.scores == first.scores
