"""Small result tables for the conclusion checks' tests: edits of the thesis's own tables
(ime.thesis.own) and hand-made Snake runs and Doudizhu case studies, for what the thesis's
tables cannot decide."""

from __future__ import annotations

import copy
from collections.abc import Callable, Sequence
from dataclasses import replace

import pandas as pd

from ime.thesis.results import Bot, GameResults

Mutation = Callable[[dict[str, GameResults]], None]


def edit(results: dict[str, GameResults], game: str, table: str,
         fn: Callable[[pd.DataFrame], pd.DataFrame]) -> None:
    """Replace one table of ``results`` by ``fn`` of a copy of it."""
    g = results[game]
    tables = dict(g.tables)
    tables[table] = fn(tables[table].copy())
    results[game] = replace(g, tables=tables)


def _mask(df: pd.DataFrame, where: dict) -> pd.Series:
    mask = pd.Series(True, index=df.index)
    for k, v in where.items():
        mask &= df[k] == v
    return mask


def setv(table: str, game: str, where: dict, col: str, value: float) -> Mutation:
    """A mutation setting ``col`` to ``value`` on the rows matching ``where``."""

    def m(results: dict[str, GameResults]) -> None:
        def fn(df: pd.DataFrame) -> pd.DataFrame:
            mask = _mask(df, where)
            assert mask.any(), (table, where)
            df.loc[mask, col] = value
            return df
        edit(results, game, table, fn)
    return m


def shift(table: str, game: str, where: dict, col: str, delta: float) -> Mutation:
    """A mutation adding ``delta`` to ``col`` on the rows matching ``where``."""

    def m(results: dict[str, GameResults]) -> None:
        def fn(df: pd.DataFrame) -> pd.DataFrame:
            mask = _mask(df, where)
            df.loc[mask, col] = df.loc[mask, col].astype(float) + delta
            return df
        edit(results, game, table, fn)
    return m


def both(*ms: Mutation) -> Mutation:
    """The mutations ``ms`` one after the other."""
    def m(results: dict[str, GameResults]) -> None:
        for x in ms:
            x(results)
    return m


def changed(thesis: dict[str, GameResults], *ms: Mutation) -> dict[str, GameResults]:
    """A copy of ``thesis`` with the mutations ``ms`` applied (``thesis`` is left as it is)."""
    out = copy.copy(thesis)
    both(*ms)(out)
    return out


# --- a hand-made Snake run -----------------------------------------------------------------------
FAMILIES = ("MCTS", "NE", "Alpha-Beta", "MC", "Alpha-Beta", "MC", "DFS", "ES")
"""Bots s1..s8 of :func:`snake_case`, by Fig 2.4's families (each family 2.1.3 names)."""
CLASS = {"MCTS": "statistical sampling search", "NE": "statistical sampling search",
         "MC": "statistical sampling search", "Alpha-Beta": "deterministic search",
         "DFS": "deterministic search", "ES": "rule-based"}


def snake(accs: dict[str, float], groups: dict[str, str], points: dict[str, float],
          baselines: dict[str, float], families: Sequence[str] = FAMILIES
          ) -> dict[str, GameResults]:
    """A Snake run of bots s1.. (thesis numbers and ladder ranks 1..n, the ``families`` of Fig
    2.4 and their classes); the thesis's first group is the first half."""
    bots = {b: Bot(thesis=i, ladder_rank=i, cls=CLASS[f], family=f)
            for i, (b, f) in enumerate(zip(accs, families, strict=True), start=1)}
    acc = pd.DataFrame([{"bot": b, "net": n, "baseline": baselines[b], "val_acc_mean": a + d,
                         "train_acc_mean": 90.0}
                        for b, a in accs.items() for n, d in (("snake_mlp1", -1),
                                                              ("snake_conv1", 1))])
    tables = {
        "imitation_accuracy.csv": acc,
        "split_vs_thesis.csv": pd.DataFrame(
            [{"bot": b, "group": groups[b],
              "thesis_group": "harder" if bots[b].thesis <= len(accs) // 2 else "easier"}
             for b in accs]),
        "tournament.csv": pd.DataFrame([{"bot": b, "type": "original", "imitates": "",
                                         "points": p, "games": 10} for b, p in points.items()]),
        "dataset_stats.csv": pd.DataFrame([{"bot": b, "pairs": 100, "baseline": x}
                                           for b, x in baselines.items()]),
    }
    return {"snake": GameResults("snake", tables, bots, "snake_conv1")}


EIGHT = [f"s{i}" for i in range(1, 9)]


def snake_case(good: bool) -> dict[str, GameResults]:
    """Eight Snake bots on which every Snake conclusion holds (``good``) or fails: accuracy
    rising down the ladder, the split in the thesis's groups and by its families, expert
    systems weakest, Alpha-Beta above DFS and MCTS above MC, baselines in 40.0-47.3 %."""
    accs = [50, 52, 55, 58, 70, 75, 80, 85]
    groups = ["harder"] * 4 + ["easier"] * 4
    points = [25, 22, 20, 15, 20, 15, 12, 5]
    base = [41, 42, 43, 44, 45, 46, 46, 47]
    if not good:
        accs, groups = accs[::-1], groups[::-1]
        points = [5, 10, 8, 20, 8, 20, 25, 30]
        base = [30, 42, 43, 44, 45, 46, 46, 60]
    return snake(*(dict(zip(EIGHT, x, strict=True)) for x in (accs, groups, points, base)))


# --- a hand-made Doudizhu case study ----------------------------------------------------------
Line = tuple[str, str, Sequence[str]]
"""An agent's role, result and own moves (the target's seat's) through the key endgame."""


def case_study(lines: dict[str, Line], seat: int = 0) -> pd.DataFrame:
    """``case_study.csv`` of agents playing ``lines`` from a key where the target sits in
    ``seat`` (Doudizhu: 0 is the landlord): three plies per round, the target's seat first and
    the other two passing; an agent leaves the target's line at its first move that differs."""
    target = next(m for r, _, m in lines.values() if r == "target")
    rows = []
    for agent, (role, result, moves) in lines.items():
        k = next((i for i, (a, b) in enumerate(zip(moves, target, strict=False)) if a != b),
                 None if len(moves) == len(target) else min(len(moves), len(target)))
        fork = None if k is None else 3 * k
        for ply in range(3 * len(moves)):
            own = ply % 3 == 0
            rows.append({"agent": agent, "role": role, "ply": ply, "seat": (seat + ply) % 3,
                         "label": moves[ply // 3] if own else "pass",
                         "same_as_target": fork is None or ply < fork,
                         "first_divergence_ply": fork, "result": result})
    return pd.DataFrame(rows)


THESIS_CASE: dict[str, Line] = {
    "ddz1": ("target", "win", ["a", "b", "c", "d", "e"]),
    "imit_ddz1": ("imitator", "win", ["a", "b", "c", "d", "e"]),
    "ddz2": ("reference", "loss", ["a", "x", "y", "z"]),
    "ddz3": ("reference", "loss", ["a", "x", "y", "z"]),
    "ddz4": ("reference", "loss", ["a", "p", "q", "r", "s"]),
    "ddz5": ("reference", "loss", ["a", "b", "c", "w", "v"]),
}
"""5.5.2's example in miniature: the fork at the second round, where the imitator and bot 5
follow bot 1, bots 2 and 3 play one other move and bot 4 a third; bots 2 and 3 play the same
sequence; bot 5 leaves bot 1's line later; bot 1 and its imitator win, bots 2-5 lose."""


def put(results: dict[str, GameResults], game: str, name: str, df: pd.DataFrame) -> None:
    """Add (or replace) the table ``name`` of ``game`` in ``results``."""
    g = results[game]
    results[game] = replace(g, tables={**g.tables, name: df})


def with_case(thesis: dict[str, GameResults], lines: dict[str, Line] | None = None,
              seat: int = 0) -> dict[str, GameResults]:
    """The thesis's tables plus a Doudizhu case study of ``lines`` (5.5.2's pattern when
    None)."""
    out = copy.copy(thesis)
    put(out, "doudizhu", "case_study.csv", case_study(lines or THESIS_CASE, seat))
    return out
