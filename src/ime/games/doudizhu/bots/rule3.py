"""``ddz3`` (Table 5.1 bot 3, ladder rank 117): the change in the remaining hand's value plus
expert terms; as a farmer it estimates the teammate's chance before yielding.

Valuation :data:`V3` (:mod:`.splits`), an expert per-card table: 3 = -9 .. Q = 0, K = 1, A = 2,
2 = 5, small joker 7, big joker 9; trio +3, trio + pair +4, straight +2, pair straight +3,
airplane +5/+6 (+1 per extra rank for chains), bomb +15, rocket +20; turn penalty 8.

Every legal play ``c`` gets ``score = value(hand - c) - value(hand) + expert(c)`` where expert
adds (the special cases):

* +1000 when ``c`` empties the hand;
* -3 per 2 or joker spent, -10 for a bomb or the rocket, unless an opponent holds 5 cards or
  fewer, or the play leaves at most one turn;
* leading only: +4 when no unseen cards beat ``c`` (bombs aside: it keeps the lead); -30 for a
  single when an opponent holds one card, unless no unseen single beats it; -15 for a pair when
  an opponent holds two cards, unless no unseen pair beats it.

Leading plays the best score (ties: the move generator's order). Following an opponent, the
pass scores -3 (-1000 when the player who made the play holds 6 cards or fewer). Following the
teammate, the farmer first estimates the teammate's chance::

    hold   = 1 if the landlord already passed on it or no unseen non-bomb beats it,
             else 1 / (1 + number of unseen rank multisets that beat it)
    chance = 0.6 * hold + 0.4 * min(1, 4 / teammate's cards left)

and passes when ``chance >= 0.5``; otherwise it plays on like a follower, but the pass scores +2
and 2s, jokers and bombs are off limits.
"""

from __future__ import annotations

from ime.games.doudizhu.bots.rulebase import RuleBot, after_values, high_cards
from ime.games.doudizhu.bots.splits import Valuation, split_value
from ime.games.doudizhu.bots.view import SeatView, beats_in

V3 = Valuation.make(
    [-9, -8, -7, -6, -5, -4, -3, -2, -1, 0, 1, 2, 5, 7, 9],
    {"trio": 3, "trio_single": 3, "trio_pair": 4, "straight": 2, "pair_straight": 3,
     "airplane": 5, "airplane_singles": 6, "airplane_pairs": 6, "bomb": 15, "rocket": 20},
    {"straight": 1, "pair_straight": 1, "airplane": 1, "airplane_singles": 1,
     "airplane_pairs": 1},
    turn_penalty=8.0)


class Rule3Bot(RuleBot):
    """Table 5.1 bot 3 (see the module doc)."""

    def __init__(self, bot_id: str = "ddz3", yield_at: float = 0.5, pass_score: float = -3.0,
                 danger: int = 6):
        super().__init__(bot_id)
        self.yield_at, self.pass_score, self.danger = yield_at, pass_score, danger

    def choose(self, view: SeatView) -> int:
        plays = view.plays()
        if view.leading:
            scores = self._scores(view, plays, strict=False)
            return max(plays, key=lambda i: (scores[i], -i))
        who = view.last[0]
        strict = False
        pass_score = self.pass_score
        if view.by_teammate:
            if self.teammate_chance(view) >= self.yield_at:
                fin = view.finishing()
                return 0 if fin is None or view.combos[fin].is_bomb else fin
            strict, pass_score = True, 2.0
        elif view.left[who] <= self.danger:
            pass_score = -1000.0
        scores = self._scores(view, plays, strict)
        best = max(plays, key=lambda i: (scores[i], -i), default=None)
        return best if best is not None and scores[best] > pass_score else 0

    def teammate_chance(self, view: SeatView) -> float:
        """The farmer's estimate that the teammate's play wins the trick and the game goes on
        well for it (see the module doc)."""
        tm, last = view.teammate, view.last[1]
        if view.me == 1:
            hold = 1.0
        else:
            n = beats_in(view.unseen, last, bombs=False)
            hold = 1.0 / (1 + n)
        return 0.6 * hold + 0.4 * min(1.0, 4 / max(view.left[tm], 1))

    def _scores(self, view: SeatView, plays: list[int], strict: bool) -> dict[int, float]:
        now, _ = split_value(view.counts, V3)
        after = after_values(view, plays, V3)
        near = view.min_opponent_left()
        out: dict[int, float] = {}
        for i in plays:
            c = view.combos[i]
            v, turns = after[i]
            s = v - now
            if turns == 0:
                s += 1000.0
            cheap = near <= 5 or turns <= 1
            if strict and (c.is_bomb or high_cards(c)):
                s -= 1e6
            if not cheap:
                s -= 3.0 * high_cards(c) + (10.0 if c.is_bomb else 0.0)
            if view.leading:
                unbeaten = not c.is_bomb and beats_in(view.unseen, c, bombs=False) == 0
                if unbeaten:
                    s += 4.0
                if c.kind == 1 and near == 1 and not unbeaten:
                    s -= 30.0
                if c.kind == 2 and near == 2 and not unbeaten:
                    s -= 15.0
            out[i] = s
        return out
