"""Snake's plug-in: what the stages find under the name ``snake``."""

from __future__ import annotations

from ime.core.registry import FigureHooks, GamePlugin, register_game
from ime.games.snake.bots import BOT_KINDS
from ime.games.snake.encode import make_encoder
from ime.games.snake.game import DIRECTIONS, GAME_TYPE, SnakeGame
from ime.games.snake.tools import TOOLS


def direction_label(code: int) -> str:
    """Direction ``code`` by name (``x`` is the row counted from the top)."""
    return DIRECTIONS[code] if 0 <= code < 4 else str(code)


PLUGIN = register_game(GamePlugin(
    game_type=GAME_TYPE,
    make_game=lambda **params: SnakeGame(**params),
    make_encoder=make_encoder,
    bot_kinds=BOT_KINDS,
    figures=FigureHooks(code_label=direction_label),
    tools=TOOLS,
    docs="docs/games/snake.md",
))
