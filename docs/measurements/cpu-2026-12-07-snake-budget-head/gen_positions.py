# ruff: noqa: E501, E401, E402, E701, E702, UP031
"""DIAGNOSTIC: positions of a snk04-like alpha-beta (Voronoi, 400 nodes, exits ordering, deepened to 12
turns) in 60 seeded games against itself, an area-evaluating 120-node alpha-beta and itself with
30 % random moves; each of its decisions with a choice: (state, seat, valid mask, its move, the
depth its deepening reached, its nodes). The zoo kernel is the reference here, not an imitator input.

    python gen_positions.py 60 positions.pkl
"""
import pickle
import sys

import numpy as np

from ime.games.snake import board as B
from ime.games.snake.bots import kernels as K
from ime.games.snake.bots.search import ab_search

n_games = int(sys.argv[1]); out = sys.argv[2]
rng = np.random.default_rng(1)
scratch = K.scratch()
def snk04(S, me, mask, nodes=400, depth=12, iterative=True, order=True, ek=K.EVAL_VORONOI):
    sc = np.zeros(4); info = np.zeros(2, np.int64)
    d = ab_search(S.copy(), me, mask, depth, nodes, iterative, True, order, ek, sc, info, *scratch)
    return int(d), int(info[0]), int(info[1])
recs = []
for g in range(n_games):
    w, h, obs = B.judge_board(1000 + g, B.NO_OPTION, B.NO_OPTION)
    S = B.new_state(h, w, obs)
    opp_kind = g % 3  # 0: snk04 self-play, 1: area bot 120 nodes, 2: eps-random snk04
    while S[B.I_DEAD] == 0:
        acts = []
        for p in (0, 1):
            m = int(B.valid_mask(S, p))
            if m == 0:
                acts.append(0); continue
            if m & (m - 1) == 0:
                acts.append(m.bit_length() - 1); continue
            if p == 0 or opp_kind == 0:
                d, dep, nodes = snk04(S, p, m)
                recs.append((S.copy(), p, m, d, dep, nodes))
            elif opp_kind == 1:
                d, _, _ = snk04(S, p, m, nodes=120, ek=K.EVAL_AREA)
            else:
                d, _, _ = snk04(S, p, m)
                if rng.random() < 0.3:
                    ds = [k for k in range(4) if (m >> k) & 1]; d = int(rng.choice(ds))
            acts.append(d)
        B.step(S, acts[0], acts[1])
        if S[B.I_PLY] > 400: break
print(len(recs), "decisions")
pickle.dump(recs, open(out, "wb"))
