"""Connect Four's search imitator engine: features and alpha-beta against a plain minimax."""

from __future__ import annotations

import numpy as np
import pytest

from ime.games.connect4.board import Geometry, mirror
from ime.imitators.connect4_features import feature_names, features, num_features
from ime.imitators.connect4_search import TERMINAL, search_all, tie_ranks
from ime.imitators.mmto import ranked_choices
from imitators.c4_helpers import GEO, minimax_root, random_positions


def test_features_count_the_windows_threats_and_columns() -> None:
    f = dict(zip(feature_names(1), features(GEO.bit(3, 0), 0, GEO), strict=True))
    assert f["own_win1"] == 7  # the bottom centre cell lies in 7 of the 69 windows
    assert f["own_col0"] == 1 and f["opp_win1"] == 0
    me = GEO.bit(3, 0) | GEO.bit(3, 1) | GEO.bit(3, 2)
    opp = GEO.bit(2, 0) | GEO.bit(4, 0) | GEO.bit(0, 0)
    f = dict(zip(feature_names(1), features(opp, me, GEO), strict=True))  # the opponent to move
    assert f["opp_now"] == 1 and f["opp_even"] == 1 and f["own_now"] == 0
    assert f["opp_win3"] == 1 and f["own_col1"] == 2 and f["own_col3"] == 1
    assert features(0, 0, GEO).sum() == 0
    assert num_features(2) == 2 * num_features(1)


def test_features_are_mirror_symmetric() -> None:
    for me, opp in random_positions(20, seed=3):
        a = features(me, opp, GEO, phases=2)
        b = features(int(mirror(np.uint64(me), GEO.g)), int(mirror(np.uint64(opp), GEO.g)),
                     GEO, phases=2)
        np.testing.assert_array_equal(a, b)


@pytest.mark.parametrize("depth", [1, 2, 3, 4])
def test_root_values_equal_plain_minimax(depth: int) -> None:
    rng = np.random.default_rng(depth)
    positions = random_positions(6 if depth < 4 else 3, seed=10 + depth, min_ply=4,
                                 max_ply=34)
    for phases in (1, 2):
        w = rng.normal(size=num_features(phases))
        me = np.array([p for p, _ in positions], dtype=np.uint64)
        opp = np.array([o for _, o in positions], dtype=np.uint64)
        res = search_all(me, opp, w, depth, phases, GEO)
        for i, (p, o) in enumerate(positions):
            a, b = res.offsets[i], res.offsets[i + 1]
            ref = minimax_root(p, o, w, depth, phases)
            assert list(res.squares[a:b]) == sorted(ref)
            np.testing.assert_allclose(res.values[a:b], [ref[c] for c in sorted(ref)],
                                       rtol=1e-12, atol=1e-9)
            # the PV leaf's signed features give each non-terminal value back
            live = ~res.terminal[a:b]
            np.testing.assert_allclose(res.features[a:b][live] @ w, res.values[a:b][live],
                                       rtol=1e-9, atol=1e-9)
            assert (np.abs(res.values[a:b][~live]) >= TERMINAL).all() or \
                (res.values[a:b][~live] == 0).all()


def test_a_win_is_taken_and_a_faster_win_is_worth_more() -> None:
    me = GEO.bit(3, 0) | GEO.bit(3, 1) | GEO.bit(3, 2)
    opp = GEO.bit(2, 0) | GEO.bit(4, 0) | GEO.bit(0, 0)
    res = search_all(np.array([me], np.uint64), np.array([opp], np.uint64),
                     np.zeros(num_features(1)), 3, 1, GEO)
    v = dict(zip(res.squares, res.values, strict=True))
    assert v[3] == TERMINAL + GEO.cells - 7 and res.terminal[list(res.squares).index(3)]
    assert ranked_choices(res, tie_ranks("first", 7))[0] == 3


def test_a_move_that_loses_at_once_is_valued_as_a_loss() -> None:
    # the opponent (three in column 0) wins next move unless the side to move blocks it
    me = GEO.bit(2, 0) | GEO.bit(4, 0) | GEO.bit(6, 0)
    opp = GEO.bit(0, 0) | GEO.bit(0, 1) | GEO.bit(0, 2)
    res = search_all(np.array([me], np.uint64), np.array([opp], np.uint64),
                     np.zeros(num_features(1)), 2, 1, GEO)
    v = dict(zip(res.squares, res.values, strict=True))
    assert all(v[c] <= -TERMINAL for c in v if c != 0) and v[0] > -TERMINAL


def test_tie_rules() -> None:
    assert list(np.argsort(tie_ranks("centre", 7))) == [3, 2, 4, 1, 5, 0, 6]
    assert list(np.argsort(tie_ranks("centre_right", 7))) == [3, 4, 2, 5, 1, 6, 0]
    assert list(np.argsort(tie_ranks("last", 7))) == [6, 5, 4, 3, 2, 1, 0]
    # the empty board with zero weights: every column ties
    res = search_all(np.zeros(1, np.uint64), np.zeros(1, np.uint64),
                     np.zeros(num_features(1)), 2, 1, GEO)
    got = {t: int(ranked_choices(res, tie_ranks(t, 7))[0]) for t in
           ("first", "last", "centre", "centre_right")}
    assert got == {"first": 0, "last": 6, "centre": 3, "centre_right": 3}
    even = Geometry(width=6, height=5)
    res = search_all(np.zeros(1, np.uint64), np.zeros(1, np.uint64),
                     np.zeros(num_features(1)), 1, 1, even)
    assert ranked_choices(res, tie_ranks("centre", 6))[0] == 2
    assert ranked_choices(res, tie_ranks("centre_right", 6))[0] == 3


def test_blocked_cells_and_a_wide_board() -> None:
    geo = Geometry(blocked=((3, 0), (3, 1)))
    w = np.random.default_rng(0).normal(size=num_features(1))
    positions = random_positions(4, seed=5, geo=geo)
    res = search_all(np.array([p for p, _ in positions], np.uint64),
                     np.array([o for _, o in positions], np.uint64), w, 3, 1, geo)
    for i, (p, o) in enumerate(positions):
        ref = minimax_root(p, o, w, 3, 1, geo)
        np.testing.assert_allclose(res.values[res.offsets[i]:res.offsets[i + 1]],
                                   [ref[c] for c in sorted(ref)], rtol=1e-12, atol=1e-9)
    with pytest.raises(ValueError, match="wide board"):
        search_all(np.zeros(1, np.uint64), np.zeros(1, np.uint64), np.zeros(20), 1, 1,
                   Geometry(width=12, height=12))
