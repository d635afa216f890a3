"""Big-2's action codes for the nets: 309 major codes and 26 kicker (minor) codes.

Modelled on the thesis's Doudizhu heads (Tables 5.2/5.3): a play is its **major** code (the
hand-type quadruple, kickers left out) and, for trio types with kickers, one **minor** code
per kicker, smallest rank first.

* Major codes: ``0`` the pass; ``1 .. 301`` the quadruples of
  :func:`ime.games.big2.hands.type_keys` in that order, except the trio chains of 6 with six
  singles: 1-13 singles, 14-26 pairs, 27-39 trios, 40-52 trio + single, 53-65 trio + pair,
  66-78 bombs (main rank 3 .. 2), 79-114 straights (length 5-12), 115-169 pair chains (3-12),
  170-225 trio chains (2-8), 226-263 trio chains + singles (2-5), 264-301 trio chains + pairs
  (2-5) (each by length, then main rank). :data:`RANGES` lists them.
* Minor codes: ``0 .. 12`` a single kicker of that rank, ``13 .. 25`` a pair kicker.

At most :data:`MAX_KICKERS` = 5 kickers, as Doudizhu's heads, so that the thesis's Doudizhu nets
(``ddz_conv1``/``ddz_conv2``: a major branch and one kicker branch applied to 5 steps) fit
unchanged. The one type with more, a trio chain of 6 with six singles (24 of a 26-card hand;
six consecutive trios are rare), has no code: like Doudizhu's space shuttle it is
*unencodable* (:func:`major_code` gives -1), datasets drop and count such a decision, and no
mask ever offers it to an imitator.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from ime.games.big2.cards import NUM_RANKS, RANK_CHARS
from ime.games.big2.hands import PASS, HandType, type_keys
from ime.games.kickers import KickerCodes

MAX_KICKERS = 5
MAJOR_KEYS: list[tuple[int, int, int, int] | None] = [
    None, *(k for k in type_keys() if not (k[3] and k[1] > MAX_KICKERS))]
"""Quadruple of every major code (``None``: the pass)."""
NUM_MAJOR = len(MAJOR_KEYS)
NUM_MINOR = 2 * NUM_RANKS
PAIR_MINOR = NUM_RANKS
_CODE_OF = {k: i for i, k in enumerate(MAJOR_KEYS) if k is not None}

MAJOR_COUNTS = np.zeros((NUM_MAJOR, NUM_RANKS), dtype=np.int64)
"""Main cards per rank of every major code."""
MAJOR_KICKERS = np.zeros(NUM_MAJOR, dtype=np.int64)
"""How many kickers every major code takes."""
MAJOR_KICKER_SIZE = np.zeros(NUM_MAJOR, dtype=np.int64)
"""Cards per kicker (kicker multiplicity) of every major code."""
for _code, _key in enumerate(MAJOR_KEYS):
    if _key is None:
        continue
    _main, _len, _mult, _k = _key
    MAJOR_COUNTS[_code, _main - _len + 1:_main + 1] = _mult
    MAJOR_KICKERS[_code] = _len if _k else 0
    MAJOR_KICKER_SIZE[_code] = _k


def _ranges() -> dict[str, tuple[int, int]]:
    names = {(1, 1, 0): "singles", (1, 2, 0): "pairs", (1, 3, 0): "trios",
             (1, 3, 1): "trio + single", (1, 3, 2): "trio + pair", (1, 4, 0): "bombs",
             (0, 1, 0): "straights", (0, 2, 0): "pair chains", (0, 3, 0): "trio chains",
             (0, 3, 1): "trio chains + singles", (0, 3, 2): "trio chains + pairs"}
    out: dict[str, tuple[int, int]] = {"pass": (0, 0)}
    for code, key in enumerate(MAJOR_KEYS):
        if key is None:
            continue
        name = names[(int(key[1] == 1), key[2], key[3])]
        lo, _ = out.get(name, (code, code))
        out[name] = (lo, code)
    return out


RANGES = _ranges()
"""Name -> (first, last) major code of each family."""


def major_code(t: HandType) -> int:
    """The major code of a hand type (0 for the pass, -1 for the unencodable type)."""
    return 0 if t.is_pass else _CODE_OF.get(t.key, -1)


def minor_code(rank: int, size: int) -> int:
    """The code of a kicker of ``size`` cards (1 or 2) of ``rank``."""
    if size not in (1, 2) or not 0 <= rank < NUM_RANKS:
        raise ValueError(f"no minor code for {size} cards of rank {rank}")
    return int(rank) + (PAIR_MINOR if size == 2 else 0)


def minor_rank(code: int) -> int:
    """The rank of minor code ``code``."""
    return int(code) % NUM_RANKS


def encode_type(t: HandType) -> tuple[int, list[int]]:
    """``(major code, minor codes smallest first)``; ``(-1, [])`` for the unencodable type."""
    major = major_code(t)
    if major < 0:
        return -1, []
    return major, [minor_code(r, t.kmult) for r in sorted(t.kickers)]


def type_from_codes(major: int, minors: Sequence[int] = ()) -> HandType:
    """The :class:`HandType` of a major code and its minor codes (any order; exactly as many
    as the major takes). ValueError when they do not fit."""
    if not 0 <= major < NUM_MAJOR:
        raise ValueError(f"major code {major} is not in 0..{NUM_MAJOR - 1}")
    key = MAJOR_KEYS[major]
    if key is None:
        if len(minors):
            raise ValueError(f"the pass takes no kickers, got {list(minors)}")
        return PASS
    main, length, mult, k = key
    need = int(MAJOR_KICKERS[major])
    if len(minors) != need:
        raise ValueError(f"major {major} takes {need} kickers, got {list(minors)}")
    if any(not 0 <= m < NUM_MINOR or (m >= PAIR_MINOR) != (k == 2) for m in minors):
        raise ValueError(f"minor codes {list(minors)} are not {k}-card kickers")
    kick = sorted(minor_rank(m) for m in minors)
    if len(set(kick)) != len(kick) or any(main - length < r <= main for r in kick):
        raise ValueError(f"kickers {kick} repeat a rank or use a main rank of major {major}")
    return HandType(main, length, mult, k, tuple(kick))


def counts_from_codes(major: int, minors: Sequence[int] = ()) -> np.ndarray:
    """``int64[13]`` cards per rank of the play ``(major, minors)``."""
    return np.array(type_from_codes(major, minors).counts, dtype=np.int64)


def kicker_candidates(hand: np.ndarray, major: int) -> np.ndarray:
    """Ranks that may be a kicker of ``major`` in ``hand`` (13 counts), ascending: not a main
    rank, at least the kicker's size in hand."""
    size = int(MAJOR_KICKER_SIZE[major])
    if size == 0:
        return np.zeros(0, dtype=np.int64)
    return np.flatnonzero((np.asarray(hand) >= size) & (MAJOR_COUNTS[major] == 0))


def minor_mask(hand: np.ndarray, major: int, prefix: Sequence[int]) -> np.ndarray:
    """``uint8[NUM_MINOR]``: the legal minor codes of the next kicker of ``major`` after the
    kicker codes ``prefix`` (:meth:`ime.games.kickers.KickerCodes.minor_mask`)."""
    return CODES.minor_mask(hand, major, prefix)


def major_label(code: int) -> str:
    """A major code's name for figure axes: ``pass``, ``33``, ``345678``, ``333+s`` (a trio with
    a single), ``333444+pp`` (a trio chain with two pairs)."""
    key = MAJOR_KEYS[code]
    if key is None:
        return "pass"
    main, length, mult, k = key
    text = "".join(RANK_CHARS[r] * mult for r in range(main - length + 1, main + 1))
    return text + ("+" + "sp"[k - 1] * length if k else "")


CODES = KickerCodes(NUM_MINOR, MAX_KICKERS, MAJOR_COUNTS, MAJOR_KICKERS, MAJOR_KICKER_SIZE,
                    minor_code, minor_rank, kicker_candidates, counts_from_codes)
"""The tables the kicker-step encoder (:mod:`ime.games.kickers`) needs."""

__all__ = ["CODES", "MAJOR_COUNTS", "MAJOR_KEYS", "MAJOR_KICKERS", "MAJOR_KICKER_SIZE",
           "MAX_KICKERS", "NUM_MAJOR", "NUM_MINOR", "PAIR_MINOR", "RANGES", "counts_from_codes",
           "encode_type", "kicker_candidates", "major_code", "major_label", "minor_code",
           "minor_mask", "minor_rank", "type_from_codes"]
