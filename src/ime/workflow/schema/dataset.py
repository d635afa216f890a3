"""``dataset``: how logs become one Parquet dataset per target (config/config.yaml)."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from ime.workflow.schema.common import Section


class Dataset(Section):
    matches: int | None = Field(ge=1)
    """Only each target's first N matches (null: all)."""
    mode: Literal["strict", "lenient"]
    dedup: Literal["keep", "drop_exact"]
    keep_forced: bool
    """Keep decisions with a single legal action (encoders with a ``keep_forced`` option)."""
