"""Connect Four's plug-in: what the stages find under the name ``connect4``."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ime.core.game import Game
from ime.core.registry import FigureHooks, GamePlugin, register_game
from ime.games.connect4.bots import BOT_KINDS
from ime.games.connect4.encode import Connect4Encoder
from ime.games.connect4.game import GAME_TYPE, Connect4Game
from ime.games.connect4.openings import OPENINGS
from ime.games.connect4.tools import TOOLS


def column_label(code: int) -> str:
    """Column ``code`` as a letter, ``a`` = leftmost (John Tromp's notation)."""
    return chr(ord("a") + code) if 0 <= code < 26 else str(code)


def seed002(plain_cfg: Mapping[str, Any], out_path: str) -> None:
    """Seed 002's findings: the UCT agent's win rate against graded opponents, and heuristic
    against plain rollouts versus the strongest one, with 95% Wilson CIs (``game.extra.study``)."""
    from ime.games.connect4.study import results_hook

    results_hook(plain_cfg, out_path)


def _encoder(game: Game) -> Connect4Encoder:
    return Connect4Encoder(game.geometry)  # type: ignore[attr-defined]


PLUGIN = register_game(GamePlugin(
    game_type=GAME_TYPE,
    make_game=lambda **params: Connect4Game(**params),
    make_encoder=_encoder,
    bot_kinds=BOT_KINDS,
    openings=OPENINGS,
    figures=FigureHooks(grid=lambda game: (1, game.width),  # type: ignore[attr-defined]
                        code_label=column_label),
    artifacts={},
    results={"seed002.csv": seed002},
    tools=TOOLS,
    docs="docs/games/connect4.md",
    imitators={"search": "ime.imitators.connect4_family:FAMILY"},
))
