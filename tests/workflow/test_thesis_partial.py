"""A partial reproduction report (``--config thesis_games='[reversi]'``): its own folder and
archive name, only the covered games composed as inputs (a dry run from nothing plans no
Doudizhu or Snake job), a mistyped game named as such, and the report built from the shared tiny
run saying what it covers."""

from __future__ import annotations

import json
from pathlib import Path

import pandas as pd
import pytest
from workflow_helpers import TINY, copy_run, copy_workflow, planned_jobs, smk, snakemake

from ime.workflow import ConfigError, default_config_dir, setup_workflow
from ime.workflow.thesis import ThesisPlan, parse_thesis_games

CONFIG = default_config_dir()
PARTIAL = "thesis_games=[reversi]"


def test_the_subset_names_the_folder_the_archive_and_the_commands() -> None:
    whole = ThesisPlan(setup_workflow({"overrides": ["scale=tiny"]}, CONFIG))
    assert (whole.directory(), whole.archive_name()) == ("results/thesis/tiny", "tiny")
    assert "left_out" not in whole.spec(whole.directory())
    plan = ThesisPlan(setup_workflow({"overrides": ["scale=tiny"], "thesis_games": ["reversi"]},
                                     CONFIG))
    trdir = plan.directory()
    assert trdir == "results/thesis/tiny+reversi"
    assert plan.archive_path() == "reproduction/tiny+reversi/MANIFEST.md"
    inputs = plan.inputs(trdir)
    assert list(inputs) == ["reversi", "reference"]
    # the thesis's data is an input too: editing config/thesis/ re-runs the report
    assert [Path(p).name for p in inputs["reference"]] == ["numbers.csv", "conclusions.csv",
                                                           "protocol.yaml"]
    assert all(Path(p).is_file() and Path(p).parent == CONFIG / "thesis"
               for p in inputs["reference"])
    spec = plan.spec(trdir)
    assert list(spec["games"]) == ["reversi"] and spec["left_out"] == ["doudizhu", "snake"]
    assert spec["command"] == ("snakemake -j8 results/thesis/tiny+reversi/reproduction.md "
                               "--config overrides='[scale=tiny]' thesis_games='[reversi]'")
    assert all(p.startswith(("results/thesis/tiny+reversi/", "results/reversi/"))
               for p in plan.archive_inputs())
    aspec = plan.archive_spec()
    assert list(aspec["game_dirs"]) == ["reversi"] and aspec["left_out"] == ["doudizhu", "snake"]
    # the default composition (scale quick, no variant name) is named after its scale
    quick = ThesisPlan(setup_workflow({"thesis_games": "snake,reversi"}, CONFIG))
    assert quick.games == ("reversi", "snake")
    assert (quick.directory(), quick.archive_name()) == ("results/thesis/quick+reversi+snake",
                                                         "quick+reversi+snake")
    assert quick.spec(quick.directory())["command"].endswith(
        "--config thesis_games='[reversi,snake]'")
    # all three named, or none (as with overrides), is the whole report
    assert parse_thesis_games([]) == parse_thesis_games(None) == ("reversi", "doudizhu", "snake")
    assert parse_thesis_games(["snake", "doudizhu", "reversi"]) == ("reversi", "doudizhu",
                                                                    "snake")


@pytest.mark.parametrize("value", [["reversi", "revesri"], "go"])
def test_a_mistyped_game_names_the_thesis_games(value: object) -> None:
    with pytest.raises(ConfigError, match="no thesis game .*the thesis's games are reversi, "
                                          "doudizhu, snake"):
        setup_workflow({"overrides": ["scale=tiny"], "thesis_games": value}, CONFIG)


@pytest.mark.slow
def test_a_partial_dry_run_plans_no_left_out_game(tmp_path: Path) -> None:
    """From nothing: every job of the report is planned, and none is Doudizhu's or Snake's."""
    work = copy_workflow(tmp_path / "w")
    out = snakemake(work, "-n", "archive_reproduction", "--config", TINY, PARTIAL)
    assert out.returncode == 0, out.stderr[-3000:]
    jobs = planned_jobs(out.stdout)
    rules = {r for r, _ in jobs}
    assert {"train_reversi", "thesis_report", "archive_report"} <= rules
    assert not [r for r in rules if "doudizhu" in r or "snake" in r]
    files = [f for _, fs in jobs for f in fs]
    assert not [f for f in files if "doudizhu" in f or "snake" in f], files
    assert "reproduction/tiny+reversi/MANIFEST.md" in files
    bad = snakemake(work, "-n", "reproduction", "--config", TINY, "thesis_games=[reversy]")
    assert bad.returncode != 0 and "no thesis game 'reversy'" in bad.stdout + bad.stderr


@pytest.mark.slow
def test_the_partial_report_from_the_tiny_run(tiny_run: Path, tmp_path: Path) -> None:
    run = copy_run(tiny_run, tmp_path / "run")
    smk(run, "-j1", "archive_reproduction", "--config", TINY, PARTIAL)
    rep = run / "results/thesis/tiny+reversi"
    md = (rep / "reproduction.md").read_text()
    assert md.startswith("# The thesis reproduced: scale=tiny, reversi only (partial)")
    assert "covers reversi only; doudizhu and snake are left out" in md.split("## Summary")[0]
    concl = pd.read_csv(rep / "conclusions.csv").set_index("id")
    assert concl.loc["ddz_beats_baseline", "verdict"] == "cannot be tested"
    assert concl.loc["ddz_beats_baseline", "numbers"] == "doudizhu is not in this report"
    assert set(pd.read_csv(rep / "numbers.csv")["game"]) == {"reversi"}
    prov = json.loads((rep / "provenance.json").read_text())
    assert prov["games"] == ["reversi"] and prov["left_out"] == ["doudizhu", "snake"]
    manifest = (run / "reproduction/tiny+reversi/MANIFEST.md").read_text()
    assert "A partial reproduction" in manifest and "thesis_games='[reversi]'" in manifest
    assert not (run / "reproduction/tiny+reversi/doudizhu").exists()
    # the whole report of the run is untouched
    assert (run / "results/thesis/tiny/reproduction.md").read_bytes() == \
        (tiny_run / "results/thesis/tiny/reproduction.md").read_bytes()
