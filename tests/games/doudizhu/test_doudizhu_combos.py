"""Doudizhu combinations: every type, every invalid shape and every comparison rule of Botzone's
FightTheLandlord v1 judge, and the counts-based classifier against the literal judge port."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from ime.games.doudizhu.cards import (
    cards_from_text,
    counts_of,
    deal,
    parse_ranks,
    pick_cards,
    rank_of,
    ranks_text,
)
from ime.games.doudizhu.combos import (
    JUDGE_NAMES,
    Combo,
    classify,
    compare_error,
)
from ime.games.doudizhu.combos import ComboType as T
from ime.games.doudizhu.movegen import generate_moves
from ime.games.doudizhu.reference import judge_follow_error, judge_type
from ime.games.doudizhu.rules import final_scores


def cls(text: str) -> Combo | None:
    return classify(parse_ranks(text))


VALID = [
    # text, kind, lowest main rank (as text), chain, kickers (as text), judge points
    ("3", T.SINGLE, "3", 1, "", 1),
    ("2", T.SINGLE, "2", 1, "", 1),
    ("X", T.SINGLE, "X", 1, "", 1),
    ("D", T.SINGLE, "D", 1, "", 1),
    ("33", T.PAIR, "3", 1, "", 2),
    ("22", T.PAIR, "2", 1, "", 2),
    ("XD", T.ROCKET, "X", 1, "", 16),
    ("3333", T.BOMB, "3", 1, "", 10),
    ("2222", T.BOMB, "2", 1, "", 10),
    ("34567", T.STRAIGHT, "3", 5, "", 6),
    ("TJQKA", T.STRAIGHT, "T", 5, "", 6),
    ("3456789TJQKA", T.STRAIGHT, "3", 12, "", 6),
    ("334455", T.PAIR_STRAIGHT, "3", 3, "", 6),
    ("QQKKAA", T.PAIR_STRAIGHT, "Q", 3, "", 6),
    ("33445566778899TTJJQQ", T.PAIR_STRAIGHT, "3", 10, "", 6),
    ("333", T.TRIO, "3", 1, "", 4),
    ("222", T.TRIO, "2", 1, "", 4),
    ("3334", T.TRIO_SINGLE, "3", 1, "4", 4),
    ("222X", T.TRIO_SINGLE, "2", 1, "X", 4),
    ("33344", T.TRIO_PAIR, "3", 1, "4", 4),
    ("22233", T.TRIO_PAIR, "2", 1, "3", 4),
    ("333345", T.FOUR_SINGLES, "3", 1, "45", 8),
    ("3333XD", T.FOUR_SINGLES, "3", 1, "XD", 8),  # the two jokers are two single ranks
    ("2222AK", T.FOUR_SINGLES, "2", 1, "KA", 8),
    ("33334455", T.FOUR_PAIRS, "3", 1, "45", 8),
    ("333444", T.AIRPLANE, "3", 2, "", 8),
    ("KKKAAA", T.AIRPLANE, "K", 2, "", 8),
    ("333444555666777888", T.AIRPLANE, "3", 6, "", 8),
    ("33344456", T.AIRPLANE_SINGLES, "3", 2, "56", 8),
    ("333444XD", T.AIRPLANE_SINGLES, "3", 2, "XD", 8),
    ("3334445566", T.AIRPLANE_PAIRS, "3", 2, "56", 8),
    ("33334444", T.SHUTTLE, "3", 2, "", 10),
    ("333344445555", T.SHUTTLE, "3", 3, "", 20),  # >= 3 quads: +10 points
    ("3333444456", T.SHUTTLE_SINGLES, "3", 2, "56", 10),  # v1: n singles for n quads
    ("33334444XD", T.SHUTTLE_SINGLES, "3", 2, "XD", 10),
    ("333344445555678", T.SHUTTLE_SINGLES, "3", 3, "678", 20),
    ("333344445566", T.SHUTTLE_PAIRS, "3", 2, "56", 10),
]

INVALID = [
    "34", "3X", "2X", "334", "3344", "33445", "3456", "JQKA2", "KA2XD", "KKAA22", "3355",
    "33345",        # trio + two different singles
    "333XD",        # trio + both jokers: two singles, not a pair
    "33334",        # a four + one card
    "333344",       # a four + one pair
    "3333445",      # a four + a pair + a single
    "33335555",     # two quads, not consecutive (and not four + 2 pairs: the pairs are a quad)
    "333355556666",
    "33344455",     # airplane + two wings of one rank
    "3334445555",   # airplane + a bomb as wings
    "3334445",      # airplane + one wing for two trios
    "333444567",    # airplane + three wings for two trios
    "333555",       # trios not consecutive
    "KKKAAA222",    # rank 2 in an airplane
    "AAA222",
    "AAA22234",
    "4445552",      # airplane + one wing
    "333444555777",  # the trios 3,4,5,7 are not one chain (777 is no wing set)
    "3333444",      # a trio beside a four
    "333344445",    # shuttle + one single for two quads
    "3333444455",   # shuttle + two singles of one rank
    "22223333",     # rank 2 in a shuttle
    "333344445555678X",  # shuttle + 4 singles for 3 quads
]


@pytest.mark.parametrize("text,kind,rank,chain,kickers,points", VALID)
def test_every_combination_type(text, kind, rank, chain, kickers, points):
    c = cls(text)
    assert c is not None, text
    assert (c.kind, c.rank, c.chain) == (kind, parse_ranks(rank).argmax(), chain)
    assert ranks_text(np.array([1 if r in c.kickers else 0 for r in range(15)]),
                      counts=True) == kickers
    assert c.points == points
    assert c.text() == ranks_text(parse_ranks(text), counts=True)
    np.testing.assert_array_equal(c.counts, parse_ranks(text))
    assert c.n_cards == len(text)
    # the literal judge agrees on the type and the main/rest split
    name, main, rest = judge_type(cards_from_text(text))
    assert name == JUDGE_NAMES[kind]
    assert (c.main_cards, c.n_cards - c.main_cards) == (len(main), len(rest))


def test_all_types_are_covered():
    assert {v[1] for v in VALID} == set(T) - {T.PASS}


@pytest.mark.parametrize("text", INVALID)
def test_invalid_shapes(text):
    assert cls(text) is None, text
    assert judge_type(cards_from_text(text))[0] == "错误"


def test_pass_and_parse():
    assert classify(np.zeros(15, int)).is_pass and str(cls("")) == "pass:pass"
    assert cards_from_text("3334") == (0, 1, 2, 4)
    assert cards_from_text("XD2") == (48, 52, 53)
    assert [rank_of(c) for c in (0, 3, 4, 51, 52, 53)] == [0, 0, 1, 12, 13, 14]
    with pytest.raises(ValueError):
        parse_ranks("33333")
    with pytest.raises(ValueError):
        parse_ranks("3Z")
    with pytest.raises(ValueError):
        pick_cards([0, 1], parse_ranks("333"))


BEATS = [  # play, last, verdict (None: it beats)
    ("4", "3", None), ("3", "3", "LESS_COMPARE"), ("3", "4", "LESS_COMPARE"),
    ("X", "2", None), ("D", "X", None), ("X", "D", "LESS_COMPARE"),
    ("44", "3", "MISMATCH_CARDTYPE"), ("3", "44", "MISMATCH_CARDTYPE"),
    ("45678", "34567", None), ("34567", "45678", "LESS_COMPARE"),
    ("456789", "34567", "MISMATCH_CARDLENGTH"), ("445566", "334455", None),
    ("44556677", "334455", "MISMATCH_CARDLENGTH"),
    ("4443", "3335", None), ("3335", "4443", "LESS_COMPARE"),
    ("4443", "33355", "MISMATCH_CARDTYPE"), ("444", "3334", "MISMATCH_CARDTYPE"),
    ("44433", "333AA", None),  # kickers never count
    ("444435", "333378", None), ("44443355", "3333AAKK", None),
    ("444435", "33337788", "MISMATCH_CARDTYPE"),
    ("44455536", "33344478", None), ("444555666", "333444", "MISMATCH_CARDLENGTH"),
    ("444555", "33344456", "MISMATCH_CARDTYPE"), ("4445553366", "3334447788", None),
    ("4444555567", "3333444489", None), ("44445555", "33334444", None),
    ("444455556666", "33334444", "MISMATCH_CARDLENGTH"),
    ("3333", "2", None), ("3333", "3456789TJQKA", None), ("3333", "222", None),
    ("4444", "3333", None), ("3333", "4444", "LESS_COMPARE"),
    ("2", "3333", "LESS_COMPARE"), ("33334444", "4444", "LESS_COMPARE"),
    ("XD", "2222", None), ("XD", "3", None), ("2222", "XD", "LESS_COMPARE"),
    ("D", "XD", "LESS_COMPARE"),
]


@pytest.mark.parametrize("play,last,verdict", BEATS)
def test_beating_rules(play, last, verdict):
    a, b = cls(play), cls(last)
    assert a is not None and b is not None
    assert compare_error(a, b) == verdict
    assert a.beats(b) == (verdict is None)
    assert judge_follow_error(cards_from_text(play), cards_from_text(last)) == verdict


def test_leading_and_passing():
    assert cls("3").beats(None) and not cls("").beats(None) and not cls("").beats(cls("3"))


def _agree(counts) -> T | None:
    """Classify ``counts`` both ways, assert they agree; the type (None: invalid)."""
    names = {v: k for k, v in JUDGE_NAMES.items()}
    cards = pick_cards(range(54), counts)
    name, main, rest = judge_type(cards)
    c = classify(counts)
    if name == "错误":
        assert c is None, ranks_text(cards)
        return None
    assert c is not None and c.kind == names[name], ranks_text(cards)
    assert (c.main_cards, c.n_cards - c.main_cards) == (len(main), len(rest))
    return c.kind


def test_classifier_matches_the_literal_judge_on_random_multisets():
    rng = np.random.default_rng(0)
    seen = set()
    for _ in range(40):
        hand = sorted(int(c) for c in rng.choice(54, 14, replace=False))
        subs = list(itertools.product(*(range(int(k) + 1) for k in counts_of(hand))))
        for i in rng.choice(len(subs), min(len(subs), 200), replace=False):
            seen.add(_agree(np.array(subs[int(i)])))
    # near-valid multisets: every legal move of some hands, one card added or removed
    rich = [cards_from_text(t) for t in ("33334444555566667777", "333444555666777XD22A",
                                         "3333444455556789TJXD", "33445566778899TTJJQQ")]
    for hand in [h for s in range(4) for h in deal(s)[0]] + rich:
        for row in generate_moves(hand).counts.astype(np.int64):
            seen.add(_agree(row))
            r = int(rng.integers(15))
            more, less = row.copy(), row.copy()
            more[r] += 1
            if more[r] <= (4 if r < 13 else 1):
                seen.add(_agree(more))
            nz = np.flatnonzero(less)
            less[nz[int(rng.integers(len(nz)))]] -= 1
            seen.add(_agree(less))
    assert seen >= set(T)


def test_comparison_matches_the_literal_judge_on_same_type_plays():
    rng = np.random.default_rng(1)
    by_kind: dict[T, list[tuple[int, ...]]] = {}
    for s in range(12):
        alloc, _ = deal(s)
        for hand in alloc:
            m = generate_moves(hand)
            for i, a in enumerate(m.actions()):
                by_kind.setdefault(T(int(m.meta[i, 0])), []).append(a)
    plays = [a for v in by_kind.values() for a in v]
    kinds = list(by_kind)
    for _ in range(3000):
        group = by_kind[kinds[int(rng.integers(len(kinds)))]]
        x = group[int(rng.integers(len(group)))]
        pool = group if rng.random() < 0.7 else plays
        y = pool[int(rng.integers(len(pool)))]
        cx, cy = classify(counts_of(x)), classify(counts_of(y))
        assert compare_error(cx, cy) == judge_follow_error(x, y), (ranks_text(x), ranks_text(y))


def test_final_scores_are_the_judges_floats():
    farmers = (20 / 100 + 5 / 100) / 2
    assert final_scores(0, [37, 20, 5]) == [2 + 37 / 100, farmers, farmers]
    s = final_scores(2, [10, 3, 16])
    assert s[0] == 0.1 and s[1] == s[2] == ((2 + 3 / 100) + (2 + 16 / 100)) / 2
