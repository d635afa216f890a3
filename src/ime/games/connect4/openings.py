"""Balanced tournament openings for Connect Four (random plies from the empty board).

A random opening can hand one side a won position at once; the tournament then measures the
opening, not the bots. So:

* ``rejects``: an opening is dropped as soon as the side to move could win at once (the random
  plies before left four-in-a-row on the table);
* ``balanced``: after the opening, neither side may have a playable winning cell
  (``game.openings.allow_threats: true`` lifts this), and with
  ``game.openings.solver_nodes: N`` and ``max_score: S`` the exact solver, given ``N`` nodes,
  must not prove that either side wins by more than ``S`` (Pons' units; an unfinished solve
  counts as balanced).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ime.core.game import Action, State
from ime.core.registry import Openings
from ime.games.connect4 import wide as wd
from ime.games.connect4.board import winning_cells


def immediate_wins(state: State, player: int) -> bool:
    """Whether ``player`` has a playable cell that makes four."""
    me, opp = state.own_opp(player)  # type: ignore[attr-defined]
    geo = state.game.geometry  # type: ignore[attr-defined]
    if geo.wide:
        words = wd.winning_cells(wd.to_words(me), wd.to_words(me), wd.to_words(opp), geo.g,
                                 geo.gw)
        return bool(wd.from_words(words) & state.next_cells())  # type: ignore[attr-defined]
    cells = winning_cells(me, me, opp, geo.g)
    return bool(cells & state.next_cells())  # type: ignore[attr-defined]


def rejects(state: State, legal: list[Action]) -> bool:
    """An opening ply where the side to move could already win is not an opening."""
    (p,) = state.current_players()
    return immediate_wins(state, p)


def balanced(state: State, params: Mapping[str, Any]) -> bool:
    (p,) = state.current_players()
    if not params.get("allow_threats", False) and (
            immediate_wins(state, p) or immediate_wins(state, 1 - p)):
        return False
    nodes = params.get("solver_nodes")
    if nodes:
        from ime.games.connect4.solver import Solver

        me, opp = state.own_opp()  # type: ignore[attr-defined]
        geo = state.game.geometry  # type: ignore[attr-defined]
        score = Solver(geo, 18).solve(me, opp, budget=int(nodes))
        limit = params.get("max_score")
        if score is not None and limit is not None and abs(score) > int(limit):
            return False
    return True


OPENINGS = Openings(rejects=rejects, balanced=balanced)
