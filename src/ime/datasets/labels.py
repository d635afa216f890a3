"""The names of the decisions directories (``data/<game>/decisions/<ltag>/<mode>``).

Apart from :mod:`ime.datasets.extract` so that the workflow can name a decisions part without
importing the extraction stage (pyarrow, the match readers): a no-op rerun builds every
job's paths (issue 31)."""

from __future__ import annotations

FORCED_LABEL = "-forced"
"""Suffix of the decisions directory (``data/<game>/decisions/<ltag>/<mode>``) whose parts keep
forced decisions: they are other rows than the default's, so they never share a file."""


def decisions_label(mode: str, keep_forced: bool) -> str:
    """The ``{mode}`` directory of a decisions part: the replay mode, ``-forced`` appended
    when forced decisions are kept (``strict``, ``strict-forced``, ...)."""
    return f"{mode}{FORCED_LABEL}" if keep_forced else mode


def parse_decisions_label(label: str) -> tuple[str, bool]:
    """``(mode, keep_forced)`` of a decisions directory name (:func:`decisions_label`)."""
    if label.endswith(FORCED_LABEL):
        return label[: -len(FORCED_LABEL)], True
    return label, False
