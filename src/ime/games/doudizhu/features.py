"""A generic feature of a Doudizhu hand: how many plays it needs to empty itself ("手数").

Why: a player who leads chooses, among its combinations, what to give up now and what to keep,
and the standard measure of a hand in Doudizhu programs is the number of plays (turns with the
lead) it still needs. The lookahead imitator (:mod:`ime.nets.lookahead`) is given it for the
hand each legal play leaves (:meth:`ime.games.kickers.KickerStepEncoder.afterstates` with
``hand_turns``), and learns from the target's decisions how much it matters. It is the game's
feature, not any bot's valuation: it has no parameters.

:func:`min_turns` counts, over every way of taking chains out of the hand (straights of 5+
singles, pair straights of 3+ pairs, airplanes of 2+ trios, ranks 3 .. A), the fewest plays for
the rest, each rank then played as one bomb, trio, pair or single and both jokers as a rocket,
a trio taking one single or pair as its kicker and an airplane as many singles or as many pairs
as it has trios, when that saves plays. A four is a bomb, kept whole: the convention of hand
counts in Doudizhu programs (a bomb is not spent as a four with two kickers), and the better of
the two on a quick fold (docs/measurements/cpu-2026-12-06-ddz-seats/). Checked against a brute
force over the engine's own move generator without the fours with kickers, which it equals on
every dealt hand tried (tests/games/doudizhu/test_doudizhu_features.py). With the kickers of a
play made before (a major whose kickers are not chosen yet), they are taken from the loose
singles or pairs first, and any more are taken as free: an approximation, since such a kicker
breaks a larger set.
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np

CHAIN_RANKS = 12  # 3 .. A: a chain never holds a 2 or a joker
CHAINS = ((1, 5), (2, 3), (3, 2))  # (cards of each rank, shortest chain)


def _absorb(singles: int, pairs: int, groups: tuple[int, ...], trios: int) -> int:
    """The most loose singles and pairs that can go as kickers: each group of ``groups`` (an
    airplane's trios) takes exactly its number of singles or of pairs, or none; then each trio
    one of either."""
    if not groups:
        return min(trios, singles + pairs)
    n, rest = groups[0], groups[1:]
    best = _absorb(singles, pairs, rest, trios)
    if singles >= n:
        best = max(best, n + _absorb(singles - n, pairs, rest, trios))
    if pairs >= n:
        best = max(best, n + _absorb(singles, pairs - n, rest, trios))
    return best


def _rest(counts: tuple[int, ...], airplanes: tuple[int, ...], forced: tuple[int, int]) -> int:
    """Plays for ``counts`` without chains (the module doc): ``airplanes`` the trios of each
    airplane taken out (their kickers come from here), ``forced`` the ``(number, size)`` of the
    kickers a play made before still takes from this hand."""
    singles = pairs = trios = fixed = 0
    for c in counts[:13]:
        if c == 4:
            fixed += 1  # a bomb, kept whole
        elif c == 3:
            trios += 1
        elif c == 2:
            pairs += 1
        elif c == 1:
            singles += 1
    jokers = counts[13] + counts[14]
    if jokers == 2:
        fixed += 1
    else:
        singles += jokers
    k, size = forced  # taken first; what the loose cards cannot give comes out of a larger
    taken = min(k, singles if size == 1 else pairs)  # set, which then needs as many plays
    if size == 1:
        singles -= taken
    else:
        pairs -= taken
    return fixed + trios + singles + pairs - _absorb(singles, pairs, airplanes, trios)


@lru_cache(maxsize=1 << 20)
def _split(counts: tuple[int, ...], start: int, airplanes: tuple[int, ...],
           forced: tuple[int, int]) -> tuple[int, tuple[tuple[int, int, int], ...]]:
    """The fewest plays for ``counts`` taking chains that start at rank ``start`` or above
    (chains are taken in order of their lowest rank, so each set of chains is tried once), with
    the chains that reach it: ``(plays, ((first rank, end, cards a rank), ...))``, the first
    such set in the search's order (fewest chains on a tie)."""
    best: tuple[int, tuple[tuple[int, int, int], ...]] = (_rest(counts, airplanes, forced), ())
    for s in range(start, CHAIN_RANKS):
        for need, shortest in CHAINS:
            end = s
            while end < CHAIN_RANKS and counts[end] >= need:
                end += 1
            for stop in range(s + shortest, end + 1):
                left = list(counts)
                for r in range(s, stop):
                    left[r] -= need
                more = tuple(sorted((*airplanes, stop - s))) if need == 3 else airplanes
                n, chains = _split(tuple(left), s, more, forced)
                if 1 + n < best[0]:
                    best = (1 + n, ((s, stop, need), *chains))
    return best


def hand_split(counts: np.ndarray | tuple[int, ...], kickers: int = 0,
               size: int = 1) -> np.ndarray:
    """How a fewest-plays split of the hand (:func:`min_turns`, the same arguments) plays each
    rank: ``int8[4, 15]``, row 0 the ranks left as loose singles, 1 as loose pairs, 2 in a trio
    or airplane (their kickers too), 3 in a straight or pair straight; a bomb, the rocket and
    the kickers of the play before are in no row. Why: a rule bot that leads chooses which
    group of its hand to give up; among plays that leave as few plays, what the hand left still
    holds loose (a low single, a low pair) tells them apart. The split is the first fewest-plays
    one in the search's order, and kickers are the lowest loose singles, then pairs, that the
    count absorbs: an approximation where an airplane needs kickers of one size."""
    return _hand_split(tuple(int(x) for x in counts), (int(kickers), int(size))).copy()


@lru_cache(maxsize=1 << 18)
def _hand_split(counts: tuple[int, ...], forced: tuple[int, int]) -> np.ndarray:
    c = list(counts)
    _, chains = _split(counts, 0, (), forced)
    out = np.zeros((4, len(c)), dtype=np.int8)
    planes = []
    for first, end, need in chains:
        for r in range(first, end):
            c[r] -= need
            out[2 if need == 3 else 3, r] = 1
        if need == 3:
            planes.append(end - first)
    if c[13] + c[14] == 2:
        c[13] = c[14] = 0  # the rocket
    singles = [r for r, n in enumerate(c) if n == 1]
    pairs = [r for r, n in enumerate(c) if n == 2]
    k, z = forced
    taken = (singles if z == 1 else pairs)[:k]
    for r in taken:
        c[r] = 0
    singles, pairs = [r for r in singles if c[r]], [r for r in pairs if c[r]]
    trios = [r for r, n in enumerate(c) if n == 3]
    absorbed = _absorb(len(singles), len(pairs), tuple(sorted(planes)), len(trios))
    kick_s = singles[:absorbed]
    kick_p = pairs[:absorbed - len(kick_s)]
    for r in trios + kick_s + kick_p:
        out[2, r] = 1
    for r in singles[len(kick_s):]:
        out[0, r] = 1
    for r in pairs[len(kick_p):]:
        out[1, r] = 1
    return out


def min_turns(counts: np.ndarray | tuple[int, ...], kickers: int = 0, size: int = 1) -> int:
    """The fewest plays that empty a hand of ``counts`` (15 per-rank counts; the module doc),
    after ``kickers`` kickers of ``size`` cards (1 or 2) go with a play made before: a major's,
    not chosen yet, so the hand it leaves still holds them."""
    return int(_split(tuple(int(c) for c in counts), 0, (), (int(kickers), int(size)))[0])


__all__ = ["hand_split", "min_turns"]
