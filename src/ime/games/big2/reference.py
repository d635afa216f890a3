"""Slow, independent move enumerators: the oracles the compiled DP generator is tested against.

* :func:`brute_moves`: every sub-multiset of the hand, classified (:func:`hands.classify`) and
  filtered by :func:`hands.beats`. Exhaustive, so only for hands with few sub-multisets.
* :func:`table_moves`: every quadruple of the type table (:func:`hands.type_keys`) whose main
  cards the hand holds, with every kicker set (``itertools.combinations``). Independent of the
  DP's connection counts; fast enough for 26-card hands.

Both return the set of plays as 13-count tuples (the pass excluded).
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence

from ime.games.big2.cards import NUM_RANKS
from ime.games.big2.hands import HandType, beats, classify, type_keys


def _last_type(last: Sequence[int] | None) -> HandType | None:
    if last is None:
        return None
    main, length, mult, kmult = (int(x) for x in last)
    return HandType(main, length, mult, kmult)


def sub_multisets(counts: Sequence[int]) -> int:
    """How many sub-multisets a hand has (what :func:`brute_moves` walks)."""
    n = 1
    for c in counts:
        n *= int(c) + 1
    return n


def brute_moves(counts: Sequence[int], last: Sequence[int] | None) -> set[tuple[int, ...]]:
    """Every sub-multiset of ``counts`` that is a type and may lead / follow quadruple ``last``."""
    lt = _last_type(last)
    out = set()
    for sub in itertools.product(*(range(int(c) + 1) for c in counts)):
        t = classify(sub)
        if t is not None and beats(t, lt):
            out.add(tuple(sub))
    return out


def table_moves(counts: Sequence[int], last: Sequence[int] | None) -> set[tuple[int, ...]]:
    """Every play of ``counts`` found by walking the type table (see the module doc)."""
    lt = _last_type(last)
    c = [int(x) for x in counts]
    out = set()
    for main, length, mult, kmult in type_keys():
        mains = range(main - length + 1, main + 1)
        if any(c[r] < mult for r in mains):
            continue
        base = [0] * NUM_RANKS
        for r in mains:
            base[r] = mult
        if kmult == 0:
            kick_sets: list[tuple[int, ...]] = [()]
        else:
            free = [r for r in range(NUM_RANKS) if r not in mains and c[r] >= kmult]
            kick_sets = list(itertools.combinations(free, length))
        for ks in kick_sets:
            t = HandType(main, length, mult, kmult, ks)
            if beats(t, lt):
                play = list(base)
                for r in ks:
                    play[r] += kmult
                out.add(tuple(play))
    return out


__all__ = ["brute_moves", "game_value", "sub_multisets", "table_moves"]


def game_value(own: Sequence[int], opp: Sequence[int],
               last: Sequence[int] | None = None) -> int:
    """The exact value (cards, for the player to move) by plain minimax over
    :func:`table_moves`, memoised, without pruning or ordering: the oracle of the compiled
    search on small hands."""
    from functools import cache

    @cache
    def value(a: tuple[int, ...], b: tuple[int, ...], lt: tuple[int, ...] | None) -> int:
        if sum(b) == 0:
            return -sum(a)
        best = None
        for mv in table_moves(a, lt):
            rest = tuple(x - y for x, y in zip(a, mv, strict=True))
            t = classify(mv)
            assert t is not None
            v = -value(b, rest, t.key)
            best = v if best is None else max(best, v)
        if lt is not None:
            v = -value(b, a, None)
            best = v if best is None else max(best, v)
        assert best is not None
        return best

    return value(tuple(int(x) for x in own), tuple(int(x) for x in opp),
                 None if last is None else tuple(int(x) for x in last))
