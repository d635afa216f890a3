"""A trial of a role-aware ``seat_sizes`` (not committed): rows 0 an opponent holds as many cards
as the play, 1 the teammate does, 2 an opponent holds fewer, 3 the teammate does (the landlord
has no teammate). Patches ``DoudizhuEncoder.seat_sizes`` in this process, then runs
``../cpu-2026-12-06-ddz-seats/seats_trial.py`` with the same arguments.

    OUT=/tmp/ddz_split/ddz3-seats TAG=_roles python roles_trial.py ddz3 seats lookahead \
        "net.features=[hand_turns,hand_split,seat_sizes]"
"""
import runpy
import sys
from pathlib import Path

import torch

from ime.games.doudizhu.encode import DoudizhuEncoder


def seat_sizes(self, planes, cards):
    left = planes[:, self.kicker_end:self.kicker_end + 2].sum(dim=(2, 3)).round()  # next, prev
    seat = planes[:, 2].sum(dim=2).argmax(dim=1)  # 0 landlord, 1 after it, 2 before it
    c = cards[:, None].to(left.dtype)
    eq, lt = left == c, left < c
    # next is the teammate for seat 1, prev for seat 2; the landlord has none
    mate_next, mate_prev = seat == 1, seat == 2
    opp_eq = (eq[:, 0] & ~mate_next) | (eq[:, 1] & ~mate_prev)
    opp_lt = (lt[:, 0] & ~mate_next) | (lt[:, 1] & ~mate_prev)
    mate_eq = (eq[:, 0] & mate_next) | (eq[:, 1] & mate_prev)
    mate_lt = (lt[:, 0] & mate_next) | (lt[:, 1] & mate_prev)
    rows = torch.stack([opp_eq, mate_eq, opp_lt, mate_lt], dim=1).to(planes.dtype)
    return rows[:, :, None].expand(-1, -1, self.codes.num_ranks)


DoudizhuEncoder.seat_sizes = seat_sizes
script = Path(__file__).resolve().parent.parent / "cpu-2026-12-06-ddz-seats" / "seats_trial.py"
sys.argv = [str(script), *sys.argv[1:]]
runpy.run_path(str(script), run_name="__main__")
