"""The Doudizhu engine: deals, random-game invariants, the judge's error codes and scores."""

from __future__ import annotations

import json

import numpy as np
import pytest
from ddz_helpers import allocation_from, play, state_from

from ime.core.game import IllegalMoveError
from ime.games.doudizhu.cards import HAND_SIZES, cards_from_text, counts_of, deal, ranks_text
from ime.games.doudizhu.combos import ComboType as T
from ime.games.doudizhu.combos import classify
from ime.games.doudizhu.game import GAME
from ime.games.doudizhu.rules import error_code


def test_deal_from_seed_and_initdata_round_trip():
    st = GAME.new_initial_state(seed=7)
    alloc, public = deal(7)
    assert st.allocation == alloc and st.public_cards == tuple(alloc[0][:3]) == tuple(public)
    assert [len(h) for h in alloc] == list(HAND_SIZES)
    assert sorted(c for h in alloc for c in h) == list(range(54))
    assert GAME.new_initial_state(seed=7).allocation == alloc != deal(8)[0]
    again = GAME.new_initial_state(initdata=json.dumps(st.initdata()))
    assert again.allocation == alloc and again.publiccard == st.publiccard
    assert GAME.new_initial_state(initdata={"seed": "7"}).allocation == alloc
    assert GAME.new_initial_state(initdata="").allocation == deal(0)[0]
    # Botzone's publiccard may be given explicitly (any 3 of the landlord's cards)
    other = GAME.new_initial_state(initdata={"allocation": alloc, "publiccard": alloc[0][5:8]})
    assert other.public_cards == tuple(alloc[0][5:8])
    assert st.hand(0) == tuple(sorted(alloc[0])) and st.request_for(0)["own"] == alloc[0]


@pytest.mark.parametrize("bad", [
    {"allocation": [[0, 1], [2], [3]]},
    {"allocation": [list(range(20)), list(range(20, 37)), list(range(36, 53))]},
    {"allocation": [list(range(20)), list(range(20, 37)), [*range(37, 53), True]]},
    {"allocation": deal(0)[0], "publiccard": deal(0)[0][1][:3]},
    {"allocation": deal(0)[0], "publiccard": [deal(0)[0][0][0]] * 3},
    {"seed": "abc"},
    [1, 2, 3],
])
def test_bad_initdata_is_refused(bad):
    with pytest.raises(ValueError, match="initdata"):
        GAME.new_initial_state(initdata=bad)


def _scores_hold(st) -> None:
    s = st.returns()
    pts = [sum(c.points for (p, _), c in zip(st.history, st.combos, strict=True) if p == q)
           for q in range(3)]
    assert pts == st.points
    landlord_won = st.winner == 0
    assert s[1] == s[2]
    assert s[0] == pytest.approx((2 if landlord_won else 0) + pts[0] / 100)
    assert s[1] == pytest.approx((0 if landlord_won else 2) + (pts[1] + pts[2]) / 200)


@pytest.mark.slow
def test_random_games_keep_every_invariant():
    rng = np.random.default_rng(0)
    kinds, lengths = set(), []
    for g in range(300):
        st = GAME.new_initial_state(seed=int(rng.integers(1 << 30)))
        while not st.is_terminal():
            p = st.to_move
            hands = [set(st.hand(q)) for q in range(3)]
            played = {c for _, cards in st.history for c in cards}
            assert sum(len(h) for h in hands) + len(played) == 54
            assert not (hands[0] & hands[1] or hands[0] & hands[2] or hands[1] & hands[2])
            assert not played & (hands[0] | hands[1] | hands[2])
            assert all(h <= set(st.allocation[q]) for q, h in enumerate(hands))
            legal = st.legal_actions(p)
            beat = st.to_beat()
            assert (legal[0] == ()) == (beat is not None)
            assert len(set(legal)) == len(legal) and st.legal_actions((p + 1) % 3) == []
            combos = st.legal_combos(p)
            if g % 10 == 0:
                for a, c in zip(legal, combos, strict=True):
                    assert set(a) <= hands[p] and classify(counts_of(a)) == c
                    assert c.is_pass or c.beats(beat)
            a = legal[int(rng.integers(len(legal)))]
            kinds.add(classify(counts_of(a)).kind)
            st.apply_action(a)
        assert st.winner is not None and st.cards_left(st.winner) == 0
        assert st.current_players() == [] and st.legal_actions() == []
        _scores_hold(st)
        lengths.append(st.ply)
    assert len(kinds) >= 14 and 20 < np.mean(lengths) < 120


def test_info_set_view():
    st = state_from("3334567", "44", "")
    assert st.leading and st.to_beat() is None and st.last_play is None
    play(st, "3334")
    assert st.last_play[0] == 0 and st.last_play[2].kind == T.TRIO_SINGLE
    assert not st.leading and st.to_beat() == st.last_play[2]
    play(st, "", "")
    assert st.to_move == 0 and st.leading and st.to_beat() is None
    assert st.cards_left(0) == 16 and st.played_by(0) == cards_from_text("3334")
    assert set(st.unseen_by(0)) == set(st.hand(1)) | set(st.hand(2))
    assert len(st.unseen_by(1)) == 16 + 17
    assert counts_of(st.hand(0)).tolist() == st.hand_counts(0).tolist()
    assert [p for p, _ in st.history] == [0, 1, 2] and st.history[1] == (1, ())
    assert st.teammates(1, 2) and not st.teammates(0, 1) and st.is_landlord(0)
    assert "last: 0 trio_single:3334" in str(st) and "to move: 0" in str(st)


def test_apply_accepts_any_card_ids_of_the_hand():
    st = state_from("3333", "44", "55")
    st.apply_action((1, 3))  # a pair of 3s, not the canonical (lowest) ids
    assert st.history[-1] == (0, (1, 3)) and st.hand(0)[:2] == (0, 2)
    assert st.canonical(0, (1, 3)) == (0, 1)
    play(st, "", "")
    with pytest.raises(IllegalMoveError, match="REPEATED_CARD"):
        st.clone().apply_action((1,))
    assert st.legal_actions()[0] == (0,)
    st.apply_action(st.decode_response(0, [2, 0]))
    assert st.history[-1] == (0, (0, 2)) and st.played_by(0) == (0, 1, 2, 3)


def _err(st, response) -> str:
    """The error code of ``response`` by the player to move, through both entry points."""
    with pytest.raises(IllegalMoveError) as e:
        st.decode_response(st.to_move, response)
    action = tuple(response) if isinstance(response, list) else response
    with pytest.raises(IllegalMoveError) as e2:
        st.clone().apply_action(action)
    assert error_code(e.value.reason) == error_code(e2.value.reason)
    assert e.value.player == e2.value.player == st.to_move
    return error_code(e.value.reason)


def ids(st, text: str) -> list[int]:
    """The canonical ids of ``text`` in the hand of the player to move."""
    return list(st.cards_for(st.to_move, counts_of(cards_from_text(text))))


def test_card_errors_come_first_element_by_element():
    st = state_from("3334567", "44", "55")
    h0, h1 = st.hand(0), st.hand(1)
    assert _err(st, [h1[0]]) == "MISSING_CARD"  # another player's card
    for bad in (54, -1, "3", None, [0], 2.5):
        assert _err(st, [bad]) == "MISSING_CARD"
    assert _err(st, [h0[0], h0[0]]) == "REPEATED_CARD"  # twice in one response
    assert _err(st, [h0[0], h1[0], h0[0]]) == "MISSING_CARD"
    assert _err(st, [h0[0], h0[0], h1[0]]) == "REPEATED_CARD"
    assert _err(st, [h1[0], *ids(st, "34")]) == "MISSING_CARD"  # before the type test
    assert _err(st, [float(h0[0])]) == "BAD_FORMAT"  # the judge crashes on 3.0
    assert _err(st, [True]) == "BAD_FORMAT"
    for bad in ({"cards": [h0[0]]}, "oops", 3, None):
        assert _err(st, bad) == "BAD_FORMAT"
    assert st.decode_response(0, json.dumps(ids(st, "3"))) == tuple(ids(st, "3"))
    three = ids(st, "3")
    play(st, "3")
    assert _err(st, three) == "MISSING_CARD"  # played, but by somebody else


def test_repeated_card_is_a_card_already_played():
    st = state_from("3334567", "44", "55")
    first = ids(st, "3")
    play(st, "3", "", "")
    assert _err(st, first) == "REPEATED_CARD"
    assert _err(st, first + ids(st, "3")) == "REPEATED_CARD"


def test_type_pass_and_comparison_errors():
    st = state_from("3334567", "4445", "")
    assert _err(st, []) == "INVALID_PASS"  # the landlord's first play
    assert _err(st, ids(st, "34")) == "INVALID_CARDTYPE"
    assert _err(st, ids(st, "33345")) == "INVALID_CARDTYPE"  # trio + two singles
    play(st, "3334")
    assert _err(st, ids(st, "44")) == "MISMATCH_CARDTYPE"
    assert _err(st, ids(st, "45")) == "INVALID_CARDTYPE"  # the type before the comparison
    play(st, "4445", "", "")  # farmer 2 and the landlord pass: farmer 1 leads
    assert st.to_move == 1 and st.leading and _err(st, []) == "INVALID_PASS"

    st = state_from("3456789TJ", "456789", "")
    play(st, "45678")
    assert _err(st, ids(st, "456789")) == "MISMATCH_CARDLENGTH"
    assert _err(st, ids(st, "45678")) == "LESS_COMPARE"  # equal is not higher

    st = state_from("3333", "2XD", "")
    play(st, "3333")
    assert _err(st, ids(st, "2")) == "LESS_COMPARE"  # a single under a bomb
    play(st, "XD")
    assert st.legal_actions(2) == [()]  # nothing beats the rocket
    assert _err(st, [st.hand(2)[0]]) == "LESS_COMPARE"


def test_a_landlord_win_and_its_score():
    st = state_from("3333456789TJQKA222XD", "", "")
    assert ranks_text(st.hand(0)) == "3333456789TJQKA222XD"
    play(st, "456789TJQKA", "", "", "3333", "", "", "222", "", "")
    assert not st.is_terminal()
    play(st, "XD")
    assert st.is_terminal() and st.winner == 0
    assert st.points == [36, 0, 0] and st.returns() == [2.36, 0.0, 0.0]
    assert st.display() == {"event": {"player": 0, "action": [52, 53]}, "0": 2.36, "1": 0.0,
                            "2": 0.0}


def test_a_farmer_win_and_its_score():
    st = state_from("3", "444456789TJQKA222", "")
    play(st, "3", "4444", "", "", "56789TJQKA", "", "", "222")
    assert st.winner == 1 and st.points == [1, 20, 0]
    assert st.returns() == [0.01, 2.1, 2.1] == [1 / 100, (2.2 + 2) / 2, (2.2 + 2) / 2]


def test_clone_is_independent_and_display_events():
    st = GAME.new_initial_state(seed=3)
    c = st.clone()
    a = c.legal_actions()[0]
    c.apply_action(a)
    assert st.ply == 0 and c.ply == 1 and st.cards_left(0) == 20 and c.cards_left(0) == 19
    assert c.display() == {"event": {"player": 0, "action": list(a)}}
    assert st.legal_actions() and a in st.legal_actions()
    with pytest.raises(IllegalMoveError, match="game is over"):
        done = st.clone()
        done.forfeit(0, "BAD_FORMAT")
        done.apply_action(a)
    assert allocation_from("3")[0][0] == 0
