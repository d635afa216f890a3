"""Doudizhu opponent-model rollouts against an original bot (issue 49, Deliver 2): a diagnostic,
no part of the pipeline (Doudizhu has no ``om_search`` experiment yet).

"Against the original bot" in a three-seat game: our player in one seat, the original bot ``T``
in the other two (so as a farmer our teammate is ``T`` too), every seeded deal played three
times with our player in seat 0 (landlord), 1 and 2. A game counts 1 when our side wins. Each
cell's player is ``pimc_om`` at the same rollout budget:

* ``plain``: no model, i.e. ``ddz_mc`` at that budget (cell (a));
* ``true``: ``T`` itself plays the other seats in the rollouts (``opponent: {bot: T, source:
  zoo}``; the true-model row);
* ``zoo:<bot>``: another zoo bot plays them (a wrong model that is a bot);
* ``imitator``: the imitator in ``--checkpoints`` (cell (c) with ``T``'s own, (d) with another
  bot's).

Every cell plays the same deals and seats, and every decision is a function of the match seed,
so the numbers replay exactly; the wall time per decision is printed beside them.

    python scripts/ddz_om_measure.py ddz1 --deals 12 --simulations 200 --cells plain true
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Sequence
from typing import Any

import numpy as np


def cell_spec(cell: str, target: str, simulations: int, model_play: str,
              checkpoints: Sequence[str]) -> dict[str, Any]:
    """Our player's ``pimc_om`` spec in ``cell`` (``ddz_mc``'s params but the budget)."""
    params: dict[str, Any] = {"simulations": simulations, "max_determinizations": 100,
                              "epsilon": 0.15, "margin": 0.01, "halving": True, "bomb_at": 4}
    if cell == "true" or cell.startswith("zoo:"):
        bot = target if cell == "true" else cell.split(":", 1)[1]
        params.update(model_play="argmax", opponent={"bot": bot, "source": "zoo"})
    elif cell == "imitator":
        params.update(model_play=model_play, opponent={"checkpoints": list(checkpoints)})
    elif cell != "plain":
        raise ValueError(f"unknown cell {cell!r}")
    return {"kind": "pimc_om", "params": params}


def play_cell(target: str, spec: dict[str, Any], deals: int, seed: int) -> dict[str, Any]:
    from ime.bots.registry import make_bot
    from ime.core.bot import Bot
    from ime.games.doudizhu.game import GAME
    from ime.matches.judge import run_match

    ours = make_bot("doudizhu", "om_player", {"om_player": spec})
    other = make_bot("doudizhu", target)
    spent = {"s": 0.0, "n": 0}

    class Timed(Bot):
        bot_id = "om_player"
        deterministic = False

        def act(self, state, ctx):
            t0 = time.perf_counter()
            a = ours.act(state, ctx)
            spent["s"] += time.perf_counter() - t0
            spent["n"] += 1
            return a

    wins = np.zeros((deals, 3))
    for d in range(deals):
        init = GAME.new_initial_state(seed=seed * 100_003 + d).initdata()
        for seat in range(3):
            bots = [Timed() if q == seat else other for q in range(3)]
            res = run_match(GAME, bots, match_id=f"ddzom-{seed}-{d}-{seat}", seed=seed,
                            initdata=init)
            if res.fault is not None:
                raise RuntimeError(f"{res.match_id}: {res.fault}")
            winner = res.final_state.winner  # our side won: the same side as our seat
            wins[d, seat] = float((winner == 0) == (seat == 0))
    return {"wins": wins, "ms": 1000 * spent["s"] / max(spent["n"], 1)}


def main(argv: Sequence[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("target")
    ap.add_argument("--deals", type=int, default=12)
    ap.add_argument("--simulations", type=int, default=200)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--cells", nargs="+", default=["plain", "true"])
    ap.add_argument("--checkpoints", nargs="*", default=[])
    ap.add_argument("--model-play", default="sample", choices=["sample", "argmax"])
    a = ap.parse_args(argv)
    from ime.core.intervals import wilson

    for cell in a.cells:
        spec = cell_spec(cell, a.target, a.simulations, a.model_play, a.checkpoints)
        r = play_cell(a.target, spec, a.deals, a.seed)
        w = r["wins"]
        n = w.size
        lo, hi = wilson(float(w.sum()), n, 0.95)
        seats = " ".join(f"{w[:, s].mean():.3f}" for s in range(3))
        how = a.model_play if cell == "imitator" else ""
        print(f"{a.target} {cell:9s} {how} share {w.mean():.3f} [{lo:.2f}, {hi:.2f}] of {n}; "
              f"by seat (L, F1, F2) {seats}; {r['ms']:.0f} ms/decision", flush=True)


if __name__ == "__main__":
    main()
