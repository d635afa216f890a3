"""Reversi's plug-in: what the stages find under the name ``reversi``."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ime.core.game import Action, State
from ime.core.registry import FigureHooks, GamePlugin, Openings, register_game
from ime.games.reversi.bitboard import PASS, legal_moves, popcount
from ime.games.reversi.bots import BOT_KINDS
from ime.games.reversi.codec import SIMPLE_CODEC
from ime.games.reversi.encode import ReversiEncoder
from ime.games.reversi.game import GAME, GAME_TYPE, ReversiGame, square_name
from ime.games.reversi.tools import TOOLS


def _make_game() -> ReversiGame:
    return GAME


def _forced_pass(state: State, legal: list[Action]) -> bool:
    """Openings never contain a pass."""
    return legal == [PASS]


def _balanced(state: State, params: Mapping[str, Any]) -> bool:
    """Both sides can move and their legal-move counts differ by at most
    ``game.openings.max_mobility_gap`` (null: any)."""
    gap = params.get("max_mobility_gap")
    if gap is None:
        return True
    own, opp = state.own_opp()  # type: ignore[attr-defined]
    a = int(popcount(legal_moves(own, opp)))
    b = int(popcount(legal_moves(opp, own)))
    return a > 0 and b > 0 and abs(a - b) <= gap


PLUGIN = register_game(GamePlugin(
    game_type=GAME_TYPE,
    make_game=_make_game,
    make_encoder=lambda game: ReversiEncoder(),
    simple_codec=SIMPLE_CODEC,
    bot_kinds=BOT_KINDS,
    openings=Openings(rejects=_forced_pass, balanced=_balanced),
    figures=FigureHooks(grid=lambda game: (8, 8), fixed_cells=lambda game: [27, 28, 35, 36],
                        code_label=square_name),
    artifacts={
        "dataset_stats.csv": "table4_2.csv",
        "net_architectures.csv": "table4_3.csv",
        "imitation_accuracy.csv": "table4_4.csv",
        "s1s2_imitator.csv": "table4_5.csv",
        "s1_pairwise.csv": "table4_6.csv",
        "s2_pairwise.csv": "table4_7.csv",
        "tournament.csv": "table4_8.csv",
        "difficulty_by_class.csv": "table6_1.csv",
        "figures/move_choice_pair.png": "figures/fig4_2.png",
    },
    tools=TOOLS,
    docs="docs/zoo.md",
    imitators={"search": "ime.imitators.reversi_family:FAMILY"},
))
