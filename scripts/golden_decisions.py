#!/usr/bin/env python3
"""Write or check the golden decisions of every zoo bot (``tests/data/golden/<game>.json``).

Issue 31 speeds the zoo's searches up; it must leave every decision as it is. This script
records, for Reversi, Doudizhu, Snake, Connect Four and Big-2, the decision every bot of
``config/bots/<game>.yaml`` makes today on seeded positions (``ime.core.golden``), at the
budgets and with the game params of the config, and ``tests/golden/test_golden_decisions.py``
checks them. Writing also asks every bot a second time, a fresh instance in the reverse order:
a bot whose decision depends on what it decided before, or on anything but (position, seed,
match id, ply), is reported and nothing is written.

    python3 scripts/golden_decisions.py            # check (exit 1 on a difference)
    python3 scripts/golden_decisions.py --write    # (re)write the files, after checking

Regenerate only for a change meant to alter play (a new bot, a budget, a rule), and say so in
the commit. Gongzhu is left out: its zoo is rule bots and trained nets, no search.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path
from typing import Any

from ime.core.golden import (
    GoldenPlan,
    bot_decisions,
    load_golden,
    make_positions,
    replay,
    write_golden,
)

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "tests" / "data" / "golden"

# One plan per game. Every bot of the zoo decides every position unless ``per_bot`` says fewer:
# no bot needs fewer today (rev1, the dearest, ~9 CPU-ms a decision; b2_negamax ~13, snk01 ~10),
# and tests/golden takes 12.6 s for 82 tests on the 2-core box at load ~12 (warm numba caches).
PLANS = {
    # 4..58 random plies: openings, mid-game, and the endgame solves (rev1 exact from 12
    # empties, rev2 wld from 10, rev3's alpha-beta from 12, rev4 from 6, rev5 from 8).
    "reversi": GoldenPlan("reversi", plies=(4, 59), positions=60, per_bot={}, skip={}),
    # The deal and 0..50 plays: leads and follows, early and late hands.
    "doudizhu": GoldenPlan("doudizhu", plies=(0, 50), positions=60, per_bot={}, skip={}),
    # 0..80 simultaneous turns on the config's 11 x 10 board; both snakes decide. Random
    # snakes die within ~30 turns, so snk18 (most room) drives the playouts, 10% random moves.
    "snake": GoldenPlan("snake", plies=(0, 80), positions=60, per_bot={}, skip={},
                        playout="snk18", epsilon=0.1),
    # 0..34 plies: c4_solver solves exactly from 26 empties (ply >= 16), alpha-beta before.
    "connect4": GoldenPlan("connect4", plies=(0, 34), positions=60, per_bot={}, skip={}),
    # The deal and 0..60 plays: b2_negamax solves exactly once both hands hold <= 10 cards.
    # b2_negamax_t5 spends up to 17 M nodes (~5 CPU-s) a decision: 4 positions.
    "big2": GoldenPlan("big2", plies=(0, 60), positions=60, per_bot={"b2_negamax_t5": 4},
                       skip={}),
}

EXCLUDED_GAMES = {
    "gongzhu": "rule bots (gz_duck, gz_shoot, gz_low), random play and trained nets: no search",
}


def golden_path(game: str) -> Path:
    return OUT / f"{game}.json"


def game_params(game: str) -> dict[str, Any]:
    """The game's ``params`` from ``config/game/<game>.yaml`` (Snake's fixed board size, Big-2's
    hand size), as the pipeline's matches use them."""
    from omegaconf import OmegaConf

    from ime.paths import config_dir

    cfg = OmegaConf.to_container(OmegaConf.load(config_dir() / "game" / f"{game}.yaml"),
                                 resolve=True)
    assert isinstance(cfg, dict)
    return dict(cfg.get("params") or {})


def bot_ids(game: str, plan: GoldenPlan) -> list[str]:
    """Every bot of ``config/bots/<game>.yaml`` but the plan's ``skip``."""
    from ime.bots.registry import load_bot_specs

    return [b for b in load_bot_specs(game) if b not in plan.skip]


def spec_of(game: str, bot_id: str) -> dict[str, Any]:
    """What decides a bot's play: its kind and params (documentation keys left out)."""
    from ime.bots.registry import load_bot_specs

    spec = load_bot_specs(game)[bot_id]
    return {"kind": spec["kind"], "params": spec.get("params") or {}}


def compute(game: str, plan: GoldenPlan, check_order: bool) -> tuple[dict[str, Any], list[str]]:
    """The golden data of ``game`` as of today's code and config, and the bots found not
    deterministic (``check_order``: a fresh instance asked in the reverse order differs)."""
    from ime.bots.registry import make_bot
    from ime.core.registry import get_game

    params = game_params(game)
    g = get_game(game, params)
    positions = make_positions(g, plan, make_bot(game, plan.playout) if plan.playout else None)
    states = [replay(g, pos, f"{game} position {i}") for i, pos in enumerate(positions)]
    bots: dict[str, Any] = {}
    unstable: list[str] = []
    for b in bot_ids(game, plan):
        n = int(plan.per_bot.get(b, plan.positions))
        t = time.process_time()
        got = bot_decisions(make_bot(game, b), states[:n], plan.seed)
        dt = time.process_time() - t
        if check_order:
            again = bot_decisions(make_bot(game, b), states[:n], plan.seed,
                                  order=list(reversed(range(n))))
            diff = [i for i in range(n) if again[i] != got[i]]
            if diff:
                unstable.append(f"{game} {b}: {len(diff)} of {n} decisions differ when a fresh "
                                f"instance decides in the reverse order (positions {diff[:5]})")
        bots[b] = {**spec_of(game, b), "positions": n, "decisions": got}
        print(f"  {game:9s} {b:15s} {n:3d} positions {1e3 * dt / max(n, 1):8.1f} CPU-ms each",
              flush=True)
    data = {"game": game, "game_params": params, "seed": plan.seed,
            "plan": {"plies": list(plan.plies), "positions": plan.positions,
                     "playout": plan.playout, "epsilon": plan.epsilon,
                     "per_bot": dict(plan.per_bot), "skip": dict(plan.skip)},
            "bots": bots, "positions": positions}
    return data, unstable


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--write", action="store_true", help="(re)write tests/data/golden/*.json")
    ap.add_argument("games", nargs="*", default=list(PLANS), help=f"default: {' '.join(PLANS)}")
    args = ap.parse_args(argv)
    failed = False
    for game in args.games:
        if game not in PLANS:
            ap.error(f"no golden plan for {game!r}; planned: {', '.join(PLANS)}")
        t = time.perf_counter()
        data, unstable = compute(game, PLANS[game], check_order=args.write)
        print(f"{game}: {len(data['positions'])} positions, {len(data['bots'])} bots, "
              f"{time.perf_counter() - t:.1f} s")
        if unstable:
            print("NOT DETERMINISTIC (nothing written):\n  " + "\n  ".join(unstable))
            failed = True
            continue
        path = golden_path(game)
        if args.write:
            write_golden(path, data)
            print(f"wrote {path.relative_to(ROOT)} ({path.stat().st_size} bytes)")
            continue
        old = load_golden(path)
        diff = [b for b in data["bots"] if old["bots"].get(b) != data["bots"][b]]
        if old["positions"] != data["positions"] or diff:
            print(f"{game}: differs from {path.relative_to(ROOT)}: bots {diff}"
                  + (", positions" if old["positions"] != data["positions"] else ""))
            failed = True
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
