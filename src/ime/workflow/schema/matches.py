"""``matches``: where the match logs come from and how many are played (config/config.yaml)."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from ime.workflow.schema.common import Section


class Matches(Section):
    source: Literal["generated", "raw"]
    """generated: play the zoo; raw: read Botzone logs dropped into ``raw_dir``."""
    raw_dir: str
    per_target: int = Field(ge=1)
    vs_targets: float = Field(ge=0, le=1)
    """The fraction of a target's matches played against its sparring partners."""
    shards: int = Field(ge=1)
    team_seats: Literal["one", "all"]
    """all: the target fills every seat of its side (the game's ``GameType.teams``)."""
    seed: int
