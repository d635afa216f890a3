"""The lookahead imitator's Doudizhu features. ``hand_turns``: the fewest plays that empty a
hand, a bomb kept whole, against a brute force over the engine's own move generator (without
the fours with kickers, as the feature's definition says); ``hand_split``: how such a split
plays each rank; ``seat_sizes``: the other seats' cards left against each play's."""

from __future__ import annotations

from functools import cache

import numpy as np
import pytest

from ime.games.doudizhu.cards import RANK_CHARS, RANK_OF
from ime.games.doudizhu.combos import ComboType
from ime.games.doudizhu.features import hand_split, min_turns
from ime.games.doudizhu.movegen import generate_moves

IDS = [list(np.flatnonzero(RANK_OF == r)) for r in range(15)]
FOURS_WITH_KICKERS = {int(ComboType.FOUR_SINGLES), int(ComboType.FOUR_PAIRS)}


@cache
def engine_turns(counts: tuple[int, ...]) -> int:
    """The fewest leads that empty ``counts``, searched over every lead the engine generates but
    a four with kickers."""
    if sum(counts) == 0:
        return 0
    mv = generate_moves([c for r, n in enumerate(counts) for c in IDS[r][:n]])
    return min(1 + engine_turns(tuple(int(a - b) for a, b in zip(counts, mv.counts[m],
                                                                    strict=True)))
               for m in range(mv.n) if int(mv.meta[m, 0]) not in FOURS_WITH_KICKERS)


def counts(text: str) -> np.ndarray:
    return np.bincount([RANK_CHARS.index(ch) for ch in text], minlength=15)


@pytest.mark.parametrize(("hand", "turns"), [
    ("34567", 1), ("3456789TJQKA", 1), ("334455", 1), ("333444", 1), ("33344456", 1),
    ("3334", 1), ("33345", 2), ("33334", 2), ("333345", 3), ("XD", 1), ("X2", 2),
    ("34567TT", 2), ("3456789TJQKA2XD", 3), ("333444555666", 1), ("3335557", 2), ("33355579", 2)])
def test_hand_made_hands(hand: str, turns: int) -> None:
    assert min_turns(counts(hand)) == turns == engine_turns(tuple(counts(hand)))


def test_it_equals_the_engine_on_dealt_hands() -> None:
    """Cut from seeded deals, 6 to 12 cards (the middle and end of a game): equal on all."""
    rng = np.random.default_rng(3)
    for _ in range(200):
        c = tuple(int(x) for x in np.bincount(RANK_OF[rng.permutation(54)[:rng.integers(6, 13)]],
                                              minlength=15))
        assert min_turns(c) == engine_turns(c), c


def test_hands_rich_in_chains_and_sets_are_within_two_plays() -> None:
    """Hands built around a run and repeated ranks: equal on at least 95 % (291 of 300 when
    written); the rest differ by a play or two (kickers broken out of a four or a trio, which
    the feature does not try)."""
    rng = np.random.default_rng(2)
    diffs = []
    while len(diffs) < 300:
        c = np.zeros(15, dtype=np.int64)
        lo, n = int(rng.integers(0, 8)), int(rng.integers(2, 6))
        c[lo:lo + n] = rng.integers(1, 4)
        for r in rng.choice(15, int(rng.integers(1, 5)), replace=False):
            c[r] = min(4 if r < 13 else 1, c[r] + int(rng.integers(1, 3)))
        if 0 < c.sum() <= 13:
            t = tuple(int(x) for x in c)
            diffs.append(min_turns(t) - engine_turns(t))
    assert sum(d == 0 for d in diffs) >= 0.95 * len(diffs)
    assert all(abs(d) <= 2 for d in diffs)


def test_the_kickers_of_a_play_made_before_come_out_of_the_hand() -> None:
    """What a trio-with-a-single leaves (its kicker not chosen yet): the single goes with it."""
    assert min_turns(counts("5TT")) == 2
    assert min_turns(counts("5TT"), kickers=1, size=1) == 1
    assert min_turns(counts("5TT"), kickers=1, size=2) == 1
    assert min_turns(counts("5TTKK"), kickers=2, size=2) == 1
    assert min_turns(counts("56"), kickers=1, size=1) == 1  # the 5 goes: the 6 is left
    assert min_turns(counts("56"), kickers=1, size=2) == 2  # no pair to take: both stay


def test_the_encoders_feature_plane_takes_the_majors_kicker_size() -> None:
    """A trio of 3s from 33356: with a single kicker the 5 goes and the 6 is one more play; with
    a pair kicker there is no pair to take, so the 5 and the 6 stay (two plays)."""
    import torch

    from ime.core.registry import get_encoder
    from ime.games.doudizhu.actions import major_code
    from ime.games.doudizhu.combos import Combo
    from ime.games.kickers import card_planes

    enc = get_encoder("doudizhu")
    planes = np.zeros((2, *enc.state_shape), dtype=np.float32)
    planes[:, 0] = card_planes(counts("33356"))
    codes = [major_code(Combo(ComboType.TRIO_SINGLE, 0, 1)),
             major_code(Combo(ComboType.TRIO_PAIR, 0, 1))]
    feat = enc.afterstate_feature_planes(torch.as_tensor(planes), torch.as_tensor(codes),
                                         ["hand_turns"])
    assert feat[:, 0].sum(dim=(1, 2)).tolist() == [4.0, 8.0]


def split_text(split: np.ndarray) -> list[str]:
    """Each row of a :func:`hand_split` as the ranks it marks."""
    return ["".join(RANK_CHARS[r] for r in np.flatnonzero(row)) for row in split]


@pytest.mark.parametrize(("hand", "kickers", "rows"), [
    ("34567TT", (0, 1), ["", "T", "", "34567"]),      # a straight and a loose pair
    ("3445556", (0, 1), ["6", "4", "35", ""]),       # the trio takes the 3, not the 6
    ("33345", (0, 1), ["5", "", "34", ""]),           # the lowest single goes as the kicker
    ("333444567", (0, 1), ["7", "", "3456", ""]),      # an airplane takes 5 and 6
    ("3333XD", (0, 1), ["", "", "", ""]),              # a bomb and the rocket: no row
    ("3579", (1, 1), ["579", "", "", ""]),             # the play before takes the 3
    ("3355K", (1, 2), ["K", "5", "", ""]),             # ... or the pair of 3s
])
def test_the_split_says_how_each_rank_is_played(hand: str, kickers: tuple[int, int],
                                                 rows: list[str]) -> None:
    assert split_text(hand_split(counts(hand), *kickers)) == rows


def test_the_split_marks_what_the_hand_holds_and_counts_the_fewest_plays() -> None:
    """On dealt hands: rows mark only held ranks, no rank is both a loose single and a loose
    pair, every held rank is in a row or a bomb or the rocket; where the split takes no chain
    and no trio, its loose singles and pairs, bombs and rocket add up to :func:`min_turns`."""
    rng = np.random.default_rng(5)
    checked = 0
    for _ in range(400):
        c = np.bincount(RANK_OF[rng.permutation(54)[:rng.integers(4, 18)]], minlength=15)
        s = hand_split(c)
        held = c > 0
        bombs = (c == 4) & (s.sum(axis=0) == 0)
        rocket = np.zeros(15, dtype=bool)
        rocket[13:] = bool(c[13] and c[14])
        assert not s[:, ~held].any() and not (s[0] & s[1]).any(), c
        assert (s.any(axis=0) | bombs | rocket | ~held).all(), c
        if not s[2:].any():
            checked += 1
            plays = int(s[0].sum() + s[1].sum() + bombs.sum()) + int(rocket.any())
            assert plays == min_turns(c), c
    assert checked > 40


def test_seat_sizes_compares_each_play_with_the_other_seats_cards_left() -> None:
    """The seats observation's feature: for every legal play of dealt positions, rows 0/1 say
    the next / previous seat holds as many cards as the whole play (kickers counted), rows 2/3
    fewer; without the seat planes the feature is not offered."""
    import torch

    from ime.core.registry import get_encoder
    from ime.games.doudizhu.game import GAME
    from ime.games.shedding.positions import random_positions

    enc = get_encoder("doudizhu", {"observation": "seats"})
    assert enc.afterstate_features == ("hand_turns", "hand_split", "controls", "seat_sizes")
    assert "seat_sizes" not in get_encoder("doudizhu").afterstate_features
    seen = set()
    for st in random_positions(GAME, 12, 7, (40, 90)):  # late: some seats hold few cards
        p = st.to_move
        legal = st.legal_actions()
        obs = enc.encode([st], [p], [legal[0]])
        codes = np.flatnonzero(obs.masks[0][0])
        x = torch.as_tensor(np.repeat(obs.planes, len(codes), axis=0), dtype=torch.float32)
        feat = enc.afterstate_feature_planes(x, torch.as_tensor(codes), ["seat_sizes"])[:, 0]
        for code, f in zip(codes, feat.numpy(), strict=True):
            play = int(enc.codes.major_counts[code].sum() + enc.codes.major_kickers[code]
                       * enc.codes.major_kicker_size[code])
            nxt, prv = st.cards_left((p + 1) % 3), st.cards_left((p + 2) % 3)
            want = [nxt == play, prv == play, nxt < play, prv < play]
            np.testing.assert_array_equal(f, np.repeat(np.array(want, dtype=np.float32)[:, None],
                                                       15, axis=1))
            seen.add(tuple(want))
    assert len(seen) >= 3
