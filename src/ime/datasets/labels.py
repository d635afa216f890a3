"""The names of the decisions directories (``data/<game>/decisions/<ltag>/<mode>``).

Apart from :mod:`ime.datasets.extract` so that the workflow can name a decisions part without
importing the extraction stage (pyarrow, the match readers): a no-op rerun builds every
job's paths (issue 31)."""

from __future__ import annotations

import re
from collections.abc import Mapping

SAFE = re.compile(r"^[A-Za-z0-9_.]+$")
FORCED_LABEL = "-forced"
"""Suffix of the decisions directory (``data/<game>/decisions/<ltag>/<mode>``) whose parts keep
forced decisions: they are other rows than the default's, so they never share a file."""


ENCODER_LABEL = "__"
"""Separates the encoder's own game params in a decisions directory's name
(``strict-forced__observation-seats``): the same logs encoded otherwise are other rows."""


def decisions_label(mode: str, keep_forced: bool,
                    encoder_params: Mapping[str, str] | None = None) -> str:
    """The ``{mode}`` directory of a decisions part: the replay mode, ``-forced`` appended
    when forced decisions are kept (``strict``, ``strict-forced``, ...), then each of the
    encoder's own game params (:attr:`ime.core.registry.GamePlugin.encoder_params`) as
    ``__<key>-<value>`` (``strict__observation-seats``)."""
    label = f"{mode}{FORCED_LABEL}" if keep_forced else mode
    for k, v in sorted((encoder_params or {}).items()):
        if not SAFE.match(f"{k}{v}"):
            raise ValueError(f"game.params.{k}={v!r}: an encoder option's key and value must "
                             f"be plain words (letters, digits, _ .) to name its decisions")
        label += f"{ENCODER_LABEL}{k}-{v}"
    return label


BOOLS = {"True": True, "False": False}
"""How a boolean encoder option (a plane a plug-in adds or not) reads in a label and back."""


def parse_decisions_label(label: str) -> tuple[str, bool, dict[str, str | bool]]:
    """``(mode, keep_forced, encoder params)`` of a decisions directory name
    (:func:`decisions_label`; a value ``True`` or ``False`` is the boolean)."""
    head, *params = label.split(ENCODER_LABEL)
    enc: dict[str, str | bool] = {}
    for p in params:
        k, v = p.split("-", 1)
        enc[k] = BOOLS.get(v, v)
    if head.endswith(FORCED_LABEL):
        return head[: -len(FORCED_LABEL)], True, enc
    return head, False, enc
