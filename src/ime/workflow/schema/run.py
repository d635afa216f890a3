"""``run``: the variant's name and the group options it was composed from."""

from __future__ import annotations

from pydantic import field_validator

from ime.workflow.schema.common import SAFE, Section


class Run(Section):
    name: str | None
    """The results directory's name (results/<game>/<name>); null: derived, "": the default."""
    choices: dict[str, str]
    """The option chosen in every config group (filled in by composition)."""

    @field_validator("name")
    @classmethod
    def _plain_name(cls, v: str | None) -> str | None:
        if v and not SAFE.match(v):
            raise ValueError(f"run.name {v!r} must be a plain directory name ([A-Za-z0-9._-])")
        return v
