"""One game's result tables as the reproduction reads them: the tables by file name and what
each bot is in the thesis (its number, ladder rank, algorithm class, family).

The conclusions (:mod:`ime.thesis.conclusions`) and the comparison with the thesis's numbers
(:mod:`ime.thesis.compare`) see a game only through :class:`GameResults`, so they run the same on
a pipeline's results directory and on the small synthetic tables of the tests.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import pandas as pd

# defined there: the Snakefile reads them without pandas
from ime.thesis.names import OPTIONAL_TABLES, TABLES


@dataclass(frozen=True)
class Bot:
    """What one of our bots is in the thesis (``thesis`` None: a bot the thesis does not have)."""

    thesis: int | None = None
    ladder_rank: int | None = None
    cls: str = ""
    family: str = ""


@dataclass(frozen=True)
class GameResults:
    """A game's result tables (file name -> frame; a table the run did not write is absent),
    its bots as the thesis numbers them, and the net its imitators use."""

    game: str
    tables: Mapping[str, pd.DataFrame]
    bots: Mapping[str, Bot] = field(default_factory=dict)
    eval_net: str = ""
    matches_per_target: int | None = None
    """The matches each target's dataset came from (scales the thesis's counts to ours)."""

    def get(self, name: str) -> pd.DataFrame | None:
        """The table ``name`` (None when the run did not write it, or it has no rows)."""
        df = self.tables.get(name)
        return df if df is not None and len(df) else None

    def thesis_no(self, bot: str) -> int | None:
        b = self.bots.get(bot)
        return b.thesis if b is not None else None

    def bot_of(self, thesis_no: int) -> str | None:
        """Our bot that is the thesis's bot ``thesis_no`` (None: not in this run's zoo)."""
        for name, b in self.bots.items():
            if b.thesis == thesis_no:
                return name
        return None


def bots_from_specs(specs: Mapping[str, Mapping[str, Any]]) -> dict[str, Bot]:
    """:class:`Bot` of every spec of ``config/bots/<game>.yaml`` (``thesis: {bot, ladder_rank,
    fig2_4}`` and ``class``)."""
    out = {}
    for name, spec in specs.items():
        th = spec.get("thesis") or {}
        fam = str(th.get("fig2_4") or "").split(",")[0].strip()
        out[name] = Bot(thesis=int(th["bot"]) if th.get("bot") is not None else None,
                        ladder_rank=(int(th["ladder_rank"]) if th.get("ladder_rank") is not None
                                     else None),
                        cls=str(spec.get("class") or ""), family=fam)
    return out


def read_results(game: str, rdir: str | Path, specs: Mapping[str, Mapping[str, Any]],
                 eval_net: str, extra: Mapping[str, str | Path] | None = None,
                 matches_per_target: int | None = None) -> GameResults:
    """A written results directory's tables (every :data:`TABLES` and :data:`OPTIONAL_TABLES`
    file present, plus ``extra``: name -> path, e.g. the game's own ``table5_10.csv``)."""
    paths: dict[str, str | Path] = {n: Path(rdir) / n for n in (*TABLES, *OPTIONAL_TABLES)}
    paths.update(extra or {})
    return results_from_paths(game, paths, specs, eval_net, matches_per_target)


def results_from_paths(game: str, paths: Mapping[str, str | Path],
                       specs: Mapping[str, Mapping[str, Any]], eval_net: str,
                       matches_per_target: int | None = None) -> GameResults:
    """The tables at ``paths`` (name -> file; a file that does not exist is left out)."""
    from ime.thesis.boundary import exact_boundary_cis

    # an archived run's collapsed CIs of 0/100 % shares, as a fresh run now writes them
    tables = exact_boundary_cis({n: pd.read_csv(p) for n, p in paths.items()
                                 if Path(p).is_file()})
    bots = bots_from_specs(specs)
    # a zoo whose specs name no class (Reversi's): the class the evaluation gave each target
    for name in ("difficulty_by_class.csv", "clusters.csv"):
        t = tables.get(name)
        if t is not None and {"bot", "class"} <= set(t.columns):
            for b, c in zip(t["bot"], t["class"], strict=True):
                if b in bots and not bots[b].cls and isinstance(c, str):
                    bots[b] = replace(bots[b], cls=c)
    return GameResults(game, tables, bots, eval_net, matches_per_target)
