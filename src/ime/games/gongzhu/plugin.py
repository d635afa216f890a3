"""Gongzhu's plug-in: what the stages find under the name ``gongzhu``.

The encoder follows the GZero paper's 1x52 one-hot card features (16 planes of 4 x 13, one
68-code action head: :mod:`ime.games.gongzhu.encode`). Gongzhu has no thesis chapter: its
results keep the generic names (``s1s2_imitator.csv``, ``tournament.csv``, ...).
"""

from __future__ import annotations

from ime.core.registry import FigureHooks, GamePlugin, register_game
from ime.games.gongzhu.bots import BOT_KINDS
from ime.games.gongzhu.encode import make_encoder
from ime.games.gongzhu.game import GAME, GAME_TYPE, GongzhuGame
from ime.games.gongzhu.rules import action_name
from ime.games.gongzhu.tools import TOOLS

PLUGIN = register_game(GamePlugin(
    game_type=GAME_TYPE,
    make_game=lambda **params: GongzhuGame(**params) if params else GAME,
    make_encoder=make_encoder,
    bot_kinds=BOT_KINDS,
    figures=FigureHooks(grid=None, code_label=action_name),
    tools=TOOLS,
    docs="docs/games/gongzhu.md",
))
