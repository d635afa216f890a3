"""Probe (diagnostic, not an imitator): how often does a UCT search agree with rev3's logged
moves on fold 0's unseen validation positions, as its settings move away from some reference?
Positions with > 12 empties only (rev3's MCTS part). Uses the zoo's MCTS kernel: an upper
bound on what an MCTS-shaped imitator could reach, and which settings matter."""
import sys, time, json
import numpy as np
from ime.imitators.data import load_decisions, unseen_validation
from ime.games.reversi.bots.mcts import mcts, M_MOVE
from ime.games.reversi.bots.evaluation import SearchParams, row_tables, weight_table

d = load_decisions(sys.argv[1])
test = unseen_validation(d, 0)
mid = test.empties() > 12
P, O, A = test.P[mid], test.O[mid], test.action[mid]
n = int(sys.argv[2]) if len(sys.argv) > 2 else 600
P, O, A = P[:n], O[:n], A[:n]
print(f"{len(test)} unseen, {int(mid.sum())} with > 12 empties; probing {len(A)}", flush=True)

def leaf(weights="standard", mobility=8):
    sp = SearchParams.from_mapping({"weights": weights, "mobility": mobility})
    return row_tables(weight_table(sp.weights)), sp.pack()

ref = dict(sims=5000, c=0.707, corner=True, avoid=True, depth=4, weights="standard", mobility=8, scale=20.0)
variants = [("ref", {}), ("sims 1000", {"sims": 1000}), ("sims 2000", {"sims": 2000}),
            ("sims 20000", {"sims": 20000}), ("c 0.35", {"c": 0.35}), ("c 1.4", {"c": 1.4}),
            ("no rules", {"corner": False, "avoid": False}), ("depth 0", {"depth": 0}),
            ("depth 2", {"depth": 2}), ("depth 8", {"depth": 8}), ("mobility 0", {"mobility": 0}),
            ("mobility 16", {"mobility": 16}), ("flat+mob", {"weights": "flat"}),
            ("corner_edge", {"weights": "corner_edge"}), ("scale 5", {"scale": 5.0}),
            ("scale 80", {"scale": 80.0})]
out = {}
for name, ch in variants:
    s = {**ref, **ch}
    tab, prm = leaf(s["weights"], s["mobility"])
    t0 = time.perf_counter()
    agree = []
    for seeds in (1, 2):
        mv = [int(mcts(P[i], O[i], np.int64(s["sims"]), s["c"], np.int64(1000 * seeds + i), s["corner"], s["avoid"], np.int64(s["depth"]), tab, prm, s["scale"])[M_MOVE]) for i in range(len(A))]
        agree.append(float(np.mean(np.array(mv) == A)) * 100)
    out[name] = agree
    print(f"{name:12s} agree {agree[0]:.1f} / {agree[1]:.1f} %  ({time.perf_counter()-t0:.1f} s)", flush=True)
json.dump(out, open("/tmp/mcts_probe.json", "w"), indent=1)
