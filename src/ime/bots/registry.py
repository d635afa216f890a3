"""Bots by name: ``config/bots/<game>.yaml`` maps a bot id to ``{kind: ..., params: {...}}``.

Stages never construct bots directly; they call ``make_bot(game, bot_id)`` so that a bot is fully
described by its id plus the config file, and the id is what goes into match logs. Kinds are
pluggable: another module (external programs, trained imitators) calls
``register_kind("external", factory)`` and its specs work everywhere. A game's own kinds come from
its plug-in (``GamePlugin.bot_kinds``) and win over a kind registered for every game.

Spec keys other than ``kind`` and ``params`` (``description``, ``thesis``...) are documentation and
ignored here.
"""

from __future__ import annotations

import importlib
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import yaml

from ime.core.bot import Bot
from ime.core.registry import BotFactory
from ime.paths import config_dir

_FACTORIES: dict[tuple[str | None, str], BotFactory] = {}


def register_kind(kind: str, factory: BotFactory, *, game: str | None = None) -> None:
    """Make specs with ``kind: <kind>`` buildable (for ``game`` only, or for every game)."""
    _FACTORIES[(game, kind)] = factory


def _game_kinds(game: str | None) -> Mapping[str, BotFactory]:
    if game is None:
        return {}
    from ime.core.registry import get_plugin

    return get_plugin(game).bot_kinds


def known_kinds(game: str | None = None) -> list[str]:
    """Kinds usable for ``game`` (all generic kinds when ``game`` is None)."""
    return sorted({k for g, k in _FACTORIES if game is None or g in (None, game)}
                  | set(_game_kinds(game)))


def bot_config_path(game: str) -> Path:
    return config_dir() / "bots" / f"{game}.yaml"


def load_bot_specs(game: str) -> dict[str, dict[str, Any]]:
    """The ``bot_id -> spec`` mapping of ``config/bots/<game>.yaml``."""
    path = bot_config_path(game)
    if not path.is_file():
        raise FileNotFoundError(f"no bot config for {game!r} at {path}")
    with path.open(encoding="utf-8") as fh:
        data = yaml.safe_load(fh) or {}
    if not isinstance(data, dict):
        raise ValueError(f"{path}: expected a mapping bot_id -> spec")
    for bot_id, spec in data.items():
        if not isinstance(spec, dict) or "kind" not in spec:
            raise ValueError(f"{path}: bot {bot_id!r} needs a mapping with a 'kind'")
    return {str(k): dict(v) for k, v in data.items()}


def make_bot(game: str, bot_id: str, specs: Mapping[str, Mapping[str, Any]] | None = None) -> Bot:
    """Build the bot ``bot_id`` of ``game`` from ``specs`` (default: the game's config file)."""
    if specs is None:
        specs = load_bot_specs(game)
    if bot_id not in specs:
        raise KeyError(f"unknown {game} bot {bot_id!r}; known: {sorted(specs)}")
    spec = specs[bot_id]
    kind = spec["kind"]
    factory = _game_kinds(game).get(kind) or _FACTORIES.get((game, kind)) \
        or _FACTORIES.get((None, kind))
    if factory is None and str(kind).isidentifier():
        # Plug-in kinds (external, imitator) register themselves when their module is imported.
        try:
            importlib.import_module(f"ime.bots.{kind}")
        except ImportError:
            pass
        factory = _FACTORIES.get((game, kind)) or _FACTORIES.get((None, kind))
    if factory is None:
        raise KeyError(f"bot {bot_id!r}: unknown kind {kind!r} for {game}; "
                       f"known: {known_kinds(game)}")
    bot = factory(game, bot_id, dict(spec.get("params") or {}))
    bot.bot_id = bot_id
    return bot
