"""The Big-2 zoo: every bot legal in both seats over >= 1000 games, reproducible from (seed,
match, ply, seat), replayable from a fork, blind to the hidden hand; the seed's agent beats
random; smallest-first plays the smallest."""

from __future__ import annotations

import numpy as np
import pytest
from b2_helpers import state_of, swap_hidden, t
from shedding_helpers import Checked, assert_reproducible, ctx, decision_sample

from ime.bots.registry import load_bot_specs
from ime.core.bot import DecisionContext
from ime.games.big2 import GAME, Big2Game
from ime.games.big2.bots import BOT_KINDS
from ime.games.big2.bots.basic import SmallestBot
from ime.games.big2.bots.negamax import NegamaxBot
from ime.games.big2.study import wilson
from ime.matches.judge import run_match

SPECS = load_bot_specs("big2")
FAST = {**SPECS, "b2_negamax": {"kind": "negamax", "params": {
    "exact_threshold": 10, "exact_nodes": 20000, "start_depth": 8, "first_nodes": 5000,
    "nodes": 1000}}}
"""The zoo with a smaller budget for the seed's agent (test time)."""
ZOO = ["b2_negamax", "b2_lite", "b2_smallest", "b2_random", "b2_heuristic"]
SMALL = Big2Game(13)


def bot(bot_id: str, specs=FAST):
    s = specs[bot_id]
    return BOT_KINDS[s["kind"]]("big2", bot_id, s.get("params") or {})


def test_every_spec_builds():
    assert set(ZOO) <= set(SPECS)
    for bot_id, spec in SPECS.items():
        assert spec["kind"] in BOT_KINDS
        assert bot(bot_id, SPECS).bot_id == bot_id
    with pytest.raises(ValueError, match="start_depth"):
        NegamaxBot("x", start_depth=0)


@pytest.fixture(scope="module")
def games():
    """1000 games between zoo bots drawn per game (every bot in both seats; one in five with
    13-card hands, where the agent searches a sampled hidden hand): the decisions."""
    made = {b: Checked(bot(b)) for b in ZOO}
    rng = np.random.default_rng(17)
    seats = {b: set() for b in ZOO}
    out = []
    for g in range(1000):
        names = [ZOO[int(i)] for i in rng.integers(len(ZOO), size=2)]
        if g < 8:
            names[g % 2] = ZOO[g // 2]
        for s, n in enumerate(names):
            seats[n].add(s)
        game = SMALL if g % 5 == 4 else GAME
        res = run_match(game, [made[n] for n in names], match_id=f"t-{g}", seed=g,
                        record_decisions=g < 150)
        assert res.fault is None, (names, res.fault)
        assert res.final_state.is_terminal() and res.final_state.winner is not None
        assert sorted(res.scores) == [-res.final_state.cards_left(1 - res.final_state.winner),
                                      res.final_state.cards_left(1 - res.final_state.winner)]
        out.extend((names[d.player], d) for d in res.decisions)
    assert all(seats[b] == {0, 1} for b in ZOO)
    return out


@pytest.mark.slow
def test_no_illegal_move_in_1000_games(games):
    by_bot = {b: 0 for b in ZOO}
    for name, _ in games:
        by_bot[name] += 1
    assert min(by_bot.values()) > 200


@pytest.fixture(scope="module")
def positions(games):
    return decision_sample(games, 40)


@pytest.mark.parametrize("bot_id", ZOO)
@pytest.mark.slow
def test_decisions_reproducible(bot_id, positions):
    assert_reproducible(bot(bot_id), bot(bot_id), positions)


def test_random_draws_per_seed_match_and_ply(positions):
    b = bot("b2_random")
    base = [b.act(st.clone(), ctx(st)) for st in positions]
    assert base != [b.act(st.clone(), ctx(st, seed=1, match="other")) for st in positions]


@pytest.mark.parametrize("bot_id", ZOO)
@pytest.mark.parametrize("game", [GAME, SMALL], ids=["26", "13"])
def test_fork_from_a_middle_ply_reproduces_the_match(bot_id, game):
    made = [bot(bot_id), bot("b2_random")]
    full = run_match(game, made, match_id="fork", seed=77)
    entries = [e for e in full.log if "output" not in e]
    for k in (len(entries) // 3, len(entries) // 2):
        fork = run_match(game, [bot(bot_id), bot("b2_random")], match_id="fork", seed=77,
                         prefix=entries[:k])
        assert fork.log == full.log and fork.scores == full.scores


@pytest.mark.parametrize("bot_id", ZOO)
def test_decisions_ignore_the_hidden_hand(bot_id, games):
    rng = np.random.default_rng(5)
    small = [d.state for _, d in games if d.state.game is SMALL
             and len(d.state.legal_actions()) > 1][:30]
    assert len(small) == 30
    b = bot(bot_id)
    changed = 0
    for st in small:
        alt = swap_hidden(st, rng)
        changed += alt.hand(1 - st.to_move) != st.hand(1 - st.to_move)
        assert b.act(st.clone(), ctx(st)) == b.act(alt, ctx(st)), (bot_id, str(st))
    assert changed >= 25


def test_the_agent_sees_the_whole_deal_when_nothing_is_undealt():
    from ime.games.big2.bots.negamax import opponent_counts

    st = GAME.new_initial_state(seed=2)
    assert opponent_counts(st, 0, ctx(st)).tolist() == st.hand_counts(1).tolist()


@pytest.mark.slow
def test_the_seeds_agent_beats_random():
    agent = bot("b2_negamax", SPECS)
    rnd = bot("b2_random")
    scores = []
    for i in range(15):
        init = GAME.new_initial_state(seed=9000 + i).initdata()
        for seat in (0, 1):
            seats = [agent, rnd] if seat == 0 else [rnd, agent]
            res = run_match(GAME, seats, match_id=f"beat-{i}-{seat}", seed=0, initdata=init)
            scores.append(res.scores[seat])
    wins = sum(s > 0 for s in scores)
    assert wilson(wins, len(scores))[0] > 0.5, scores
    assert np.mean(scores) > 3


def test_smallest_plays_the_smallest():
    st = state_of("3344555J2222", "66778899TTKA")
    assert st.type_of(SmallestBot().act(st, ctx(st))) == t("3")
    st = state_of("3344555J2222", "66778899TTKA", ["3", "6"])
    assert st.type_of(SmallestBot().act(st, ctx(st))) == t("J")  # not the 2, not the bomb
    st = state_of("3344555J2222", "66778899TTKA", ["3", "A"])
    assert st.type_of(SmallestBot().act(st, ctx(st))) == t("2")
    st = state_of("3344555J2222", "66778899TTKA", ["33", "TT"])
    assert st.type_of(SmallestBot().act(st, ctx(st))) == t("22")  # a pair, not the bomb
    st = state_of("3344555J2222", "66778899TTKA", ["3", "K", "", "6789T"])
    assert st.type_of(SmallestBot().act(st, ctx(st))) == t("2222")  # only a bomb beats
    st = state_of("3344555J2229", "66778899TTKA", ["3", "A", "2", ""])
    assert SmallestBot().act(st, DecisionContext(0, "m", st.ply, 0)) != ()
