"""``ddz1`` (Table 5.1 bot 1, ladder rank 30): split valuation, aggressive leads.

Valuation :data:`V1` (:mod:`.splits`): small cards negative (3 = -10 .. A = 1, 2 = 3, jokers 5
and 6), generous bonuses for trios (+2, +3 with a kicker), straights and pair straights (+3, +1.5
per extra rank), airplanes (+6/+7, +2 per extra trio), bomb +14, rocket +22; turn penalty 7.

1. A play that empties the hand is made at once.
2. Leading: the best split of the hand, and from it the *multi-card shapes first*: trios and
   airplanes (with their kickers), then straights and pair straights, then pairs, then singles,
   bombs last; among a group the one with the most cards, then the lowest rank. If an opponent
   holds one card and a single would be led, the highest single instead. This sheds trios and
   long chains early (the thesis: "333, 666 and long straights first"; aggressive, it may run
   out of big cards).
3. Following the teammate (as a farmer): pass (yield to the teammate), except from seat 2 (the
   landlord plays next) over a single or pair below J: there it tops the teammate with the lowest
   Q, K or A of that shape that costs no hand value (suppress the landlord).
4. Following an opponent: the beats whose remaining hand value is at least the current hand's
   minus a slack (6, or 12 for a farmer against the landlord: suppress the landlord; no limit
   when the player who made the play holds 5 cards or fewer); among them the best
   ``value after + aggression x top rank`` (bombs get no rank term; aggression 1): it takes the
   lead with higher cards than it needs. None: pass.
"""

from __future__ import annotations

from ime.games.doudizhu.bots.rulebase import (
    PhasedRuleBot,
    after_values,
    index_of,
    top_rank,
)
from ime.games.doudizhu.bots.splits import Valuation, best_split, split_value
from ime.games.doudizhu.bots.view import SeatView
from ime.games.doudizhu.combos import Combo

V1 = Valuation.make(
    [-10, -9, -8, -7, -6, -5, -4, -3, -2, -1, 0, 1, 3, 5, 6],
    {"trio": 2, "trio_single": 3, "trio_pair": 3, "straight": 3, "pair_straight": 3,
     "airplane": 6, "airplane_singles": 7, "airplane_pairs": 7, "bomb": 14, "rocket": 22},
    {"straight": 1.5, "pair_straight": 1.5, "airplane": 2, "airplane_singles": 2,
     "airplane_pairs": 2},
    turn_penalty=7.0)


def _lead_group(c: Combo) -> int:
    """Leading preference: trios and airplanes (with kickers) 0, straights and pair straights
    1, pairs 2, singles 3, bombs and the rocket 4."""
    k = int(c.kind)
    if 3 <= k <= 5 or 8 <= k <= 10:
        return 0
    if k in (6, 7):
        return 1
    return {2: 2, 1: 3}.get(k, 4)


class Rule1Bot(PhasedRuleBot):
    """Table 5.1 bot 1 (see the module doc)."""

    def __init__(self, bot_id: str = "ddz1", slack: float = 6.0, suppress_slack: float = 12.0,
                 danger: int = 5, aggression: float = 1.0):
        super().__init__(bot_id)
        self.slack, self.suppress_slack, self.danger = slack, suppress_slack, danger
        self.aggression = aggression

    def _lead(self, view: SeatView) -> int:
        split = best_split(view.counts, V1)
        pick = min(split.combos, key=lambda c: (_lead_group(c), -c.n_cards, c.rank))
        if pick.kind == 1 and view.min_opponent_left() == 1:
            pick = max((c for c in split.combos if c.kind == 1), key=top_rank)
        i = index_of(view, pick)
        return 0 if i is None else i

    def _teammate(self, view: SeatView) -> int:
        last = view.last[1]
        if view.me == 1 or last.kind not in (1, 2) or last.rank >= 8:
            return 0
        now, _ = split_value(view.counts, V1)
        tops = [i for i in view.plays() if view.combos[i].kind == last.kind
                and 9 <= view.combos[i].rank <= 11]
        after = after_values(view, tops, V1)
        ok = [i for i in tops if after[i][0] >= now]
        return min(ok, key=lambda i: (view.combos[i].rank, i)) if ok else 0

    def _follow(self, view: SeatView) -> int:
        who = view.last[0]
        plays = view.plays()
        after = after_values(view, plays, V1)
        slack = self.suppress_slack if not view.landlord else self.slack
        if view.left[who] > self.danger:
            now, _ = split_value(view.counts, V1)
            plays = [i for i in plays if after[i][0] >= now - slack]

        def score(i: int) -> float:
            c = view.combos[i]
            return after[i][0] + (0.0 if c.is_bomb else self.aggression * top_rank(c))

        return max(plays, key=lambda i: (score(i), -i), default=0)
