"""Issue 32: the mistakes a first-time user makes each stop with a message that says what to do.

A mistyped target (an unknown game or file), a ``game=`` override that disagrees with the target's
game, an override meant for another game's bots, Hydra's comma (multirun) syntax, a worker count
below 1; and what ``ime play`` / ``ime solve`` / ``ime pipeline show`` print so that a user needs
no second look: the win/draw/loss tally, the solve time's unit, the results folder and the
``<game>_tables`` target that builds a variant without spelling its directory.

Most checks call :func:`ime.workflow.setup_workflow` (what the Snakefile calls first); the three
``snakemake -n`` dry runs check that the catch-all rule is what a mistyped target really reaches
and that ``<game>_tables`` builds a variant's directory.
"""

from __future__ import annotations

import json
import re

import pytest
from workflow_helpers import copy_workflow, overrides_arg, planned_jobs, snakemake

from ime.core.registry import known_games
from ime.workflow import ConfigError, default_config_dir, game_options, setup_workflow
from ime.workflow.compose import compose, config_arg, could_sweep, parse_overrides
from ime.workflow.setup import Workflow

CONFIG = default_config_dir()
GAMES = [g for g in game_options(CONFIG) if g in known_games()]
VARIANT = ["net=mlp2", "train.lr=0.0005"]


@pytest.fixture(scope="module")
def default_wf() -> Workflow:
    return setup_workflow({"overrides": []}, CONFIG)


@pytest.fixture(scope="module")
def variant_wf() -> Workflow:
    return setup_workflow({"overrides": VARIANT}, CONFIG)


# --- 1. a target no rule writes -------------------------------------------------------------
def test_a_mistyped_file_names_the_nearest_files_the_directory_and_the_games(default_wf) -> None:
    with pytest.raises(ConfigError) as e:
        default_wf.unknown_result("results/reversi/table4_44.csv")
    msg = str(e.value)
    assert "results/reversi/ has no file 'table4_44.csv'" in msg
    assert re.search(r"nearest: table4_4\.csv", msg), msg
    assert "reversi's results are in results/reversi/" in msg
    assert "the games: " + ", ".join(sorted(GAMES)) in msg


def test_an_unknown_game_names_the_games_and_the_nearest(default_wf) -> None:
    with pytest.raises(ConfigError, match=r"no game 'revrsi' \(the games: .*reversi.*\); did you "
                                          r"mean results/reversi/table4_4\.csv\?"):
        default_wf.unknown_result("results/revrsi/table4_4.csv")


def test_another_directory_of_a_known_game_says_where_the_results_are(default_wf) -> None:
    with pytest.raises(ConfigError, match=r"results/reversi/quick__x-1/ is not a results directory"
                                          r".*ask for results/reversi/table4_5\.csv "):
        default_wf.unknown_result("results/reversi/quick__x-1/table4_5.csv")


def test_the_catch_all_regex_excludes_every_other_rules_outputs() -> None:
    outputs = ["{rdir,results/reversi|results/reversi/tiny}/table4_4.csv",
               "{rdir,results/reversi}/{artifact,figures/fig4_2\\.png}",
               "results/{misplaced,snake}/{anything,.+}", "data/{game}/x.parquet"]
    rx = re.compile(Workflow.unknown_constraint(outputs) + "$")
    for real in ["results/reversi/table4_4.csv", "results/reversi/tiny/table4_4.csv",
                 "results/reversi/figures/fig4_2.png", "results/snake/anything.csv"]:
        assert not rx.match(real), real
    for typo in ["results/reversi/table4_44.csv", "results/revrsi/table4_4.csv",
                 "results/reversi/figures/fig4_2.pdf"]:
        assert rx.match(typo), typo
    assert not rx.match("data/reversi/x.parquet")  # only paths under results/


# --- 7 (with 1). a variant's results without knowing its directory -----------------------------
@pytest.mark.slow
def test_a_default_path_under_a_variant_suggests_its_path_the_named_target_and_show(
        variant_wf) -> None:
    rdir = variant_wf.main("reversi").results_dir
    assert rdir == "results/reversi/quick__net-mlp2__train.lr-0.0005"
    with pytest.raises(ConfigError) as e:
        variant_wf.misplaced("reversi", "table4_4.csv")
    msg = str(e.value)
    assert f"ask for {rdir}/table4_4.csv " in msg
    assert "snakemake -j8 reversi_tables --config overrides='[net=mlp2,train.lr=0.0005]'" in msg
    assert "`ime pipeline show net=mlp2 train.lr=0.0005`" in msg
    with pytest.raises(ConfigError, match=r"reversi has no result 'table4_44\.csv' \(nearest: "
                                          r"table4_4\.csv"):
        variant_wf.misplaced("reversi", "table4_44.csv")
    # the named target is what rule all builds for the game, in the variant's directory
    assert variant_wf.targets("reversi") and all(
        t.startswith(rdir + "/") for t in variant_wf.targets("reversi"))
    assert f"{rdir}/table4_4.csv" in variant_wf.targets("reversi")


def test_config_arg_round_trips_through_the_overrides_parser() -> None:
    ovr = ["net=mlp2", "game.targets=[rev1,rev2]", "sweep.grid={train.lr:[1,2]}"]
    arg = config_arg(ovr)
    assert arg.startswith("--config overrides='[") and arg.endswith("]'")
    assert parse_overrides(arg.split("=", 1)[1].strip("'")) == ovr
    assert config_arg([]) == ""


# --- 2. the game from the path against a game= override or another game's bots --------------
def test_a_game_override_that_disagrees_with_the_targets_game_is_an_error() -> None:
    other = "snake"
    assert other in GAMES, GAMES
    wf = setup_workflow({"overrides": ["scale=tiny", f"game={other}"]}, CONFIG)
    assert list(wf.plans) == [other] and wf.targets(other)
    with pytest.raises(ConfigError, match=rf"game reversi: .*set game={other}, so only {other} "
                                          rf"is composed.*drop game={other}"):
        wf.targets("reversi")
    with pytest.raises(ConfigError, match="no config/game/revrsi.yaml; the games: "):
        setup_workflow({"overrides": ["game=revrsi"]}, CONFIG)


@pytest.mark.slow
def test_a_doudizhu_override_builds_doudizhu_and_its_errors_name_doudizhus_bots() -> None:
    assert "doudizhu" in GAMES, GAMES
    wf = setup_workflow({"overrides": ["scale=tiny", "game.targets=[ddz1,ddz2]"]}, CONFIG)
    assert wf.main("doudizhu").targets == ["ddz1", "ddz2"]  # no Reversi error on the way
    with pytest.raises(ConfigError, match=r"game reversi: .*config/bots/reversi\.yaml.*do compose "
                                          r"for doudizhu.*doudizhu_tables"):
        wf.targets()  # rule all: the default game, Reversi
    typo = setup_workflow({"overrides": ["scale=tiny", "game.targets=[ddz9]"]}, CONFIG)
    with pytest.raises(ConfigError, match=r"game doudizhu: bots \['ddz9'\] are not in "
                                          r"config/bots/doudizhu\.yaml"):
        typo.targets("doudizhu")


# --- 3. Hydra's multirun syntax ---------------------------------------------------------------
@pytest.mark.parametrize("given", ["[train.lr=0.001,0.002]", '["train.lr=0.001,0.002"]',
                                   '["train.lr=choice(0.001,0.002)"]'])
def test_hydras_comma_sweep_points_to_sweep_key_and_values(given: str) -> None:
    with pytest.raises(ConfigError) as e:
        setup_workflow({"overrides": given}, CONFIG)
    msg = str(e.value)
    assert "overrides='[sweep.key=train.lr,\"sweep.values=[0.001,0.002]\"]'" in msg, msg
    assert "sweep.grid=" in msg and "Hydra" in msg


def test_lists_and_quoted_values_are_not_sweeps() -> None:
    cfg = compose(["scale=tiny", "game.targets=[rev1,rev2]"])
    assert list(cfg.game.targets) == ["rev1", "rev2"]


def test_overrides_without_comma_or_parenthesis_skip_hydras_parser() -> None:
    """``scale=thesis`` cannot be a sweep, so checking it imports no Hydra parser (0.1 s on
    every Snakemake start); a comma still reaches the parser and its verdict."""
    import subprocess
    import sys

    code = ("import sys\n"
            "from ime.workflow.compose import refuse_hydra_sweeps\n"
            "refuse_hydra_sweeps(['scale=thesis', 'game.targets=[rev5]', '~net'])\n"
            "print('hydra.core.override_parser.overrides_parser' in sys.modules)\n"
            "refuse_hydra_sweeps(['game.targets=[rev1,rev2]'])\n"
            "print('hydra.core.override_parser.overrides_parser' in sys.modules)\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True).stdout.split()
    assert out == ["False", "True"]
    assert not could_sweep("scale=thesis") and could_sweep("train.lr=choice(1,2)")


# --- 4. worker counts -------------------------------------------------------------------------
@pytest.mark.parametrize("override", ["evaluate.workers=0", "evaluate.workers=-2",
                                      "train.threads=0"])
def test_a_worker_count_below_one_in_the_config_is_refused(override: str) -> None:
    key = override.split("=")[0]
    with pytest.raises(ConfigError, match=rf"{re.escape(key)} must be >= 1"):
        compose([override])


@pytest.mark.parametrize("argv", [
    ["play", "reversi", "--seats", "opp_random", "opp_greedy", "--workers", "-2", "--out", "x"],
    ["play", "reversi", "--seats", "opp_random", "opp_greedy", "--workers", "0", "--out", "x"],
    ["play", "reversi", "--seats", "opp_random", "opp_greedy", "--games", "0", "--out", "x"],
    ["bench", "reversi", "--threads", "0"],
])
def test_a_worker_count_below_one_on_the_command_line_is_refused(argv, capsys) -> None:
    from ime.cli.main import main

    with pytest.raises(SystemExit) as e:
        main(argv)
    assert e.value.code == 2
    flag, value = argv[-4:-2] if argv[-2] == "--out" else argv[-2:]
    assert f"argument {flag}: must be >= 1, got {int(value)}" in capsys.readouterr().err


# --- 5, 6, 7. what ime play, solve and pipeline show print -------------------------------------
def test_play_ends_with_a_win_draw_loss_tally_per_bot_and_seat(tmp_path, capsys) -> None:
    from ime.cli.main import main
    from ime.evaluate.forks import OUTCOME_NAMES, outcome

    out = tmp_path / "m.jsonl"
    assert main(["play", "reversi", "--seats", "opp_random", "opp_greedy", "--games", "4",
                 "--workers", "1", "--no-progress", "--out", str(out)]) == 0
    stdout = capsys.readouterr().out
    want: dict[tuple[int, str], dict[str, int]] = {}
    for line in out.read_text().splitlines():
        m = json.loads(line)
        for seat, p in enumerate(m["players"]):
            counts = want.setdefault((seat, p["bot"]), {"win": 0, "draw": 0, "loss": 0})
            counts[OUTCOME_NAMES[outcome(m["scores"], seat)]] += 1
    assert stdout.splitlines()[0] == "win/draw/loss by bot and seat:"
    for (seat, bot), c in want.items():
        assert (f"  seat {seat} {bot}: {c['win']} win, {c['draw']} draw, {c['loss']} loss "
                f"(4 games)") in stdout.splitlines(), stdout
    assert want[(0, "opp_random")]["win"] == want[(1, "opp_greedy")]["loss"]


def test_solve_prints_its_time_with_a_unit(capsys) -> None:
    from ime.cli.main import main

    board = "-OOOOOO-" + "X" * 40 + "OOOOOOO-" + "XXXXXXX-"
    assert main(["solve", "reversi", "--board", board, "--to-move", "X"]) == 0
    err = capsys.readouterr().err
    assert re.search(r"^nodes \d+ time \d+\.\d{3} s$", err, re.M), err


def test_pipeline_show_starts_with_the_results_folder_and_the_named_target(capsys) -> None:
    from ime.cli.main import main

    assert main(["pipeline", "show", *VARIANT]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == "results: results/reversi/quick__net-mlp2__train.lr-0.0005/"
    assert lines[1] == ("build:   snakemake -j8 reversi_tables "
                        "--config overrides='[net=mlp2,train.lr=0.0005]'")


# --- the real snakemake: a mistyped target reaches the catch-all; <game>_tables ----------------


@pytest.fixture(scope="module")
def work(tmp_path_factory: pytest.TempPathFactory):
    return copy_workflow(tmp_path_factory.mktemp("wf"))


@pytest.mark.slow
@pytest.mark.parametrize("target,expect", [
    ("results/reversi/tiny/table4_44.csv", r"IME config error: results/reversi/tiny/table4_44\.csv:"
                                           r" .*nearest: table4_4\.csv"),
    ("results/revrsi/tiny/table4_4.csv", r"IME config error: .*no game 'revrsi' \(the games: "),
])
def test_a_mistyped_target_stops_with_a_config_error_not_no_rule(work, target, expect) -> None:
    run = snakemake(work, "-n", target, "--config", overrides_arg(["scale=tiny"]))
    text = " ".join((run.stdout + run.stderr).split())  # the message is wrapped (issue 45)
    assert run.returncode != 0
    assert re.search(expect, text) and "No rule to produce" not in text, text[-3000:]


@pytest.mark.slow
def test_game_tables_builds_the_variants_results_by_name(work) -> None:
    run = snakemake(work, "-n", "reversi_tables", "--config",
                    overrides_arg(["scale=tiny", "net=mlp2"]))
    text = run.stdout + run.stderr
    assert run.returncode == 0, text[-3000:]
    outs = [o for _, os_ in planned_jobs(text) for o in os_]
    rdir = "results/reversi/tiny__net-mlp2"
    assert f"{rdir}/table4_4.csv" in outs and f"{rdir}/index.md" in outs, outs[-20:]
    assert not any(o.startswith("results/reversi/tiny/") for o in outs)
