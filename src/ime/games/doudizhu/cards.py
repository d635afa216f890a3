"""Cards, ranks and the deal of Botzone's FightTheLandlord (Doudizhu).

Card ids are the judge's: ``0..53``; ids ``4k..4k+3`` are the four suits of rank ``k`` for the
ranks 3, 4, ..., K, A, 2 (``k = 0..12``), ``52`` is the small joker and ``53`` the big joker.
The engine works on *ranks* ``0..14`` (3 .. 2, then small joker 13, big joker 14): suits never
matter to the rules, so a hand is also a vector of 15 counts (``counts_of``) and a combination
is a rank multiset; which card ids carry it is chosen by :func:`pick_cards` (the lowest ids of
each rank, the engine's canonical choice).

Text form (tests, docs, debugging): one character per card, ``3456789TJQKA2`` then ``X`` (small
joker) and ``D`` (big joker), e.g. ``"333444XD"``.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import numpy as np

from ime.games.shedding.cards import RankLayout
from ime.games.shedding.deals import card_ids, dealt_hands, initdata_object, seed_of

NUM_CARDS = 54
NUM_RANKS = 15
RANK_CHARS = "3456789TJQKA2XD"
RANK_TWO = 12
SMALL_JOKER = 13
BIG_JOKER = 14
LANDLORD = 0
HAND_SIZES = (20, 17, 17)
SUIT_CHARS = "hdsc"
"""Suit of ``id % 4``: hearts, diamonds, spades, clubs (the judge: 红桃 方块 黑桃 草花)."""

RANK_OF = np.array([c // 4 for c in range(52)] + [SMALL_JOKER, BIG_JOKER], dtype=np.int64)
"""Rank of every card id."""


def rank_of(card: int) -> int:
    """Rank ``0..14`` of card id ``card``."""
    return card // 4 if card < 52 else card - 39


def counts_of(cards: Iterable[int]) -> np.ndarray:
    """``int64[15]`` number of cards of each rank."""
    out = np.zeros(NUM_RANKS, dtype=np.int64)
    for c in cards:
        out[rank_of(int(c))] += 1
    return out


RANKS = RankLayout(RANK_CHARS, (4,) * 13 + (1, 1), NUM_CARDS, rank_of, counts_of)
"""The deck's ranks; the text and canonical-id functions below are its methods."""
ranks_text = RANKS.ranks_text
parse_ranks = RANKS.parse_ranks
pick_cards = RANKS.pick_cards
cards_from_text = RANKS.cards_from_text


def card_name(card: int) -> str:
    """``"3h"`` ... ``"2c"``, ``"X"`` (small joker), ``"D"`` (big joker)."""
    if card >= 52:
        return RANK_CHARS[rank_of(card)]
    return RANK_CHARS[card // 4] + SUIT_CHARS[card % 4]


# --- the deal ----------------------------------------------------------------------------------
def deal(seed: int) -> tuple[list[list[int]], list[int]]:
    """``(allocation, publiccard)`` dealt from ``seed``.

    The shuffle is ``numpy.random.default_rng(seed).permutation(54)`` (PCG64); as Botzone's
    judge does with its own shuffle, the landlord (seat 0) gets the first 20 cards, seat 1 the
    next 17, seat 2 the last 17, and the public cards are ``allocation[0][0:3]``. (Botzone's
    judge shuffles *before* seeding its generator, so its ``seed`` never reproduces a deal;
    logs carry the allocation itself.)
    """
    perm = [int(c) for c in np.random.default_rng(int(seed)).permutation(NUM_CARDS)]
    allocation = [perm[0:20], perm[20:37], perm[37:54]]
    return allocation, allocation[0][0:3]


def parse_deal(initdata: Any) -> tuple[list[list[int]], list[int]] | None:
    """``(allocation, publiccard)`` of a Botzone ``initdata`` (a mapping or its JSON text), or
    ``None`` when it names no allocation (then the engine deals from a seed).

    Checked: three hands of 20, 17 and 17 distinct ids covering ``0..53``, and 3 public cards
    in the landlord's hand (default ``allocation[0][0:3]``, as the judge). The order of each hand
    is kept: the judge's first request shows ``own`` in that order.
    """
    initdata = initdata_object(initdata, "doudizhu")
    if initdata is None or "allocation" not in initdata:
        return None
    hands = dealt_hands(initdata["allocation"], HAND_SIZES, "allocation", "doudizhu",
                        f"the judge deals {list(HAND_SIZES)}")
    if sorted(c for h in hands for c in h) != list(range(NUM_CARDS)):
        raise ValueError("doudizhu initdata: the allocation is not the 54 cards 0..53, once each")
    public = initdata.get("publiccard")
    public = hands[0][0:3] if public is None else card_ids(public, "publiccard", "doudizhu")
    if len(public) != 3 or len(set(public)) != 3 or not set(public) <= set(hands[0]):
        raise ValueError(f"doudizhu initdata: publiccard {public} must be 3 of the landlord's "
                         "cards")
    return hands, public


def deal_from(initdata: Any, seed: int | None) -> tuple[list[list[int]], list[int]]:
    """The deal of ``initdata`` when it has an allocation, else :func:`deal` of its ``seed``
    key (an integer or digit string), else of ``seed`` (default 0)."""
    parsed = parse_deal(initdata)
    if parsed is not None:
        return parsed
    return deal(seed_of(initdata, seed, "doudizhu"))
