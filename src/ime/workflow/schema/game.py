"""``game`` (config/game/<game>.yaml): which game, whose bots, and the game's own settings.

Everything game-specific lives here, not in the stages' sections: the training symmetries
(``augment``, one of the encoder's symmetry groups), the evaluation's reference pool
(``references``), the tournament's opening-balance parameters (``openings``, passed to the
plug-in's ``Openings.balanced``), the board options (``params``, passed to the engine and encoder
of every job), per-scale settings (``scales``) and settings of other sections at every scale
(``overrides``), both applied by composition and then removed.

What only the plug-in knows (the game is registered, ``augment`` is a symmetry group of its
encoder, ``params`` build an engine, the shape keys agree with the encoder) is checked by
:func:`check_plugin` after this structural check.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Annotated, Any

from pydantic import PositiveInt

from ime.workflow.schema.common import BotIds, NonEmpty, Section


class Game(Section):
    name: str
    targets: Annotated[BotIds, NonEmpty]
    """The imitated bots (ids of config/bots/<game>.yaml, or of the raw logs)."""
    opponents: list[str]
    sparring: list[str] | None
    """Who a target plays its ``matches.vs_targets`` share against (null: the other targets)."""
    augment: str
    references: list[str] | None
    """The evaluation's reference pool (null: the other targets)."""
    openings: dict[str, Any]
    params: dict[str, Any]
    extra: dict[str, Any]
    """Settings only the game's plug-in reads (e.g. its own results' settings); not checked
    here, and not part of the logs' key."""
    scales: dict[str, dict[str, Any]] = {}
    """Per scale, overrides of any config key (``{tiny: {game: {targets: [...]}}}``); applied
    by composition below the command line's overrides, then removed."""
    overrides: dict[str, Any] = {}
    """Other sections' keys this game sets at every scale (``{net: ddz_conv1, train: {nets:
    [...]}}``: a game whose nets are its own); applied like ``scales`` (below the command
    line's overrides, above the scale files: a key a scale file sets belongs under
    ``scales``), then removed."""
    num_actions: PositiveInt | None = None
    """Optional documentation of the encoder's shapes; checked against it when given."""
    planes: PositiveInt | None = None
    board: list[PositiveInt] | None = None


def check_plugin(game: Mapping[str, Any]) -> list[str]:
    """Problems only the game's plug-in can find (empty when there are none)."""
    from ime.core.registry import get_encoder, get_game, get_plugin

    name = game["name"]
    try:
        get_plugin(name)
    except KeyError as e:
        return [f"game.name: {e.args[0]}"]
    params = dict(game.get("params") or {})
    try:
        get_game(name, params)
        enc = get_encoder(name, params)
    except (TypeError, ValueError) as e:
        return [f"game.params {params} do not build a {name} game: {e}"]
    problems = []
    if game["augment"] not in enc.symmetry_groups:
        problems.append(f"game.augment must be one of {list(enc.symmetry_groups)} (the "
                        f"symmetry groups of {name}'s encoder), got {game['augment']!r}")
    if game.get("num_actions") is not None and game["num_actions"] != enc.num_actions:
        problems.append(f"game.num_actions={game['num_actions']} but {name}'s encoder has "
                        f"{enc.num_actions} actions")
    shape = [game.get("planes"), *(game.get("board") or [])]
    if game.get("planes") is not None and shape != list(enc.state_shape)[:len(shape)]:
        problems.append(f"game.planes/board {shape} differ from {name}'s encoder's state "
                        f"shape {list(enc.state_shape)}")
    return problems
