"""Cell (c) against the true model (t) and plain search (a), game by game: the cells play the
same seeded openings in the same seats, so each (round, seat) is a pair. Prints the Newcombe 95 %
CI of the difference in points share and a two-sided sign test over the pairs that differ.

    python paired.py <the run's clone>   (the clone's data/reversi/om_search/... cell CSVs)
"""
import sys
from pathlib import Path

import pandas as pd
from scipy.stats import binomtest

from ime.core.intervals import newcombe

root = Path(sys.argv[1]) / "data/reversi/om_search/rev1-d4_n20000_a100000000_r200_p4_s0_g3"
cells = {"c": root / "thesis/search-60ac6baf/fold0/policy_b64_emeasured_k200/rev5/om.csv",
         "t": root / "plain/rev5/om_true.csv", "a": root / "plain/rev5/plain_depth.csv"}
games = {k: pd.read_csv(p) for k, p in cells.items()}
for other in ("t", "a"):
    c, o = games["c"], games[other]
    lo, hi = newcombe(c.points.sum(), len(c), o.points.sum(), len(o))
    m = c.merge(o, on=["round", "seat"], suffixes=("_c", "_o"))
    d = m.points_c - m.points_o
    better, worse = int((d > 0).sum()), int((d < 0).sum())
    p = binomtest(better, better + worse).pvalue
    print(f"(c) - ({other}): {100 * (c.points.mean() - o.points.mean()):+.1f} points "
          f"[{100 * lo:+.1f}, {100 * hi:+.1f}] (Newcombe 95 %, n = {len(c)}, {len(o)}); "
          f"paired over {len(m)} games: (c) better in {better}, worse in {worse}, "
          f"equal in {len(m) - better - worse}; sign test p = {p:.2g}")
