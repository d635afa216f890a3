"""The one error the workflow's setup raises for a config it cannot use, how it reaches the
terminal, and the nearest-name suggestions that every "no such ..." message shares.

Why a config error leaves Snakemake as :class:`ConfigExit` (a :class:`SystemExit`), not as
Snakemake's ``WorkflowError``: Snakemake prints an exception raised while it reads the Snakefile
or calls an input function inside its own frame (``WorkflowError in file ..., line 42:``, or an
``InputFunctionException`` with the rule, its wildcards and a traceback) and on one line however
long the message is. A ``SystemExit`` passes through Snakemake's handlers (they catch
``Exception``), its ``with`` blocks still clean up, and Python prints its text alone on stderr
with exit status 1: the user reads the message and nothing else.
"""

from __future__ import annotations

import difflib
import textwrap
from collections.abc import Iterable

WIDTH = 100
"""Terminal messages are wrapped to this many columns (the code's own line length)."""


class ConfigError(ValueError):
    """A config that cannot be used; the message names the offending override or key.

    The Snakefile turns it into ``IME config error: <message>`` before any job is scheduled
    (:func:`config_exit`).
    """


class ConfigExit(SystemExit):
    """Stops Snakemake with a message printed alone (the module doc says why); exit status 1.

    ``str()`` of it is the wrapped text Python prints; :attr:`message` the text unwrapped."""

    def __init__(self, message: str) -> None:
        super().__init__(wrap(message))
        self.message = message


def config_exit(error: ConfigError | str) -> ConfigExit:
    """``IME config error: <message>`` as a :class:`ConfigExit` to raise from the Snakefile or an
    input function (``raise config_exit(e) from None``)."""
    return ConfigExit(f"IME config error: {error}")


def wrap(text: str, width: int = WIDTH) -> str:
    """``text`` wrapped to ``width`` columns, line by line: a continuation is indented two spaces
    more than its line, and a word (a path) is never broken, so it can be copied. A line
    indented four spaces or more is a command to copy as a whole, and is kept as it is."""
    out = []
    for line in text.splitlines() or [""]:
        indent = " " * (len(line) - len(line.lstrip(" ")))
        if len(indent) >= 4:
            out.append(line)
            continue
        out.append(textwrap.fill(line, width=width, subsequent_indent=indent + "  ",
                                 break_long_words=False, break_on_hyphens=False) or line)
    return "\n".join(out)


def nearest(word: str, choices: Iterable[str], n: int = 3, cutoff: float = 0.6) -> list[str]:
    """The ``n`` choices most like ``word`` (difflib's ratio at least ``cutoff``), best first:
    what a mistyped name most likely meant."""
    return difflib.get_close_matches(word, list(dict.fromkeys(choices)), n=n, cutoff=cutoff)


def _initials(name: str) -> str:
    """``learning_rate`` -> ``lr``: the abbreviation a config key is often written as."""
    parts = [p for p in name.split("_") if p]
    return "".join(p[0] for p in parts) if len(parts) > 1 else ""


def nearest_keys(key: str, keys: Iterable[str], n: int = 3, cutoff: float = 0.6) -> list[str]:
    """The dotted config keys most like ``key``, best first.

    Besides difflib's likeness of the whole key, two mistakes a spelling check misses: the same
    name in another section (``lr`` or ``evaluate.lr`` for ``train.lr``), and a name written out
    for its abbreviation or the other way round (``train.learning_rate`` for ``train.lr``)."""
    section, _, leaf = key.rpartition(".")
    scores: dict[str, float] = {}
    for k in dict.fromkeys(keys):
        if k == key:
            continue
        k_section, _, k_leaf = k.rpartition(".")
        score = difflib.SequenceMatcher(None, key, k).ratio()
        if k_section == section:
            score = max(score, difflib.SequenceMatcher(None, leaf, k_leaf).ratio())
        if k_leaf == leaf:
            score = max(score, 0.9)
        if leaf in (_initials(k_leaf), k_leaf.replace("_", "")) or k_leaf == _initials(leaf):
            score = max(score, 0.85 if k_section == section else 0.7)
        if score >= cutoff:
            scores[k] = score
    best = max(scores.values(), default=0.0)
    # only the names about as near as the best: a clear match is named alone
    return sorted((k for k in scores if scores[k] >= best - 0.1),
                  key=lambda k: (-scores[k], k))[:n]


def did_you_mean(close: list[str], prefix: str = "") -> str:
    """``"did you mean train.lr?"`` (``"did you mean a, b or c?"``) for the nearest names, each
    after ``prefix``; empty when there are none."""
    if not close:
        return ""
    names = [f"{prefix}{c}" for c in close]
    listed = names[0] if len(names) == 1 else f"{', '.join(names[:-1])} or {names[-1]}"
    return f"did you mean {listed}?"
