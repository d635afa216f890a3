"""Quick fold-0 trial: the lookahead vs ddz_conv1 on a Doudizhu quick dataset."""
import sys, time, json
from pathlib import Path
from ime.train.ensemble import Member, train_members
from ime.workflow.compose import compose_plain

bot = sys.argv[1]
nets = sys.argv[2].split(",")
over = sys.argv[3:]  # extra overrides for the lookahead
c = compose_plain(["game=doudizhu", "imitator=lookahead", *over])
train = dict(c["train"]); train["augment"] = c["game"]["augment"]; train["device"] = "cpu"
import os
out = Path(os.environ.get("OUT", f"/tmp/ddz_trial/{bot}")); out.mkdir(parents=True, exist_ok=True)
ms = [Member(dict(c["nets"][n]), 0, out / f"{n}.pt", out / f"{n}.json") for n in nets]
t = time.time()
res = train_members(f"/work/main/data/doudizhu/datasets/quick/{bot}.parquet", ms, train, bot=bot,
                    progress=False)
for n, r in zip(nets, res):
    print(bot, n, {k: r.get(k) for k in ("val_acc", "val_acc_unseen", "val_acc_major", "train_acc", "epochs", "val_rows")}, flush=True)
print("s", round(time.time() - t))
