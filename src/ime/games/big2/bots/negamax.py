"""Seed 004's agent "Shen Suan Zi" as a bot: the compiled search of :mod:`ime.games.big2.search`
on what the seat knows.

The search needs both hands. The seat knows its own and deduces the opponent's: the cards it
has not seen (:meth:`Big2State.unseen_by`) minus any undealt ones. With the default 26 + 26 deal
nothing is undealt, so the unseen cards *are* the opponent's hand and the bot is the seed's
exact agent; it never reads the engine's copy of the other hand. With smaller hands the unseen
cards outnumber the opponent's, and the bot searches one determinization: the opponent's
``cards_left`` cards drawn from the unseen ones with ``decision_rng(ctx, "deal")``, so a decision
stays a pure function of (params, seed, match, ply, seat, history).

Params (``config/bots/big2.yaml``): ``exact_threshold`` (10), ``exact_nodes``, ``start_depth``
(8), ``first_nodes``, ``nodes`` (:class:`ime.games.big2.search.SearchParams`). A decision with a
single legal action is played without searching.
"""

from __future__ import annotations

from dataclasses import astuple

import numpy as np

from ime.core.bot import Bot, DecisionContext, decision_rng
from ime.games.big2.cards import counts_of
from ime.games.big2.movegen import pack
from ime.games.big2.search import SearchParams, SearchResult, decide


def opponent_counts(state, player: int, ctx: DecisionContext) -> np.ndarray:
    """The opponent's hand as ``player`` sees it: the unseen cards when they are exactly the
    opponent's count, else a seeded draw of that many of them (see the module doc)."""
    unseen = state.unseen_by(player)
    n = state.cards_left(1 - player)
    if len(unseen) == n:
        return counts_of(unseen)
    rng = decision_rng(ctx, "deal")
    pick = rng.choice(len(unseen), size=n, replace=False)
    return counts_of(unseen[int(i)] for i in sorted(pick))


class NegamaxBot(Bot):
    """The seed's agent (see the module doc); ``last_result`` keeps the last search's
    :class:`SearchResult` (for reports; never read by ``act``)."""

    def __init__(self, bot_id: str = "negamax", exact_threshold: int = 10,
                 exact_nodes: int = 2_000_000, start_depth: int = 8,
                 first_nodes: int = 2_000_000, nodes: int = 200_000):
        self.bot_id = bot_id
        self.params = SearchParams(int(exact_threshold), int(exact_nodes), int(start_depth),
                                   int(first_nodes), int(nodes))
        if min(astuple(self.params)) < 0 or self.params.start_depth < 1:
            raise ValueError(f"{bot_id}: search params must be >= 0 (start_depth >= 1), "
                             f"got {self.params}")
        self.last_result: SearchResult | None = None

    def search(self, state, ctx: DecisionContext) -> SearchResult:
        """The search of the position ``ctx.player`` faces in ``state``."""
        me = ctx.player
        own = state.hand_counts(me)
        opp = opponent_counts(state, me, ctx)
        beat = state.to_beat()
        return decide(pack(own), pack(opp), int(own.sum()), int(opp.sum()),
                      None if beat is None else beat.key, self.params)

    def act(self, state, ctx: DecisionContext) -> tuple[int, ...]:
        legal = state.legal_actions(ctx.player)
        if len(legal) == 1:
            return legal[0]
        r = self.search(state, ctx)
        self.last_result = r
        if r.is_pass:
            return ()
        return legal[r.choice + (0 if state.leading else 1)]
