"""7x6 speed, before/after a change: ``uct_search`` simulations and ``perft(8)`` leaves per CPU
second on the standard board, from whichever tree ``PYTHONPATH`` names (docs/games/connect4.md,
"The seed's board and budget"). CPU seconds, because the shared build box is loaded.

    PYTHONPATH=<tree>/src python docs/games/connect4/cmp7x6.py
"""

import time

import numpy as np

from ime.games.connect4.board import perft
from ime.games.connect4.bots.uct import uct_search
from ime.games.connect4.game import GAME
from ime.games.connect4.tools import quiet_positions

# the empty board and four quiet positions 4-12 plies in
states = [GAME.new_initial_state(), *quiet_positions(4, 11, GAME)]
info = np.zeros(3)
geo = GAME.geometry
for heuristic in (True, False):
    uct_search(*states[0].own_opp(), geo.g, geo.order, 100, 0.707, True, heuristic, 1, info)
    t = time.process_time()
    for st in states:
        uct_search(*st.own_opp(), geo.g, geo.order, 100000, 0.707, True, heuristic, 1, info)
    rate = 5e5 / (time.process_time() - t) / 1e6
    print(f"uct {'heuristic' if heuristic else 'plain'} {rate:.3f} M sims/CPU-s")
zero = states[0].boards[0]
perft(zero, zero, geo.g, 3)
t = time.process_time()
n = perft(zero, zero, geo.g, 8)
print(f"perft(8) {n} {n / (time.process_time() - t) / 1e6:.1f} M leaves/CPU-s")
