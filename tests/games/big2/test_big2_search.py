"""The seed's agent's search: exact values against plain minimax, the move ordering, iterative
deepening, node budgets and determinism."""

from __future__ import annotations

import numpy as np
import pytest
from b2_helpers import random_counts

from ime.games.big2.cards import counts_of, deal, parse_ranks
from ime.games.big2.hands import type_keys
from ime.games.big2.movegen import generate_moves, pack
from ime.games.big2.reference import game_value
from ime.games.big2.search import (
    SOLVE_DEPTH,
    SearchParams,
    _order,
    decide,
    solve_values,
)
from ime.games.big2.tools import solve

KEYS = type_keys()


def _positions(n: int, seed: int, max_cards: int):
    """Random small positions ``(own, opp, last)``: two disjoint hands and a play to beat
    (leading a third of the time)."""
    rng = np.random.default_rng(seed)
    out = []
    while len(out) < n:
        a = random_counts(rng, int(rng.integers(1, max_cards + 1)))
        b = random_counts(rng, int(rng.integers(1, max_cards + 1)))
        if ((a + b) > 4).any():
            continue
        last = None if rng.random() < 0.35 else KEYS[int(rng.integers(len(KEYS)))]
        out.append((a, b, last))
    return out


@pytest.mark.slow
def test_exact_values_equal_plain_minimax():
    for a, b, last in _positions(80, 0, 5):
        values, _ = solve_values(a, b, last)
        assert values.max() == game_value(a, b, last), (a.tolist(), b.tolist(), last)


@pytest.mark.slow
def test_every_root_value_equals_plain_minimax():
    for a, b, last in _positions(25, 1, 5):
        values, _ = solve_values(a, b, last)
        m = generate_moves(a, last)
        for i in range(m.n):
            rest = a - m.counts[i]
            want = int(b.sum()) if rest.sum() == 0 else -game_value(b, rest, m.meta[i])
            assert values[i] == want
        if last is not None:
            assert values[m.n] == -game_value(b, a, None)  # the pass, tried last


@pytest.mark.slow
def test_the_agent_plays_an_optimal_move_when_it_solves():
    for a, b, last in _positions(60, 2, 10):
        r = decide(pack(a), pack(b), int(a.sum()), int(b.sum()), last, SearchParams())
        assert r.solved and r.depth == SOLVE_DEPTH
        values, _ = solve_values(a, b, last)
        assert values[r.choice] == values.max() == r.value


def test_iterative_deepening_ends_when_it_meets_no_estimate():
    params = SearchParams(exact_threshold=0, start_depth=1, first_nodes=10**7, nodes=10**7)
    for a, b, last in _positions(40, 3, 7):
        r = decide(pack(a), pack(b), int(a.sum()), int(b.sum()), last, params)
        values, _ = solve_values(a, b, last)
        assert r.solved and r.value == values.max() and values[r.choice] == r.value
        assert r.depth < SOLVE_DEPTH


def test_budgets_are_node_counts():
    a, b = (counts_of(h) for h in deal(5))
    for first, nodes in ((5000, 1000), (20000, 30000)):
        r = decide(pack(a), pack(b), 26, 26, None,
                   SearchParams(first_nodes=first, nodes=nodes))
        assert r.nodes <= max(first, nodes) + 1
    # the seed's start depth completes with enough nodes; deeper iterations follow
    r = decide(pack(a), pack(b), 26, 26, None, SearchParams(first_nodes=10**8, nodes=10**5))
    assert r.depth >= 8 and not r.solved
    # an exact attempt that runs out falls back to iterative deepening on top of its nodes
    a, b = (counts_of(h) for h in deal(6, 10))
    r = decide(pack(a), pack(b), 10, 10, None,
               SearchParams(exact_nodes=50, start_depth=2, first_nodes=10**6, nodes=2000))
    assert r.depth not in (0, SOLVE_DEPTH) and r.nodes > 50


def test_decisions_are_deterministic():
    a, b = (counts_of(h) for h in deal(7))
    p = SearchParams(first_nodes=100_000, nodes=20_000)
    first = decide(pack(a), pack(b), 26, 26, None, p)
    assert all(decide(pack(a), pack(b), 26, 26, None, p) == first for _ in range(3))


def test_the_seeds_move_ordering():
    hand = parse_ranks("33344456777789")
    m = generate_moves(hand, None)
    keys = np.empty(4096, np.int64)
    order = np.empty(4096, np.int64)
    _order(m.meta, m.n, True, keys, order)
    seq = [tuple(m.meta[i]) for i in order[:m.n]]
    cards = [x[1] * (x[2] + x[3]) for x in seq]
    bombs = [x[2] == 4 for x in seq]
    assert bombs == sorted(bombs)  # leading: bombs last ...
    plain = [(-c, x[0]) for c, x, bomb in zip(cards, seq, bombs, strict=True) if not bomb]
    assert plain == sorted(plain)  # ... after the longest, then smallest-main plays
    # following: the generator's order is the seed's (same type ascending, bombs), pass last
    _order(m.meta, m.n, False, keys, order)
    assert list(order[:m.n]) == list(range(m.n))


def test_solve_tool():
    out = solve("33344456/7789/5")
    assert out.score == -7 and out.best == ["6"]
    out = solve("2/3")
    assert out.score == 1 and out.best == ["2"]
    out = solve("34/56/3")  # following a 3: the 4 then the 3 can not win; the pass neither
    values, _ = solve_values(parse_ranks("34"), parse_ranks("56"), (0, 1, 1, 0))
    assert out.score == values.max()
