"""Big-2's rules (docs/games/big2.md): every hand type, what beats what, the pass, the end of
the game and its scores, the judge's verdicts, and the seed's worked examples."""

from __future__ import annotations

import numpy as np
import pytest
from b2_helpers import state_of, t

from ime.core.game import IllegalMoveError
from ime.games.big2 import GAME, Big2Game
from ime.games.big2.cards import cards_from_text, deal, parse_ranks
from ime.games.big2.hands import (
    LESS_COMPARE,
    MISMATCH_CARDLENGTH,
    MISMATCH_CARDTYPE,
    PASS,
    beats,
    compare_error,
    connection_counts,
    type_keys,
)
from ime.games.big2.movegen import connection_counts as compiled_connection_counts


# --- the seed's worked examples ---------------------------------------------------------------
def test_seed_example_33344456():
    x = t("33344456")
    assert x.key == (1, 2, 3, 1)  # main rank 1, length 2, multiplicity 3, kicker multiplicity 1
    assert x.kickers == (2, 3)    # the 5 and the 6
    assert str(x) == "33344456" and x.n_cards == 8


def test_seed_example_connection_counts():
    hand = parse_ranks("4556667777")
    seven = 4  # 3 4 5 6 7 -> index 4
    assert list(connection_counts(hand)[seven]) == [4, 3, 2, 1]
    assert list(compiled_connection_counts(hand)[seven]) == [4, 3, 2, 1]
    assert (connection_counts(hand) == compiled_connection_counts(hand)).all()
    assert list(connection_counts(hand)[0]) == [0, 0, 0, 0]  # no 3
    assert list(connection_counts(hand)[3]) == [3, 2, 1, 0]  # at the 6


def test_ranks_map_3_to_2_onto_0_to_12():
    assert list(parse_ranks("3")).index(1) == 0 and list(parse_ranks("2")).index(1) == 12
    assert t("A").main == 11 and t("2").main == 12


# --- every hand type ---------------------------------------------------------------------------
@pytest.mark.parametrize("text,key", [
    ("3", (0, 1, 1, 0)), ("2", (12, 1, 1, 0)),
    ("34567", (4, 5, 1, 0)), ("3456789TJQKA", (11, 12, 1, 0)),
    ("99", (6, 1, 2, 0)), ("334455", (2, 3, 2, 0)), ("33445566778899TTJJQQKKAA", (11, 12, 2, 0)),
    ("KKK", (10, 1, 3, 0)), ("KKK2", (10, 1, 3, 1)), ("3KKK", (10, 1, 3, 1)),
    ("KKK22", (10, 1, 3, 2)), ("333444", (1, 2, 3, 0)), ("33344456", (1, 2, 3, 1)),
    ("3334445566", (1, 2, 3, 2)), ("333444555666777888", (5, 6, 3, 0)),
    ("3334445556667778889TJQKA", (5, 6, 3, 1)), ("333444555666777TTJJQQKKAA", (4, 5, 3, 2)),
    ("7777", (4, 1, 4, 0)), ("2222", (12, 1, 4, 0)),
])
def test_every_hand_type(text, key):
    x = t(text)
    assert x is not None and x.key == key
    assert sum(x.counts) == len(text) == x.n_cards
    assert x.is_bomb == (key[2] == 4)


@pytest.mark.parametrize("text", [
    "34", "3456", "34568",            # no pair of two ranks, straights need 5 consecutive
    "JQKA2", "QQKKAA22",              # chains never hold a 2
    "3344", "33445",                  # pair chains need 3 pairs
    "333555", "3334455",              # trio chains are consecutive; kickers all one size
    "33334", "333344",                # no four with kickers
    "33334444",                       # no chains of fours
    "33344455",                       # two trios and one pair: a chain needs 2 kickers
    "3334445",                        # two trios and one single
    "333444455", "33344446",          # a kicker never uses a main rank
    "3334445555",                     # kicker ranks are distinct (no 5 5 as two singles)
])
def test_not_a_hand_type(text):
    assert t(text) is None, text


def test_type_table():
    keys = type_keys()
    assert len(keys) == len(set(keys)) == 308
    for main, length, mult, kmult in keys:
        assert length == 1 or main < 12  # chains never hold a 2
        assert length * (mult + kmult) <= 26


# --- what beats what ----------------------------------------------------------------------------
def test_same_shape_higher_main_beats():
    assert beats(t("4"), t("3")) and not beats(t("3"), t("4")) and not beats(t("3"), t("3"))
    assert compare_error(t("3"), t("3")) == LESS_COMPARE
    assert beats(t("44455536"), t("33344456"))  # kicker contents never matter
    assert beats(t("34445557"), t("33344456"))  # a kicker below the main ranks is fine
    assert t("44455533") is None  # two singles of one rank are no kickers
    assert beats(t("45678"), t("34567")) and not beats(t("456789"), t("34567"))


def test_mismatches_are_named():
    assert compare_error(t("456789"), t("34567")) == MISMATCH_CARDLENGTH
    assert compare_error(t("44"), t("3")) == MISMATCH_CARDTYPE
    assert compare_error(t("4445"), t("333")) == MISMATCH_CARDTYPE
    assert compare_error(t("44455"), t("3334")) == MISMATCH_CARDTYPE
    assert compare_error(t("444555"), t("333")) == MISMATCH_CARDLENGTH


def test_bombs():
    assert beats(t("3333"), t("2")) and beats(t("3333"), t("3456789TJQKA"))
    assert beats(t("3333"), t("22")) and beats(t("3333"), t("333444555666777888"))
    assert beats(t("4444"), t("3333")) and not beats(t("3333"), t("4444"))
    assert compare_error(t("3333"), t("4444")) == LESS_COMPARE
    assert compare_error(t("2"), t("3333")) == MISMATCH_CARDTYPE
    assert beats(t("3333"), None) and not beats(PASS, t("3"))


# --- the deal, the turn order, the pass, the end ------------------------------------------------
def test_deal():
    for seed in range(5):
        a, b = deal(seed)
        assert len(a) == len(b) == 26 and sorted(a + b) == list(range(52))
    a, b = deal(0, 13)
    assert len(a) == len(b) == 13 and not set(a) & set(b)
    st = Big2Game(13).new_initial_state(seed=3)
    assert len(st.unseen_by(0)) == 39 and st.cards_left(1) == 13
    assert GAME.new_initial_state(seed=3).hands == deal(3)
    with pytest.raises(ValueError, match="hand_size"):
        Big2Game(27)


def test_initdata_is_checked():
    with pytest.raises(ValueError, match="2 hands"):
        GAME.new_initial_state(initdata={"hands": [[1, 2]]})
    with pytest.raises(ValueError, match="distinct"):
        Big2Game(2).new_initial_state(initdata={"hands": [[1, 2], [2, 3]]})
    with pytest.raises(ValueError, match="deals 26"):
        GAME.new_initial_state(initdata={"hands": [[1, 2], [3, 4]]})
    st = Big2Game(2).new_initial_state(initdata='{"hands": [[0, 5], [9, 51]]}')
    assert st.hand(0) == (0, 5) and st.hand(1) == (9, 51)


def test_leader_must_play_follower_may_pass():
    st = state_of("3345", "6678")
    assert st.leading and () not in st.legal_actions()
    with pytest.raises(IllegalMoveError, match="INVALID_PASS"):
        st.decode_response(0, [])
    st.apply_action(cards_from_text("3"))
    assert not st.leading and st.legal_actions()[0] == ()
    st.apply_action(())  # seat 1 passes although it can beat
    assert st.to_move == 0 and st.leading and st.to_beat() is None
    st.apply_action(st.cards_for(0, parse_ranks("4")))
    assert st.to_beat() == t("4")
    with pytest.raises(IllegalMoveError, match="MISMATCH_CARDTYPE"):
        st.apply_action(st.cards_for(1, parse_ranks("66")))


def test_forced_pass_when_nothing_beats():
    st = state_of("2345", "3456", ["2"])
    assert st.legal_actions() == [()]


def test_end_of_game_and_scores():
    st = state_of("3K", "45", ["K", "", "3"])
    assert st.is_terminal() and st.winner == 0
    assert st.returns() == [2.0, -2.0]  # the loser holds 2 cards
    assert st.display()["0"] == 2.0
    st = state_of("34", "56", ["3", "5", "", "6"])
    assert st.is_terminal() and st.winner == 1 and st.returns() == [-1.0, 1.0]
    with pytest.raises(IllegalMoveError, match="over"):
        st.apply_action(())


def test_a_bomb_beats_a_straight_then_its_player_leads():
    st = state_of("34567K", "999922", ["34567"])
    assert st.legal_types()[1:] == [t("9999")]
    st.apply_action(st.legal_actions()[1])
    assert st.to_move == 0 and st.legal_actions() == [()]  # nothing beats a bomb but a bomb
    st.apply_action(())
    assert st.leading and st.to_move == 1
    st.apply_action(st.cards_for(1, parse_ranks("22")))
    assert st.returns() == [-1.0, 1.0]


@pytest.mark.parametrize("response,code", [
    ("[0, 0]", "REPEATED_CARD"), ([51], "MISSING_CARD"), ([0, 1.5], "BAD_FORMAT"),
    ({"cards": [0]}, "BAD_FORMAT"), ("not json", "BAD_FORMAT"), ([0, 4], "INVALID_CARDTYPE"),
    ([True], "BAD_FORMAT"),
])
def test_judge_verdicts(response, code):
    st = state_of("3456", "789T")
    with pytest.raises(IllegalMoveError, match=code):
        st.decode_response(0, response)


def test_repeated_card_after_it_was_played():
    st = state_of("3456", "789T", ["3", "7"])
    with pytest.raises(IllegalMoveError, match="REPEATED_CARD"):
        st.decode_response(0, [0])


def test_fault_scores():
    st = state_of("3456", "789T")
    with pytest.raises(IllegalMoveError) as e:
        st.decode_response(0, [51])
    st.forfeit(0, e.value.reason)
    assert st.is_terminal() and st.returns() == [-4.0, 4.0]
    assert st.display()["errorInfo"] == "MISSING_CARD"


def test_any_suits_are_accepted():
    st = state_of("33", "44")
    a, b = st.hand(0)
    st.apply_action((b,))
    assert st.hand(0) == (a,) and st.history[-1] == (0, (b,))
    assert np.array_equal(st.hand_counts(0), parse_ranks("3"))
