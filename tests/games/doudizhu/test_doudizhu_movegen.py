"""The compiled move generator against brute force with the literal judge, its order, perft."""

from __future__ import annotations

import numpy as np
import pytest

from ime.games.doudizhu.cards import cards_from_text, counts_of, deal, ranks_text
from ime.games.doudizhu.combos import ComboType as T
from ime.games.doudizhu.combos import classify
from ime.games.doudizhu.movegen import LEAD, generate_moves, random_playouts
from ime.games.doudizhu.reference import brute_force_moves
from ime.games.doudizhu.tools import perft_hands, perft_leaves

RICH = ["33334444555566667777", "3333444455556666XD22", "333444555666777888XD",
        "3334445556667778889T", "33445566778899TTJJQQ", "3456789TJQKA2XD22AAK",
        "333444555666XD2222AA", "3333444455556789TJXD"]


def _check(hand: list[int], last: tuple[int, ...] | None) -> int:
    if last is None:
        moves = generate_moves(hand)
    else:
        c = classify(counts_of(last))
        moves = generate_moves(hand, int(c.kind), c.rank, c.chain)
    got = moves.actions()
    assert len(set(got)) == len(got), "a rank multiset listed twice"
    want = brute_force_moves(hand, last)
    assert sorted(got) == sorted(want), (ranks_text(hand), last and ranks_text(last),
                                         {ranks_text(a) for a in set(got) ^ set(want)})
    for i, a in enumerate(got):  # rows agree with their cards
        assert list(moves.counts[i]) == list(counts_of(a))
        c = classify(moves.counts[i])
        assert (int(c.kind), c.rank, c.chain, c.n_cards) == tuple(moves.meta[i])
    return len(got)


@pytest.mark.slow
def test_random_small_hands_leading_and_following():
    rng = np.random.default_rng(5)
    for _ in range(120):
        hand = sorted(int(c) for c in rng.choice(54, int(rng.integers(1, 12)), replace=False))
        _check(hand, None)
        other = deal(int(rng.integers(1000)))[0][int(rng.integers(3))]
        lead = generate_moves(other).actions()
        for i in rng.choice(len(lead), 3, replace=False):
            _check(hand, lead[int(i)])


@pytest.mark.parametrize("text", RICH[:4])
def test_rich_hands_leading(text):
    assert _check(list(cards_from_text(text)), None) > 150


@pytest.mark.slow
def test_rich_hands_following_every_type():
    rng = np.random.default_rng(6)
    hands = [list(cards_from_text(t)) for t in RICH]
    lasts = [a for h in hands for a in generate_moves(h).actions()]
    kinds = set()
    for i in rng.choice(len(lasts), 40, replace=False):
        last = lasts[int(i)]
        kinds.add(classify(counts_of(last)).kind)
        small = list(cards_from_text(RICH[int(rng.integers(len(RICH)))]))[:14]
        _check(small, last)
    assert len(kinds) >= 10


def test_order_is_documented():
    hand = list(cards_from_text("3334445556789TXD"))
    m = generate_moves(hand)
    combos = [classify(row) for row in m.counts]
    keys = [(int(c.kind), c.chain, c.rank, c.kickers) for c in combos]
    assert keys == sorted(keys)  # type, chain length, main rank, kickers
    assert combos[0].kind == T.SINGLE and combos[-1].kind == T.ROCKET
    actions = m.actions()
    assert actions[0] == (0,)  # the lowest single carries the lowest id
    assert all(a == tuple(sorted(a)) for a in actions)
    # the kickers of a trio + single, in order, with the lowest ids of each rank
    hand = list(cards_from_text("3334445XD"))
    ts = [ranks_text(a) for a in generate_moves(hand, int(T.TRIO_SINGLE), -1, 1).actions()]
    assert ts == ["3334", "3335", "333X", "333D", "3444", "4445", "444X", "444D", "XD"]


def test_following_lists_same_type_then_bombs_then_rocket():
    hand = list(cards_from_text("356789TJ4444XD"))
    m = generate_moves(hand, int(T.STRAIGHT), 0, 5)
    got = [ranks_text(a) for a in m.actions()]
    assert got == ["45678", "56789", "6789T", "789TJ", "4444", "XD"]
    assert [ranks_text(a) for a in generate_moves(hand, int(T.BOMB), 0, 1).actions()] == \
        ["4444", "XD"]
    assert generate_moves(hand, int(T.ROCKET), 13, 1).n == 0


def test_capacity_is_grown_when_needed():
    hand = list(cards_from_text(RICH[2]))
    small = generate_moves(hand, LEAD, -1, 0, capacity=4)
    assert small.n == generate_moves(hand).n > 4 and len(small.actions()) == small.n


@pytest.mark.slow
def test_perft_equals_the_reference_walk():
    rng = np.random.default_rng(8)
    for _ in range(4):
        perm = [int(c) for c in rng.permutation(54)]
        hands = [perm[0:7], perm[7:13], perm[13:19]]
        for depth in (1, 3, 5):
            assert perft_hands(hands, depth) == perft_hands(hands, depth, reference=True)
    assert perft_leaves(1) == perft_leaves(1, reference=True) == 56


def test_perft_of_the_seed0_deal():
    """Regression anchors (the tree of one move per legal rank multiset, passes included)."""
    assert [perft_leaves(d) for d in range(1, 7)] == [56, 285, 1020, 5249, 22392, 103527]


@pytest.mark.slow
def test_compiled_random_playouts():
    plies, wins = random_playouts(200, 3, 4096)
    assert 20 * 200 < plies < 200 * 200 and 0 < wins < 200
    assert random_playouts(200, 3, 4096) == (plies, wins)
