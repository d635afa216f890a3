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

**Time-equivalent budget** (``seconds`` and ``nodes_per_s``, both or neither): the seed's agent
deepens until a clock runs out (its ``TIME_LIMIT - 1`` seconds) and plays the deepest finished
iteration. Here the clock is a node count, ``budget = seconds * nodes_per_s`` (``nodes_per_s``
measured once by ``python -m ime.games.big2.study rate`` and written into the config, so a decision
never reads a clock): the exact solve, the first iteration and the deeper ones all get that one
budget (``exact_nodes = first_nodes = nodes = budget``; the three knobs must then be left out).

**Oracle** (``oracle: true``, only for the seed's own experiments): the search is given the
opponent's real hand read from the engine, not a draw from the unseen cards. The seed's agent
searches the two hands as its game state, and its comparison at 2..26 cards per hand (where cards
are left undealt) assumed both known. No zoo bot sets it: it reads a hand the seat cannot see.
"""

from __future__ import annotations

from dataclasses import astuple

import numpy as np

from ime.core.bot import Bot, DecisionContext, decision_rng
from ime.games.big2.cards import counts_of
from ime.games.big2.movegen import pack
from ime.games.big2.search import SearchParams, SearchResult, decide


def time_equivalent_budget(seconds: float, nodes_per_s: float) -> int:
    """The node budget standing for ``seconds`` of the seed's clock at ``nodes_per_s``."""
    if seconds <= 0 or nodes_per_s <= 0:
        raise ValueError(f"time-equivalent budget: seconds ({seconds}) and nodes_per_s "
                         f"({nodes_per_s}) must be > 0")
    return int(round(float(seconds) * float(nodes_per_s)))


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
                 exact_nodes: int | None = None, start_depth: int = 8,
                 first_nodes: int | None = None, nodes: int | None = None,
                 seconds: float | None = None, nodes_per_s: float | None = None,
                 oracle: bool = False):
        self.bot_id = bot_id
        self.oracle = bool(oracle)
        if (seconds is None) != (nodes_per_s is None):
            raise ValueError(f"{bot_id}: give both seconds and nodes_per_s (a time-equivalent "
                             f"budget) or neither")
        if seconds is not None:
            given = [k for k, v in (("exact_nodes", exact_nodes), ("first_nodes", first_nodes),
                                    ("nodes", nodes)) if v is not None]
            if given:
                raise ValueError(f"{bot_id}: {given} conflict with the time-equivalent budget "
                                 f"(seconds x nodes_per_s sets all three)")
            exact_nodes = first_nodes = nodes = time_equivalent_budget(seconds, nodes_per_s)
        d = SearchParams()
        self.params = SearchParams(
            int(exact_threshold), int(d.exact_nodes if exact_nodes is None else exact_nodes),
            int(start_depth), int(d.first_nodes if first_nodes is None else first_nodes),
            int(d.nodes if nodes is None else nodes))
        if min(astuple(self.params)) < 0 or self.params.start_depth < 1:
            raise ValueError(f"{bot_id}: search params must be >= 0 (start_depth >= 1), "
                             f"got {self.params}")
        self.last_result: SearchResult | None = None

    def search(self, state, ctx: DecisionContext) -> SearchResult:
        """The search of the position ``ctx.player`` faces in ``state``."""
        me = ctx.player
        own = state.hand_counts(me)
        opp = state.hand_counts(1 - me) if self.oracle else opponent_counts(state, me, ctx)
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
