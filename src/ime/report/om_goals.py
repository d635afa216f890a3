"""Issue 49's goal, checked over opponent-model search tables, and their archive.

The goal: opponent-model search with the target's own imitator (cell (c)) scores at least
:data:`ime.thesis.beyond.OM_GOAL` (10 points) more of the points against the original bot than
plain search at the same depth (cell (a)). Every cell's gain over (a) is listed with its Newcombe
95 % CI and read by :func:`ime.thesis.beyond.om_goal` (``met`` / ``not met: ... points short`` /
``inconclusive``); the goal is the (c) row's, the others (the equal-node control (b), the
mis-specified model (d), the true model (t)) say what the gain costs and what a wrong or a perfect
model does. The numbers are read from ``om_search.csv``, never typed.

    python -m ime.report.om_goals results/reversi/om400 --labels reversi_search
    python -m ime.report.om_goals results/reversi/om400 results/reversi/om400_d3 \\
        --labels reversi_search,reversi_search_d3 --archive reproduction/om-search-400 \\
        --root . --command "snakemake -j2 ..."

``--archive DIR`` keeps each folder's tables and figure in ``DIR/<label>/``, the goals as
``DIR/goals.md`` / ``DIR/goals.csv`` and the run's provenance in ``DIR/provenance.json``.
"""

from __future__ import annotations

import argparse
from collections.abc import Sequence
from pathlib import Path

import pandas as pd

ARCHIVED = ("om_search.csv", "om_search_cost.csv", "om_search_model_accuracy.csv",
            "figures/om_search.png", "run_report.json")
"""Files of a results folder kept by ``--archive`` (those that exist)."""

COLUMNS = ["pool", "target", "cell", "label", "model", "games", "points_share",
           "points_share_lo", "points_share_hi", "gain", "gain_lo", "gain_hi", "nodes_mean",
           "verdict"]


def goals_table(dirs: Sequence[str | Path], labels: Sequence[str] | None = None) -> pd.DataFrame:
    """One row per (folder, target, cell): the cell's points share and its gain over (a), with
    the goal's verdict on the gain. Raises ``FileNotFoundError`` naming a folder without
    ``om_search.csv``."""
    from ime.thesis.beyond import om_goal

    labels = list(labels) if labels else [Path(d).as_posix() for d in dirs]
    if len(labels) != len(dirs):
        raise ValueError(f"{len(dirs)} folders, {len(labels)} labels")
    rows = []
    for d, label in zip(dirs, labels, strict=True):
        path = Path(d) / "om_search.csv"
        if not path.is_file():
            raise FileNotFoundError(f"{path}: no om_search.csv (run the experiment first: "
                                    "docs/opponent_model.md)")
        t = pd.read_csv(path)
        for r in t.itertuples(index=False):
            is_a = r.cell == "plain_depth"
            rows.append({"pool": label, "target": r.target, "cell": r.cell, "label": r.label,
                         "model": "" if pd.isna(r.model) else r.model, "games": int(r.games),
                         "points_share": r.points_share, "points_share_lo": r.points_share_lo,
                         "points_share_hi": r.points_share_hi, "gain": r.gain,
                         "gain_lo": r.gain_lo, "gain_hi": r.gain_hi, "nodes_mean": r.nodes_mean,
                         "verdict": "-" if is_a else om_goal(r.gain, r.gain_lo, r.gain_hi)})
    return pd.DataFrame(rows, columns=COLUMNS)


def _pct(v: float) -> str:
    return "-" if pd.isna(v) else f"{100 * v:.1f}"


def to_markdown(t: pd.DataFrame) -> str:
    """The goals as a Markdown table, with what the verdict means."""
    lines = ["Opponent-model search against the original bots, checked against issue 49's goal: "
             "cell (c), the target's own imitator as the model, at least +10 points of points "
             "share over (a), plain search at the same depth. `verdict` reads each cell's gain "
             "over (a) and its Newcombe 95 % CI against +10 points (met: the whole CI at or above; "
             "not met: the whole CI below; inconclusive: it spans +10); only (c)'s row is the "
             "goal, (b) equal nodes, (d) another bot's imitator and (t) the true model are its "
             "controls. Points share in % [Wilson 95 % CI]; gain in points [CI].", "",
             "| pool | target | cell | model | games | points share % [CI] | gain, points [CI] "
             "| nodes a decision | verdict |", "|---|---|---|---|---|---|---|---|---|"]
    for r in t.itertuples(index=False):
        gain = ("-" if pd.isna(r.gain) else
                f"{100 * r.gain:+.1f} [{100 * r.gain_lo:+.1f}, {100 * r.gain_hi:+.1f}]")
        lines.append(f"| {r.pool} | {r.target} | ({r.label}) {r.cell} | {r.model or '-'} | "
                     f"{r.games} | {_pct(r.points_share)} [{_pct(r.points_share_lo)}, "
                     f"{_pct(r.points_share_hi)}] | {gain} | {r.nodes_mean:.0f} | {r.verdict} |")
    return "\n".join(lines) + "\n"


def archive(dirs: Sequence[str | Path], labels: Sequence[str], out: str | Path,
            root: str | Path = ".", command: str | None = None) -> pd.DataFrame:
    """Copy each folder's opponent-model files to ``out/<label>/``; write the goals and the
    provenance (with ``command``, the run's command line) beside them."""
    from ime.core.archive import archive_folders

    out = Path(out)
    t = goals_table(dirs, labels)
    archive_folders(dirs, labels, out, ARCHIVED, root,
                    extra={"command": command} if command else None)
    (out / "goals.md").write_text(to_markdown(t), encoding="utf-8")
    t.to_csv(out / "goals.csv", index=False)
    return t


def main(argv: Sequence[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("dirs", nargs="+", help="results folders holding om_search.csv")
    ap.add_argument("--labels", help="comma-separated labels (default: the folders)")
    ap.add_argument("--archive", help="keep the tables, goals and provenance in this folder")
    ap.add_argument("--root", default=".", help="the run's clone, for the provenance")
    ap.add_argument("--command", help="the command that made the tables, kept in the provenance")
    a = ap.parse_args(argv)
    labels = a.labels.split(",") if a.labels else None
    if a.archive:
        t = archive(a.dirs, labels or [Path(d).as_posix().replace("/", "_") for d in a.dirs],
                    a.archive, a.root, a.command)
    else:
        t = goals_table(a.dirs, labels)
    print(to_markdown(t), end="")


if __name__ == "__main__":
    main()
