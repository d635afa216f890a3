"""Gongzhu's rule options (issue 33): the seed's HA-only doubling and its free first lead, each
scored or played on hand-made deals, next to today's defaults; the options reach the IME game."""

from __future__ import annotations

import numpy as np
import pytest

from ime.games.gongzhu import rules as R
from ime.games.gongzhu.game import GongzhuGame
from ime.games.gongzhu.plugin import PLUGIN
from ime.games.gongzhu.rules import (
    C2,
    HEARTS_MASK,
    SHOW_BASE,
    SQ,
    IllegalMove,
    RuleOptions,
    apply,
    from_hands,
    legal_actions,
    mask_of,
    parse_card,
    score_of,
)


def m(*names: str) -> int:
    return mask_of(parse_card(n) for n in names)


def fixed_hands() -> list[list[int]]:
    """Seat 1 holds the club 2; seat 0 holds SQ; seat 2 holds HA and C10."""
    c = lambda *ns: [parse_card(n) for n in ns]  # noqa: E731
    return [
        c("SQ", "SK", "S3", "H3", "H4", "D2", "D3", "D4", "D5", "C3", "C4", "C5", "C6"),
        c("C2", "S2", "S4", "S5", "S6", "H2", "H5", "H6", "D6", "D7", "D8", "C7", "C8"),
        c("HA", "HK", "H7", "H8", "S7", "S8", "S9", "D9", "D10", "C9", "C10", "CJ", "CQ"),
        c("DJ", "DQ", "DK", "DA", "SJ", "SA", "S10", "H9", "H10", "HJ", "HQ", "CK", "CA"),
    ]


def test_ha_only_doubles_the_heart_ace_alone():
    ha = m("HA")
    # HA shown; pile HA H5 H2: all -> (-50 - 10 + 0) * 2 = -120; ha_only -> -100 - 10 = -110
    assert score_of(m("HA", "H5", "H2"), ha) == -120
    assert score_of(m("HA", "H5", "H2"), ha, "ha_only") == -110
    # the ace need not be in the pile for "all"; under ha_only a pile without it is undoubled
    assert score_of(m("HK"), ha) == -80
    assert score_of(m("HK"), ha, "ha_only") == -40
    # the C10 still doubles the pile: (-100 - 40) * 2
    assert score_of(m("HA", "HK", "C10"), ha, "ha_only") == -280
    # unshown HA: both rules agree
    assert score_of(m("HA", "HK"), 0, "ha_only") == score_of(m("HA", "HK"), 0) == -90
    # all hearts: +400 with HA shown under either rule (the seed's text)
    assert score_of(HEARTS_MASK, ha, "ha_only") == score_of(HEARTS_MASK, ha) == 400
    assert score_of(HEARTS_MASK, 0, "ha_only") == 200


def test_scores_of_a_final_state_follow_the_state_rules():
    # seat 0: HA H2 H3 H4 H5 = -50 - 10 (H2..H4 are 0), seat 1: HK -40, seat 2: DJ +100
    for rules, want in ((RuleOptions(), [-120, -80, 100, 0]),
                        (RuleOptions(ha_doubling="ha_only"), [-110, -40, 100, 0])):
        st = from_hands(fixed_hands(), rules)
        st.phase = "done"
        st.shown = [0, 0, 0b1000, 0]  # seat 2 showed HA
        st.won = [m("HA", "H2", "H3", "H4", "H5"), m("HK"), m("DJ"), 0]
        assert R.scores(st) == want, rules
        assert R.scores(st.copy()) == want  # copies keep the rules


def test_club2_lead_is_forced_by_default_and_free_under_the_seed_rule():
    st = from_hands(fixed_hands())
    for _ in range(4):
        apply(st, SHOW_BASE)
    assert legal_actions(st) == [C2]
    with pytest.raises(IllegalMove, match="club 2"):
        apply(st, parse_card("S2"))

    st = from_hands(fixed_hands(), {"first_lead": "free"})
    assert st.first_seat == 1 and st.to_move == 1  # the club-2 holder still shows and leads
    for _ in range(4):
        apply(st, SHOW_BASE)
    assert st.to_move == 1
    assert legal_actions(st) == sorted(R.cards_of_mask(st.hands[1]))  # any of its 13 cards
    apply(st, parse_card("H6"))  # a heart lead in the first trick; seat 2 follows hearts
    assert legal_actions(st) == [parse_card(n) for n in ("H7", "H8", "HK", "HA")]


def test_free_first_lead_keeps_the_shown_card_bar():
    # seat 0 holds the club 2 and a shown SQ with other spades: it may not lead the SQ first
    hands = fixed_hands()
    hands[0], hands[1] = hands[1], hands[0]
    st = from_hands(hands, RuleOptions(first_lead="free"))
    assert st.first_seat == 0
    apply(st, SHOW_BASE)          # seat 0 (club 2) shows nothing
    apply(st, SHOW_BASE + 1)      # seat 1 shows SQ
    apply(st, SHOW_BASE)
    apply(st, SHOW_BASE)
    apply(st, parse_card("S2"))   # seat 0 leads a spade: the first spade trick
    assert SQ not in legal_actions(st) and parse_card("SK") in legal_actions(st)
    with pytest.raises(IllegalMove, match="shown card"):
        apply(st, SQ)


def test_bad_options_fail_with_the_name():
    with pytest.raises(ValueError, match="ha_doubling='double'"):
        RuleOptions(ha_doubling="double")
    with pytest.raises(ValueError, match="unknown gongzhu rule option"):
        RuleOptions.of({"first_leed": "free"})


def test_game_params_reach_the_deals_and_default_params_stay_empty():
    assert PLUGIN.make_game().params() == {}
    assert GongzhuGame(ha_doubling="all", first_lead="club2").params() == {}
    g = PLUGIN.make_game(ha_doubling="ha_only", first_lead="free")
    assert g.params() == {"ha_doubling": "ha_only", "first_lead": "free"}
    s = g.new_initial_state(seed=3)
    assert s.core.rules == R.SEED_RULES
    assert s.clone().core.rules == R.SEED_RULES
    # the options never change the cards of a seeded deal
    assert s.dealt == PLUGIN.make_game().new_initial_state(seed=3).dealt


@pytest.mark.parametrize("rules", [R.DEFAULT_RULES, R.SEED_RULES])
def test_random_games_under_each_rule_set_are_legal(rules):
    rng = np.random.default_rng(7)
    first_leads = set()
    for g in range(60):
        st = R.deal(g, rules)
        while not R.is_terminal(st):
            legal = legal_actions(st)
            a = legal[int(rng.integers(len(legal)))]
            if st.phase == "play" and st.tricks_done == 0 and not st.trick:
                first_leads.add(a)
            apply(st, a)
        assert st.won[0] | st.won[1] | st.won[2] | st.won[3] == R.ALL_CARDS
    if rules.first_lead == "club2":
        assert first_leads == {C2}
    else:
        assert len(first_leads) > 10
