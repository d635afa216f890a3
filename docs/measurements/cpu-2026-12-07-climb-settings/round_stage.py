"""Diagnostic (issue 46, v17): one fold's round-value stage again from its kept surrogate and
budget stages (a copy of its fit state), with the given net.search overrides, scored on the
selection rows and on unseen validation rows. Never writes into the run's folders."""
import json, shutil, sys, time, logging
from pathlib import Path
import numpy as np
from ime.core.seeding import derive_seed
from ime.imitators.family import select_split, cap_rows, get_family
from ime.imitators.fit_state import FitState
from ime.imitators.data import load_decisions, unseen_validation
from ime.imitators.search_fit import predict
from ime.train.folds import Split
from ime.train.loop import load_dataset, split_fold
import torch

run, bot, fold, out = sys.argv[1], sys.argv[2], int(sys.argv[3]), Path(sys.argv[4])
over = json.loads(sys.argv[5]); n_unseen = int(sys.argv[6]); threads = int(sys.argv[7])
logging.basicConfig(level=logging.INFO, format="%(asctime)s %(message)s")
say = lambda line: logging.info("%s fold %d: %s", bot, fold, line)
mdir = Path(run)
cfg = json.loads((mdir / f"fold{fold}.json").read_text())["config"]
net, train_cfg = cfg["net"], cfg["train"]
out.mkdir(parents=True, exist_ok=True)
src_state = Path(sys.argv[9]) if len(sys.argv) > 9 else mdir / f"fold{fold}.pt.fitstate.json"
st = json.loads(src_state.read_text())
keep_rounds = len(sys.argv) > 9  # a diagnostic state of this script: its round stages go on
keep = {k: v for k, v in st["stages"].items()
        if not k.startswith("outputs") and (keep_rounds or not k.startswith("round"))}
(out / "state.json").write_text(json.dumps({"key": "diag", "stages": keep}))
state = FitState(out / "state.json", "diag", say)
ds = sys.argv[8]
split = Split.of(train_cfg)
data, arr = load_dataset(ds, torch.device("cpu"))
data = split_fold(data, arr, fold, split)
settings = {**dict(net["search"]), **over}
name = str(net.get("name", "search"))
run_seed = derive_seed("train", split.seed, bot, name, fold)
train_rows = data.train_idx.cpu().numpy()
fit_rows, select_rows = select_split(arr.match_id, train_rows, float(settings.get("select_share", 0.2)), run_seed)
select_rows = cap_rows(select_rows, settings.get("max_select"), run_seed)
family = get_family(data.game, "search")
t0 = time.time()
settings.pop("book", None)
model = family.fit(data.planes.cpu().numpy(), data.action.cpu().numpy(), fit_rows, select_rows,
                   {**settings, "name": name}, seed=run_seed, say=say, threads=threads, state=state)
fit_s = time.time() - t0
d = load_decisions(ds)
t = unseen_validation(d, fold, 5, 0)
idx = np.random.default_rng(0).permutation(len(t))[:n_unseen]
w, s = model.search_weights(), model.settings
ok = predict(w, s, t.P[idx], t.O[idx]) == t.action[idx]
res = {"overrides": over, "fold": fold, "settings": s.to_dict(), "fit_seconds": round(fit_s),
       "select_acc": model.config.get("fit", {}).get("select_acc"),
       "unseen_positions": int(len(idx)), "unseen_agreement": round(float(ok.mean()) * 100, 2)}
print(json.dumps(res, indent=1))
(out / "result.json").write_text(json.dumps(res, indent=1) + "\n")
