"""An external program as a pipeline target: matches -> dataset -> imitator -> S1/S2 -> tables.

The library-level test runs the same functions the Snakemake jobs call (match runner with worker
processes, the decisions extractor, the dataset builder), with the example bot of
``examples/reversi_bot.py`` as the target and a crashing external opponent, so faulted matches
must be counted and kept out of the dataset. The Snakemake test runs the real workflow, in a
temporary copy whose ``config/bots/reversi.yaml`` also names the example bot, at the tiny scale
with the external program as one of the two targets, all the way to Table 4.5: its matches, its
dataset, its imitator's checkpoints, its key endgames (the program self-forked on its own matches
and forked as the other target's reference), the imitators' scores and the tables.
"""

from __future__ import annotations

import json
import shutil
import sys
from pathlib import Path

import pandas as pd
import pytest
import yaml
from workflow_helpers import (
    copy_workflow,
    leftovers,
    overrides_arg,
    results_dir,
    snakemake,
)

import ime.bots.external  # noqa: F401  (registers the kind in this process and forked workers)
from ime.bots.registry import load_bot_specs
from ime.datasets.build import build_dataset
from ime.datasets.extract import extract_part
from ime.matches.runner import build_schedule, play_schedule

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "examples" / "reversi_bot.py"
FAULT_BOT = ROOT / "tests" / "programs" / "fault_bot.py"


@pytest.fixture
def specs(tmp_path):
    bot = tmp_path / "my_bot.py"  # a unique path, to find leftover processes by command line
    shutil.copy(EXAMPLE, bot)
    s = dict(load_bot_specs("reversi"))
    s["my_ext"] = {"kind": "external", "params": {
        "command": [sys.executable, "-S", str(bot), "--keep-running"], "keep_running": True,
        "time_limit": 20, "keep_running_time_limit": 10}}
    s["crashy"] = {"kind": "external", "params": {
        "command": [sys.executable, "-S", str(FAULT_BOT), "crash", "--after", "3",
                    str(tmp_path)], "time_limit": 20}}
    return s


def test_external_target_gets_a_dataset_and_faults_stay_out(tmp_path, specs):
    sched = build_schedule("reversi", ["my_ext"], ["opp_random", "crashy"],
                           matches_per_target=8, seed=4)
    log = tmp_path / "logs" / "shard0.jsonl"
    n = play_schedule("reversi", sched, specs, log, seed=4, workers=2, progress=False)
    assert n == 8
    docs = [json.loads(x) for x in log.read_text().splitlines()]
    vs_crashy = [d for d in docs if "crashy" in [p["bot"] for p in d["players"]]]
    assert vs_crashy and all(d["fault"]["verdict"] == "RE" for d in vs_crashy)
    assert all("fault" not in d for d in docs if d not in vs_crashy)

    part, rep = tmp_path / "part.parquet", tmp_path / "part.json"
    report = extract_part(log, part, rep, game="reversi", targets=["my_ext"], num_actions=64)
    assert report["faulted_per_bot"]["my_ext"] == len(vs_crashy)
    assert report["matches_per_bot"]["my_ext"] == 8 - len(vs_crashy)
    assert report["decisions_per_bot"]["my_ext"] > 0
    stats = build_dataset([part], [rep], "my_ext", tmp_path / "my_ext.parquet",
                          tmp_path / "my_ext.json", game="reversi")
    assert stats["matches"] == 8 - len(vs_crashy)
    assert stats["faulted_matches_excluded"] == len(vs_crashy)
    assert leftovers(str(tmp_path)) == []



@pytest.mark.slow
def test_snakemake_takes_an_external_target_to_table4_5(tmp_path, specs):
    work = copy_workflow(tmp_path / "wf")
    with open(work / "config" / "bots" / "reversi.yaml", "a", encoding="utf-8") as f:
        f.write("\n" + yaml.safe_dump({"my_ext": {
            **specs["my_ext"], "description": "examples/reversi_bot.py, keep-running"}}))
    # the thesis's coupling, explicitly: the two targets spar with each other (so the program is
    # also an opponent in the other target's matches and forks) and are each other's references
    cfg = overrides_arg(["scale=tiny", "game.targets=[my_ext,opp_greedy]",
                         "game.opponents=[opp_random]", "game.sparring=null",
                         "game.references=null", "evaluate.n_keys=3",
                         "evaluate.bootstrap=50"])
    rdir = results_dir(work, cfg)
    run = snakemake(work, "-j2", f"{rdir}/table4_5.csv", "--config", cfg, timeout=900)
    assert run.returncode == 0, (run.stdout + run.stderr)[-5000:]
    assert leftovers(str(tmp_path / "my_bot.py")) == []

    # matches -> dataset: the program played its matches cleanly
    (ds,) = (work / "data" / "reversi" / "datasets").glob("*/my_ext.json")
    stats = json.loads(ds.read_text())
    assert stats["bot"] == "my_ext" and stats["pairs"] > 0 and stats["matches"] > 0
    assert stats["faulted_matches_excluded"] == 0
    # dataset -> imitator: one checkpoint per fold of the tiny scale
    ckpts = sorted((work / "data" / "reversi" / "models").glob("*/conv/my_ext/fold*.pt"))
    assert [c.name for c in ckpts] == ["fold0.pt", "fold1.pt"]
    # key endgames: the program self-forked on its own matches (and reproduced every one), and
    # was forked as the other target's reference
    keys = {p.stem: json.loads(p.read_text())
            for p in (work / "data" / "reversi" / "eval").glob("*/*/keys/*[!g].json")}
    assert set(keys) == {"my_ext", "opp_greedy"}
    assert keys["my_ext"]["n_keys"] == 3 and keys["my_ext"]["references"] == ["opp_greedy"]
    assert keys["my_ext"]["self_fork_checked"] >= 3 and keys["my_ext"]["self_fork_failed"] == 0
    assert keys["opp_greedy"]["references"] == ["my_ext"] and keys["opp_greedy"]["n_keys"] == 3

    # S1/S2 -> Table 4.5: the external target's imitator on its key endgames
    sims = pd.read_csv(work / rdir / "similarity.csv")
    pairs = set(zip(sims["agent"], sims["target"], strict=True))
    assert {("imit_my_ext", "my_ext"), ("my_ext", "opp_greedy"),
            ("imit_my_ext", "opp_greedy"), ("imit_opp_greedy", "my_ext")} <= pairs
    for c in ("s1", "s2", "baseline"):
        assert sims[c].between(0, 100).all(), c
    t45 = pd.read_csv(work / rdir / "table4_5.csv").set_index("bot")
    assert list(t45.index) == ["my_ext", "opp_greedy"]
    row = t45.loc["my_ext"]
    assert row["imitator"] == "imit_my_ext" and row["keys"] == 3
    assert 0 <= row["S1"] <= 100 and 0 <= row["S2"] <= 100  # percent
    assert row["S1_lo"] <= row["S1"] <= row["S1_hi"] and row["S2_lo"] <= row["S2"] <= row["S2_hi"]
