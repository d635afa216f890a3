#!/usr/bin/env python3
"""Key mining's search CPU per Reversi bot and phase (issue 31: where the time goes).

Runs ``scripts/keys_cpu.py`` (same arguments, same keys and digests) with the zoo's search entry
points wrapped: every ``AlphaBetaBot.analyse`` (rev1, rev2, rev4, rev5, rev3's endgame search,
the noisy opponents) and every ``MCTSBot.act`` is timed with ``time.process_time`` and counted
by bot and phase (``mid``: above the bot's solve threshold; ``solve``: a completed exact solve;
``forced``: one legal move or a pass at or below the threshold, nothing searched). The wrappers
sit inside the decision memo, so a memo hit is not counted and ``repeats`` counts positions a
bot searched twice in this process (the memo's misses). Why not cProfile alone: it times the
numba kernels as one opaque call and cannot tell rev1's mid-game from its endgame solves.

    python3 scripts/keys_profile.py --run /tmp/run --target rev5 [keys_cpu.py options]

Note: ``MCTSBot.act`` includes its endgame alpha-beta (``rev3/endgame``), which is also listed
on its own line; the total subtracts it once.
"""

from __future__ import annotations

import collections
import sys
import time
from pathlib import Path


def main(argv: list[str] | None = None) -> int:
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    import keys_cpu

    from ime.games.reversi.bots import mcts, search

    stats: dict[tuple[str, str], list[float]] = collections.defaultdict(lambda: [0, 0.0, 0])
    seen: dict[str, set[tuple[int, int]]] = collections.defaultdict(set)
    repeats: collections.Counter[str] = collections.Counter()
    analyse, act = search.AlphaBetaBot.analyse, mcts.MCTSBot.act

    def timed_analyse(self, state, seed=0):  # type: ignore[no-untyped-def]
        c = time.process_time()
        r = analyse(self, state, seed)
        dt = time.process_time() - c
        P, O = (int(b) for b in state.own_opp(state.to_move))
        empties = 64 - bin(P | O).count("1")
        phase = ("solve" if r["solved"] else
                 "forced" if empties <= self.params.endgame_empties else "mid")
        s = stats[(self.bot_id, phase)]
        s[0] += 1
        s[1] += dt
        s[2] += r["nodes"]
        if (P, O) in seen[self.bot_id]:
            repeats[self.bot_id] += 1
        seen[self.bot_id].add((P, O))
        return r

    def timed_act(self, state, ctx):  # type: ignore[no-untyped-def]
        c = time.process_time()
        r = act(self, state, ctx)
        s = stats[(self.bot_id, "mcts")]
        s[0] += 1
        s[1] += time.process_time() - c
        return r

    search.AlphaBetaBot.analyse = timed_analyse  # type: ignore[method-assign]
    mcts.MCTSBot.act = timed_act  # type: ignore[method-assign]
    rc = keys_cpu.main(argv)
    total = 0.0
    for (bot, phase), (n, cpu, nodes) in sorted(stats.items()):
        if "/" not in bot:  # a helper search inside another bot's act (rev3/endgame)
            total += cpu
        k = max(int(n), 1)
        print(f"{bot:14s} {phase:7s} decisions {int(n):7d}  CPU-s {cpu:8.2f}  "
              f"ms/decision {1e3 * cpu / k:6.2f}  nodes/decision {int(nodes) // k}")
    print(f"searches in all (the endgame inside MCTS counted once): {total:.2f} CPU-s; "
          f"positions searched twice (memo misses): {dict(repeats)}")
    return rc


if __name__ == "__main__":
    sys.exit(main())
