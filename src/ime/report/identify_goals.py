"""Issue 48's identification goals, checked over the pipeline's identification tables.

The goals: method (a), the imitators' likelihood, names the right bot of a game's whole pool
(the variants of a hard pool included) at least 95 % of the time from at most 10 matches;
method (b), the few-shot embedding, at least 90 % on bots held out of its training, from 10
reference matches (queries of at most 10 matches). Each row takes the smallest k <= 10 whose
verdict is ``met``, else the largest k <= 10 the table has, and says:

* ``met``: the Wilson interval's lower bound is at or above the goal;
* ``not met``: its upper bound is below the goal;
* ``inconclusive``: the interval spans the goal (more held-out matches would decide it).

Where the goal is not met, ``confused`` lists the pairs that take the most of the misses at that
k (``true->named share%``, from ``identification_confusion.csv``), which is where the issue asks
the table to show the confusion. The numbers are read from the tables, never typed.

    python -m ime.report.identify_goals results/reversi results/reversi/identify_hard \\
        --out goals.md --csv goals.csv
    python -m ime.report.identify_goals results/*/identification.csv ... \\
        --archive reproduction/identify-quick --labels reversi,...   # the tables kept whole

``--archive DIR`` keeps each folder's identification table, confusion table and figure in
``DIR/<label>/``, the goals as ``DIR/goals.md`` and ``DIR/goals.csv``, and the run's provenance
(``ime.core.provenance.collect``: commit, packages, machine) in ``DIR/provenance.json``.
"""

from __future__ import annotations

import argparse
from collections.abc import Sequence
from pathlib import Path

import pandas as pd

GOALS = {"likelihood": 95.0, "embedding": 90.0}
"""Top-1 (%) each method must reach (issue 48's goals)."""
MAX_K = 10
"""The most matches a query may hold for the goal."""
TOP_PAIRS = 3
"""Confused pairs listed per row."""


def verdict(lo: float, hi: float, goal: float) -> str:
    """``met`` / ``not met`` / ``inconclusive`` of a proportion's CI against ``goal``."""
    if lo >= goal:
        return "met"
    if hi < goal:
        return "not met"
    return "inconclusive"


def confused_pairs(confusion: pd.DataFrame, method: str, k: int, n: int = TOP_PAIRS) -> str:
    """The ``n`` largest off-diagonal cells at (method, k), as ``true->named share%``."""
    c = confusion[(confusion["method"] == method) & (confusion["k"] == k)
                  & (confusion["bot"] != confusion["named"])]
    c = c.sort_values(["share", "bot", "named"], ascending=[False, True, True]).head(n)
    return ", ".join(f"{b}->{m} {s:.1f}%" for b, m, s in
                     zip(c["bot"], c["named"], c["share"], strict=True)) or "none"


def goal_rows(rdir: str | Path, label: str | None = None) -> pd.DataFrame:
    """One row per method of one results folder's ``identification.csv``."""
    rdir = Path(rdir)
    table = rdir / "identification.csv"
    if not table.is_file():
        raise FileNotFoundError(f"{table}: no identification table (rule identify writes it)")
    ident = pd.read_csv(table)
    confusion_file = rdir / "identification_confusion.csv"
    confusion = pd.read_csv(confusion_file) if confusion_file.is_file() else None
    rows = []
    for method, goal in GOALS.items():
        curve = ident[(ident["curve"] == "k") & (ident["method"] == method)
                      & (ident["k"] <= MAX_K)].sort_values("k")
        if curve.empty:
            continue
        met = curve[curve["top1_lo"] >= goal]
        row = (met.iloc[0] if not met.empty else curve.iloc[-1])
        v = verdict(float(row["top1_lo"]), float(row["top1_hi"]), goal)
        k = int(row["k"])
        rows.append({
            "pool": label or str(rdir), "method": method, "pool_size": int(row["pool_size"]),
            "k": k, "trials": int(row["trials"]), "top1": round(float(row["top1"]), 1),
            "top1_lo": round(float(row["top1_lo"]), 1),
            "top1_hi": round(float(row["top1_hi"]), 1),
            "chance": round(float(row["chance_top1"]), 1), "goal": goal, "verdict": v,
            "confused": ("-" if v == "met" or confusion is None
                         else confused_pairs(confusion, method, k))})
    return pd.DataFrame(rows)


def goals_table(dirs: Sequence[str | Path], labels: Sequence[str] | None = None) -> pd.DataFrame:
    """Every folder's rows, in the order given."""
    labels = list(labels) if labels else [None] * len(dirs)
    if len(labels) != len(dirs):
        raise ValueError(f"{len(labels)} labels for {len(dirs)} folders")
    return pd.concat([goal_rows(d, lab) for d, lab in zip(dirs, labels, strict=True)],
                     ignore_index=True)


def to_markdown(t: pd.DataFrame) -> str:
    """The table as Markdown, with the goals and the verdict rule above it."""
    head = ["pool", "method", "bots", "k", "groups", "top-1 % [95 % CI]", "chance %", "goal %",
            "verdict", "most confused (true->named, share of its groups)"]
    lines = ["Top-1 identification against issue 48's goals: the smallest k <= 10 whose Wilson "
             "interval clears the goal, else k = 10 (or the largest k the table has). `met`: "
             "the interval's lower bound is at or above the goal; `not met`: its upper bound is "
             "below; `inconclusive`: it spans the goal.", "",
             "| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for r in t.itertuples(index=False):
        lines.append(f"| {r.pool} | {r.method} | {r.pool_size} | {r.k} | {r.trials} | "
                     f"{r.top1} [{r.top1_lo}, {r.top1_hi}] | {r.chance} | {r.goal:g} | "
                     f"{r.verdict} | {r.confused} |")
    return "\n".join(lines) + "\n"


ARCHIVED = ("identification.csv", "identification_confusion.csv",
            "figures/identification.png", "run_report.json")
"""Files of a results folder kept by ``--archive`` (those that exist)."""


def archive(dirs: Sequence[str | Path], labels: Sequence[str], out: str | Path,
            root: str | Path = ".") -> pd.DataFrame:
    """Copy each folder's identification files to ``out/<label>/``; write the goals and the
    provenance beside them. Returns the goals table."""
    from ime.core.archive import archive_folders

    out = Path(out)
    t = goals_table(dirs, labels)
    archive_folders(dirs, labels, out, ARCHIVED, root)
    (out / "goals.md").write_text(to_markdown(t), encoding="utf-8")
    t.to_csv(out / "goals.csv", index=False)
    return t


def main(argv: Sequence[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("dirs", nargs="+", help="results folders holding identification.csv")
    ap.add_argument("--labels", help="comma-separated pool labels (default: the folders)")
    ap.add_argument("--out", help="write the Markdown table here (default: print it)")
    ap.add_argument("--csv", help="also write the rows as CSV")
    ap.add_argument("--archive", help="keep the tables, goals and provenance in this folder")
    ap.add_argument("--root", default=".", help="the run's clone, for the provenance")
    a = ap.parse_args(argv)
    labels = a.labels.split(",") if a.labels else None
    if a.archive:
        t = archive(a.dirs, labels or [Path(d).as_posix().replace("/", "_") for d in a.dirs],
                    a.archive, a.root)
        print(to_markdown(t), end="")
        return
    t = goals_table(a.dirs, labels)
    md = to_markdown(t)
    if a.out:
        Path(a.out).write_text(md, encoding="utf-8")
    else:
        print(md, end="")
    if a.csv:
        t.to_csv(a.csv, index=False)


if __name__ == "__main__":
    main()
