"""Doudizhu's plug-in: what the stages find under the name ``doudizhu``.

The encoder is the thesis's: 309 major + 5 x 28 minor codes (Tables 5.2/5.3,
:mod:`ime.games.doudizhu.encode`, ``docs/games/doudizhu_encoding.md``).
"""

from __future__ import annotations

from ime.core.registry import GamePlugin, register_game
from ime.games.doudizhu.bots import BOT_KINDS
from ime.games.doudizhu.encode import make_encoder
from ime.games.doudizhu.game import GAME_TYPE, make_game
from ime.games.doudizhu.results import table5_10_hook
from ime.games.doudizhu.tools import TOOLS

PLUGIN = register_game(GamePlugin(
    game_type=GAME_TYPE,
    make_game=make_game,
    make_encoder=make_encoder,
    bot_kinds=BOT_KINDS,
    artifacts={
        "dataset_stats.csv": "table5_4.csv",
        "net_architectures.csv": "table5_5.csv",
        "imitation_accuracy.csv": "table5_6.csv",
        "s1s2_imitator.csv": "table5_7.csv",
        "s1_pairwise.csv": "table5_8.csv",
        "s2_pairwise.csv": "table5_9.csv",
        "difficulty_by_class.csv": "table6_1.csv",
        "case_study.csv": "table5_11.csv",
        "figures/case_study.png": "figures/fig5_4.png",
    },
    results={"table5_10.csv": table5_10_hook},
    tools=TOOLS,
    docs="docs/games/doudizhu.md",
    encoder_params=("observation",),
))
