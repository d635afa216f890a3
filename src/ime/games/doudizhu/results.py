"""Doudizhu's own results: Table 5.10 under the thesis's protocol, from the tournament's games.

The thesis (5.5.3) plays 200 double round-robins of the 10 agents (5 originals, 5 imitators): in
each round every ordered pair (A, B) plays one deal with A as the landlord and B in both farmer
seats, both orders on the same deal; a win scores 3, a loss 0. The generic tournament
(:mod:`ime.evaluate.tournament`) already plays those games: a pair's lineups ``(a, b, b)`` and
``(b, a, a)`` on each round's one deal, plus their other seat rotations (our mixed tables, in
``tournament.csv`` with ratings). Table 5.10 keeps the games whose landlord sits alone against
one agent in both farmer seats, i.e. exactly the thesis's games, and totals them.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # annotations only: the functions import pandas (0.4 s), as the plug-in is
    import pandas as pd  # imported while the Snakefile is parsed

WIN_POINTS = 3
"""The thesis's score for a won game (a loss scores 0; Doudizhu has no draws)."""

TABLE5_10_COLUMNS = ["rank", "agent", "type", "imitates", "points", "games", "wins",
                     "landlord_games", "landlord_wins", "farmer_games", "farmer_wins",
                     "points_per_game"]


def thesis_games(games: pd.DataFrame) -> pd.DataFrame:
    """The tournament games of the thesis's protocol: one agent as the landlord (seat 0), one
    other agent in both farmer seats."""
    lone = (games["player1"] == games["player2"]) & (games["player0"] != games["player1"])
    return games[lone]


def table5_10(games: pd.DataFrame, agents: Mapping[str, Mapping[str, Any]] | None = None
              ) -> pd.DataFrame:
    """Points (win 3 / loss 0) of every agent over the thesis-protocol games, ranked.

    ``agents``: ``{agent: {"type": ..., "imitates": ...}}`` from ``tournament.csv`` (optional).
    """
    import pandas as pd

    rows: dict[str, dict[str, Any]] = {}
    for g in thesis_games(games).itertuples(index=False):
        landlord, farmer = str(g.player0), str(g.player1)
        landlord_won = int(g.outcome0) == 2
        for agent, side, won in ((landlord, "landlord", landlord_won),
                                 (farmer, "farmer", not landlord_won)):
            r = rows.setdefault(agent, {"agent": agent, "points": 0, "games": 0, "wins": 0,
                                        "landlord_games": 0, "landlord_wins": 0,
                                        "farmer_games": 0, "farmer_wins": 0})
            r["games"] += 1
            r[f"{side}_games"] += 1
            if won:
                r["wins"] += 1
                r[f"{side}_wins"] += 1
                r["points"] += WIN_POINTS
    out = pd.DataFrame(list(rows.values()))
    if out.empty:
        return pd.DataFrame(columns=TABLE5_10_COLUMNS)
    meta = agents or {}
    out["type"] = [meta.get(a, {}).get("type", "") for a in out.agent]
    out["imitates"] = [meta.get(a, {}).get("imitates", "") for a in out.agent]
    out["points_per_game"] = (out.points / out.games).round(3)
    out = out.sort_values(["points", "agent"], ascending=[False, True], ignore_index=True)
    out["rank"] = out.points.rank(method="min", ascending=False).astype(int)
    return out[TABLE5_10_COLUMNS]


def table5_10_hook(plain_cfg: Mapping[str, Any], out_path: str) -> None:
    """Table 5.10 (thesis protocol): each ordered pair plays one deal per round with one agent
    as the landlord and the other in both farmer seats, win 3 / loss 0, from the tournament's
    games (``tournament_games.csv``; our mixed-seat ratings are ``tournament.csv``)."""
    import pandas as pd

    rdir = Path(out_path).parent
    games = pd.read_csv(rdir / "tournament_games.csv")
    agents = {}
    standings = rdir / "tournament.csv"
    if standings.exists():
        t = pd.read_csv(standings, keep_default_na=False)
        agents = {str(r.bot): {"type": r.type, "imitates": r.imitates}
                  for r in t.itertuples(index=False)}
    table = table5_10(games, agents)
    tmp = Path(out_path).with_suffix(".csv.tmp")
    table.to_csv(tmp, index=False, lineterminator="\n")
    tmp.replace(out_path)


table5_10_hook.needs = ("tournament_games.csv", "tournament.csv")  # type: ignore[attr-defined]
