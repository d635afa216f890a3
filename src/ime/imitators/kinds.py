"""Which ``config/net/`` entries name an imitator family: a check that imports nothing heavy.

Why a module of its own: the workflow asks it while it plans (the schema's validation, Table
4.4's nets in :meth:`ime.workflow.index.Index.table_nets`), in the ``snakemake`` process itself.
:mod:`ime.imitators.family` imports torch (about 2 s), which a dry run or a no-op rerun never
needs otherwise.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

FAMILY_KINDS = ("search",)
"""``kind`` values of ``config/net/`` that name an imitator family rather than a net."""


def is_family(config: Mapping[str, Any]) -> bool:
    """Whether a ``config/net/`` entry names an imitator family (not a policy net)."""
    return str(config.get("kind")) in FAMILY_KINDS
