"""The thesis's own tables as result tables, so that each conclusion can be checked on the
numbers the thesis printed, beside ours.

This tells two things apart in the report: a conclusion our run does not support, and one the
thesis's own tables do not support either (Table 4.8's imitator 3 ranks last, below imitators 4
and 5, although the text says the imitators follow their originals' order). Built from
``config/thesis/numbers.csv`` only; where the thesis prints no number a table needs (the
clusters of 4.5.1, Fig 4.2's move counts, Snake's per-bot accuracies), the table is absent and
the check says it cannot be tested.
"""

from __future__ import annotations

import pandas as pd

from ime.thesis.compare import NETS, agents_per_game
from ime.thesis.results import Bot, GameResults

CLASS_CODES = {1: "statistical sampling search", 2: "deterministic search", 3: "rule-based"}
"""Table 6.1's class codes in numbers.csv (config/thesis/README.md)."""

_TABLES = {
    "reversi": {"data": "Table 4.2", "acc": "Table 4.4", "sim": "Table 4.5", "s1": "Table 4.6",
                "s2": "Table 4.7", "tour": "Table 4.8"},
    "doudizhu": {"data": "Table 5.4", "acc": "Table 5.6", "sim": "Table 5.7", "s1": "Table 5.8",
                 "s2": "Table 5.9", "tour": "Table 5.10"},
}


def _name(game: str, n: int | str) -> str:
    return f"{'rev' if game == 'reversi' else 'ddz'}{n}"


def _game(numbers: pd.DataFrame, game: str) -> GameResults:
    t = _TABLES[game]
    n = numbers[numbers["game"] == game]

    def cells(table: str, metric: str) -> pd.DataFrame:
        return n[(n["table"] == table) & (n["metric"] == metric)]

    nos = sorted(int(s) for s in cells(t["sim"], "S1")["subject"])
    cls = {int(r.subject): CLASS_CODES[int(r.value)] for r in cells("Table 6.1", "class")
           .itertuples()}
    ranks = {int(r.subject): int(r.value) for r in cells(t["sim"], "ladder_rank").itertuples()}
    bots = {_name(game, k): Bot(thesis=k, ladder_rank=ranks.get(k), cls=cls.get(k, ""))
            for k in nos}
    tables: dict[str, pd.DataFrame] = {}

    base = {int(r.subject): float(r.value) for r in cells(t["data"], "baseline").itertuples()}
    pairs = {int(r.subject): float(r.value) for r in cells(t["data"], "pairs").itertuples()}
    tables["dataset_stats.csv"] = pd.DataFrame(
        [{"bot": _name(game, k), "pairs": pairs[k], "baseline": base[k]} for k in nos])

    acc = []
    for thesis_net, net in NETS[game].items():
        for k in nos:
            tr = cells(t["acc"], "train_acc")
            va = cells(t["acc"], "val_acc")
            tr = tr[(tr["subject"] == str(k)) & (tr["net"] == thesis_net)]["value"]
            va = va[(va["subject"] == str(k)) & (va["net"] == thesis_net)]["value"]
            if len(tr) and len(va):
                acc.append({"bot": _name(game, k), "net": net, "baseline": base[k],
                            "train_acc_mean": float(tr.iloc[0]),
                            "val_acc_mean": float(va.iloc[0])})
    tables["imitation_accuracy.csv"] = pd.DataFrame(acc)

    s1 = {int(r.subject): float(r.value) for r in cells(t["sim"], "S1").itertuples()}
    s2 = {int(r.subject): float(r.value) for r in cells(t["sim"], "S2").itertuples()}
    tables["s1s2_imitator.csv"] = pd.DataFrame(
        [{"bot": _name(game, k), "S1": s1[k], "S2": s2[k]} for k in nos])
    tables["similarity.csv"] = pd.DataFrame(
        [{"agent": f"imit_{_name(game, k)}", "target": _name(game, k), "n": 1000,
          "s1": s1[k], "s2": s2[k]} for k in nos])
    tables["difficulty_by_class.csv"] = pd.DataFrame(
        [{"bot": _name(game, k), "class": cls[k], "S2": s2[k]} for k in nos if k in cls])

    long = []
    for metric, table in (("S1", t["s1"]), ("S2", t["s2"])):
        wide = []
        for k in nos:
            row = {"bot": _name(game, k)}
            for r in cells(table, metric).itertuples():
                a, _, b = r.subject.partition("-")
                if a != str(k):
                    continue
                col = "IMBOT" if b.startswith("imit") else _name(game, b)
                row[col] = float(r.value)
                if b.isdigit() and int(a) < int(b):
                    long.append({"a": _name(game, a), "b": _name(game, b), "metric": metric,
                                 "v": float(r.value)})
            row[_name(game, k)] = 100.0
            wide.append(row)
        tables[f"{metric.lower()}_pairwise.csv"] = pd.DataFrame(wide)
    lp = pd.DataFrame(long).pivot_table(index=["a", "b"], columns="metric", values="v")
    lp = lp.reset_index().rename(columns={"S1": "s1", "S2": "s2"})
    tables["similarity_pairs.csv"] = lp

    tour = n[n["table"] == t["tour"]]
    matches = float(tour[(tour["subject"] == "all") & (tour["metric"] == "matches")]
                    ["value"].iloc[0])
    agents = tour[tour["metric"] == "points"]
    # each game is between one agent per side (Doudizhu's (a, b, b)): Table 5.10's points add up
    # to 3 x its 18,000 games, one winner each
    games = matches * agents_per_game(game) / len(agents)
    rank = {r.subject: float(r.value) for r in tour[tour["metric"] == "rank"].itertuples()}
    rows = []
    for r in agents.itertuples():
        imit = r.subject.startswith("imit")
        k = r.subject[4:] if imit else r.subject
        rows.append({"bot": f"imit_{_name(game, k)}" if imit else _name(game, k),
                     "type": "imitator" if imit else "original",
                     "imitates": _name(game, k) if imit else "", "points": float(r.value),
                     "games": games, "rank": rank.get(r.subject)})
    tour_df = pd.DataFrame(rows)
    if game == "doudizhu":
        tables["table5_10.csv"] = tour_df.rename(columns={"bot": "agent"})
    else:
        tables["tournament.csv"] = tour_df
    return GameResults(game, tables, bots, NETS[game][next(iter(NETS[game]))] if game ==
                       "doudizhu" else "conv")


def thesis_results(numbers: pd.DataFrame | None = None) -> dict[str, GameResults]:
    """Reversi's and Doudizhu's thesis tables as :class:`GameResults` (Snake's per-bot numbers
    are only plotted in the thesis, so it has none)."""
    if numbers is None:
        from ime.thesis.reference import numbers as load

        numbers = load()
    return {g: _game(numbers, g) for g in _TABLES}
