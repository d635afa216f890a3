"""Quick fold-0 trial: Doudizhu's lookahead with and without the seat planes (observation=seats).

    python seats_trial.py BOT OBSERVATION NET[,NET] [override ...]

Extracts BOT's quick-scale logs (data/doudizhu/logs/quick/BOT/) with the encoder of
``game.params.observation=OBSERVATION`` (thesis | seats) into $OUT (default
/tmp/ddz_seats/BOT-OBSERVATION), builds the dataset, and trains fold 0 of each NET with the
train rule's trainer, as ../cpu-2026-12-06-ddz-lookahead/fold0_trial.py does. ``TAG`` (default
empty) is appended to each checkpoint's name, so trials of other overrides (session 51's
"net.features=[...]", ../cpu-2026-12-06-ddz-split/) keep theirs; the printed line names the
overrides.
"""
import os
import sys
import time
from pathlib import Path

from ime.datasets.build import build_dataset
from ime.datasets.extract import extract_part
from ime.train.ensemble import Member, train_members
from ime.workflow.compose import compose_plain

bot, observation, nets, over = sys.argv[1], sys.argv[2], sys.argv[3].split(","), sys.argv[4:]
params = {} if observation == "thesis" else {"observation": observation}
out = Path(os.environ.get("OUT", f"/tmp/ddz_seats/{bot}-{observation}"))
tag = os.environ.get("TAG", "")
out.mkdir(parents=True, exist_ok=True)
logs = sorted(Path(f"/work/main/data/doudizhu/logs/quick/{bot}").glob("shard*.jsonl"))
parts, reports = [], []
t = time.time()
for log in logs:
    part, report = out / f"{log.stem}.parquet", out / f"{log.stem}.json"
    if not part.exists():
        extract_part(log, part, report, game="doudizhu", targets=[bot], game_params=params)
    parts.append(part)
    reports.append(report)
data = out / f"{bot}.parquet"
if not data.exists():
    build_dataset(parts, reports, bot, data, out / f"{bot}.stats.json", game="doudizhu")
print("data", round(time.time() - t), "s", flush=True)
c = compose_plain(["game=doudizhu", "imitator=lookahead",
                   *([f"+game.params.observation={observation}"] if params else []), *over])
train = dict(c["train"])
train["augment"] = c["game"]["augment"]
train["device"] = "cpu"
ms = [Member(dict(c["nets"][n]), 0, out / f"{n}{tag}.pt", out / f"{n}{tag}.json") for n in nets]
t = time.time()
res = train_members(str(data), ms, train, bot=bot, progress=False)
for n, r in zip(nets, res, strict=True):
    print(bot, observation, n, over, {k: r.get(k) for k in ("val_acc", "val_acc_unseen", "val_acc_major",
                                                      "train_acc", "epochs", "val_rows")},
          flush=True)
print("s", round(time.time() - t))
