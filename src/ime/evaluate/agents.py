"""Who can be evaluated: zoo bots, imitators and external programs, all by id via the registry.

Evaluation never constructs bots itself: a :class:`Provider` turns ids into bots through
:func:`ime.bots.registry.make_bot` with the zoo's specs plus generated imitator specs, so a new
kind (an external program adapter, another imitator) works in forks and tournaments as soon as it
is registered. Bots are cached per process: a fork asks for the opponent on every candidate.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from ime.core.bot import Bot

IMITATOR_PREFIX = "imit_"


def imitator_id(target: str) -> str:
    """The id an imitator of ``target`` plays under (in logs, tables, tournaments)."""
    return f"{IMITATOR_PREFIX}{target}"


def imitated_target(bot_id: str) -> str | None:
    """``imit_rev1 -> rev1``; ``None`` for a bot that is not an imitator id."""
    return bot_id[len(IMITATOR_PREFIX):] if bot_id.startswith(IMITATOR_PREFIX) else None


def imitator_spec(checkpoints: Sequence[str | Path], *, target: str, net: str,
                  fold: int | str,
                  game_params: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """A registry spec for an imitator of ``target`` from its checkpoints (one per fold).

    ``game_params``: the game's board options, when it has any (the checkpoints record them
    too; the spec's win).
    """
    which = "ensemble" if fold == "ensemble" else f"fold {fold}"
    params: dict[str, Any] = {"checkpoints": [str(p) for p in checkpoints]}
    if game_params:
        params["game_params"] = dict(game_params)
    return {
        "kind": "imitator",
        "description": f"imitation of {target} by {net} ({which})",
        "params": params,
    }


class Provider:
    """``provider(bot_id) -> Bot``: builds each bot once per process from the given specs.

    ``specs=None`` reads ``config/bots/<game>.yaml``; ``extra`` adds (or overrides) specs, e.g.
    the imitators. Picklable (holds only plain data), so it can cross into worker processes.
    """

    def __init__(self, game: str, specs: Mapping[str, Mapping[str, Any]] | None = None,
                 extra: Mapping[str, Mapping[str, Any]] | None = None):
        from ime.bots.registry import load_bot_specs

        self.game = game
        merged = dict(specs) if specs is not None else load_bot_specs(game)
        merged.update(extra or {})
        self.specs = {k: dict(v) for k, v in merged.items()}
        self._cache: dict[str, Bot] = {}

    def __call__(self, bot_id: str) -> Bot:
        bot = self._cache.get(bot_id)
        if bot is None:
            from ime.bots.registry import make_bot  # imports plug-in kinds (imitator) on demand

            bot = make_bot(self.game, bot_id, self.specs)
            self._cache[bot_id] = bot
        return bot

    def __getstate__(self) -> dict:
        return {"game": self.game, "specs": self.specs, "_cache": {}}

    def knows(self, bot_id: str) -> bool:
        return bot_id in self.specs


class ProviderFactory:
    """A picklable zero-argument factory of :class:`Provider` (one per worker process)."""

    def __init__(self, game: str, specs: Mapping[str, Mapping[str, Any]] | None = None,
                 extra: Mapping[str, Mapping[str, Any]] | None = None):
        self.game = game
        self.specs = None if specs is None else {k: dict(v) for k, v in specs.items()}
        self.extra = {k: dict(v) for k, v in (extra or {}).items()}

    def __call__(self) -> Provider:
        return Provider(self.game, self.specs, self.extra)


def warm_up(provider: Any, bot_ids: Sequence[str], game: Any) -> None:
    """Build each bot and let in-process bots move once from the start position.

    Called in the parent before worker processes are forked, so numba's compiled kernels and
    torch are loaded once and inherited, not re-loaded by every worker. External programs (bots
    with a ``respond`` method) are only built, never started here. Failures are left to the
    real calls, which report them with their match and ply.
    """
    from ime.core.bot import DecisionContext

    for bot_id in dict.fromkeys(bot_ids):
        try:
            bot = provider(bot_id)
        except (KeyError, ValueError, FileNotFoundError):
            continue
        if getattr(bot, "respond", None) is not None:
            continue
        state = game.new_initial_state(seed=0)
        (player,) = state.current_players()[:1] or (0,)
        try:
            bot.act(state.clone(), DecisionContext(seed=0, match_id="warm-up", ply=0,
                                                   player=player))
        except Exception:  # noqa: BLE001 - a warm-up must never decide anything
            pass
