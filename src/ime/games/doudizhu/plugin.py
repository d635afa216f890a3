"""Doudizhu's plug-in: what the stages find under the name ``doudizhu``.

The encoder is the thesis's: 309 major + 5 x 28 minor codes (Tables 5.2/5.3,
:mod:`ime.games.doudizhu.encode`, ``docs/games/doudizhu_encoding.md``).
"""

from __future__ import annotations

from ime.core.registry import GamePlugin, register_game
from ime.games.doudizhu.bots import BOT_KINDS
from ime.games.doudizhu.encode import make_encoder
from ime.games.doudizhu.game import GAME, GAME_TYPE
from ime.games.doudizhu.tools import TOOLS

PLUGIN = register_game(GamePlugin(
    game_type=GAME_TYPE,
    make_game=lambda **params: GAME,
    make_encoder=make_encoder,
    bot_kinds=BOT_KINDS,
    tools=TOOLS,
    docs="docs/games/doudizhu.md",
))
