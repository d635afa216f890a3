"""The evaluation features: their count and names, the start position, the 8-fold symmetry."""

from __future__ import annotations

import numpy as np
import pytest

from ime.games.reversi.bitboard import BLACK_START, WHITE_START
from ime.imitators.reversi_features import (
    BASE_NAMES,
    CLASS_MASKS,
    NUM_BASE,
    feature_names,
    features,
    num_features,
    square_class,
)
from imitators.helpers import SYMMETRIES, random_positions, transform


def test_names_and_sizes() -> None:
    assert num_features(1) == NUM_BASE == len(BASE_NAMES) == len(set(BASE_NAMES))
    assert num_features(2) == 2 * NUM_BASE and num_features(4) == 4 * NUM_BASE
    assert feature_names(2)[0] == "sq0@open" and feature_names(2)[NUM_BASE] == "sq0@end"
    with pytest.raises(ValueError):
        feature_names(5)


def test_square_classes_partition_the_board() -> None:
    union = 0
    for m in CLASS_MASKS:
        assert union & int(m) == 0
        union |= int(m)
    assert union == (1 << 64) - 1
    assert [bin(int(m)).count("1") for m in CLASS_MASKS] == [4, 8, 8, 8, 4, 8, 8, 4, 8, 4]
    assert square_class(0) == square_class(63) == 0  # corners
    assert square_class(9) == 4  # X square B2


def test_start_position() -> None:
    f = features(int(BLACK_START), int(WHITE_START))
    expect = np.zeros(NUM_BASE)
    expect[BASE_NAMES.index("parity")] = -1.0  # 60 empties: the opponent plays last
    expect[BASE_NAMES.index("tempo")] = 1.0
    np.testing.assert_array_equal(f, expect)


def test_swapping_sides_negates_the_differences() -> None:
    sym = [k for k, n in enumerate(BASE_NAMES) if n not in ("parity", "tempo")]
    for P, O in random_positions(20, seed=5):
        np.testing.assert_allclose(features(P, O)[sym], -features(O, P)[sym], atol=1e-12)


@pytest.mark.parametrize("phases", [1, 2, 3, 4])
def test_the_8_symmetric_positions_have_the_same_features(phases: int) -> None:
    for P, O in random_positions(30, seed=11, max_ply=58):
        ref = features(P, O, phases)
        for name in SYMMETRIES:
            got = features(transform(P, name), transform(O, name), phases)
            np.testing.assert_allclose(got, ref, atol=1e-12, err_msg=name)


def test_phases_split_each_feature_by_the_empties() -> None:
    for P, O in random_positions(10, seed=2):
        one, two = features(P, O, 1), features(P, O, 2)
        np.testing.assert_allclose(two[:NUM_BASE] + two[NUM_BASE:], one, atol=1e-12)
        e = (64 - bin(P | O).count("1")) / 60
        np.testing.assert_allclose(two[:NUM_BASE], one * e, atol=1e-12)  # @open: e
        for phases in (3, 4):  # the blocks sum to the base features; at most two are nonzero
            many = features(P, O, phases).reshape(phases, NUM_BASE)
            np.testing.assert_allclose(many.sum(axis=0), one, atol=1e-12)
            assert (np.abs(many).sum(axis=1) > 0).sum() <= 2


def test_phase_anchors_interpolate() -> None:
    from ime.imitators.reversi_features import feature_names, phase_anchors

    assert phase_anchors(3) == [60, 30, 0] and phase_anchors(4) == [60, 40, 20, 0]
    assert feature_names(3)[NUM_BASE] == "sq0@e30"
    # 30 empties with 3 phases: all weight on the middle block
    P, O = random_positions(200, seed=3, min_ply=28, max_ply=32)[0]
    while 64 - bin(P | O).count("1") != 30:
        P, O = random_positions(1, seed=P % 1000, min_ply=30, max_ply=31)[0]
    many = features(P, O, 3).reshape(3, NUM_BASE)
    np.testing.assert_allclose(many[1], features(P, O, 1), atol=1e-12)
    assert not many[0].any() and not many[2].any()


def _board(squares: str) -> int:
    """A bitboard from algebraic squares ("a1 b1 ..."; a1 = square 0, h8 = 63)."""
    b = 0
    for s in squares.split():
        b |= 1 << ((int(s[1]) - 1) * 8 + "abcdefgh".index(s[0]))
    return b


def test_edge_stability_counts_the_chains_from_own_corners() -> None:
    idx_e, idx_f = BASE_NAMES.index("edge_stable"), BASE_NAMES.index("full_edges")
    # a1 with a chain b1 c1 (d1 not own) and a2 a3; h8 owned by the opponent with g8; e1 is own
    # but not chained (d1 breaks it); the interior disc d4 is no edge disc
    P = _board("a1 b1 c1 e1 a2 a3 d4")
    O = _board("h8 g8 d1 e5")
    f = features(P, O)
    assert f[idx_e] == 5 - 2 and f[idx_f] == 0
    # row 1 wholly own: its eight discs once (both walks meet), and one full edge
    P = _board("a1 b1 c1 d1 e1 f1 g1 h1")
    f = features(P, _board("d4 e5"))
    assert f[idx_e] == 8 and f[idx_f] == 1
    # h1 empty: the walk from a1 stops at g1, no full edge
    P = _board("a1 b1 c1 d1 e1 f1 g1")
    f = features(P, _board("d4 e5"))
    assert f[idx_e] == 7 and f[idx_f] == 0


def test_a_file_saved_before_the_edge_features_loads_with_them_at_zero(tmp_path) -> None:
    from ime.imitators.reversi_features import ADDED_FEATURES, weights_by_name

    names = feature_names(2)
    old = {n: float(i + 1) for i, n in enumerate(names) if n.split("@")[0] not in ADDED_FEATURES}
    w = weights_by_name(old, 2, "old.json")
    assert len(w) == num_features(2)
    for i, n in enumerate(names):
        assert w[i] == old.get(n, 0.0)
    del old["sq0@open"]  # a feature that was always there is still required
    with pytest.raises(ValueError, match="old.json.*sq0@open"):
        weights_by_name(old, 2, "old.json")


def test_the_search_refuses_weights_of_another_feature_count() -> None:
    """A vector fitted before v12's edge features (two fewer weights a phase) is refused, not
    read misaligned across the phase blocks."""
    from ime.imitators.reversi_features import ADDED_FEATURES
    from ime.imitators.reversi_search import SearchSettings
    from ime.imitators.search_fit import search_all

    P, O = random_positions(1, seed=3)[0]
    short = np.zeros(num_features(2) - 2 * len(ADDED_FEATURES))
    with pytest.raises(ValueError, match="weights for 54 features"):
        search_all(np.array([P], dtype=np.uint64), np.array([O], dtype=np.uint64), short,
                   SearchSettings(depth=1, phases=2))
