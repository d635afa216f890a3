"""A coordinate ascent over a search's discrete settings, scored by agreement with the target.

Why one function: the Monte-Carlo stages of the search imitators (Reversi's
:mod:`ime.imitators.mcts_fit`, Connect Four's :func:`ime.imitators.connect4_fit.fit_mcts`) fit a
handful of settings, each from a short list, where one scoring (a search of every sampled
position) costs seconds; a full grid would cost their product, an ascent their sum a round.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any


def coordinate_ascent(start: Mapping[str, Any], lists: Mapping[str, Sequence[Any]],
                      score: Callable[[dict[str, Any]], float], *, rounds: int,
                      say: Callable[[str], None] = lambda _l: None,
                      stage: str = "ascent") -> tuple[dict[str, Any], float]:
    """From ``start``, each setting of ``lists`` in turn (their order) takes the value of its
    list that scores most with the others held; a tie keeps the current value, so the result
    never depends on a list's order beyond its first value. At most ``rounds`` rounds, fewer
    where a round changes nothing. ``score`` may memoise; it is called once per setting
    visited. Returns the settings reached and their score."""
    cur = dict(start)
    best = score(cur)
    for r in range(rounds):
        changed = False
        for k, values in lists.items():
            for x in values:
                if x == cur[k]:
                    continue
                acc = score({**cur, k: x})
                if acc > best + 1e-9:
                    best, cur, changed = acc, {**cur, k: x}, True
            say(f"{stage} round {r} {k}: {cur} {best:.2f}%")
        if not changed:
            break
    return cur, best
