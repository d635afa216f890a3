"""A generic feature of a Doudizhu play: what of it, and of the hand it leaves, the unseen cards
cannot beat (control cards, "控制牌" / "大牌").

Why: a player who leads weighs a combination by whether the others can answer it, and keeps
the cards nobody can beat to win the lead back later; Doudizhu programs count a hand's
controls beside its plays (:mod:`ime.games.doudizhu.features`). Whether a card is beaten is a
comparison along the whole rank axis (any higher rank among the unseen cards), which the
lookahead's small value net (3x3 convolutions over 4 x 15 planes) does not see in one layer.
It is the game's feature, not any bot's valuation: it has no parameters and reads only the
observation's own-hand and unseen-cards planes (the other two hands as one union, so "the
unseen cards hold a higher one" is what the player can know, not that one seat holds it).

:func:`controls` gives, for the major of each afterstate, one ``4 x 15`` plane:

* rows 0-2, per rank: the hand the major leaves holds at least 1 / 2 / 3 cards of that rank and
  the unseen cards hold no single / pair / trio of a higher rank;
* row 3, all ones or all zeros: the major itself is beaten by no combination of its type and
  length that the unseen cards hold (its main cards only: kickers are not required of the
  answer; a bomb or the rocket answering any play is not counted, since the bomb-capable cards
  and the unseen plane show those). A pass is never unbeaten; the rocket always is.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ime.games.doudizhu.actions import MAJOR_COUNTS, MAJOR_KIND, MAJOR_RANK
from ime.games.doudizhu.cards import RANK_TWO
from ime.games.doudizhu.combos import ComboType as T

CHAIN_KINDS = (T.STRAIGHT, T.PAIR_STRAIGHT, T.AIRPLANE, T.AIRPLANE_SINGLES, T.AIRPLANE_PAIRS)

MAJOR_SIZE = MAJOR_COUNTS.max(axis=1)
"""Cards of each main rank (1 single, 2 pair, 3 trio, 4 four or bomb; 0 the pass)."""
MAJOR_LENGTH = (MAJOR_COUNTS > 0).sum(axis=1)
"""Main ranks (a chain's length; 1 otherwise, 2 the rocket)."""
MAJOR_IS_CHAIN = np.isin(MAJOR_KIND, [int(k) for k in CHAIN_KINDS])


def beaten_by(unseen: np.ndarray, major: int) -> bool:
    """Whether per-rank ``unseen`` counts hold a combination of the major's type and length of
    a higher rank (main cards only). The definition, over every major code, that
    :func:`controls` computes without the loop (the tests compare them)."""
    kind = MAJOR_KIND[major]
    if kind in (T.PASS, T.ROCKET):
        return False
    higher = (MAJOR_KIND == kind) & (MAJOR_LENGTH == MAJOR_LENGTH[major]) & (
        MAJOR_RANK > MAJOR_RANK[major])
    return bool((MAJOR_COUNTS[higher] <= unseen[None, :]).all(axis=1).any())


def controls(hand: Any, unseen: Any, codes: Any) -> Any:
    """``Tensor[M, 4, R]`` (the module doc) for majors ``codes`` (``int64[M]``) played from
    per-rank counts ``hand`` with ``unseen`` (both ``Tensor[M, R]``, float)."""
    import torch

    dev, dtype = unseen.device, unseen.dtype
    counts = torch.as_tensor(MAJOR_COUNTS, dtype=dtype, device=dev)[codes]
    size = torch.as_tensor(MAJOR_SIZE, device=dev)[codes]
    length = torch.as_tensor(MAJOR_LENGTH, device=dev)[codes]
    chain = torch.as_tensor(MAJOR_IS_CHAIN, device=dev)[codes]
    rank = torch.as_tensor(MAJOR_RANK, device=dev)[codes].clamp(min=0)
    kind = torch.as_tensor(MAJOR_KIND, device=dev)[codes]
    m, r = unseen.shape
    need = torch.arange(1, 5, device=dev, dtype=dtype)[None, :, None]
    held = (unseen[:, None, :] >= need).to(torch.int64)  # [M, 4, R]: a set of 1..4 cards there
    # the longest run of ranks from each one on that the unseen cards hold a set of, chains
    # stopping at the ace; runs[..., s] for s > RANK_TWO - 1 stays 0
    runs = torch.zeros_like(held)
    for s in range(RANK_TWO - 1, -1, -1):
        nxt = runs[..., s + 1] if s + 1 < RANK_TWO else torch.zeros_like(runs[..., s])
        runs[..., s] = held[..., s] * (nxt + 1)
    pad = torch.zeros((m, 4, 1), dtype=torch.int64, device=dev)
    # above[..., q]: the most a rank s > q offers (a set there, or a run from it)
    any_above = torch.cat([held.flip(-1).cummax(-1).values.flip(-1)[..., 1:], pad], dim=-1)
    run_above = torch.cat([runs.flip(-1).cummax(-1).values.flip(-1)[..., 1:], pad], dim=-1)
    top = any_above[:, :3] == 0  # [M, 3, R]: no single / pair / trio higher
    left = hand - counts
    rows = (left[:, None, :] >= need[:, :3]) & top
    sel = (size - 1).clamp(min=0)[:, None, None].expand(-1, 1, r)
    at = rank[:, None]
    beaten = torch.where(
        chain,
        run_above.gather(1, sel)[:, 0].gather(1, at)[:, 0] >= length,
        any_above.gather(1, sel)[:, 0].gather(1, at)[:, 0] > 0)
    unbeaten = ~beaten & (kind != int(T.PASS))
    unbeaten |= kind == int(T.ROCKET)
    play = unbeaten[:, None].expand(-1, r)[:, None]
    return torch.cat([rows, play], dim=1).to(dtype)


__all__ = ["CHAIN_KINDS", "beaten_by", "controls"]
