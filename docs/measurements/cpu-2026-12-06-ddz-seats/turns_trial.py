"""Trial: the lookahead's afterstates given the hand's fewest plays (min_turns) as one more plane.

    python turns_trial.py DATASET OBSERVATION OUT [override ...]

Patches ``KickerStepEncoder.afterstates`` for this process only: a thermometer over columns of
``min_turns(hand left, kickers still needed)`` (capped at 15) after the encoder's planes.
"""
import sys
import time
from pathlib import Path

import numpy as np
import torch

from ime.games.doudizhu.features import min_turns
from ime.games.kickers import KickerStepEncoder
from ime.train.ensemble import Member, train_members
from ime.workflow.compose import compose_plain

data, observation, out = sys.argv[1], sys.argv[2], Path(sys.argv[3])
over = sys.argv[4:]
out.mkdir(parents=True, exist_ok=True)
orig = KickerStepEncoder.afterstates


def afterstates(self, planes, codes):
    base = orig(self, planes, codes)
    left = (base[:, 0].sum(dim=1)).round().to(torch.int64).cpu().numpy()
    need = self.codes.major_kickers[codes.cpu().numpy()]
    turns = np.array([min_turns(h, k) for h, k in zip(left, need, strict=True)])
    cols = torch.arange(self.codes.num_ranks, device=planes.device)
    t = torch.as_tensor(np.minimum(turns, 15), device=planes.device)
    plane = (cols[None, :] < t[:, None]).to(planes.dtype)[:, None, None, :].expand(-1, 1, 4, -1)
    return torch.cat([base, plane], dim=1)


KickerStepEncoder.afterstates = afterstates
_init = KickerStepEncoder.__init__


def init(self, *a, **k):
    _init(self, *a, **k)
    self.afterstate_planes = self.afterstate_planes + 1


KickerStepEncoder.__init__ = init
c = compose_plain(["game=doudizhu", "imitator=lookahead",
                   *([f"+game.params.observation={observation}"] if observation != "thesis"
                     else []), *over])
train = dict(c["train"])
train["augment"] = c["game"]["augment"]
train["device"] = "cpu"
ms = [Member(dict(c["nets"]["lookahead"]), 0, out / "lookahead.pt", out / "lookahead.json")]
t = time.time()
res = train_members(data, ms, train, bot=Path(data).stem, progress=False)
print(observation, "turns", {k: res[0].get(k) for k in ("val_acc", "val_acc_unseen", "train_acc",
                                                        "epochs", "val_rows")}, flush=True)
print("s", round(time.time() - t))
