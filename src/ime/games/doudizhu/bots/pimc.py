"""``ddz_mc``: determinized (perfect-information) Monte-Carlo search, the zoo's other family.

For a decision the seat:

1. plays a play that empties its hand at once; otherwise lists its candidates: the legal plays,
   one per (type, main rank, chain) with the lowest kickers (the move generator's first), plus
   the pass when following; with one candidate it plays it without searching;
2. draws determinizations of the two hidden hands from the cards it has not seen, consistent
   with both hand sizes and with the public cards the landlord still holds (never reading a
   hidden hand);
3. plays every candidate in every determinization to the end with the compiled default policy of
   :mod:`.playout` (a random legal move with probability ``epsilon``) and scores each rollout
   for its side: a win 1 + ``margin`` x cards the losing side still holds, a loss -``margin`` x
   cards its own side still holds (so near-ties go to faster wins and closer losses);
4. spends the budget by *successive halving* (``halving: true``): ``R = ceil(log2(n))`` rounds
   over the ``n`` candidates, each round on fresh deals with ``D = clamp(simulations // (R *
   alive), 1, max_determinizations)`` per candidate, keeping the better half by mean reward
   (all candidates share a round's deals); or flat (``halving: false``): one round, ``D =
   clamp(simulations // n, 1, max_determinizations)``;
5. plays the best mean among the last round's candidates; ties go to the first in the order:
   the pass (when following), then ``ddz5``'s order of "smallest" (:func:`.rule5.lead_key`
   leading, :func:`.rule5.follow_key` following).

The budget is the number of rollouts (``simulations``, at least one per candidate and round),
never time; the generator is seeded from ``decision_rng(ctx, "pimc")``, so a decision is a pure
function of (seed, match id, ply, seat) and what the seat knows.
"""

from __future__ import annotations

import numpy as np

from ime.core.bot import Bot, DecisionContext, decision_rng
from ime.games.doudizhu.bots.playout import evaluate
from ime.games.doudizhu.bots.rule5 import follow_key, lead_key
from ime.games.doudizhu.bots.view import SeatView, dedupe_kickers, seat_view


class PIMCBot(Bot):
    """Determinized Monte-Carlo search (see the module doc)."""

    deterministic = False

    def __init__(self, bot_id: str = "ddz_mc", simulations: int = 1000,
                 max_determinizations: int = 100, epsilon: float = 0.15, bomb_at: int = 4,
                 margin: float = 0.01, halving: bool = True):
        self.bot_id = bot_id
        self.simulations = int(simulations)
        self.max_determinizations = int(max_determinizations)
        self.epsilon = float(epsilon)
        self.bomb_at = int(bomb_at)
        self.margin = float(margin)
        self.halving = bool(halving)

    def candidates(self, view: SeatView) -> list[int]:
        """Legal indices searched, in tie-break order (see the module doc)."""
        idx = [i for i in dedupe_kickers(view.combos) if not view.combos[i].is_pass]
        key = lead_key if view.leading else follow_key
        idx.sort(key=lambda i: key(view.combos[i]))
        return idx if view.leading else [0, *idx]

    def act(self, state, ctx: DecisionContext) -> tuple[int, ...]:
        view = seat_view(state, ctx.player)
        if len(view.legal) == 1:
            return view.legal[0]
        fin = view.finishing()
        if fin is not None:
            return view.legal[fin]
        cands = self.candidates(view)
        if len(cands) == 1:
            return view.legal[cands[0]]
        shares = self.shares(view, cands, int(decision_rng(ctx, "pimc").integers(1 << 31)))
        return view.legal[cands[int(np.argmax(shares))]]

    def determinizations(self, n_candidates: int) -> int:
        return max(1, min(self.max_determinizations, self.simulations // n_candidates))

    def shares(self, view: SeatView, cands: list[int], seed: int) -> np.ndarray:
        """Each candidate's mean rollout reward (flat, or successive halving: see the module
        doc); candidates dropped before the last round get ``-inf``."""
        if not self.halving:
            return self._evaluate(view, cands, self.determinizations(len(cands)), seed)
        n = len(cands)
        rounds = max(1, int(np.ceil(np.log2(n))))
        total = np.zeros(n)
        played = np.zeros(n)
        alive = list(range(n))
        for r in range(rounds):
            d = max(1, min(self.max_determinizations,
                           self.simulations // (rounds * len(alive))))
            got = self._evaluate(view, [cands[j] for j in alive], d, seed + 7919 * r)
            for j, g in zip(alive, got, strict=True):
                total[j] += g * d
                played[j] += d
            mean = total / np.maximum(played, 1)
            if len(alive) <= 2:
                break
            alive = sorted(alive, key=lambda j: -mean[j])[: (len(alive) + 1) // 2]
            alive.sort()
        mean = total / np.maximum(played, 1)
        out = np.full(n, -np.inf)
        out[alive] = mean[alive]
        return out

    def _evaluate(self, view: SeatView, cands: list[int], n_det: int, seed: int) -> np.ndarray:
        meta = np.zeros((len(cands), 3), np.int64)
        counts = np.zeros((len(cands), 15), np.int64)
        for j, i in enumerate(cands):
            c = view.combos[i]
            if not c.is_pass:
                meta[j] = (int(c.kind), c.rank, c.chain)
                counts[j] = c.counts
        if view.leading:
            lp, kind, rank, chain = -1, 0, -1, 0
        else:
            lp, last = view.last
            kind, rank, chain = int(last.kind), last.rank, last.chain
        return evaluate(view.me, np.asarray(view.counts, np.int64),
                        np.asarray(view.unseen, np.int64),
                        np.asarray(view.landlord_public, np.int64),
                        np.asarray(view.left, np.int64), meta, counts, lp, kind, rank, chain,
                        n_det, seed, self.epsilon, self.bomb_at, self.margin)
