"""Gongzhu rules core: card ids, show phase, following suit, the shown-card rule, tricks and every
scoring rule on hand-made piles (values from docs/games/gongzhu.md)."""

from __future__ import annotations

import numpy as np
import pytest

from ime.games.gongzhu import rules as R
from ime.games.gongzhu.rules import (
    C2,
    C10,
    DJ,
    HA,
    HEARTS_MASK,
    SCORING_MASK,
    SHOW_BASE,
    SQ,
    IllegalMove,
    apply,
    card_name,
    deal,
    from_hands,
    legal_actions,
    mask_of,
    parse_card,
    score_of,
)


def cards(*names: str) -> list[int]:
    return [parse_card(n) for n in names]


def m(*names: str) -> int:
    return mask_of(cards(*names))


def hearts(*ranks: str) -> int:
    return m(*("H" + r for r in ranks))


def shown(*names: str) -> int:
    return m(*names)


# --- cards ------------------------------------------------------------------------------------

def test_card_ids_and_names_round_trip():
    assert SQ == 10 and HA == 25 and DJ == 35 and C10 == 47 and C2 == 39
    assert R.SHOWABLE == (SQ, DJ, C10, HA)
    assert [card_name(c) for c in (0, 8, 12, 13, 47)] == ["S2", "S10", "SA", "H2", "C10"]
    for c in range(52):
        assert parse_card(card_name(c)) == c
    assert parse_card("ct") == C10
    with pytest.raises(ValueError):
        parse_card("X5")
    with pytest.raises(ValueError):
        parse_card("H1")


def test_action_names():
    assert R.action_name(SQ) == "SQ"
    assert R.action_name(SHOW_BASE) == "show[]"
    assert R.action_name(SHOW_BASE + 0b0101) == "show[SQ,C10]"
    assert R.action_name(67) == "show[SQ,DJ,C10,HA]"


# --- scoring ----------------------------------------------------------------------------------

def test_heart_values_sum_to_minus_200():
    assert sum(R.HEART_VALUES) == -200
    assert score_of(hearts("A"), 0) == -50
    assert score_of(hearts("K"), 0) == -40
    assert score_of(hearts("Q"), 0) == -30
    assert score_of(hearts("J"), 0) == -20
    for r in ("10", "9", "8", "7", "6", "5"):
        assert score_of(hearts(r), 0) == -10
    for r in ("4", "3", "2"):
        assert score_of(hearts(r), 0) == 0


def test_pig_goat_and_non_scoring_cards():
    assert score_of(m("SQ"), 0) == -100
    assert score_of(m("DJ"), 0) == 100
    assert score_of(m("SQ", "DJ", "SA", "CA", "D2"), 0) == 0
    assert score_of(m("SA", "CK", "D5"), 0) == 0
    assert score_of(0, 0) == 0


def test_shown_pig_and_goat_double():
    assert score_of(m("SQ"), shown("SQ")) == -200
    assert score_of(m("DJ"), shown("DJ")) == 200
    assert score_of(m("SQ", "DJ"), shown("DJ")) == 100


def test_shown_heart_ace_doubles_every_heart():
    assert score_of(hearts("A", "5", "2"), shown("HA")) == -120
    assert score_of(hearts("K"), shown("HA")) == -80  # the ace need not be in the pile


def test_transformer_alone_and_with_cards():
    assert score_of(m("C10"), 0) == 50
    assert score_of(m("C10"), shown("C10")) == 100
    assert score_of(m("C10", "SQ"), 0) == -200
    assert score_of(m("C10", "SQ"), shown("C10")) == -400
    assert score_of(m("C10", "DJ", "HA"), 0) == 100
    assert score_of(m("C10", "DJ"), shown("DJ", "C10")) == 800
    assert score_of(m("C10", "SQ", "DJ"), 0) == 0
    # a zero-valued heart is still a scoring card (分牌): C10 is no longer alone
    assert score_of(m("C10", "H2"), 0) == 0
    # non-scoring cards do not matter
    assert score_of(m("C10", "SA", "D3"), 0) == 50


def test_all_hearts_bonus():
    assert score_of(HEARTS_MASK, 0) == 200
    assert score_of(HEARTS_MASK, shown("HA")) == 400
    assert score_of(HEARTS_MASK | m("SQ"), 0) == 100
    assert score_of(HEARTS_MASK | m("DJ", "C10"), 0) == 600
    assert score_of(HEARTS_MASK | m("C10"), shown("C10", "HA")) == 1600
    # twelve hearts are just hearts
    assert score_of(HEARTS_MASK & ~m("H2"), 0) == -200


def test_all_scoring_cards_is_800_and_shows_double_inside():
    assert score_of(SCORING_MASK, 0) == 800  # seed: 贏得了所有分牌與梅花10 -> +800
    assert score_of(SCORING_MASK | m("SA", "CA"), 0) == 800
    # shows: pig +200, goat +200, hearts +400, C10 x4
    assert score_of(SCORING_MASK, shown("SQ")) == (200 + 100 + 200) * 2
    assert score_of(SCORING_MASK, shown("SQ", "DJ", "C10", "HA")) == (400 + 200 + 200) * 4
    # without the C10 a sweep of the other 15 is all hearts with a negative pig
    assert score_of(SCORING_MASK & ~m("C10"), 0) == 200 - 100 + 100


def test_scores_and_winners_on_a_final_state():
    st = from_hands([list(range(13 * i, 13 * i + 13)) for i in range(4)])
    st.phase = "done"
    st.won = [m("SQ", "H5"), m("DJ", "C10"), HEARTS_MASK & ~m("H5"), 0]
    st.shown = [0b0001, 0, 0, 0]  # seat 0 showed the pig
    assert R.scores(st) == [-210, 200, -190, 0]
    assert R.winners(st) == [1]
    st.won = [0, 0, 0, 0]
    assert R.winners(st) == [0, 1, 2, 3]


# --- show phase, leading, following -------------------------------------------------------------

def fixed_hands() -> list[list[int]]:
    """Seat 1 holds the club 2; seat 0 holds SQ, the only HA holder is seat 2."""
    return [
        cards("SQ", "SK", "S3", "H3", "H4", "D2", "D3", "D4", "D5", "C3", "C4", "C5", "C6"),
        cards("C2", "S2", "S4", "S5", "S6", "H2", "H5", "H6", "D6", "D7", "D8", "C7", "C8"),
        cards("HA", "HK", "H7", "H8", "S7", "S8", "S9", "D9", "D10", "C9", "C10", "CJ", "CQ"),
        cards("DJ", "DQ", "DK", "DA", "SJ", "SA", "S10", "H9", "H10", "HJ", "HQ", "CK", "CA"),
    ]


def test_from_hands_validates():
    with pytest.raises(ValueError):
        from_hands(fixed_hands()[:3])
    bad = fixed_hands()
    bad[0] = bad[0][:12] + [bad[1][0]]
    with pytest.raises(ValueError):
        from_hands(bad)


def test_show_phase_order_and_legal_subsets():
    st = from_hands(fixed_hands())
    assert st.phase == "show" and st.to_move == 1 and st.first_seat == 1
    assert legal_actions(st) == [SHOW_BASE]  # seat 1 holds no showable card
    apply(st, SHOW_BASE)
    assert st.to_move == 2
    # seat 2 holds C10 (bit 2) and HA (bit 3)
    assert legal_actions(st) == [SHOW_BASE + x for x in (0, 4, 8, 12)]
    with pytest.raises(IllegalMove, match="not all of those cards"):
        apply(st, SHOW_BASE + 1)
    with pytest.raises(IllegalMove, match="show action"):
        apply(st, C10)
    apply(st, SHOW_BASE + 12)
    apply(st, SHOW_BASE + 2)   # seat 3 shows DJ
    apply(st, SHOW_BASE + 1)   # seat 0 shows SQ
    assert st.phase == "play" and st.to_move == 1 and st.leader == 1
    assert st.shown == [1, 0, 12, 2]
    assert st.shown_cards() == m("SQ", "DJ", "C10", "HA")
    assert [a for _, a in st.history] == [52, 64, 54, 53]


def test_club_two_leads_the_first_trick():
    st = from_hands(fixed_hands())
    for _ in range(4):
        apply(st, SHOW_BASE)
    assert legal_actions(st) == [C2]
    with pytest.raises(IllegalMove, match="club 2"):
        apply(st, parse_card("S2"))
    apply(st, C2)
    # seat 2 must follow clubs
    assert legal_actions(st) == cards("C9", "C10", "CJ", "CQ")
    with pytest.raises(IllegalMove, match="must follow suit C"):
        apply(st, parse_card("S7"))


def play_names(st, *names):
    for n in names:
        apply(st, parse_card(n))


def test_trick_winner_discard_is_lowest_and_winner_leads():
    assert R.trick_winner([(0, parse_card("C5")), (1, parse_card("SA")),
                           (2, parse_card("C3")), (3, parse_card("HA"))]) == 0
    assert R.trick_winner([(2, parse_card("D2")), (3, parse_card("DA")),
                           (0, parse_card("D3")), (1, parse_card("SA"))]) == 3
    st = from_hands(fixed_hands())
    for _ in range(4):
        apply(st, SHOW_BASE)
    play_names(st, "C2", "CQ", "CA", "C3")  # seats 1, 2, 3, 0
    assert st.tricks_done == 1 and st.leader == 3 and st.to_move == 3
    assert st.won[3] == m("C2", "CQ", "CA", "C3") and st.trick == []
    assert st.trick_winners == [3] and st.led_suits == 1 << R.CLUBS
    assert st.played[1] == [C2]


def test_void_player_may_discard_anything():
    st = from_hands(fixed_hands())
    for _ in range(4):
        apply(st, SHOW_BASE)
    play_names(st, "C2", "CQ", "CA", "C3")
    play_names(st, "DA", "D2", "D6", "D9")  # seat 3 leads diamonds, wins
    play_names(st, "DK", "D3", "D7", "D10")
    play_names(st, "DQ", "D4", "D8")
    # seat 2 is void in diamonds: any card
    assert legal_actions(st) == sorted(R.cards_of_mask(st.hands[2]))


def shown_game():
    """Seat 0 showed SQ, seat 2 showed C10 and HA, seat 3 showed DJ."""
    st = from_hands(fixed_hands())
    apply(st, SHOW_BASE)          # seat 1
    apply(st, SHOW_BASE + 12)     # seat 2: C10, HA
    apply(st, SHOW_BASE + 2)      # seat 3: DJ
    apply(st, SHOW_BASE + 1)      # seat 0: SQ
    return st


def test_shown_card_barred_in_its_suits_first_trick():
    st = shown_game()
    apply(st, C2)
    # first club trick: seat 2 may not play the shown C10 (it holds other clubs)
    assert C10 not in legal_actions(st)
    with pytest.raises(IllegalMove, match="shown card"):
        apply(st, C10)
    play_names(st, "C9", "CA", "C3")
    assert st.leader == 3
    # seat 3 may not lead its shown DJ: diamonds were never led (it holds other diamonds)
    assert DJ not in legal_actions(st)
    with pytest.raises(IllegalMove, match="shown card"):
        apply(st, DJ)
    play_names(st, "SA")
    # seat 0 follows spades' first trick: SQ barred (SK, S3 remain)
    assert legal_actions(st) == cards("S3", "SK")
    play_names(st, "S3", "S2", "S7")
    # clubs were led once: the C10 is free now; second club trick
    play_names(st, "CK", "C4", "C7")
    assert C10 in legal_actions(st)


def test_shown_card_singleton_may_be_played():
    hands = fixed_hands()
    # give seat 0 a singleton spade (the shown SQ): swap SK, S3 for seat 3's diamonds? keep
    # the deck split: exchange seat 0's SK, S3 with seat 1's D6, D7
    hands[0] = [c for c in hands[0] if c not in cards("SK", "S3")] + cards("D6", "D7")
    hands[1] = [c for c in hands[1] if c not in cards("D6", "D7")] + cards("SK", "S3")
    st = from_hands(hands)
    apply(st, SHOW_BASE)
    apply(st, SHOW_BASE)
    apply(st, SHOW_BASE)
    apply(st, SHOW_BASE + 1)  # seat 0 shows its lone spade, the SQ
    play_names(st, "C2", "C9", "CA", "C3")
    apply(st, parse_card("SA"))            # seat 3 leads spades
    assert legal_actions(st) == [SQ]       # seat 0: the shown SQ is its only spade


def test_shown_card_may_be_discarded_before_its_suit_is_led():
    hands = fixed_hands()
    # seat 0 trades its diamonds for seat 1's spades: void in diamonds, SQ + six spades
    hands[0] = [c for c in hands[0] if c not in cards("D2", "D3", "D4", "D5")] + cards(
        "S2", "S4", "S5", "S6")
    hands[1] = [c for c in hands[1] if c not in cards("S2", "S4", "S5", "S6")] + cards(
        "D2", "D3", "D4", "D5")
    st = from_hands(hands)
    for _ in range(3):
        apply(st, SHOW_BASE)
    apply(st, SHOW_BASE + 1)   # seat 0 shows SQ
    play_names(st, "C2", "C9", "CA", "C3")
    play_names(st, "DA")       # seat 3 leads diamonds; spades never led
    assert SQ in legal_actions(st)
    apply(st, SQ)
    play_names(st, "D2", "D9")
    assert st.won[3] >> SQ & 1 and R.scores(st)[3] == -200


def test_shown_card_lead_allowed_after_its_suit_was_led():
    st = shown_game()
    play_names(st, "C2", "C9", "CA", "C3")
    play_names(st, "SA", "S3", "S2", "S7")  # spades led once
    assert st.leader == 3
    play_names(st, "SJ")
    assert SQ in legal_actions(st)


def test_illegal_actions_have_clear_errors():
    st = from_hands(fixed_hands())
    for _ in range(4):
        apply(st, SHOW_BASE)
    with pytest.raises(IllegalMove, match="show action|not a card"):
        apply(st, SHOW_BASE)
    with pytest.raises(IllegalMove, match="not in hand"):
        apply(st, SQ)
    st.phase = "done"
    with pytest.raises(IllegalMove, match="over"):
        apply(st, C2)
    assert legal_actions(st) == []


# --- random games -----------------------------------------------------------------------------

def random_game(seed: int) -> R.GongzhuState:
    rng = np.random.default_rng(seed)
    st = deal(seed)
    while not R.is_terminal(st):
        legal = legal_actions(st)
        assert legal == sorted(legal) and legal
        apply(st, legal[int(rng.integers(len(legal)))])
    return st


def test_deal_is_deterministic_and_splits_the_deck():
    a, b = deal(7), deal(7)
    assert a.hands == b.hands and deal(8).hands != a.hands
    assert sum(h.bit_count() for h in a.hands) == 52
    assert a.hands[0] | a.hands[1] | a.hands[2] | a.hands[3] == R.ALL_CARDS
    assert a.hands[a.first_seat] >> C2 & 1


def test_copy_is_independent():
    st = deal(3)
    cp = st.copy()
    apply(cp, legal_actions(cp)[0])
    assert st.history == [] and st.phase == "show" and len(cp.history) == 1


def test_one_thousand_random_games_are_legal_and_consistent():
    for seed in range(1000):
        st = random_game(seed)
        assert st.tricks_done == 13 and all(h == 0 for h in st.hands)
        assert st.won[0] | st.won[1] | st.won[2] | st.won[3] == R.ALL_CARDS
        assert sum(w.bit_count() for w in st.won) == 52
        assert len(st.history) == 56 and all(len(p) == 13 for p in st.played)
        # every trick followed suit where it could: re-check from the history
        replay = from_hands([R.cards_of_mask(h) for h in deal(seed).hands])
        for seat, a in st.history:
            assert replay.to_move == seat
            assert a in legal_actions(replay)
            apply(replay, a)
        assert R.scores(replay) == R.scores(st)
        sc = R.scores(st)
        assert set(R.winners(st)) == {i for i in range(4) if sc[i] == max(sc)}
        assert all(-3200 <= x <= 3200 for x in sc)
