"""rev3, quick fold 0: agreement on the unseen validation positions by empties, the alpha-beta
fit against the same weights with the Monte-Carlo mode (run from the repository root)."""
import numpy as np

from ime.imitators.data import load_decisions, unseen_validation
from ime.imitators.search_fit import SearchImitator, predict

HERE = "docs/measurements/cpu-2026-12-06-mcts-rev3"
test = unseen_validation(load_decisions("data/reversi/datasets/quick/rev3.parquet"), 0)
emp = test.empties()
rows = {}
for name in ("alphabeta", "mcts"):
    im = SearchImitator.load(f"{HERE}/imitator_{name}_fold0.json")
    rows[name] = predict(im.weights, im.settings, test.P, test.O) == test.action
print(f"{len(test)} unseen positions; agreement % (positions)")
print("empties   alphabeta   mcts")
for lo, hi in ((0, 12), (13, 14), (15, 20), (21, 40), (41, 60)):
    m = (emp >= lo) & (emp <= hi)
    print(f"{lo:2d}-{hi:2d}    {100 * rows['alphabeta'][m].mean():6.2f}    "
          f"{100 * rows['mcts'][m].mean():6.2f}   ({int(m.sum())})")
print(f"all      {100 * rows['alphabeta'].mean():6.2f}    {100 * rows['mcts'].mean():6.2f}   "
      f"({len(test)})")
