"""The alpha-beta search, node for node, against ``data/search_golden.json``.

The bots' decisions are pinned by their node budgets, so an optimisation of the kernels must
leave every (move, score, depth, nodes, solved) as it was, including searches cut off by the
budget. The file was written by ``make_search_golden.py`` before the kernels' last speed-up.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from ime.games.reversi.bots.search import AlphaBetaBot
from ime.games.reversi.game import ReversiGame, ReversiState

GOLDEN = json.loads((Path(__file__).parent / "data" / "search_golden.json").read_text())


@pytest.mark.parametrize("bot_id", sorted(GOLDEN["params"]))
def test_search_matches_the_golden_results(bot_id: str) -> None:
    game = ReversiGame()
    bot = AlphaBetaBot(bot_id, GOLDEN["params"][bot_id])
    want = GOLDEN["results"][bot_id]
    got = []
    for i, (black, white, to_move) in enumerate(GOLDEN["positions"]):
        r = bot.analyse(ReversiState(game, black, white, to_move), seed=i)
        got.append([r["move"], r["score"], r["depth"], r["nodes"], r["solved"]])
    diffs = [(i, w, g) for i, (w, g) in enumerate(zip(want, got, strict=True)) if w != g]
    assert not diffs, f"{bot_id}: {len(diffs)} positions differ, first (i, want, got): {diffs[0]}"


def test_golden_covers_budget_cut_offs_and_solves() -> None:
    """The file exercises what an optimisation could get wrong: iterations cut off by the node
    budget, completed solves, and solves abandoned for the mid-game search."""
    res, params = GOLDEN["results"], GOLDEN["params"]
    assert all(sum(r[4] for r in res[b]) >= 5 for b in res)  # solved to the end
    small = res["small_mobility"]
    assert sum(r[3] == params["small_mobility"]["nodes"] for r in small) > 40  # cut off
    abandoned = [r for b in res for r in res[b] if r[4] == 0 and r[3] > params[b]["nodes"]]
    assert len(abandoned) >= 5
