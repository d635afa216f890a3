"""What every config section's schema shares: strict types, no unknown keys, safe file names."""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Annotated

from pydantic import AfterValidator, BaseModel, ConfigDict

SAFE = re.compile(r"^[A-Za-z0-9._-]+$")


class Section(BaseModel):
    """A config section: unknown keys are errors (a misspelt key must not be ignored), types are
    strict (``"5"`` is not an int, ``true`` is not a number) and numbers finite.

    The models only validate: the workflow keeps using the composed plain config, so a value
    keeps the exact type and form it has in the YAML (and in every tag and file metadata).
    Defaults live in the YAML files, not here; a field with a Python default is an optional key.
    """

    model_config = ConfigDict(extra="forbid", strict=True, allow_inf_nan=False, frozen=True)


def _safe_ids(ids: Sequence[str]) -> Sequence[str]:
    bad = [b for b in ids if not SAFE.match(b) or b in (".", "..")]
    if bad:
        raise ValueError(f"{bad} cannot name files and directories: use [A-Za-z0-9._-]")
    if len(set(ids)) != len(ids):
        raise ValueError(f"has duplicates: {list(ids)}")
    return ids


BotIds = Annotated[list[str], AfterValidator(_safe_ids)]
"""A list of distinct bot ids, each usable as a file name."""


def _non_empty(v: Sequence) -> Sequence:
    if not v:
        raise ValueError("is empty")
    return v


NonEmpty = AfterValidator(_non_empty)
