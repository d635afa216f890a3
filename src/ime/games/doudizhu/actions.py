"""The thesis's action codes for Doudizhu: 309 major codes (Table 5.2) and 28 minor codes (5.3).

A play is a *major* part (the combination without its kickers: what decides whether it beats)
and 0..5 *minor* codes (its kickers, smallest first). Major codes, in Table 5.2's order; inside
a range the codes go by chain length, then by the lowest main rank (ranks ``0..14`` are
3 .. A, 2, small joker, big joker):

* 0 pass; 1 rocket; 2-14 bomb (3 .. 2); 15-29 solo (3 .. 2, small joker, big joker);
* 30-65 solo chain, length 5-12 (8 + 7 + ... + 1 = 36); 66-78 pair (3 .. 2);
* 79-130 pair chain, length 3-10 (10 + 9 + ... + 3 = 52); 131-143 trio (3 .. 2);
* 144-188 trio chain (airplane), length 2-6 (11 + 10 + 9 + 8 + 7 = 45); 189-201 trio + 1 solo;
* 202-239 trio chain + solos, length 2-5 (11 + 10 + 9 + 8 = 38); 240-252 trio + 1 pair;
* 253-282 trio chain + pairs, length 2-4 (11 + 10 + 9 = 30); 283-295 four + 2 solos;
  296-308 four + 2 pairs.

No sequence holds a 2 or a joker, and the longest chains are the longest that fit in 20 cards.
Minor codes: ``r`` (0-14) is a single of rank ``r`` (jokers included), ``15 + r`` (15-27) a pair
of rank ``r`` (no joker pair). A kicker never has a main rank and the kickers of one play have
distinct ranks (the judge's rules, :mod:`ime.games.doudizhu.combos`), so the ascending kicker
list of a play is unique and ``(major, minors)`` <-> rank multiset is one to one.

Space shuttles (two or more consecutive quads, with or without wings) have no code: Table 5.2
omits them. :func:`major_code` returns ``-1`` for them (see ``docs/games/doudizhu_encoding.md``).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from ime.games.doudizhu.cards import NUM_RANKS, RANK_TWO
from ime.games.doudizhu.combos import KICKER_SIZE, SHUTTLE_KINDS, Combo, ComboType, num_kickers
from ime.games.kickers import KickerCodes

T = ComboType
NUM_MAJOR = 309
NUM_MINOR = 28
PAIR_MINOR = 15
"""First pair minor code: ``15 + rank``."""
MAX_KICKERS = 5
"""The most kickers of any coded play (an airplane of 5 trios with 5 solos)."""

# (type, chain lengths) in Table 5.2's order; a chain's lowest rank runs 3 .. A - length + 1,
# a non-chain type's rank runs 3 .. 2 (solo: to the big joker).
_RANGES: tuple[tuple[ComboType, tuple[int, ...]], ...] = (
    (T.PASS, (0,)), (T.ROCKET, (1,)), (T.BOMB, (1,)), (T.SINGLE, (1,)),
    (T.STRAIGHT, tuple(range(5, 13))), (T.PAIR, (1,)), (T.PAIR_STRAIGHT, tuple(range(3, 11))),
    (T.TRIO, (1,)), (T.AIRPLANE, tuple(range(2, 7))), (T.TRIO_SINGLE, (1,)),
    (T.AIRPLANE_SINGLES, tuple(range(2, 6))), (T.TRIO_PAIR, (1,)),
    (T.AIRPLANE_PAIRS, tuple(range(2, 5))), (T.FOUR_SINGLES, (1,)), (T.FOUR_PAIRS, (1,)),
)

RANGES: dict[ComboType, tuple[int, int]] = {}
"""First and last major code of each type (Table 5.2)."""


def _ranks(kind: ComboType, chain: int) -> range:
    if kind == T.PASS:
        return range(-1, 0)
    if kind == T.ROCKET:
        return range(13, 14)
    if kind == T.SINGLE:
        return range(NUM_RANKS)
    if kind in (T.STRAIGHT, T.PAIR_STRAIGHT, T.AIRPLANE, T.AIRPLANE_SINGLES, T.AIRPLANE_PAIRS):
        return range(RANK_TWO - chain + 1)
    return range(RANK_TWO + 1)


def _build() -> tuple[list[tuple[ComboType, int, int]], dict[tuple[int, int, int], int]]:
    table: list[tuple[ComboType, int, int]] = []
    for kind, chains in _RANGES:
        first = len(table)
        for chain in chains:
            table += [(kind, r, chain) for r in _ranks(kind, chain)]
        RANGES[kind] = (first, len(table) - 1)
    return table, {(int(k), r, c): i for i, (k, r, c) in enumerate(table)}


MAJORS, _CODE_OF = _build()
"""``MAJORS[code] = (type, lowest main rank, chain length)``."""
assert len(MAJORS) == NUM_MAJOR, len(MAJORS)

MAJOR_KIND = np.array([int(k) for k, _, _ in MAJORS], dtype=np.int64)
MAJOR_RANK = np.array([r for _, r, _ in MAJORS], dtype=np.int64)
MAJOR_CHAIN = np.array([c for _, _, c in MAJORS], dtype=np.int64)
MAJOR_KICKERS = np.array([num_kickers(k, c) for k, _, c in MAJORS], dtype=np.int64)
"""Kickers a major code carries (0, 1, 2, ... 5)."""
MAJOR_KICKER_SIZE = np.array([KICKER_SIZE[k] for k, _, _ in MAJORS], dtype=np.int64)
"""Cards per kicker: 1 (solos), 2 (pairs), 0 (none)."""
MAJOR_COUNTS = np.stack([Combo(k, r, c).counts for k, r, c in MAJORS]).astype(np.int64)
"""``int64[309, 15]``: the main part's cards per rank (the pass: none)."""
assert MAJOR_KICKERS.max() == MAX_KICKERS


def major_code(combo: Combo) -> int:
    """Table 5.2's code of ``combo``'s main part; ``-1`` for a space shuttle (no code)."""
    if combo.kind in SHUTTLE_KINDS:
        return -1
    rank = -1 if combo.kind == T.PASS else combo.rank
    return _CODE_OF[(int(combo.kind), rank, combo.chain)]


def minor_code(rank: int, size: int) -> int:
    """Table 5.3's code of a kicker of ``size`` cards (1 or 2) of ``rank``."""
    if size == 1:
        return int(rank)
    if size != 2 or not 0 <= rank <= RANK_TWO:
        raise ValueError(f"no minor code for {size} cards of rank {rank}")
    return PAIR_MINOR + int(rank)


def minor_rank(code: int) -> int:
    """The rank of minor code ``code``."""
    return int(code) - PAIR_MINOR if code >= PAIR_MINOR else int(code)


def encode_combo(combo: Combo) -> tuple[int, list[int]]:
    """``(major code, minor codes smallest first)``; ``(-1, [])`` for a space shuttle."""
    major = major_code(combo)
    if major < 0:
        return -1, []
    size = combo.kicker_size
    return major, [minor_code(r, size) for r in sorted(combo.kickers)]


def combo_from_codes(major: int, minors: Sequence[int] = ()) -> Combo:
    """The :class:`Combo` of a major code and its minor codes (any order; exactly as many as
    the major carries). ValueError when they do not fit."""
    if not 0 <= major < NUM_MAJOR:
        raise ValueError(f"major code {major} is not in 0..{NUM_MAJOR - 1}")
    kind, rank, chain = MAJORS[major]
    need, size = int(MAJOR_KICKERS[major]), int(MAJOR_KICKER_SIZE[major])
    if len(minors) != need:
        raise ValueError(f"major {major} ({kind.name}) takes {need} kickers, got {list(minors)}")
    kick = sorted(minor_rank(m) for m in minors)
    if any((m >= PAIR_MINOR) != (size == 2) or not 0 <= m < NUM_MINOR for m in minors):
        raise ValueError(f"minor codes {list(minors)} are not {size}-card kickers")
    main = set(range(13, 15) if kind == T.ROCKET else range(rank, rank + chain))
    if len(set(kick)) != len(kick) or main & set(kick):
        raise ValueError(f"kickers {kick} repeat a rank or use a main rank of major {major}")
    return Combo(kind, rank, chain, tuple(kick))


def counts_from_codes(major: int, minors: Sequence[int] = ()) -> np.ndarray:
    """``int64[15]`` cards per rank of the play ``(major, minors)``."""
    return combo_from_codes(major, minors).counts


def kicker_candidates(hand: np.ndarray, major: int) -> np.ndarray:
    """Ranks that may be a kicker of ``major`` in ``hand`` (15 counts), ascending: not a main
    rank, at least the kicker's size in hand, no joker pair."""
    size = int(MAJOR_KICKER_SIZE[major])
    if size == 0:
        return np.zeros(0, dtype=np.int64)
    ok = (np.asarray(hand) >= size) & (MAJOR_COUNTS[major] == 0)
    if size == 2:
        ok[RANK_TWO + 1:] = False
    return np.flatnonzero(ok)


def minor_mask(hand: np.ndarray, major: int, prefix: Sequence[int]) -> np.ndarray:
    """``uint8[NUM_MINOR]``: the legal minor codes of the next kicker of ``major`` after the
    kicker codes ``prefix`` (:meth:`ime.games.kickers.KickerCodes.minor_mask`)."""
    return CODES.minor_mask(hand, major, prefix)


CODES = KickerCodes(NUM_MINOR, MAX_KICKERS, MAJOR_COUNTS, MAJOR_KICKERS, MAJOR_KICKER_SIZE,
                    minor_code, minor_rank, kicker_candidates, counts_from_codes)
"""The tables the kicker-step encoder (:mod:`ime.games.kickers`) needs."""

__all__ = ["CODES", "MAJORS", "MAJOR_CHAIN", "MAJOR_COUNTS", "MAJOR_KICKERS", "MAJOR_KICKER_SIZE",
           "MAJOR_KIND", "MAJOR_RANK", "MAX_KICKERS", "NUM_MAJOR", "NUM_MINOR", "PAIR_MINOR",
           "RANGES", "combo_from_codes", "counts_from_codes", "encode_combo", "kicker_candidates",
           "major_code", "minor_code", "minor_mask", "minor_rank"]
