"""The seed's dynamic-programming move generator against brute force, leading and following."""

from __future__ import annotations

import numpy as np
import pytest
from b2_helpers import random_counts

from ime.games.big2.cards import parse_ranks
from ime.games.big2.hands import classify, from_meta, type_keys
from ime.games.big2.movegen import MAX_MOVES, generate_moves
from ime.games.big2.reference import brute_moves, sub_multisets, table_moves
from ime.games.big2.tools import perft_leaves

KEYS = type_keys()


def dp(counts, last) -> list[tuple[int, ...]]:
    m = generate_moves(counts, last)
    return [tuple(int(x) for x in row) for row in m.counts]


def _lasts(rng, k: int) -> list:
    """Leading, then ``k`` random quadruples to follow (bombs among them)."""
    picks = [KEYS[int(i)] for i in rng.integers(len(KEYS), size=k)]
    return [None, *picks, (3, 1, 4, 0)]


def test_dp_equals_the_type_table_walk_on_random_26_card_hands():
    rng = np.random.default_rng(0)
    checked = 0
    for _ in range(300):
        hand = random_counts(rng, int(rng.integers(10, 27)))
        for last in _lasts(rng, 6):
            got = dp(hand, last)
            assert len(got) == len(set(got)), (hand, last)  # no play twice
            assert set(got) == table_moves(hand, last), (hand.tolist(), last)
            checked += 1
    assert checked == 300 * 8


def test_dp_equals_brute_force_over_every_sub_multiset():
    rng = np.random.default_rng(1)
    done = 0
    while done < 150:
        hand = random_counts(rng, int(rng.integers(1, 14)))
        if sub_multisets(hand) > 20000:
            continue
        for last in _lasts(rng, 4):
            assert set(dp(hand, last)) == brute_moves(hand, last), (hand.tolist(), last)
        done += 1


def test_following_only_the_same_shape_from_main_plus_one_then_bombs():
    hand = parse_ranks("3334445556667777")
    m = generate_moves(hand, (1, 2, 3, 1))  # to beat: 333444 + two singles
    metas = [tuple(int(x) for x in r) for r in m.meta]
    shapes = [x for x in metas if x[2] != 4]
    assert {x[1:] for x in shapes} == {(2, 3, 1)} and min(x[0] for x in shapes) == 2
    assert [x[0] for x in shapes] == sorted(x[0] for x in shapes)  # smallest main first
    assert metas[-1] == (4, 1, 4, 0)  # then the bomb
    # a bomb to beat: only higher bombs
    assert dp(parse_ranks("33334444"), (0, 1, 4, 0)) == [tuple(parse_ranks("4444"))]
    assert dp(parse_ranks("33334444"), (1, 1, 4, 0)) == []


def test_leading_order_is_by_main_rank():
    m = generate_moves(parse_ranks("33344456"), None)
    rows = list(zip(m.meta.tolist(), m.counts.tolist(), strict=True))
    names = [str(from_meta(*r, c)) for r, c in rows]
    assert names[:7] == ["3", "33", "333", "3334", "3335", "3336", "33344"]
    assert "33344456" in names and names.index("33344456") < names.index("5")
    for r, c in rows:
        assert classify(c).key == tuple(r)


@pytest.mark.parametrize("text", [
    "333444555666777888999TTT",      # 8 trios in a row: every chain, kickers from the trios
    "3334445556667778889TJQKA",      # 6 trios + 7 singles
    "33445566778899TTJJQQKKAA",      # 12 pairs
    "33334444555566667777888822",    # bombs
])
def test_adversarial_hands_fit_the_buffer(text):
    hand = parse_ranks(text)
    got = dp(hand, None)
    assert len(got) == len(table_moves(hand, None)) < MAX_MOVES // 2


def test_perft_matches_the_reference():
    for depth in (1, 2, 3):
        assert perft_leaves(depth) == perft_leaves(depth, reference=True)
