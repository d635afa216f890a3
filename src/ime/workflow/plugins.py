"""The plug-in facts the workflow reads while it builds the DAG, cached by the code's digest.

Why: every ``snakemake`` call, a no-op rerun included, sets up every game's plan, and doing so
reads a few facts of each game's plug-in (its artifact names, its results and what they need,
its teams, its bot kinds: :class:`ime.core.registry.PluginInfo`) and of its encoder (shapes:
:func:`encoder_info`), and validates each game's bots file (:func:`checked_bot_specs`).
Importing the plug-ins for them imported all six engines and numba (0.5 s of the no-op's
2.5 s, issue 31), and validating imported pydantic's schemas (0.2 s). These facts are a pure
function of IME's code (and of the bots file's bytes), so they are kept on disk beside the
composition cache (``<compose cache>/plugins/<code digest>-f<format>-<game>-<what>.json``),
keyed by the same digest of every ``.py`` file of the package and the library versions
(:func:`ime.workflow.compose_cache.cache_key`'s code part): any change of the code reads them from
the plug-in again. A plug-in registered in this process that is not its package's own (a
test's) is read directly, and ``IME_COMPOSE_CACHE=0`` turns this cache off with the
composition cache.
"""

from __future__ import annotations

import copy
import hashlib
import json
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from ime.core.registry import PluginInfo, get_encoder, get_plugin, registered

CACHE_FORMAT = 1
"""Bumped when an entry's layout changes (part of the file name, so old entries are never read)."""
CACHE_MAX_ENTRIES = 128
"""Entries kept (the least recently used go first): per code version one per game and one per
game and board options (the encoder's), under 2 KB each."""

_MEMO: dict[str, dict[str, Any]] = {}


def _cached(game: str, what: str, compute: Callable[[], dict[str, Any]]) -> dict[str, Any]:
    """``compute()`` (JSON-ready facts of ``game``), kept per process and on disk under
    ``what`` for this code; computed when absent, unreadable or not ``game``'s."""
    name = f"{game}-{what}"
    if name in _MEMO:
        return _MEMO[name]
    path = _cache_path(name) if game.isidentifier() else None
    data = _read(path, game) if path is not None else None
    if data is None:
        data = {"game": game, "facts": compute()}
        if path is not None:
            _write(path, data)
    _MEMO[name] = data
    return data


def _cache_path(name: str) -> Path | None:
    """Where the facts ``name`` are cached for this code, or None (cache off)."""
    from ime.workflow.compose_cache import cache_dir, code_digest

    where = cache_dir()
    if where is None:
        return None
    return where / "plugins" / f"{code_digest()}-f{CACHE_FORMAT}-{name}.json"


def _foreign(game: str) -> bool:
    """True when this process registered a plug-in ``game`` that is not its package's own
    (a test's): its facts are read from it and never cached."""
    import sys

    plugin = registered(game)
    own = getattr(sys.modules.get(f"ime.games.{game}"), "PLUGIN", None)
    return plugin is not None and plugin is not own


def plugin_info(game: str) -> PluginInfo:
    """The facts of ``game``'s plug-in: from the cache, else from the plug-in (imported now if
    need be, then cached); a plug-in that is not its package's own (:func:`_foreign`) is read
    directly. An unknown game raises :func:`ime.core.registry.get_plugin`'s ``KeyError``
    (nothing is cached)."""
    if _foreign(game):
        return PluginInfo.of(get_plugin(game))
    data = _cached(game, "plugin", lambda: PluginInfo.of(get_plugin(game)).to_json())
    return PluginInfo.from_json(data["facts"])


def encoder_info(game: str, params: Mapping[str, Any]) -> dict[str, Any]:
    """``state_shape`` (a list), ``num_actions``, ``head_sizes`` (a list) and
    ``afterstate_features`` (a list) of ``game``'s encoder with board options ``params`` (the
    workflow's dataset and training params need them on every call): from the encoder when
    this process has the plug-in, else cached as :func:`plugin_info`."""

    def compute() -> dict[str, Any]:
        enc = get_encoder(game, params)
        return {"state_shape": [int(n) for n in enc.state_shape],
                "num_actions": int(enc.num_actions),
                "head_sizes": [int(n) for n in enc.head_sizes],
                "afterstate_features": list(enc.afterstate_features)}

    if _foreign(game):
        return compute()
    key = hashlib.blake2b(json.dumps(dict(params), sort_keys=True, default=repr).encode(),
                          digest_size=8).hexdigest()
    return _cached(game, f"encoder-{key}", compute)["facts"]


def checked_bot_specs(game: str, path: Path,
                      check: Callable[[], dict[str, dict[str, Any]]]) -> dict[str, dict[str, Any]]:
    """``check()`` (``game``'s bots file ``path`` loaded and validated against the bot-spec
    schema and the kinds the code knows), cached for this code and these bytes of the file:
    validating imports pydantic's schemas (0.2 s), which a no-op rerun need not. A file that
    fails is never cached, so its error is raised every time. Not the file's path: the specs
    are the file's bytes read (the check reads no other file), so a copied workflow's bots
    file with the same bytes reuses the entry, as its compositions do."""
    data = path.read_bytes()
    key = hashlib.blake2b(data, digest_size=8).hexdigest()
    specs = _cached(game, f"bots-{key}", lambda: {"specs": check()})["facts"]["specs"]
    return copy.deepcopy(specs)  # the caller may change its specs; the cached ones stay


def _read(path: Path, game: str) -> dict[str, Any] | None:
    """The entry at ``path``, or None: absent, unreadable or not ``game``'s."""
    from ime.workflow.compose_cache import read_cached_json

    return read_cached_json(path, lambda d: d.get("game") == game and "facts" in d)


def _write(path: Path, data: dict[str, Any]) -> None:
    """Store ``data`` atomically; a cache that cannot be written (read-only home) is skipped."""
    from ime.matches.rawlog import atomic_write_text
    from ime.workflow.compose_cache import prune, same_values

    try:
        text = json.dumps(data, allow_nan=False)
    except (TypeError, ValueError):
        return
    if not same_values(json.loads(text), data):  # JSON would not give back the same values
        return
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        atomic_write_text(path, text)
        prune(path.parent, CACHE_MAX_ENTRIES)
    except OSError:
        return


__all__ = ["checked_bot_specs", "encoder_info", "plugin_info"]
