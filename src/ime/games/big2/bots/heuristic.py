"""Seed 004's heuristic agent: the first play of the seed's move ordering (剪枝排序).

The seed (section 5, "「神算子」与启发式智能体性能比较") builds "a heuristic agent on the heuristic
ordering" and measures its agent against it (its Fig. 3). The ordering is the one its alpha-beta
uses (section 3, "剪枝排序"), so the heuristic agent plays what the search would try first:

* **following** the opponent's play: a play of the same type above it with the smallest main rank;
  else the smallest bomb; else the pass (it never passes while it can beat);
* **leading**: the play with the most cards, the smallest main rank among those; bombs only when
  nothing else is left (the smallest first).

Ties (the same quadruple with other kickers) keep the generator's order, kickers lexicographic, as
in :func:`ime.games.big2.search._order`; ``tests/games/big2/test_big2_heuristic.py`` checks that
this bot plays the search's first-ordered play. It reads only its own hand and the play to beat.
"""

from __future__ import annotations

from ime.core.bot import Bot, DecisionContext
from ime.games.big2.hands import HandType


def heuristic_key(t: HandType, index: int, leading: bool) -> tuple[int, ...]:
    """The seed's order of a legal play (smaller first); ``index`` its place in the generator's
    order (the tie-break). Leading: non-bombs by most cards then smallest main rank, then bombs
    by main rank. Following: the same-type plays by main rank, then bombs by main rank."""
    if t.is_bomb:
        return (1, 0, t.main, index)
    return (0, -t.n_cards if leading else 0, t.main, index)


class HeuristicBot(Bot):
    """The seed's heuristic agent (see the module doc); deterministic."""

    def __init__(self, bot_id: str = "heuristic"):
        self.bot_id = bot_id

    def act(self, state, ctx: DecisionContext) -> tuple[int, ...]:
        legal = state.legal_actions(ctx.player)
        plays = state.legal_types(ctx.player)
        leading = state.leading
        best = min((i for i, t in enumerate(plays) if not t.is_pass),
                   key=lambda i: heuristic_key(plays[i], i, leading), default=None)
        return legal[0] if best is None else legal[best]


__all__ = ["HeuristicBot", "heuristic_key"]
