import numpy as np, time, itertools
from ime.imitators.data import load_decisions, unseen_validation
from ime.imitators.reversi_mcts import uct_moves
from ime.imitators.search_fit import SearchImitator, predict
im = SearchImitator.load('docs/measurements/cpu-2026-12-06-mcts-rev3/imitator_alphabeta_fold0.json')
d = load_decisions('data/reversi/datasets/quick/rev3.parquet')
t = unseen_validation(d, 0); mid = t.empties() > 12
P, O, A = t.P[mid][:400], t.O[mid][:400], t.action[mid][:400]
ab = predict(im.weights, im.settings, P, O)
print('AB on these', np.mean(ab == A), 'endgame part AB', np.mean(predict(im.weights, im.settings, t.P[~mid], t.O[~mid]) == t.action[~mid]), int((~mid).sum()), flush=True)
w = im.weights
print('|w|', np.abs(w).max())
for scale in (0.5, 1, 2, 4, 8):
    for depth in (2, 4):
        t0 = time.perf_counter()
        m = uct_moves(P, O, w, 2, sims=5000, c=0.707, depth=depth, playout='corners_xc', scale=scale)
        print(f"scale {scale} depth {depth}: {np.mean(m == A)*100:.1f}  {1000*(time.perf_counter()-t0)/len(A):.1f} ms", flush=True)
