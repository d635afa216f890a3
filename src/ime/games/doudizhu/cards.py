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

import json
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

import numpy as np

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


def ranks_text(cards_or_counts: Iterable[int] | np.ndarray, *, counts: bool = False) -> str:
    """``"333445"``-style text of card ids (or of a counts vector with ``counts=True``)."""
    c = np.asarray(cards_or_counts) if counts else counts_of(cards_or_counts)
    return "".join(RANK_CHARS[r] * int(c[r]) for r in range(NUM_RANKS))


def parse_ranks(text: str) -> np.ndarray:
    """Counts vector of a rank text (``"333444XD"``); spaces are ignored."""
    out = np.zeros(NUM_RANKS, dtype=np.int64)
    for ch in text.replace(" ", ""):
        r = RANK_CHARS.find(ch.upper())
        if r < 0:
            raise ValueError(f"unknown rank character {ch!r} in {text!r} (use {RANK_CHARS})")
        out[r] += 1
    if (out[:13] > 4).any() or (out[13:] > 1).any():
        raise ValueError(f"{text!r} has more cards of a rank than a deck")
    return out


def cards_from_text(text: str) -> tuple[int, ...]:
    """The lowest card ids that spell ``text`` in a full deck (tests: ``"3334"`` -> 0, 1, 2, 4)."""
    return pick_cards(range(NUM_CARDS), parse_ranks(text))


def pick_cards(hand: Iterable[int], counts: Sequence[int] | np.ndarray) -> tuple[int, ...]:
    """The canonical card ids of rank multiset ``counts`` from ``hand``: the lowest ids of each
    rank, ascending. Raises ValueError when ``hand`` lacks them."""
    by_rank: list[list[int]] = [[] for _ in range(NUM_RANKS)]
    for c in sorted(int(x) for x in hand):
        by_rank[rank_of(c)].append(c)
    out: list[int] = []
    for r in range(NUM_RANKS):
        k = int(counts[r])
        if k > len(by_rank[r]):
            raise ValueError(f"hand {ranks_text(hand)} has no {k} x {RANK_CHARS[r]}")
        out += by_rank[r][:k]
    return tuple(out)


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


def _int_list(v: Any, what: str) -> list[int]:
    if not isinstance(v, (list, tuple)) or not all(
            isinstance(c, (int, np.integer)) and not isinstance(c, bool) for c in v):
        raise ValueError(f"doudizhu initdata: {what} must be a list of card ids, got {v!r}")
    return [int(c) for c in v]


def parse_deal(initdata: Any) -> tuple[list[list[int]], list[int]] | None:
    """``(allocation, publiccard)`` of a Botzone ``initdata`` (a mapping or its JSON text), or
    ``None`` when it names no allocation (then the engine deals from a seed).

    Checked: three hands of 20, 17 and 17 distinct ids covering ``0..53``, and 3 public cards
    in the landlord's hand (default ``allocation[0][0:3]``, as the judge). The order of each hand
    is kept: the judge's first request shows ``own`` in that order.
    """
    if isinstance(initdata, str):
        initdata = json.loads(initdata) if initdata.strip() else None
    if not initdata:
        return None
    if not isinstance(initdata, Mapping):
        raise ValueError(f"doudizhu initdata must be an object, got {initdata!r}")
    if "allocation" not in initdata:
        return None
    alloc = initdata["allocation"]
    if not isinstance(alloc, (list, tuple)) or len(alloc) != 3:
        raise ValueError(f"doudizhu initdata: allocation must hold 3 hands, got {alloc!r}")
    hands = [_int_list(h, f"allocation[{i}]") for i, h in enumerate(alloc)]
    if [len(h) for h in hands] != list(HAND_SIZES):
        raise ValueError(f"doudizhu initdata: hands of {[len(h) for h in hands]} cards "
                         f"(the judge deals {list(HAND_SIZES)})")
    if sorted(c for h in hands for c in h) != list(range(NUM_CARDS)):
        raise ValueError("doudizhu initdata: the allocation is not the 54 cards 0..53, once each")
    public = initdata.get("publiccard")
    public = hands[0][0:3] if public is None else _int_list(public, "publiccard")
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
    if isinstance(initdata, str) and initdata.strip():
        initdata = json.loads(initdata)
    s = initdata.get("seed") if isinstance(initdata, Mapping) else None
    if s is not None:
        try:
            seed = int(s)
        except (TypeError, ValueError):
            raise ValueError(f"doudizhu initdata: seed must be an integer, got {s!r}") from None
    return deal(0 if seed is None else int(seed))
