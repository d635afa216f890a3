"""A slow, literal reference: the judge's card-type test on card ids, and brute-force moves.

:func:`judge_type` follows Botzone's ``checkPokerType`` step by step on card *ids* converted to
the judge's points (``id // 4 + 3``, small joker 16, big joker 17) and returns the judge's type
name with its main and rest cards; :func:`judge_follow_error` is the judge's comparison.
:func:`brute_force_moves` enumerates every sub-multiset of a hand and keeps those the literal
judge accepts. The tests check the compiled generator and the counts-based classifier against
these; ``ime perft doudizhu --reference`` walks the game tree with them.
"""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Sequence

import numpy as np

from ime.games.doudizhu.cards import NUM_RANKS, pick_cards

PRIORITY = {"火箭": 3, "炸弹": 2}


def point(card: int) -> int:
    """The judge's ``convertToPoint``: 3..15 for 3..2, 16 small joker, 17 big joker."""
    return card // 4 + 3 + (card == 53)


def judge_type(cards: Sequence[int]) -> tuple[str, list[int], list[int]]:
    """``(type name, main cards, rest cards)`` as the judge's ``checkPokerType`` ("错误":
    invalid)."""
    poker = sorted(cards)
    n = len(poker)
    if n == 0:
        return "空", [], []
    if n == 1:
        return "单张", poker, []
    if n == 2:
        if poker == [52, 53]:
            return "火箭", poker, []
        return ("一对" if point(poker[0]) == point(poker[1]) else "错误"), poker, []
    pts = [point(c) for c in poker]
    cnt = Counter(pts)
    keys, vals = list(cnt.keys()), list(cnt.values())
    if n == 4 and vals.count(4) == 1:
        return "炸弹", poker, []
    seq = [pts[0] + i for i in range(n)]
    if n >= 5 and 15 not in seq and pts == seq:
        return "单顺", poker, []
    pair_seq = [pts[0] + i for i in range(n // 2) for _ in range(2)]
    if n >= 6 and n % 2 == 0 and 15 not in pair_seq and pts == pair_seq:
        return "双顺", poker, []
    if n <= 5 and vals.count(3) == 1:
        if vals.count(1) == 2:
            return "错误", poker, []
        three = keys[vals.index(3)]
        main = [c for c in poker if point(c) == three]
        return ["三带零", "三带一", "三带二"][n - 3], main, [c for c in poker if c not in main]
    if n == 6 and vals.count(4) == 1 and vals.count(1) == 2:
        four = keys[vals.index(4)]
        main = [c for c in poker if point(c) == four]
        return "四带两只", main, [c for c in poker if c not in main]
    if n == 8 and vals.count(4) == 1 and vals.count(2) == 2:
        four = keys[vals.index(4)]
        main = [c for c in poker if point(c) == four]
        return "四带两对", main, [c for c in poker if c not in main]
    groups: list[list[int]] = [[], [], [], [], []]
    for k, v in zip(keys, vals, strict=True):
        groups[v].append(k)
    sizes = [len(g) for g in groups]
    for size, names in ((3, ("飞机不带翼", "飞机带小翼", "飞机带大翼")),
                        (4, ("航天飞机不带翼", "航天飞机带小翼", "航天飞机带大翼"))):
        body = groups[size]
        if size == 4 and sizes[3] != 0:
            continue
        if len(body) > 1 and 15 not in body and body == [body[0] + i for i in range(len(body))]:
            if len(body) * size == n:
                return names[0], poker, []
            main = [c for c in poker if point(c) in body]
            rest = [c for c in poker if c not in main]
            if len(body) == sizes[1] and sizes[1] * (size + 1) == n:
                return names[1], main, rest
            if len(body) == sizes[2] and sizes[2] * (size + 2) == n:
                return names[2], main, rest
    return "错误", poker, []


def judge_follow_error(play: Sequence[int], last: Sequence[int]) -> str | None:
    """The judge's verdict on non-pass ``play`` after non-pass ``last`` (both valid)."""
    t_play, main_play, rest_play = judge_type(play)
    t_last, main_last, rest_last = judge_type(last)
    p_play, p_last = PRIORITY.get(t_play, 1), PRIORITY.get(t_last, 1)
    if p_last < p_play:
        return None
    if p_last > p_play:
        return "LESS_COMPARE"
    if t_last != t_play:
        return "MISMATCH_CARDTYPE"
    if len(main_last) != len(main_play) or len(rest_play) != len(rest_last):
        return "MISMATCH_CARDLENGTH"
    pairs = zip(main_play, main_last, strict=True)
    return None if all(point(a) > point(b) for a, b in pairs) else "LESS_COMPARE"


def brute_force_moves(hand: Sequence[int], last: Sequence[int] | None
                      ) -> list[tuple[int, ...]]:
    """Every sub-multiset of ``hand`` (canonical ids) that the literal judge accepts after
    ``last`` (``None``: leading; passes are not listed), sorted by count vector."""
    counts = np.zeros(NUM_RANKS, dtype=np.int64)
    for c in hand:
        counts[c // 4 if c < 52 else c - 39] += 1
    out = []
    for sub in itertools.product(*(range(int(k) + 1) for k in counts)):
        if not any(sub):
            continue
        cards = pick_cards(hand, sub)
        if judge_type(cards)[0] == "错误":
            continue
        if last is not None and judge_follow_error(cards, last) is not None:
            continue
        out.append(cards)
    return out


def perft_reference(hands: Sequence[Sequence[int]], depth: int) -> int:
    """Leaves ``depth`` plies from a deal (seat 0 to lead), moves from :func:`brute_force_moves`
    (one per rank multiset, passes included; a finished game is a leaf)."""
    return _perft([list(h) for h in hands], 0, None, 0, depth)


def _perft(hands: list[list[int]], to_move: int, last: tuple[int, ...] | None, passes: int,
           depth: int) -> int:
    if depth == 0:
        return 1
    lead = last is None or passes == 2
    moves = brute_force_moves(hands[to_move], None if lead else last)
    total = 0 if lead else _perft(hands, (to_move + 1) % 3, last, passes + 1, depth - 1)
    for m in moves:
        rest = [c for c in hands[to_move] if c not in m]
        if not rest:
            total += 1
            continue
        child = list(hands)
        child[to_move] = rest
        total += _perft(child, (to_move + 1) % 3, m, 0, depth - 1)
    return total
