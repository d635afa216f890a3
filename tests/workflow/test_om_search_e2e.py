"""The opponent-model search experiment end to end (issue 49, Deliver 3): on a copy of the shared
tiny run, the named target ``results/reversi/tiny/om_search.csv`` plays every cell against
Reversi's tiny targets with their imitators (4 games a cell, 2 plies deep: about a minute on two
busy cores), writes the table, the cost table and the figure, and a retrained imitator re-plays
exactly the cells that use it.

The tiny run's imitators know little and the originals search far deeper, so the shares are
not what is tested here (docs/opponent_model.md has the quick scale's); the table's form is:
its columns, one row per (target, cell), shares in [0, 1] with the interval around them, and
gains beside cell (a).
"""

from __future__ import annotations

import os
import shutil
import time
from pathlib import Path

import pandas as pd
import pytest
from workflow_helpers import TINY, copy_run, planned_jobs, smk

from ime.evaluate.om_experiment import COST_COLUMNS, TABLE_COLUMNS
from ime.workflow.artifacts import undefined_columns

RDIR = "results/reversi/tiny"
TARGET = f"{RDIR}/om_search.csv"


@pytest.mark.slow
def test_the_om_search_target_plays_every_cell(tiny_run: Path, tmp_path: Path) -> None:
    run = copy_run(tiny_run, tmp_path / "run")
    smk(run, "-j2", TARGET, "--config", TINY)
    t = pd.read_csv(run / TARGET, keep_default_na=False, na_values=[""])
    assert list(t.columns) == TABLE_COLUMNS
    cells = ["plain_depth", "plain_nodes", "om", "om_wrong", "om_true"]
    assert list(zip(t.target, t.cell, strict=True)) == [(b, c) for b in ("rev1", "rev2")
                                                        for c in cells]
    assert (t.games == 4).all() and (t.wins + t.draws + t.losses == t.games).all()
    assert t.points_share.between(0, 1).all()
    assert (t.points_share_lo <= t.points_share).all()
    assert (t.points_share <= t.points_share_hi).all()
    assert t.points_share_lo.between(0, 1).all() and t.points_share_hi.between(0, 1).all()
    gains = t[t.cell != "plain_depth"]
    assert gains.gain.notna().all() and t[t.cell == "plain_depth"].gain.isna().all()
    assert ((gains.gain_lo <= gains.gain) & (gains.gain <= gains.gain_hi)).all()
    by = t.set_index(["target", "cell"])
    assert by.loc[("rev1", "om"), "model"] == "rev1:conv:ensemble"
    assert by.loc[("rev1", "om_wrong"), "model"] == "rev2:conv:ensemble"
    assert by.loc[("rev2", "om_true"), "model"] == "rev2:zoo"
    assert (t.depth_cap == 2).all() and (t.depth_mean <= 2).all()
    assert (by.xs("plain_nodes", level="cell").nodes_budget
            == by.xs("om", level="cell").nodes_mean.round()).all()  # (b) at (c)'s nodes
    cost = pd.read_csv(run / f"{RDIR}/om_search_cost.csv")
    assert list(cost.columns) == COST_COLUMNS and (cost.ms_mean > 0).all()
    assert (run / f"{RDIR}/figures/om_search.png").stat().st_size > 10_000
    assert not {k: v for k, v in undefined_columns("reversi", run / RDIR).items()
                if k.startswith("om_search")}

    # a no-op rerun does nothing; a retrained imitator (rev2's) re-plays the cells that use it
    dry = smk(run, "-n", TARGET, "--config", TINY)
    assert "Nothing to be done" in dry.stdout + dry.stderr
    models = run / "data/reversi/models/tiny/conv/rev2"  # "retrained": new bytes, newer
    shutil.copyfile(models / "fold1.pt", models / "fold0.pt")
    later = time.time() + 60
    os.utime(models / "fold0.pt", (later, later))
    dry = smk(run, "-n", TARGET, "--config", TINY)
    again = sorted(tuple(Path(o).parts[-2:]) for rule, outs in planned_jobs(dry.stdout)
                   if rule == "om_search_cell" for o in outs if o.endswith(".csv"))
    assert again == [("rev1", "om_wrong-rev2.csv"), ("rev2", "om.csv"),
                     ("rev2", "plain_nodes.csv")], again
