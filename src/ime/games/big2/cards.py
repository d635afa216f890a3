"""Cards, ranks, text forms and the deal of Big-2 (seed 004, "Shen Suan Zi").

The deck is the 52 cards without jokers. Card ids are ``0..51``; ids ``4r..4r+3`` are the four
suits of rank ``r`` for the ranks 3, 4, ..., K, A, 2 (``r = 0..12``, the seed's indices: "将纸牌
3, 4, ..., 2 映射为指标 0, 1, ..., 12"). Suits never matter to the rules, so a hand is also a
vector of 13 counts (:func:`counts_of`) and a play is a rank multiset; which card ids carry it is
chosen by :func:`pick_cards` (the lowest ids of each rank, the engine's canonical choice).

Text form (tests, docs): one character per card, ``3456789TJQKA2``, e.g. ``"33344456"``.

The deal (:func:`deal`): a seeded shuffle of the 52 cards; seat 0 gets the first ``hand_size``
cards, seat 1 the next ``hand_size``; the rest (none at the default 26) is set aside unseen.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import numpy as np

from ime.games.shedding.cards import RankLayout
from ime.games.shedding.deals import dealt_hands, initdata_object, seed_of

NUM_CARDS = 52
NUM_RANKS = 13
RANK_CHARS = "3456789TJQKA2"
RANK_TWO = 12
MAX_HAND = 26
"""The largest hand: the whole deck split between the two seats (the seed: "手牌的上限为 26 张")."""
SUIT_CHARS = "hdsc"

RANK_OF = np.array([c // 4 for c in range(NUM_CARDS)], dtype=np.int64)
"""Rank of every card id."""


def counts_of(cards: Iterable[int]) -> np.ndarray:
    """``int64[13]`` number of cards of each rank."""
    ids = np.fromiter((int(c) for c in cards), dtype=np.int64)
    return np.bincount(RANK_OF[ids], minlength=NUM_RANKS).astype(np.int64)


def _rank_of(card: int) -> int:
    return card // 4


RANKS = RankLayout(RANK_CHARS, (4,) * NUM_RANKS, NUM_CARDS, _rank_of, counts_of)
"""The deck's ranks; the text and canonical-id functions below are its methods."""
ranks_text = RANKS.ranks_text
parse_ranks = RANKS.parse_ranks
pick_cards = RANKS.pick_cards
cards_from_text = RANKS.cards_from_text


def card_name(card: int) -> str:
    """``"3h"`` ... ``"2c"``."""
    return RANK_CHARS[card // 4] + SUIT_CHARS[card % 4]


# --- the deal ----------------------------------------------------------------------------------
def deal(seed: int, hand_size: int = MAX_HAND) -> list[list[int]]:
    """The two hands dealt from ``seed``: ``numpy.random.default_rng(seed).permutation(52)``
    (PCG64), seat 0 the first ``hand_size`` cards, seat 1 the next ``hand_size``."""
    check_hand_size(hand_size)
    perm = [int(c) for c in np.random.default_rng(int(seed)).permutation(NUM_CARDS)]
    return [perm[:hand_size], perm[hand_size:2 * hand_size]]


def check_hand_size(hand_size: Any) -> int:
    """``hand_size`` as an int in ``1..26``; ValueError otherwise."""
    if isinstance(hand_size, bool) or not isinstance(hand_size, (int, np.integer)) \
            or not 1 <= int(hand_size) <= MAX_HAND:
        raise ValueError(f"big2: hand_size must be an integer in 1..{MAX_HAND}, got {hand_size!r}")
    return int(hand_size)


def parse_deal(initdata: Any, hand_size: int) -> list[list[int]] | None:
    """The two hands of an ``initdata`` (a mapping or its JSON text) with key ``hands``, or
    ``None`` when it names none (then the engine deals from a seed).

    Checked: two hands of ``hand_size`` distinct ids in ``0..51``, no card in both. The order of
    each hand is kept: the first request shows ``own`` in that order.
    """
    initdata = initdata_object(initdata, "big2")
    if initdata is None or "hands" not in initdata:
        return None
    hands = dealt_hands(initdata["hands"], [hand_size, hand_size], "hands", "big2",
                        f"this game deals {hand_size} each")
    every = [c for h in hands for c in h]
    if len(set(every)) != len(every) or not all(0 <= c < NUM_CARDS for c in every):
        raise ValueError("big2 initdata: the hands must be distinct card ids in 0..51")
    return hands


def deal_from(initdata: Any, seed: int | None, hand_size: int = MAX_HAND) -> list[list[int]]:
    """The hands of ``initdata`` when it has them, else :func:`deal` of its ``seed`` key, else of
    ``seed`` (default 0)."""
    parsed = parse_deal(initdata, hand_size)
    if parsed is not None:
        return parsed
    return deal(seed_of(initdata, seed, "big2"), hand_size)
