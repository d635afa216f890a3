"""rev1's own evaluation through the imitator's search (fastest, PV first, budget 100,000) on
quick fold 0's first N unseen positions, with and without the exact solve at 12, the
disagreements by empties. Run from the repository root: python <this file> 400"""
import sys
from pathlib import Path

import yaml

sys.path.insert(0, str(Path(__file__).resolve().parents[3] / "scripts"))
from search_oracle import ROOT, table_weights

from ime.imitators.data import fold_indices, load_decisions, unseen_positions
from ime.imitators.reversi_search import SearchSettings
from ime.imitators.search_fit import predict

zoo = yaml.safe_load((ROOT / "config/bots/reversi.yaml").read_text())
params = dict(zoo["rev1"]["params"])
w = table_weights(params)
d = load_decisions("data/reversi/datasets/quick/rev1.parquet")
tr, va = fold_indices(d, 0, 5, 0)
val = d.subset(va)
n = int(sys.argv[1]) if len(sys.argv) > 1 else 400
test = val.subset(unseen_positions(d.subset(tr), val).rows[:n])
e = test.empties()
for endgame in (12, 0):
    s = SearchSettings(depth=64, budget=100000, tie="searched_first", endgame=endgame, ordering="fastest",
                       pv_first=True, endgame_pick="solver_first", endgame_mode="exact")
    p = predict(w, s, test.P, test.O)
    ok = p == test.action
    print("endgame", endgame, "agree", ok.mean()*100, "n", len(ok))
    for lo, hi in ((0, 12), (13, 20), (21, 40), (41, 60)):
        m = (e >= lo) & (e <= hi)
        print(f"  empties {lo}-{hi}: {m.sum()} positions, {(~ok[m]).sum()} disagree")
