"""The search settings that the round-value climb may move with the weights (its settings round).

Why a module of its own: the climb (:mod:`ime.imitators.round_values`) knows nothing of a
search; it climbs ``score(weights, setting)`` and, given a setting's neighbours, tries them in
its settings round. Here a Reversi search's setting is its phase count (fixed for a climb) and
the budgeted search's node budget, move ordering, ``pv_first`` and tie rule, and its neighbours
are the budget one rung up or down a ladder with every ordering and ``pv_first`` of the fit's
grid, and each other tie rule of the grid. Why the tie rule: the surrogate stage chose it at a
fixed depth, where the search's own order (``searched_*``) is not the budgeted search's; with
rev2's own evaluation at 64,000 nodes, square ordering and the best move first, ``last_col``
(what the thesis fold's surrogate stage chose) agrees on 96.1 % of 1,000 unseen positions and
``searched_last`` on 98.6 %.
The ladder is the fit's own budgets (``FitConfig.budgets``) and the round numbers between the
least and the most of them (the 1-1.2-1.5-2-2.5-3-4-5-6-7-8 series of the weights' ladder,
:func:`ime.imitators.round_values.budget_ladder`): a budget is a number a person wrote, as a
weight is. Why finer than the fit's budgets: with rev2's own evaluation, ordering and
``pv_first``, the imitator's search agrees on 98.7 % of 600 unseen thesis-scale positions at
64,000 nodes (the nearest budget of the thesis run's ladder) and on 100.0 % at 60,000. Nothing
here reads a target's config: the series and the grid are the fit's.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import replace
from typing import NamedTuple

from ime.imitators.reversi_search import SearchSettings
from ime.imitators.round_values import budget_ladder, near_budgets


class ClimbSetting(NamedTuple):
    """A climb's setting when the settings round is on: the phases, which stay, and the
    budgeted search's settings, which it may move."""

    phases: int
    budget: int
    ordering: str
    pv_first: bool
    tie: str

    def __str__(self) -> str:
        """What the climb's log says of it (the phases are the start's own)."""
        return (f"{self.budget} nodes, {self.ordering} ordering"
                f"{', best move first' if self.pv_first else ''}, ties {self.tie}")


def climb_setting(settings: SearchSettings, phases: int | None = None) -> ClimbSetting:
    """``settings``' climb setting (with ``phases`` in place of its own, if given)."""
    return ClimbSetting(settings.phases if phases is None else phases, settings.budget,
                        settings.ordering, settings.pv_first, settings.tie)


def applied(settings: SearchSettings, setting: int | ClimbSetting) -> SearchSettings:
    """``settings`` with a climb's setting: a phase count, or a :class:`ClimbSetting`."""
    if isinstance(setting, ClimbSetting):
        return replace(settings, **setting._asdict())
    return replace(settings, phases=int(setting))


def setting_neighbours(budgets: Sequence[int], orderings: Sequence[str],
                       pv_firsts: Sequence[bool], ties: Sequence[str] = ()
                       ) -> Callable[[ClimbSetting], list[ClimbSetting]]:
    """A setting's neighbours: the budget itself and one rung either side on
    :func:`budget_ladder` (a budget not on it stays), each with every ordering and ``pv_first``
    of the grid, less the setting itself; the setting's own budget first (its scorings are the
    cheapest of the larger ones and need no deeper search); then the setting with each other
    tie rule of ``ties`` (one at a time: the product would make a round six times dearer)."""
    ladder = budget_ladder(budgets)

    def neighbours(s: ClimbSetting) -> list[ClimbSetting]:
        out = [s._replace(budget=b, ordering=o, pv_first=bool(pv))
               for b in near_budgets(ladder, s.budget)
               for o in orderings for pv in pv_firsts
               if (b, o, bool(pv)) != (s.budget, s.ordering, s.pv_first)]
        return out + [s._replace(tie=t) for t in dict.fromkeys(ties) if t != s.tie]

    return neighbours
