"""Big-2's plug-in: what the stages find under the name ``big2``.

The encoder is Doudizhu's model: 309 major + 6 x 26 kicker codes (:mod:`ime.games.big2.encode`,
``docs/games/big2.md``). No thesis chapter maps the generic results to other names; the
plug-in's own results are the seed's agent against the baselines and the exact solver's effort
(:mod:`ime.games.big2.study`).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ime.core.registry import FigureHooks, GamePlugin, register_game
from ime.games.big2.actions import major_label
from ime.games.big2.bots import BOT_KINDS
from ime.games.big2.encode import make_encoder
from ime.games.big2.game import GAME_TYPE, Big2Game
from ime.games.big2.tools import TOOLS


def agent_strength(plain_cfg: Mapping[str, Any], out_path: str) -> None:
    """The seed's agent against each baseline, both seats, with 95% Wilson CIs
    (``game.extra.study``)."""
    from ime.games.big2.study import strength_hook

    strength_hook(plain_cfg, out_path)


def solver_effort(plain_cfg: Mapping[str, Any], out_path: str) -> None:
    """The exact solver's nodes and time per position size (``game.extra.study.solver``)."""
    from ime.games.big2.study import solver_hook

    solver_hook(plain_cfg, out_path)


PLUGIN = register_game(GamePlugin(
    game_type=GAME_TYPE,
    make_game=lambda **params: Big2Game(**params),
    make_encoder=make_encoder,
    bot_kinds=BOT_KINDS,
    figures=FigureHooks(code_label=major_label),
    artifacts={},
    results={"agent_strength.csv": agent_strength, "solver_effort.csv": solver_effort},
    tools=TOOLS,
    docs="docs/games/big2.md",
))
