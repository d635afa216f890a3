"""rev5 thesis fold k's round-stage sample (the pipeline's), from the v10 checkpoint."""
import sys, time
import numpy as np, torch, yaml
sys.path.insert(0, "/work/main/scripts")
from search_oracle import table_weights, ROOT
from ime.train.loop import load_dataset, split_fold
from ime.train.folds import Split
from ime.core.seeding import derive_seed
from ime.imitators.family import select_split, cap_rows
from ime.imitators.reversi_family import _decisions
from ime.imitators.reversi_search import SearchSettings
from ime.imitators.search_fit import predict, subsample, round_scorer, with_disc
fold = int(sys.argv[1])
ck = torch.load(f"/tmp/th9/data/reversi/models/thesis/search-60ac6baf/rev5/fold{fold}.pt", weights_only=False)
st = SearchSettings(**ck["net_config"]["settings"])
w_fit = ck["state_dict"]["weights"].numpy()
data, arr = load_dataset("/tmp/th9/data/reversi/datasets/thesis/rev5.parquet", torch.device("cpu"))
data = split_fold(data, arr, fold, Split("kfold", 5, 0.0, 0))
run_seed = derive_seed("train", 0, "rev5", "search", fold)
train_rows = data.train_idx.cpu().numpy()
fit_rows, select_rows = select_split(arr.match_id, train_rows, 0.2, run_seed)
select_rows = cap_rows(select_rows, 3000, run_seed)
planes = data.planes.cpu().numpy(); actions = data.action.cpu().numpy()
train = _decisions(planes, actions, fit_rows); select = _decisions(planes, actions, select_rows)
idx = subsample(len(train), 12000, run_seed)
P, O, A = train.P[idx], train.O[idx], train.action[idx]
rows = subsample(len(P), 1500, run_seed + 2)
Pr, Or, Ar = P[rows], O[rows], A[rows]
_score = round_scorer(Pr, Or, Ar, st)
score = lambda v, phases=1: _score(v, phases)
def sel_acc(w):
    return float(np.mean(predict(w, st, select.P, select.O) == select.action)) * 100
zoo = yaml.safe_load((ROOT / "config/bots/reversi.yaml").read_text())
w_true = table_weights(dict(zoo["rev5"]["params"]))
