"""The thesis's own tables as result tables, so that each conclusion can be checked on the
numbers the thesis printed, beside ours.

This tells two things apart in the report: a conclusion our run does not support, and one the
thesis's own tables do not support either (Table 4.8's imitator 3 ranks last, below imitators 4
and 5, although the text says the imitators follow their originals' order). Built from
``config/thesis/numbers.csv`` only; the clusters of 4.5.1 and 5.5.1 are drawn from the
thesis's Tables 4.5 and 5.7 by our own clustering (:func:`own_clusters`); where the thesis
prints no number a table needs (Fig 4.2's move counts, Snake's per-bot accuracies), the table is
absent and the check says it cannot be tested.
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
    tables["clusters.csv"] = own_clusters(tables["s1s2_imitator.csv"], cls)
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

    if game == "reversi":
        tables["ladder.csv"] = _ladder(n, "Table 4.1", "max_depth", nos)

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


UNLIMITED = ("unlimited", "inf", "ID")
"""How the thesis marks a search without a depth limit: Table 4.1's "unlimited depth", Fig
2.4's ``sd=inf`` and ``sd=ID`` (iterative deepening with no maximum, deepening while time
allows): deeper than any fixed limit, so ranked above every number."""


def _ladder(n: pd.DataFrame, table: str, metric: str, nos: list[int]) -> pd.DataFrame:
    """Table 4.1's ladder ranks and search depths per bot (``depth`` inf where the thesis
    states no limit, :data:`UNLIMITED`), as ``ladder.csv`` (bot, ladder_rank, depth): what
    4.2 reads the bots' strength off and 4.5.1 orders their depths by."""
    t = n[n["table"] == table]
    rank = {int(r.subject): int(r.value) for r in t[t["metric"] == "ladder_rank"].itertuples()}
    depth = {int(r.subject): float(r.value) for r in t[t["metric"] == metric].itertuples()}
    note = {int(r.subject): str(r.note) for r in t[t["metric"] == "ladder_rank"].itertuples()}
    return pd.DataFrame([{"bot": _name("reversi", k), "ladder_rank": rank[k],
                          "depth": depth.get(k, float("inf") if any(
                              u in note.get(k, "") for u in UNLIMITED) else float("nan"))}
                         for k in nos if k in rank])


NOT_ON_OWN_TABLES = {
    "snake_baseline_range": "the thesis prints only the range's two bounds (40.0 and 47.3 %; "
                            "its per-bot baselines are only plotted in Fig 2.7), so the range "
                            "checked against its own bounds would be true by construction",
    "snake_split_membership": "Fig 2.7's two groups are the thesis's own split, drawn from "
                              "per-bot accuracies it only plots; its split against itself "
                              "would be true by construction",
}
"""Checks the thesis's own tables cannot decide though they print the numbers the check
names, and why: run on them, the check would compare the thesis with itself."""


def own_clusters(s1s2: pd.DataFrame, cls: dict[int, str], k: int = 2) -> pd.DataFrame:
    """The clusters by imitation similarity that our pipeline would draw from the thesis's
    Table 4.5/5.7 (:func:`ime.evaluate.clustering.cluster_points` on each imitator's (S1, S2),
    average linkage, ``k`` clusters as the thesis cuts them), so that 4.5.1's and 5.5.1's
    clusters are checked on the thesis's own numbers too: Table 4.5 separates {3}, as claimed;
    Table 5.7 separates {3}, not the {5} the text states."""
    from ime.evaluate.clustering import cluster_points

    labels, _ = cluster_points(s1s2.set_index("bot")[["S1", "S2"]], k)
    return labels.rename(columns={"cluster": "cluster_imitation"}).assign(
        **{"class": [cls.get(int(str(b)[3:]), "") for b in labels["bot"]]})[
        ["bot", "class", "cluster_imitation"]]


SNAKE_STRENGTH = 1000
"""Fig 2.4's ladder ranks as tournament points: ``SNAKE_STRENGTH - rank`` over one game, so a
family's mean points order families as their mean ladder ranks do (the thesis's 2.1.3 reads
strength off that ladder)."""


def _snake(numbers: pd.DataFrame) -> GameResults:
    """What the thesis prints of its Snake bots (2.1.3): Fig 2.4's families and ladder ranks
    (as a tournament of the originals, :data:`SNAKE_STRENGTH`), its ladder ranks with the
    search depths (``ladder.csv``: N/A, an expert system's, is no depth) and Fig 2.7's two
    groups (as the split, with no ``thesis_group``: the thesis's split against itself would
    test nothing, :data:`NOT_ON_OWN_TABLES`).
    Per-bot accuracies are only plotted, so no check that needs them can run here."""
    n = numbers[numbers["game"] == "snake"]
    f24 = n[(n["table"] == "Fig 2.4") & (n["metric"] == "ladder_rank")]
    bots, tour, ladder = {}, [], []
    for r in f24.itertuples():
        k = int(r.subject)
        fields = dict(x.partition("=")[::2] for x in str(r.note).split())
        algo, sd = fields.get("algo", ""), fields.get("sd", "")
        name = f"snk{k:02d}"
        bots[name] = Bot(thesis=k, ladder_rank=int(r.value), family=algo)
        tour.append({"bot": name, "type": "original", "imitates": "",
                     "points": SNAKE_STRENGTH - float(r.value), "games": 1})
        ladder.append({"bot": name, "ladder_rank": int(r.value),
                       "depth": float("inf") if sd in UNLIMITED else
                       float(sd) if sd.replace(".", "").isdigit() else float("nan")})
    grp = n[(n["table"] == "Fig 2.7") & (n["metric"] == "group")]
    split = pd.DataFrame([{"bot": f"snk{int(r.subject):02d}",
                           "group": "harder" if int(r.value) == 1 else "easier"}
                          for r in grp.itertuples()])
    return GameResults("snake", {"tournament.csv": pd.DataFrame(tour),
                                 "split_vs_thesis.csv": split,
                                 "ladder.csv": pd.DataFrame(ladder)}, bots, "")


def thesis_results(numbers: pd.DataFrame | None = None) -> dict[str, GameResults]:
    """Reversi's and Doudizhu's thesis tables as :class:`GameResults`, and what Snake's figures
    print (:func:`_snake`: its per-bot accuracies are only plotted)."""
    if numbers is None:
        from ime.thesis.reference import numbers as load

        numbers = load()
    return {**{g: _game(numbers, g) for g in _TABLES}, "snake": _snake(numbers)}


def inconsistencies(numbers: pd.DataFrame | None = None) -> pd.DataFrame:
    """Where the thesis's own tables disagree with each other, with both values: the IMBOT
    column of a pairwise table (Tables 4.6/4.7, 5.8/5.9) against the imitators' S1/S2 it
    repeats (Tables 4.5/5.7), where they differ by more than rounding (0.5 points); and a
    tournament's printed ranks (Tables 4.8/5.10) against the standard competition ranks of its
    points (a tie shares the higher rank and the next agent skips: Table 4.8 ranks densely,
    7, 7, 8, 9, so the agents after its tie are one place off)."""
    if numbers is None:
        from ime.thesis.reference import numbers as load

        numbers = load()
    rows = []
    for game, t in _TABLES.items():
        n = numbers[numbers["game"] == game]
        for metric, table in (("S1", t["s1"]), ("S2", t["s2"])):
            sim = n[(n["table"] == t["sim"]) & (n["metric"] == metric)]
            own = {str(r.subject): float(r.value) for r in sim.itertuples()}
            for r in n[(n["table"] == table) & (n["metric"] == metric)].itertuples():
                a, _, b = str(r.subject).partition("-")
                if b.startswith("imit") and a in own and abs(float(r.value) - own[a]) > 0.5:
                    rows.append({"game": game, "what": f"{metric} of bot {a}'s imitator",
                                 "table": table, "value": fmt_num(float(r.value)),
                                 "against": t["sim"], "other": fmt_num(own[a])})
        tour = n[n["table"] == t["tour"]]
        pts = {str(r.subject): float(r.value) for r in tour[tour["metric"] == "points"]
               .itertuples()}
        printed = {str(r.subject): int(r.value) for r in tour[tour["metric"] == "rank"]
                   .itertuples()}
        comp = pd.Series(pts).rank(method="min", ascending=False).astype(int)
        for who, rk in printed.items():
            if who in comp.index and int(comp[who]) != rk:
                rows.append({"game": game, "what": f"rank of {who} ({fmt_num(pts[who], 0)} "
                             "points)", "table": t["tour"], "value": str(rk),
                             "against": "its points (competition ranking after a tie)",
                             "other": str(int(comp[who]))})
    return pd.DataFrame(rows, columns=["game", "what", "table", "value", "against", "other"])


def fmt_num(x: float, nd: int = 1) -> str:
    """``x`` rounded half away from zero to ``nd`` decimals (7.55 -> 7.6, 10.75 -> 10.8), as
    the report shows every number."""
    from ime.thesis.checks.core import round_half_away

    return f"{round_half_away(x, nd):.{nd}f}"
