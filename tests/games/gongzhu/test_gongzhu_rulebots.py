"""Gongzhu rule styles: legal in many games, deterministic, blind to other hands, and each style
does what its description says on hand-made positions."""

from __future__ import annotations

import numpy as np
import pytest

from ime.games.gongzhu import rules as R
from ime.games.gongzhu.bots.rulebots import RULE_STYLES, public_view, rule_action
from ime.games.gongzhu.rules import SHOW_BASE, SQ, apply, from_hands, parse_card


def play_game(styles: list[str], seed: int) -> R.GongzhuState:
    st = R.deal(seed)
    while not R.is_terminal(st):
        s = st.to_move
        a = rule_action(styles[s], st, s, np.random.default_rng([seed, len(st.history), s]))
        assert a in R.legal_actions(st)
        apply(st, a)
    return st


def test_styles_listed():
    assert set(RULE_STYLES) >= {"duck", "shoot", "low", "random"}
    with pytest.raises(ValueError, match="unknown"):
        rule_action("nope", R.deal(0), R.deal(0).to_move, np.random.default_rng(0))


def test_every_style_plays_legal_games():
    for seed in range(60):
        styles = [RULE_STYLES[(seed + i) % len(RULE_STYLES)] for i in range(4)]
        st = play_game(styles, seed)
        assert st.tricks_done == 13


def test_styles_are_deterministic():
    for seed in range(5):
        a = play_game(["duck", "shoot", "low", "random"], seed)
        b = play_game(["duck", "shoot", "low", "random"], seed)
        assert a.history == b.history


def test_styles_do_not_read_other_hands():
    """Re-deal the unseen cards among the other seats (same counts): no style changes its mind."""
    rng = np.random.default_rng(1)
    for seed in range(40):
        st = R.deal(seed)
        for _ in range(int(rng.integers(4, 40))):
            apply(st, R.legal_actions(st)[0])
        seat = st.to_move
        others = [s for s in range(4) if s != seat]
        pool = [c for s in others for c in R.cards_of_mask(st.hands[s])]
        rng.shuffle(pool)
        alt = st.copy()
        i = 0
        for s in others:
            n = st.hands[s].bit_count()
            alt.hands[s] = R.mask_of(pool[i:i + n])
            i += n
        for style in RULE_STYLES:
            r1 = np.random.default_rng(seed)
            r2 = np.random.default_rng(seed)
            assert rule_action(style, st, seat, r1) == rule_action(style, alt, seat, r2)
        assert public_view(st, seat).hand == st.hands[seat]


def names(*ns: str) -> list[int]:
    return [parse_card(n) for n in ns]


def hands_for_pig_dump() -> list[list[int]]:
    return [
        names("SQ", "S3", "H3", "H4", "HA", "D2", "D3", "D4", "D5", "C3", "C4", "C5", "C6"),
        names("C2", "S2", "S4", "S5", "S6", "H2", "H5", "H6", "D6", "D7", "D8", "C7", "C8"),
        names("SK", "HK", "H7", "H8", "S7", "S8", "S9", "D9", "D10", "C9", "C10", "CJ", "CQ"),
        names("DJ", "DQ", "DK", "DA", "SJ", "SA", "S10", "H9", "H10", "HJ", "HQ", "CK", "CA"),
    ]


def test_duck_drops_the_pig_under_a_higher_spade():
    st = from_hands(hands_for_pig_dump())
    for _ in range(4):
        apply(st, SHOW_BASE)
    for c in ("C2", "C9", "CA", "C3"):
        apply(st, parse_card(c))
    apply(st, parse_card("SA"))  # seat 3 leads the spade ace; seat 0 holds SQ, S3
    assert rule_action("duck", st, 0, np.random.default_rng(0)) == SQ
    assert rule_action("low", st, 0, np.random.default_rng(0)) == parse_card("S3")


def test_duck_and_low_discard_the_pig_when_void():
    hands = hands_for_pig_dump()
    # seat 0 void in diamonds: trade its diamonds for seat 1's spades
    hands[0] = [c for c in hands[0] if c not in names("D2", "D3", "D4", "D5")] + names(
        "S2", "S4", "S5", "S6")
    hands[1] = [c for c in hands[1] if c not in names("S2", "S4", "S5", "S6")] + names(
        "D2", "D3", "D4", "D5")
    st = from_hands(hands)
    for _ in range(4):
        apply(st, SHOW_BASE)
    for c in ("C2", "C9", "CA", "C3", "DA"):
        apply(st, parse_card(c))
    for style in ("duck", "low", "shoot"):
        assert rule_action(style, st, 0, np.random.default_rng(0)) == SQ


def test_shoot_runs_for_hearts_with_a_strong_heart_hand():
    hands = [
        names("HA", "HK", "HQ", "HJ", "H10", "H9", "H8", "C3", "C4", "D2", "D3", "S2", "S3"),
        names("C2", "H2", "H3", "H4", "H5", "S4", "S5", "S6", "S7", "D4", "D5", "D6", "C5"),
        names("H6", "H7", "S8", "S9", "S10", "SJ", "D7", "D8", "D9", "C6", "C7", "C8", "C9"),
        names("SQ", "SK", "SA", "DJ", "DQ", "DK", "DA", "D10", "C10", "CJ", "CQ", "CK", "CA"),
    ]
    st = from_hands(hands)
    apply(st, SHOW_BASE)  # seat 1
    apply(st, SHOW_BASE)  # seat 2
    apply(st, SHOW_BASE)  # seat 3
    assert st.to_move == 0
    assert rule_action("shoot", st, 0, np.random.default_rng(0)) == SHOW_BASE + 8  # show HA
    assert rule_action("duck", st, 0, np.random.default_rng(0)) == SHOW_BASE
