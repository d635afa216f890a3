"""Regenerate ``data/search_golden.json``: the alpha-beta search's full result (move, score,
depth, nodes, solved) for the zoo's alpha-beta bots and two small-budget variants, on seeded
random positions.

The file pins the search node for node: a change meant only to make the kernels faster must
leave every count and every move as they are (``test_reversi_search_golden.py``). Regenerate
only for a change that is meant to alter the bots' play, and say so in the commit::

    python tests/games/reversi/make_search_golden.py
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import yaml

from ime.games.reversi.bots.search import AlphaBetaBot
from ime.games.reversi.game import ReversiGame, ReversiState

ROOT = Path(__file__).resolve().parents[3]
OUT = Path(__file__).parent / "data" / "search_golden.json"
# Small budgets so that iterations and solves are cut off mid-way (the abort paths), a pass-rich
# wld solve and every ordering mode.
VARIANTS = {
    "small_mobility": {"nodes": 700, "max_depth": 0, "mobility": 5, "frontier": 2, "stable": 3,
                       "ordering": "mobility", "tie": "last", "endgame_empties": 9,
                       "endgame_nodes": 400, "endgame_mode": "exact"},
    "small_none_wld": {"nodes": 1500, "max_depth": 6, "parity": 4, "disc": 1, "corner": 7,
                       "ordering": "none", "pv_first": False, "tie": "random",
                       "endgame_empties": 14, "endgame_nodes": 5000, "endgame_mode": "wld"},
}


def positions(n: int = 80, seed: int = 11) -> list[tuple[int, int, int]]:
    """(black, white, to_move) of ``n`` positions from seeded random games, 4..56 empties."""
    rng = np.random.default_rng(seed)
    out: list[tuple[int, int, int]] = []
    while len(out) < n:
        st = ReversiGame().new_initial_state()
        target = int(rng.integers(4, 57))
        while not st.is_terminal():
            p, o = st.own_opp(st.to_move)
            if 64 - bin(int(p | o)).count("1") <= target:
                break
            moves = st.legal_actions()
            st.apply_action(int(moves[rng.integers(len(moves))]))
        if not st.is_terminal():
            out.append((int(st.boards[0]), int(st.boards[1]), int(st.to_move)))
    return out


def bot_params() -> dict[str, dict]:
    zoo = yaml.safe_load((ROOT / "config" / "bots" / "reversi.yaml").read_text())
    params = {k: v["params"] for k, v in zoo.items()
              if isinstance(v, dict) and v.get("kind") == "alphabeta"}
    return {**params, **VARIANTS}


def results(params: dict[str, dict], pos: list[tuple[int, int, int]]) -> dict[str, list]:
    game = ReversiGame()
    out: dict[str, list] = {}
    for name, p in params.items():
        bot = AlphaBetaBot(name, p)
        rows = []
        for i, (black, white, to_move) in enumerate(pos):
            r = bot.analyse(ReversiState(game, black, white, to_move), seed=i)
            rows.append([r["move"], r["score"], r["depth"], r["nodes"], r["solved"]])
        out[name] = rows
    return out


def main() -> None:
    pos = positions()
    params = bot_params()
    OUT.write_text(json.dumps({"positions": pos, "params": params,
                               "results": results(params, pos)}, separators=(",", ":")) + "\n")
    print(f"wrote {OUT} ({len(pos)} positions x {len(params)} bots)")


if __name__ == "__main__":
    main()
