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

import json
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

import numpy as np

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


def ranks_text(cards_or_counts: Iterable[int] | np.ndarray, *, counts: bool = False) -> str:
    """``"333445"``-style text of card ids (or of a counts vector with ``counts=True``)."""
    c = np.asarray(cards_or_counts) if counts else counts_of(cards_or_counts)
    return "".join(RANK_CHARS[r] * int(c[r]) for r in range(NUM_RANKS))


def parse_ranks(text: str) -> np.ndarray:
    """Counts vector of a rank text (``"33344456"``); spaces are ignored."""
    out = np.zeros(NUM_RANKS, dtype=np.int64)
    for ch in text.replace(" ", ""):
        r = RANK_CHARS.find(ch.upper())
        if r < 0:
            raise ValueError(f"unknown rank character {ch!r} in {text!r} (use {RANK_CHARS})")
        out[r] += 1
    if (out > 4).any():
        raise ValueError(f"{text!r} has more cards of a rank than a deck")
    return out


def pick_cards(hand: Iterable[int], counts: Sequence[int] | np.ndarray) -> tuple[int, ...]:
    """The canonical card ids of rank multiset ``counts`` from ``hand``: the lowest ids of each
    rank, ascending. Raises ValueError when ``hand`` lacks them."""
    by_rank: list[list[int]] = [[] for _ in range(NUM_RANKS)]
    for c in sorted(int(x) for x in hand):
        by_rank[c // 4].append(c)
    out: list[int] = []
    for r in range(NUM_RANKS):
        k = int(counts[r])
        if k > len(by_rank[r]):
            raise ValueError(f"hand {ranks_text(hand)} has no {k} x {RANK_CHARS[r]}")
        out += by_rank[r][:k]
    return tuple(out)


def cards_from_text(text: str) -> tuple[int, ...]:
    """The lowest card ids that spell ``text`` in a full deck (tests: ``"3334"`` -> 0, 1, 2, 4)."""
    return pick_cards(range(NUM_CARDS), parse_ranks(text))


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


def _int_list(v: Any, what: str) -> list[int]:
    if not isinstance(v, (list, tuple)) or not all(
            isinstance(c, (int, np.integer)) and not isinstance(c, bool) for c in v):
        raise ValueError(f"big2 initdata: {what} must be a list of card ids, got {v!r}")
    return [int(c) for c in v]


def parse_deal(initdata: Any, hand_size: int) -> list[list[int]] | None:
    """The two hands of an ``initdata`` (a mapping or its JSON text) with key ``hands``, or
    ``None`` when it names none (then the engine deals from a seed).

    Checked: two hands of ``hand_size`` distinct ids in ``0..51``, no card in both. The order of
    each hand is kept: the first request shows ``own`` in that order.
    """
    if isinstance(initdata, str):
        initdata = json.loads(initdata) if initdata.strip() else None
    if not initdata:
        return None
    if not isinstance(initdata, Mapping):
        raise ValueError(f"big2 initdata must be an object, got {initdata!r}")
    if "hands" not in initdata:
        return None
    raw = initdata["hands"]
    if not isinstance(raw, (list, tuple)) or len(raw) != 2:
        raise ValueError(f"big2 initdata: hands must hold 2 hands, got {raw!r}")
    hands = [_int_list(h, f"hands[{i}]") for i, h in enumerate(raw)]
    if [len(h) for h in hands] != [hand_size, hand_size]:
        raise ValueError(f"big2 initdata: hands of {[len(h) for h in hands]} cards "
                         f"(this game deals {hand_size} each)")
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
    if isinstance(initdata, str) and initdata.strip():
        initdata = json.loads(initdata)
    s = initdata.get("seed") if isinstance(initdata, Mapping) else None
    if s is not None:
        try:
            seed = int(s)
        except (TypeError, ValueError):
            raise ValueError(f"big2 initdata: seed must be an integer, got {s!r}") from None
    return deal(0 if seed is None else int(seed), hand_size)
