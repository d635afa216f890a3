"""``ddz2`` (Table 5.1 bot 2, ladder rank 69): split valuation, fights for the lead, seat-aware
cooperation.

Valuation :data:`V2` (:mod:`.splits`): control cards weigh more than for ``ddz1`` (3 = -8 .. A =
3, 2 = 7, jokers 9 and 11), modest shape bonuses (trio +1/+2, straight +1, pair straight +2,
airplane +4/+5, bomb +12, rocket +18), turn penalty 9.

1. A play that empties the hand is made at once.
2. Leading: the best split; with at most 2 turns left, a combination no unseen cards can beat
   (bombs aside) keeps the lead; otherwise the *weakest* combination first (lowest top rank, then
   more cards), bombs last. If an opponent holds one card, a non-single when there is one, else
   the highest single.
3. Following the teammate: from seat 1 (the landlord already passed on it) always pass; from
   seat 2 (the landlord is next) pass on a big play (anything but a single or pair, or rank Q or
   higher: no big cards wasted over it), and top a small single/pair with a K or an A only when
   that costs at most 3 of hand value (lets the teammate through yet raises the landlord's bar).
4. Following an opponent, fighting for the lead: the play leaving the best hand value, made when
   it costs at most 8, or 28 when the hand is then down to 2 turns or fewer; bombs only when the
   player who made the play holds 6 cards or fewer, or the bomb leaves at most 1 turn. Seat 2
   against the landlord (its teammate passed) suppresses: the *highest* non-bomb beat costing at
   most 14.
5. Any beat at all when the player who made the play holds 4 cards or fewer.
"""

from __future__ import annotations

from ime.games.doudizhu.bots.rulebase import (
    PhasedRuleBot,
    after_values,
    index_of,
    top_rank,
)
from ime.games.doudizhu.bots.splits import Valuation, best_split, split_value
from ime.games.doudizhu.bots.view import SeatView, beats_in

V2 = Valuation.make(
    [-8, -7, -6, -5, -4, -3, -2, -1, 0, 1, 2, 3, 7, 9, 11],
    {"trio": 1, "trio_single": 2, "trio_pair": 2, "straight": 1, "pair_straight": 2,
     "airplane": 4, "airplane_singles": 5, "airplane_pairs": 5, "bomb": 12, "rocket": 18},
    {"straight": 0.5, "pair_straight": 1, "airplane": 1.5, "airplane_singles": 1.5,
     "airplane_pairs": 1.5},
    turn_penalty=9.0)


class Rule2Bot(PhasedRuleBot):
    """Table 5.1 bot 2 (see the module doc)."""

    def __init__(self, bot_id: str = "ddz2", slack: float = 8.0, fight_slack: float = 28.0,
                 suppress_slack: float = 14.0, bomb_at: int = 6, danger: int = 4):
        super().__init__(bot_id)
        self.slack, self.fight_slack, self.suppress_slack = slack, fight_slack, suppress_slack
        self.bomb_at, self.danger = bomb_at, danger

    def _lead(self, view: SeatView) -> int:
        split = best_split(view.counts, V2)
        plain = [c for c in split.combos if not c.is_bomb] or list(split.combos)
        if split.turns <= 2:
            safe = [c for c in plain if beats_in(view.unseen, c, bombs=False) == 0]
            if safe:
                i = index_of(view, max(safe, key=lambda c: (c.n_cards, -c.rank)))
                if i is not None:
                    return i
        pick = min(plain, key=lambda c: (top_rank(c), -c.n_cards))
        if view.min_opponent_left() == 1 and pick.kind == 1:
            multi = [c for c in plain if c.kind != 1]
            pick = min(multi, key=lambda c: (top_rank(c), -c.n_cards)) if multi else \
                max(plain, key=top_rank)
        i = index_of(view, pick)
        return 0 if i is None else i

    def _teammate(self, view: SeatView) -> int:
        last = view.last[1]
        if view.me == 1 or last.kind not in (1, 2) or last.rank >= 9:
            return 0
        now, _ = split_value(view.counts, V2)
        tops = [i for i in view.plays() if view.combos[i].kind == last.kind
                and 10 <= view.combos[i].rank <= 11]
        after = after_values(view, tops, V2)
        ok = [i for i in tops if after[i][0] >= now - 3]
        return max(ok, key=lambda i: (after[i][0], -i)) if ok else 0

    def _follow(self, view: SeatView) -> int:
        who = view.last[0]
        plays = view.plays()
        after = after_values(view, plays, V2)
        now, _ = split_value(view.counts, V2)
        if view.left[who] <= self.danger:
            return max(plays, key=lambda i: (after[i][0], -i))

        def allowed(i: int) -> bool:
            c = view.combos[i]
            if c.is_bomb and view.left[who] > self.bomb_at and after[i][1] > 1:
                return False
            slack = self.fight_slack if after[i][1] <= 2 else self.slack
            return after[i][0] >= now - slack

        if view.me == 2 and who == 0:
            ok = [i for i in plays if not view.combos[i].is_bomb
                  and after[i][0] >= now - self.suppress_slack]
            if ok:
                return max(ok, key=lambda i: (top_rank(view.combos[i]), after[i][0], -i))
        ok = [i for i in plays if allowed(i)]
        return max(ok, key=lambda i: (after[i][0], -i)) if ok else 0
