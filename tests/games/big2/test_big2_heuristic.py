"""Seed 004's heuristic agent (the first play of the seed's ordering) on hand-made positions and
against the search's own ordering; the time-equivalent budget and the oracle of the seed's
comparison (``docs/games/big2.md``, "The seed's findings")."""

from __future__ import annotations

import numpy as np
import pytest
from b2_helpers import state_of, t
from shedding_helpers import ctx

from ime.games.big2 import GAME, Big2Game
from ime.games.big2.bots.heuristic import HeuristicBot
from ime.games.big2.bots.negamax import NegamaxBot, time_equivalent_budget
from ime.games.big2.cards import deal
from ime.games.big2.movegen import MAX_MOVES, generate_moves, pack
from ime.games.big2.search import SearchParams, _order, decide
from ime.games.shedding.bots import RandomBot
from ime.matches.judge import run_match


def played(st) -> object:
    return st.type_of(HeuristicBot().act(st, ctx(st)))


@pytest.mark.parametrize(("own", "plays", "want"), [
    # leading: the most cards (the pair chain 334455, 6 cards, over trio + pair 55533, 5 cards)
    ("3344555J2222", [], "334455"),
    # leading: a long straight beats a trio with a pair in length
    ("3456789JJJ22", [], "3456789"),
    # leading: among equally long plays the smallest main rank (straight 34567 over 45678)
    ("345678", [], "345678"),
    ("34567899", [], "3456789"),
    # leading: bombs last: 222 (3 cards) before the bomb 2222
    ("2222", [], "222"),
    # following a single 6: the smallest single that beats (J), not a 2 or the bomb
    ("3344555J2222", ["3", "6"], "J"),
    # following a pair T: the smallest pair above it (22), not the bomb
    ("3344555J2222", ["33", "TT"], "22"),
    # following a straight it cannot match: the smallest bomb
    ("3344555J2222", ["3", "K", "", "6789T"], "2222"),
])
def test_heuristic_plays_the_seeds_first_ordered_play(own, plays, want):
    # the opponent's hand only has to hold the plays above and fill a legal deal
    st = state_of(own, _opponent(own, plays), plays)
    assert played(st) == t(want), str(st)


def _opponent(own: str, plays: list[str]) -> str:
    """A hand of ``len(own)`` cards disjoint enough from ``own`` (the fixtures' opponents)."""
    return {"3344555J2222": "66778899TTKA", "3456789JJJ22": "33445566TTKA",
            "345678": "99TTKA", "34567899": "TTJJQQKA", "2222": "3456"}[own]


def test_heuristic_follows_a_trio_with_the_smallest_trio_and_kicker():
    # seat 1 follows 4443 holding 555 and 666: 555 with its smallest single kicker, the 3
    st = state_of("3444889TTKKA", "3555666779JQ", ["4443"])
    assert played(st) == t("5553")


def test_heuristic_passes_only_when_nothing_beats():
    st = state_of("3344555J2229", "66778899TTKA", ["3", "A", "2", ""])
    assert played(st) != t("")  # leading after the pass: it must play
    st = state_of("334455", "66778A", ["3", "A"])
    assert HeuristicBot().act(st, ctx(st)) == ()  # nothing above the A: pass


def test_heuristic_is_the_searchs_first_ordered_play():
    """On positions of random games (13 and 26 cards) the bot's play is the first of the
    compiled search's ordering (:func:`ime.games.big2.search._order`; following: the
    generator's order, the pass last)."""
    keys = np.empty(MAX_MOVES, np.int64)
    order = np.empty(MAX_MOVES, np.int64)
    checked = 0
    for g in range(40):
        game = Big2Game(13) if g % 2 else GAME
        res = run_match(game, [RandomBot("r0"), RandomBot("r1")], match_id=f"h-{g}", seed=g,
                        record_decisions=True)
        for d in res.decisions[::3]:
            st = d.state
            beat = st.to_beat()
            m = generate_moves(st.hand_counts(st.to_move), None if beat is None else beat.key)
            if m.n == 0:
                continue
            _order(m.meta, m.n, beat is None, keys, order)
            first = m.counts[order[0]].tolist()
            got = st.type_of(HeuristicBot().act(st, ctx(st)))
            assert list(got.counts) == first, str(st)
            checked += 1
    assert checked > 300


def test_time_equivalent_budget_sets_one_budget():
    b = NegamaxBot("x", seconds=5, nodes_per_s=3_400_000)
    assert b.params == SearchParams(10, 17_000_000, 8, 17_000_000, 17_000_000)
    assert time_equivalent_budget(0.5, 1000) == 500
    with pytest.raises(ValueError, match="both"):
        NegamaxBot("x", seconds=5)
    with pytest.raises(ValueError, match="conflict"):
        NegamaxBot("x", seconds=5, nodes_per_s=10, nodes=100)
    with pytest.raises(ValueError, match="> 0"):
        NegamaxBot("x", seconds=0, nodes_per_s=10)


def test_a_larger_clock_searches_deeper_within_its_budget():
    """The seed's clock as nodes: the whole decision stays within ``seconds x nodes_per_s``
    (one node over, the one that stops it), and a larger clock reaches a deeper iteration on
    the same 16 + 16 deal."""
    a, b = (pack(np.bincount(np.asarray(h) // 4, minlength=13)) for h in deal(3, 16))
    depths = []
    for budget in (20_000, 400_000):
        p = NegamaxBot("x", seconds=budget / 1000, nodes_per_s=1000).params
        r = decide(a, b, 16, 16, None, p)
        assert r.nodes <= budget + 1
        depths.append(r.depth)
    assert depths[1] > depths[0] >= 8, depths


def test_the_oracle_searches_the_real_hand():
    """With cards left undealt the oracle searches the opponent's real hand (the seed's
    experiments); the zoo's bot searches a draw from the unseen cards."""
    st = Big2Game(6).new_initial_state(seed=4)
    st.apply_action(HeuristicBot().act(st, ctx(st)))
    me = st.to_move
    own, opp = st.hand_counts(me), st.hand_counts(1 - me)
    beat = st.to_beat()
    want = decide(pack(own), pack(opp), int(own.sum()), int(opp.sum()), beat.key,
                  SearchParams(10, 10**6, 8, 10**6, 10**6))
    oracle = NegamaxBot("o", 10, 10**6, 8, 10**6, 10**6, oracle=True)
    assert oracle.search(st, ctx(st)) == want
    draws = {NegamaxBot("z", 10, 10**6, 8, 10**6, 10**6).search(st, ctx(st, seed=s)).value
             for s in range(12)}
    assert len(draws) > 1  # the zoo's bot does not see the hand: its draws differ


def test_the_comparison_table_is_a_pure_function_of_its_config(tmp_path):
    """``study heuristic`` on a small grid: one row per (run, size), both seats per deal, the
    same rows twice, and the columns consistent (net score = mean x games; the intervals hold
    the estimates)."""
    from ime.bots.registry import load_bot_specs
    from ime.games.big2.study import HEURISTIC_COLUMNS, heuristic_figure, heuristic_rows

    cfg = {"opponent": "b2_heuristic", "agent_params": {"oracle": True}, "sizes": [4, 12],
           "runs": [{"agent": "b2_lite", "deals": 6}, {"agent": "b2_negamax", "deals": {4: 3}}]}
    specs = load_bot_specs("big2")
    rows = heuristic_rows(cfg, specs, seed=3, log=lambda *_: None)
    assert [(r["agent"], r["cards"], r["games"]) for r in rows] == [
        ("b2_lite", 4, 12), ("b2_lite", 12, 12), ("b2_negamax", 4, 6)]
    assert rows == heuristic_rows(cfg, specs, seed=3, log=lambda *_: None)
    for r in rows:
        assert list(r) == HEURISTIC_COLUMNS
        assert r["net_score"] == pytest.approx(r["mean_score"] * r["games"], abs=0.01)
        assert r["mean_score_lo"] <= r["mean_score"] <= r["mean_score_hi"]
        assert r["win_rate_lo"] <= r["win_rate"] <= r["win_rate_hi"]
    # 4 + 4 cards are solved exactly; b2_lite deepens above 6 + 6
    assert rows[0]["searches"] > 0 and rows[0]["deepening"] == 0 and rows[1]["deepening"] > 0
    heuristic_figure(rows, tmp_path / "f.png")
    assert (tmp_path / "f.png").stat().st_size > 10_000
