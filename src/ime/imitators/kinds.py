"""Which ``config/net/`` entries are imitator families, and which of those are fitted: checks
that import nothing heavy.

Why a module of its own: the workflow asks it while it plans (the schema's validation, Table
4.4's nets in :meth:`ime.workflow.index.Index.table_nets`), in the ``snakemake`` process itself.
:mod:`ime.imitators.family` imports torch (about 2 s), which a dry run or a no-op rerun never
needs otherwise.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

FITTED_KINDS = ("search",)
"""``kind`` values of ``config/net/`` whose imitators are fitted (:mod:`ime.imitators.family`:
a search's weights and settings) rather than trained by the nets' loop."""

IMITATOR_FAMILIES = ("search", "lookahead")
"""``kind`` values that are an imitator family of issue 46 of their own (``imitator=search``,
``imitator=lookahead``); every other kind is one of the thesis's policy nets (``policy``). A
lookahead is trained by the nets' loop, so it is a family here but not in :data:`FITTED_KINDS`."""


def is_fitted(config: Mapping[str, Any]) -> bool:
    """Whether a ``config/net/`` entry is fitted by its family, not trained as a net."""
    return str(config.get("kind")) in FITTED_KINDS


def family_of(kind: Any) -> str:
    """The imitator family a net ``kind`` belongs to: itself for :data:`IMITATOR_FAMILIES`,
    ``policy`` for the thesis's nets."""
    return str(kind) if kind in IMITATOR_FAMILIES else "policy"
