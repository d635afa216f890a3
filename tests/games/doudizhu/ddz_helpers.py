"""Deals built from rank texts, for engine, encoder and codec tests. (What Big-2's tests share
is in ``tests/games/shedding_helpers.py``.)"""

from __future__ import annotations

from ime.games.doudizhu.cards import HAND_SIZES, RANK_CHARS, rank_of
from ime.games.doudizhu.game import GAME, DoudizhuState


def allocation_from(*texts: str) -> list[list[int]]:
    """Hands that start with the ranks of ``texts`` (lowest free ids of each rank; spaces are
    ignored), filled up to 20/17/17 cards with the remaining cards, highest ids first (so fillers
    rarely matter)."""
    free = list(range(54))
    hands: list[list[int]] = [[], [], []]
    for p, text in enumerate(texts):
        for ch in text.replace(" ", ""):
            r = RANK_CHARS.index(ch)
            c = next(c for c in free if rank_of(c) == r)
            free.remove(c)
            hands[p].append(c)
    for p in range(3):
        while len(hands[p]) < HAND_SIZES[p]:
            hands[p].append(free.pop())
    return hands


def state_from(*texts: str) -> DoudizhuState:
    return GAME.new_initial_state(initdata={"allocation": allocation_from(*texts)})


def play(st: DoudizhuState, *texts: str) -> None:
    """Apply plays given as rank texts (``""``: pass) with the canonical ids."""
    from ime.games.doudizhu.cards import parse_ranks

    for t in texts:
        st.apply_action(st.cards_for(st.to_move, parse_ranks(t)) if t else ())
