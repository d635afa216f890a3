"""The reproduction report's opponent-model search part (ime.thesis.beyond, issue 49): from a
small experiment played and tabled by the pipeline's own jobs (Connect Four against c4_ab3,
cells (a), (c) with a real, untrained imitator, and the true model), the report shows per
target (a), (c), the gain with its CI, the goal's verdict read from that CI, the true model's
gain and the model's accuracy; and the report job reads the experiment's tables only when the
run has written them."""

from __future__ import annotations

import json
from pathlib import Path
from types import SimpleNamespace

import pandas as pd
import pytest

from ime.bots.om_search import resolve_specs
from ime.bots.registry import load_bot_specs
from ime.evaluate.om_accuracy import ACCURACY_COLUMNS
from ime.evaluate.om_experiment import PLAYER, TABLE_COLUMNS, cell_spec
from ime.thesis.beyond import OM_GOAL, om_goal, om_search_section
from ime.thesis.names import OPTIONAL_TABLES
from ime.thesis.results import GameResults, read_results

SETTINGS = {"evaluation": "c4_ab3", "depth": 2, "nodes": 5000, "plain_nodes": 10**8,
            "mode": "policy", "mix": 1.0, "min_prob": 0.0, "batch": 16}
TARGET = "c4_ab3"


def _checkpoint(where: Path) -> str:
    from ime.core.registry import get_encoder
    from ime.nets import build_net, save_checkpoint

    enc = get_encoder("connect4")
    net = build_net({"name": "mlp1", "kind": "mlp", "hidden": [16]}, enc.state_shape,
                    enc.num_actions, seed=0)
    path = where / "fold0.pt"
    save_checkpoint(path, net, game="connect4", encoder_version=enc.version, fold=0,
                    in_shape=enc.state_shape, num_actions=enc.num_actions)
    return str(path)


@pytest.fixture(scope="module")
def rdir(tmp_path_factory) -> Path:
    """A results directory with om_search.csv and om_search_model_accuracy.csv, written by the
    cell and table jobs (ime.workflow.jobs.om_search) from three real cells."""
    from ime.workflow.jobs.om_search import job_om_cell, job_om_table

    tmp = tmp_path_factory.mktemp("om")
    ckpt = _checkpoint(tmp)
    cells = []
    for cell in ("plain_depth", "om", "om_true"):
        spec = cell_spec(cell, TARGET, SETTINGS, model_bot=TARGET if cell == "om" else None,
                         net="mlp1", fold=0)
        spec = resolve_specs({PLAYER: spec}, lambda ref: [ckpt])[PLAYER]
        files = {k: str(tmp / f"{cell}{ext}") for k, ext in
                 (("games", ".csv"), ("cell", ".json"), ("timing", ".timing.json"))}
        job_om_cell(SimpleNamespace(
            params=SimpleNamespace(spec={
                "game": "connect4", "game_params": None, "target": TARGET, "cell": cell,
                "rounds": 2, "opening_plies": 2, "openings": {}, "seed": 3, "spec": spec,
                "settings": None, "bot_specs": {TARGET: load_bot_specs("connect4")[TARGET]},
                "accuracy_sample": 10 if cell == "om" else 0}),
            input=SimpleNamespace(budget=[]), output=SimpleNamespace(**files), threads=1,
            log=[]))
        cells.append({"target": TARGET, "cell": cell, "games": files["games"],
                      "cell_file": files["cell"], "timing": files["timing"]})
    out = tmp / "results"
    (out / "figures").mkdir(parents=True)
    job_om_table(SimpleNamespace(
        params=SimpleNamespace(spec={"game": "connect4", "net": "mlp1", "ci": 0.95,
                                     "depth": 2, "games": 4, "cells": cells}),
        output=SimpleNamespace(table=str(out / "om_search.csv"),
                               cost=str(out / "om_search_cost.csv"),
                               accuracy=str(out / "om_search_model_accuracy.csv"),
                               png=str(out / "figures/om_search.png"),
                               pdf=str(out / "figures/om_search.pdf")),
        log=[]))
    played = json.loads((tmp / "om.json").read_text())
    assert played["model_accuracy"]["search"]["n"] > 0
    assert json.loads((tmp / "plain_depth.json").read_text())["model_accuracy"] is None
    return out


def test_the_goals_verdict_is_read_from_the_gains_ci() -> None:
    assert om_goal(0.2, 0.12, 0.3) == "met"
    assert om_goal(-0.425, -0.59, -0.21) == "not met: 52.5 points short"
    assert om_goal(0.1, -0.08, 0.27).startswith("inconclusive")
    assert om_goal(float("nan"), float("nan"), float("nan")) == "-"


def test_the_report_shows_the_experiment_per_target(rdir: Path) -> None:
    t = pd.read_csv(rdir / "om_search.csv")
    acc = pd.read_csv(rdir / "om_search_model_accuracy.csv")
    assert list(t.columns) == TABLE_COLUMNS and list(acc.columns) == ACCURACY_COLUMNS
    assert acc["cell"].tolist() == ["om"]  # the imitator's cell only

    r = read_results("connect4", rdir, load_bot_specs("connect4"), "mlp1")
    assert all(r.get(n) is not None for n in OPTIONAL_TABLES)
    lines = om_search_section({"connect4": r})
    assert lines[0] == "## Beyond the thesis: opponent-model search (issue 49)"
    (row,) = [ln for ln in lines if ln.startswith("| connect4 ")]
    cells = [x.strip() for x in row.strip("|").split("|")]
    by = t.set_index("cell")
    a, c, true = by.loc["plain_depth"], by.loc["om"], by.loc["om_true"]
    assert cells[:3] == ["connect4", TARGET, "c4_ab3:mlp1:0"]
    assert cells[3].startswith(f"{100 * a.points_share:.1f} % [")
    assert cells[4].startswith(f"{100 * c.points_share:.1f} % [")
    assert cells[5] == (f"{100 * c.gain:+.1f} [{100 * c.gain_lo:+.0f}, "
                        f"{100 * c.gain_hi:+.0f}]")
    verdict = ("met" if c.gain_lo >= OM_GOAL else "not met" if c.gain_hi < OM_GOAL
               else "inconclusive")
    assert cells[6].startswith(verdict) and cells[6] == om_goal(c.gain, c.gain_lo, c.gain_hi)
    assert cells[7].startswith(f"{100 * true.gain:+.1f} [")
    x = acc.iloc[0]
    assert cells[8] == (f"{100 * x.search_top1:.1f} % [{100 * x.search_top1_lo:.0f}, "
                        f"{100 * x.search_top1_hi:.0f}] of {x.search_n}")
    assert cells[9].endswith(f"of {x.game_n}")

    # a run without the experiment: no section, and no accuracy without its table
    assert om_search_section({"connect4": GameResults("connect4", {})}) == []
    only = GameResults("connect4", {"om_search.csv": t})
    (row,) = [ln for ln in om_search_section({"connect4": only}) if ln.startswith("| connect4")]
    assert row.rstrip(" |").endswith("| - | -")


def test_the_report_job_reads_the_experiment_only_where_it_was_played(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from ime.workflow import default_config_dir, setup_workflow
    from ime.workflow.thesis import ThesisPlan

    config = default_config_dir()
    monkeypatch.chdir(tmp_path)
    plan = ThesisPlan(setup_workflow({"overrides": ["scale=tiny"]}, config))
    trdir = plan.directory()
    before = plan.inputs(trdir)
    assert not any(p.endswith(OPTIONAL_TABLES) for g in ("reversi", "snake")
                   for p in before[g])
    spec = plan.spec(trdir)
    assert all(n in spec["games"]["reversi"]["tables"] for n in OPTIONAL_TABLES)
    written = Path(spec["games"]["reversi"]["tables"]["om_search.csv"])
    written.parent.mkdir(parents=True)
    written.write_text("target\n")
    after = plan.inputs(trdir)
    assert [p for p in after["reversi"] if p.endswith(OPTIONAL_TABLES)] == [
        spec["games"]["reversi"]["tables"][n] for n in OPTIONAL_TABLES]
    assert after["snake"] == before["snake"] and plan.spec(trdir) == spec
