"""Where a Doudizhu imitator's fold-0 validation errors lie: leading / following the teammate /
following an opponent; pass or play; the major or the kickers; by the cards in hand.

    python errors_by_phase.py BOT CHECKPOINT [SCALE [DATA_ROOT]]
"""
import sys
import numpy as np, torch
from ime.nets import load_checkpoint
from ime.train.loop import load_dataset, split_fold
from ime.train.folds import Split
from ime.workflow.compose import compose_plain

bot, ck = sys.argv[1], sys.argv[2]
scale = sys.argv[3] if len(sys.argv) > 3 else "quick"  # quick: k-fold; thesis: the 10 % hold-out
data_root = sys.argv[4] if len(sys.argv) > 4 else "/work/main/data"
c = compose_plain(["game=doudizhu", f"scale={scale}"])
split = Split.of(c["train"])
data, arr = load_dataset(f"{data_root}/doudizhu/datasets/{scale}/{bot}.parquet", torch.device("cpu"))
d = split_fold(data, arr, 0, split)
m = load_checkpoint(ck).eval()
va = d.val_idx
x = d.planes[va]
ms = [d.mask[va], *[e[va] for e in d.extra_masks]]
y = torch.cat([d.action[va, None], d.extra_actions[va]], dim=1)
with torch.no_grad():
    out = m(x, ms)
pred = torch.stack([o.argmax(1) for o in out], 1)
used = y >= 0
ok_major = pred[:, 0] == y[:, 0]
ok_all = ((pred == y) | ~used).all(1)
xs = x.numpy()
lead = (xs[:, 4].sum((1, 2)) == 0) & (xs[:, 5].sum((1, 2)) == 0)
seat = xs[:, 2, :, 0].argmax(1)
# the play to beat: prev's (plane 5) if any, else next's (plane 4)
by_prev = xs[:, 5].sum((1, 2)) > 0
who = np.where(by_prev, (seat + 2) % 3, (seat + 1) % 3)
team = (~lead) & (seat != 0) & (who != 0)
opp = (~lead) & ~team
from ime.games.doudizhu.actions import CODES
pass_code = int(np.flatnonzero(CODES.major_counts.sum(1) == 0)[0])
is_pass = y[:, 0].numpy() == pass_code
nleg = ms[0].sum(1).numpy()
hand = xs[:, 0].sum((1, 2))
print(f"{bot}: rows {len(va)}, all {ok_all.float().mean()*100:.2f} %, major {ok_major.float().mean()*100:.2f} %")
for name, sel in [("forced (one legal play)", nleg == 1), ("a choice (2+ majors)", nleg > 1),
                  ("lead", lead), ("follow teammate", team), ("follow opponent", opp),
                  ("label pass", is_pass), ("label play (following)", (~lead) & ~is_pass),
                  ("hand<=5", hand <= 5), ("hand 6-10", (hand > 5) & (hand <= 10)), ("hand>10", hand > 10)]:
    s = torch.as_tensor(sel)
    n = int(s.sum())
    e_major = int((~ok_major & s).sum()); e_kick = int((ok_major & ~ok_all & s).sum())
    print(f"  {name:24s} n={n:5d} acc={ok_all[s].float().mean()*100:6.2f}  major errors {e_major:4d}  kicker errors {e_kick:4d}")
