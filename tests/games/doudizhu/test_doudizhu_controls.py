"""Doudizhu's `controls` afterstate feature (ime.games.doudizhu.controls): what of a play, and of
the hand it leaves, the unseen cards cannot beat, against its definition over the code tables
and against hand-made positions."""

from __future__ import annotations

import numpy as np
import pytest
import torch

from ime.games.doudizhu.actions import MAJOR_COUNTS, major_code
from ime.games.doudizhu.cards import RANK_CHARS
from ime.games.doudizhu.combos import Combo, ComboType
from ime.games.doudizhu.controls import beaten_by, controls

R = {ch: r for r, ch in enumerate(RANK_CHARS)}


def _counts(cards: str) -> np.ndarray:
    return np.bincount([R[ch] for ch in cards.split()], minlength=15).astype(np.int64)


def _feature(hand: np.ndarray, unseen: np.ndarray, codes: list[int]) -> np.ndarray:
    n = len(codes)
    return controls(torch.as_tensor(hand, dtype=torch.float32)[None].expand(n, -1),
                    torch.as_tensor(unseen, dtype=torch.float32)[None].expand(n, -1),
                    torch.as_tensor(codes)).numpy()


@pytest.mark.parametrize(("kind", "rank", "chain", "unseen", "beaten"), [
    (ComboType.SINGLE, R["A"], 1, "3 4 K", False),
    (ComboType.SINGLE, R["A"], 1, "3 2", True),
    (ComboType.SINGLE, R["X"], 1, "2 2 2", False),
    (ComboType.SINGLE, R["X"], 1, "2 D", True),  # the small joker under the big
    (ComboType.SINGLE, R["D"], 1, "2 2 2 2 X", False),
    (ComboType.PAIR, R["K"], 1, "A 2 X D", False),  # no pair above, jokers never pair
    (ComboType.PAIR, R["K"], 1, "2 2", True),
    (ComboType.TRIO_SINGLE, R["9"], 1, "T T 3", False),  # the kicker is not required
    (ComboType.TRIO_SINGLE, R["9"], 1, "T T T", True),
    (ComboType.STRAIGHT, R["3"], 5, "4 5 6 7 9", False),  # no run of five above 3
    (ComboType.STRAIGHT, R["3"], 5, "4 5 6 7 8", True),
    (ComboType.STRAIGHT, R["T"], 5, "J Q K A 2", False),  # a chain stops at the ace
    (ComboType.STRAIGHT, R["3"], 6, "5 6 7 8 9", False),  # a shorter run does not answer
    (ComboType.PAIR_STRAIGHT, R["5"], 3, "6 6 7 7 8 8", True),
    (ComboType.PAIR_STRAIGHT, R["5"], 3, "6 6 7 8 8 9 9", False),
    (ComboType.BOMB, R["7"], 1, "8 8 8 X D", False),  # the rocket is not counted
    (ComboType.BOMB, R["7"], 1, "8 8 8 8", True),
    (ComboType.ROCKET, R["X"], 1, "2 2 2 2", False),
])
def test_hand_made_plays(kind: ComboType, rank: int, chain: int, unseen: str,
                         beaten: bool) -> None:
    code = major_code(Combo(kind, rank, chain))
    u = _counts(unseen)
    assert beaten_by(u, code) is beaten
    hand = np.maximum(MAJOR_COUNTS[code], 0)
    assert _feature(hand, u, [code])[0, 3].tolist() == [float(not beaten)] * 15


def test_the_pass_is_never_unbeaten_and_the_rows_are_the_cards_kept() -> None:
    hand, unseen = _counts("3 3 5 A A A 2 D"), _counts("4 4 4 K K K X")
    pass_, pair3 = major_code(Combo(ComboType.PASS, -1, 0)), major_code(
        Combo(ComboType.PAIR, R["3"], 1))
    f = _feature(hand, unseen, [pass_, pair3])
    assert f[0, 3].sum() == 0  # the pass
    kept = f[1, :3]
    # singles no unseen card beats: the unseen X is above every rank but the big joker's
    assert np.flatnonzero(kept[0]).tolist() == [R["D"]]
    # pairs no unseen pair beats (the unseen pairs are 4 and K): A, kept as three
    assert np.flatnonzero(kept[1]).tolist() == [R["A"]]
    assert np.flatnonzero(kept[2]).tolist() == [R["A"]]  # no unseen trio above A
    assert np.flatnonzero(f[0, 1]).tolist() == [R["A"]]  # the pass keeps 3 3, beaten by 4 4


def test_it_equals_the_definition_for_every_legal_play_of_dealt_positions() -> None:
    """Row 3 against :func:`beaten_by` (every major of the play's type and length above it,
    tried) and rows 0-2 against a loop over the ranks, for the majors of every legal play of
    seeded positions, through the encoder's afterstate planes."""
    from ime.core.registry import get_encoder
    from ime.games.doudizhu.game import GAME
    from ime.games.shedding.positions import random_positions

    enc = get_encoder("doudizhu")
    assert "controls" in enc.afterstate_features
    kinds, checked = set(), 0
    for st in random_positions(GAME, 40, 11, (0, 60)):
        p = st.to_move
        obs = enc.encode([st], [p], [st.legal_actions()[0]])
        codes = np.flatnonzero(obs.masks[0][0])
        x = torch.as_tensor(np.repeat(obs.planes, len(codes), axis=0), dtype=torch.float32)
        feat = enc.afterstate_feature_planes(x, torch.as_tensor(codes), ["controls"])[:, 0]
        hand = obs.planes[0, 0].sum(axis=0).astype(np.int64)
        unseen = obs.planes[0, 3].sum(axis=0).astype(np.int64)
        for code, f in zip(codes, feat.numpy(), strict=True):
            left = hand - MAJOR_COUNTS[code]
            for k in range(3):
                want = [left[r] > k and not (unseen[r + 1:] > k).any() for r in range(15)]
                np.testing.assert_array_equal(f[k], np.array(want, dtype=np.float32))
            unbeaten = code != 0 and not beaten_by(unseen, int(code))
            np.testing.assert_array_equal(f[3], np.full(15, float(unbeaten), dtype=np.float32))
            kinds.add((int(code) != 0 and bool(unbeaten), int(MAJOR_COUNTS[code].max())))
            checked += 1
    assert checked > 150
    assert {(True, 1), (False, 1), (True, 2), (False, 2)} <= kinds
