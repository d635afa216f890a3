"""``config/bots/<game>.yaml``: bot id -> spec, checked when the workflow is set up.

A spec is ``kind`` (a bot kind of the game's plug-in, or a generic one such as ``external``) and
its ``params`` mapping; ``description`` and ``thesis`` document the bot, ``algorithm`` (a short
label) and ``class`` (Table 6.1's algorithm class) name it in the tables; ``variant_of`` names the
bot a parameter variant derives from (the hard identification pools of docs/identify.md).
"""

from __future__ import annotations

import importlib
from collections.abc import Mapping
from typing import Any

from pydantic import Field, RootModel, ValidationError

from ime.workflow.errors import ConfigError
from ime.workflow.schema.common import Section


class BotSpec(Section):
    kind: str = Field(min_length=1)
    params: dict[str, Any] | None = None
    description: str | None = None
    thesis: dict[str, Any] | None = None
    algorithm: str | None = None
    class_: str | None = Field(default=None, alias="class")
    variant_of: str | None = None


class BotSpecs(RootModel[dict[str, BotSpec]]):
    pass


def _kind_known(game: str, kind: str) -> bool:
    from ime.bots.registry import known_kinds
    from ime.workflow.plugins import plugin_info

    if kind in plugin_info(game).kinds:  # the game's own kinds, without importing its engine
        return True
    if kind in known_kinds(game):
        return True
    if kind.isidentifier():  # generic kinds register themselves when their module is imported
        try:
            importlib.import_module(f"ime.bots.{kind}")
        except ImportError:
            return False
    return kind in known_kinds(game)


def validate_bot_specs(game: str, specs: Mapping[str, Any], where: str) -> None:
    """Raise :class:`ConfigError` naming every bad spec of ``where`` (the bots file)."""
    from ime.workflow.schema import format_errors

    try:
        BotSpecs.model_validate(dict(specs))
    except ValidationError as e:
        raise ConfigError(f"bad bot specs in {where}:\n  "
                          + "\n  ".join(format_errors(e, prefix=""))) from None
    orphans = sorted(f"{b} (variant_of: {s['variant_of']})" for b, s in specs.items()
                     if s.get("variant_of") is not None and s["variant_of"] not in specs)
    if orphans:
        raise ConfigError(f"bad bot specs in {where}: variants of bots not in the file: "
                          f"{', '.join(orphans)}")
    unknown = sorted({str(s["kind"]) for s in specs.values()
                      if not _kind_known(game, str(s["kind"]))})
    if unknown:
        from ime.bots.registry import known_kinds

        raise ConfigError(f"bad bot specs in {where}: unknown kind(s) {unknown} for {game}; "
                          f"known: {known_kinds(game)}")
