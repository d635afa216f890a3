"""``ddz5`` (Table 5.1 bot 5, ladder rank 235): always the smallest legal combination; passes when
its teammate is likely to win the trick.

* Leading: the smallest play by :func:`lead_key` = (bomb or rocket last, lowest main rank, then
  the *most* cards, then the type order of :class:`~ime.games.doudizhu.combos.ComboType`, then
  the lowest kickers). So it sheds its lowest rank, in the biggest shape that starts there
  (``34567`` before ``3``, ``333`` + the smallest kicker before ``333``).
* Following an opponent: the smallest play that beats, by :func:`follow_key` = (same type
  first, then bombs, the rocket last; the lowest main rank; the lowest kickers). It never passes
  when something beats.
* Following its teammate (as a farmer), the teammate is *likely to win* and it passes when: the
  landlord has already passed on that play (this seat is seat 1), or the play is neither a single
  nor a pair, or its rank is Q or higher, or the teammate holds 3 cards or fewer. Otherwise it
  plays the smallest non-bomb beat (passing when there is none): a small single or pair from the
  teammate is topped cheaply before the landlord's turn.
"""

from __future__ import annotations

from ime.games.doudizhu.bots.rulebase import RuleBot
from ime.games.doudizhu.bots.view import SeatView
from ime.games.doudizhu.combos import Combo


def lead_key(c: Combo) -> tuple:
    """The leading order of "smallest" (see the module doc)."""
    return (c.is_bomb, c.rank, -c.n_cards, int(c.kind), c.kickers)


def follow_key(c: Combo) -> tuple:
    """The following order of "smallest" (see the module doc)."""
    return (2 if c.kind == 17 else 1 if c.kind == 16 else 0, c.rank, c.kickers)


class Rule5Bot(RuleBot):
    """Table 5.1 bot 5 (see the module doc)."""

    def __init__(self, bot_id: str = "ddz5", big_rank: int = 9, teammate_few: int = 3):
        super().__init__(bot_id)
        self.big_rank, self.teammate_few = big_rank, teammate_few

    def teammate_likely_wins(self, view: SeatView) -> bool:
        """The pass rule over the teammate's play (see the module doc)."""
        last = view.last[1]
        return (view.me == 1 or last.kind not in (1, 2) or last.rank >= self.big_rank
                or view.left[view.teammate] <= self.teammate_few)

    def choose(self, view: SeatView) -> int:
        plays = view.plays()
        if view.leading:
            return min(plays, key=lambda i: lead_key(view.combos[i]))
        if view.by_teammate:
            if self.teammate_likely_wins(view):
                return 0
            plays = [i for i in plays if not view.combos[i].is_bomb]
        return min(plays, key=lambda i: follow_key(view.combos[i]), default=0)
