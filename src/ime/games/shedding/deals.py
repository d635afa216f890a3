"""The checks shared by the games' ``initdata`` parsers (``big2``'s ``hands``, ``doudizhu``'s
``allocation``): the object itself, the hands and their card ids, and the seed to deal from when
it names no deal. Error messages start with the game's name, as a judge's would.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np


def initdata_object(initdata: Any, game: str) -> Mapping | None:
    """``initdata`` as a mapping (a JSON text is parsed), ``None`` when it is empty (the engine
    then deals from a seed); ValueError when it is no object."""
    if isinstance(initdata, str):
        initdata = json.loads(initdata) if initdata.strip() else None
    if not initdata:
        return None
    if not isinstance(initdata, Mapping):
        raise ValueError(f"{game} initdata must be an object, got {initdata!r}")
    return initdata


def card_ids(v: Any, what: str, game: str) -> list[int]:
    """``v`` as a list of ints (numpy ints too, never ``True``/``False``); ValueError naming
    ``what`` otherwise."""
    if not isinstance(v, (list, tuple)) or not all(
            isinstance(c, (int, np.integer)) and not isinstance(c, bool) for c in v):
        raise ValueError(f"{game} initdata: {what} must be a list of card ids, got {v!r}")
    return [int(c) for c in v]


def dealt_hands(raw: Any, sizes: Sequence[int], key: str, game: str, rule: str
                ) -> list[list[int]]:
    """The hands of ``initdata[key]`` (``raw``) as lists of ints, one per seat of ``sizes``
    cards; ValueError otherwise (``rule`` says how the game deals)."""
    if not isinstance(raw, (list, tuple)) or len(raw) != len(sizes):
        raise ValueError(f"{game} initdata: {key} must hold {len(sizes)} hands, got {raw!r}")
    hands = [card_ids(h, f"{key}[{i}]", game) for i, h in enumerate(raw)]
    if [len(h) for h in hands] != list(sizes):
        raise ValueError(f"{game} initdata: hands of {[len(h) for h in hands]} cards ({rule})")
    return hands


def seed_of(initdata: Any, seed: int | None, game: str) -> int:
    """The seed of a deal ``initdata`` does not name: its ``seed`` key (an integer or digit
    string), else ``seed`` (default 0)."""
    if isinstance(initdata, str) and initdata.strip():
        initdata = json.loads(initdata)
    s = initdata.get("seed") if isinstance(initdata, Mapping) else None
    if s is not None:
        try:
            seed = int(s)
        except (TypeError, ValueError):
            raise ValueError(f"{game} initdata: seed must be an integer, got {s!r}") from None
    return 0 if seed is None else int(seed)


__all__ = ["card_ids", "dealt_hands", "initdata_object", "seed_of"]
