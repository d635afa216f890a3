#!/usr/bin/env python3
"""Process-CPU milliseconds per decision of zoo bots, on ``ime bench``'s positions and loop.

Why not ``ime bench <game> --only bots``: that figure is wall-clock, and on a shared, loaded box
(the 2-core box runs several jobs at once) wall time measures the neighbours as much as the bot.
Process CPU time (``time.process_time``) does not. The loop is ``ime bench``'s: the same seeded
mid-game positions (``GamePlugin.tools.positions(40, 1)``), one warm-up decision, then one
decision per position with the same ``DecisionContext``. Each repeat times the whole loop once;
the spread of the repeats is printed, so before/after comparisons (issue 31: the zoo's searches
2x faster) can be read against the noise.

    python3 scripts/bot_cpu.py reversi rev1 rev2 rev4 --repeats 3
    PYTHONPATH=/old/checkout/src python3 scripts/bot_cpu.py reversi rev1   # the code before

No bot names: every bot of ``config/bots/<game>.yaml``. ``--json`` also writes the figures.
"""

from __future__ import annotations

import argparse
import json
import time

from ime.bots.registry import load_bot_specs, make_bot
from ime.cli.games import game_tool
from ime.core.bot import DecisionContext


def cpu_ms_per_decision(game: str, bot_id: str, positions: list, repeats: int) -> list[float]:
    """CPU ms per decision of ``bot_id`` over ``positions``, once per repeat (after a warm-up
    decision, which also loads or compiles the bot's numba kernels)."""
    bot = make_bot(game, bot_id)
    st = positions[0]
    bot.act(st.clone(), DecisionContext(0, "warm", st.ply, st.current_players()[0]))
    out = []
    for _ in range(repeats):
        t = time.process_time()
        for i, st in enumerate(positions):
            p = st.current_players()[0]
            bot.act(st.clone(), DecisionContext(0, f"bench{i}", st.ply, p))
        out.append(1e3 * (time.process_time() - t) / len(positions))
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("game")
    ap.add_argument("bots", nargs="*", help="bot ids (default: the whole zoo of the game)")
    ap.add_argument("--positions", type=int, default=40, help="seeded positions (bench: 40)")
    ap.add_argument("--seed", type=int, default=1, help="position seed (bench: 1)")
    ap.add_argument("--repeats", type=int, default=3, help="timed passes over the positions")
    ap.add_argument("--json", help="also write {bot: [ms per repeat]} to this file")
    args = ap.parse_args()
    positions = game_tool(args.game, "positions")(args.positions, args.seed)
    bots = args.bots or list(load_bot_specs(args.game))
    res = {}
    for bot_id in bots:
        ms = cpu_ms_per_decision(args.game, bot_id, positions, args.repeats)
        res[bot_id] = ms
        runs = " ".join(f"{m:.3f}" for m in ms)
        print(f"{bot_id:16s} CPU ms/decision: {runs}  (min-max {min(ms):.3f}-{max(ms):.3f})",
              flush=True)
    if args.json:
        with open(args.json, "w") as f:
            json.dump(res, f, indent=2)


if __name__ == "__main__":
    main()
