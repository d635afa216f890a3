"""Snake's plug-in: what the stages find under the name ``snake``."""

from __future__ import annotations

from ime.core.registry import FigureHooks, GamePlugin, register_game
from ime.games.snake.bots import BOT_KINDS
from ime.games.snake.encode import make_encoder
from ime.games.snake.game import DIRECTIONS, GAME_TYPE, SnakeGame
from ime.games.snake.results import split_vs_thesis_hook
from ime.games.snake.tools import TOOLS


def direction_label(code: int) -> str:
    """Direction ``code`` by name (``x`` is the row counted from the top)."""
    return DIRECTIONS[code] if 0 <= code < 4 else str(code)


PLUGIN = register_game(GamePlugin(
    game_type=GAME_TYPE,
    make_game=lambda **params: SnakeGame(**params),
    make_encoder=make_encoder,
    bot_kinds=BOT_KINDS,
    # thesis 2.1.3: Fig 2.7 is the accuracy figure, Fig 2.6 the dataset-size sweep
    # (experiment=snake_dataset_size)
    artifacts={
        "figures/accuracy.png": "fig2_7.png",
        "net_architectures.csv": "table2_2.csv",
        "sweep_dataset.matches.csv": "fig2_6.csv",
        "fig_sweep_dataset.matches.png": "fig2_6.png",
    },
    results={"split_vs_thesis.csv": split_vs_thesis_hook},
    figures=FigureHooks(code_label=direction_label),
    tools=TOOLS,
    docs="docs/games/snake.md",
    imitators={"search": "ime.imitators.snake_family:FAMILY"},
    # the opponent's head, turn and order planes change no rule, so the matches are the plain run's
    # (``encoding`` and ``ego_size`` are not listed: their runs' tags predate this key)
    encoder_params=("opponent_head", "turn_plane", "order_plane"),
))
