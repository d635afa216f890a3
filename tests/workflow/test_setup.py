"""Every game's config composes, and the game comes from the target path (ime.workflow.setup).

Like lightning-hydra-template's ``tests/test_configs.py``: every game x scale x net and every
game x experiment composes and validates. Then the workflow's setup: every game with a plug-in
and a ``config/game/<game>.yaml`` is composed; a broken config of another game than the one
asked for does not stop the workflow; each game's names for the generic results.
"""

from __future__ import annotations

import re

import pytest

from ime.core.registry import known_games
from ime.workflow import ConfigError, default_config_dir, game_options, make_plan, setup_workflow
from ime.workflow import artifacts as A
from ime.workflow.tags import without_runtime

CONFIG = default_config_dir()
GAMES = [g for g in game_options(CONFIG) if g in known_games()]
DEFAULT_SCALE = "quick"
"""config/config.yaml's ``scale`` (checked below)."""


def _options(group: str) -> list[str]:
    return sorted(p.stem for p in (CONFIG / group).glob("*.yaml"))


def test_every_game_has_a_plugin() -> None:
    assert "reversi" in GAMES
    assert make_plan([]).main.cfg["run"]["choices"]["scale"] == DEFAULT_SCALE
    assert set(game_options(CONFIG)) <= set(known_games())


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("scale", _options("scale"))
@pytest.mark.slow
def test_every_game_scale_and_net_composes(game: str, scale: str) -> None:
    """Every net composes with every game at the default scale; at the other scales, the
    game's own net and every net that is not a plain policy net (an imitator family, the
    lookahead net: their checks read the scale's folds and split). An imitator family
    (net=search) composes only with the games that offer it, the lookahead net only with games
    whose encoder gives afterstates, and the others refuse them by name before any job.

    Why not every net at every scale: a policy net's composition reads no scale setting, and the
    180 compositions took 4-5 s a case on 2 cores (CI's budget, docs/development.md)."""
    import yaml

    from ime.core.registry import get_encoder, get_plugin
    from ime.imitators.kinds import IMITATOR_FAMILIES  # search and lookahead: not policy nets
    from ime.workflow.errors import ConfigError

    nets = _options("net")
    if scale != DEFAULT_SCALE:
        kinds = {n: yaml.safe_load((CONFIG / "net" / f"{n}.yaml").read_text()).get("kind")
                 for n in nets}
        nets = [n for n in nets if kinds[n] in IMITATOR_FAMILIES]
        nets.append(None)  # the game's own net
    for net in nets:
        overrides = [f"game={game}", f"scale={scale}", *([f"net={net}"] if net else [])]
        if net == "search" and "search" not in get_plugin(game).imitators:
            with pytest.raises(ConfigError, match=f"game '{game}' offers no 'search'"):
                make_plan(overrides)
            continue
        if net == "lookahead" and get_encoder(game).afterstate_shape is None:
            with pytest.raises(ConfigError, match=f"game '{game}' offers no afterstates"):
                make_plan(overrides)
            continue
        v = make_plan(overrides).main
        assert v.game == game and v.cfg["run"]["choices"]["scale"] == scale
        assert v.logs_tag == v.dataset_tag == scale
        assert "scales" not in v.cfg["game"]


def _experiment_game(name: str) -> str | None:
    """The game an experiment is for when its name says so (``identify_hard_big2``,
    ``snake_dataset_size``: it names that game's bots), else None (every game)."""
    return next((g for g in GAMES if name.startswith(f"{g}_") or name.endswith(f"_{g}")), None)


@pytest.mark.parametrize("game, experiment", [
    (g, e) for e in _options("experiment") for g in GAMES if _experiment_game(e) in (None, g)])
@pytest.mark.slow
def test_every_game_experiment_plans(game: str, experiment: str) -> None:
    """Every experiment plans with every game it is for: a generic one (a sweep) with each game,
    one named after a game with that game (it names that game's bots; its comment asks for
    ``game=<game>``)."""
    plan = make_plan([f"game={game}", f"experiment={experiment}"])
    if plan.sweep is not None:
        assert plan.sweep.points and plan.sweep.results_dir.startswith(f"results/{game}/")


def test_setup_composes_every_game() -> None:
    wf = setup_workflow({"overrides": ["scale=tiny"]}, CONFIG)
    assert wf.default_game == "reversi" and wf.errors == {}
    assert sorted(wf.plans) == GAMES
    for game in GAMES:
        v = wf.main(game)
        assert v.results_dir == f"results/{game}/tiny"
        assert v.game == game
        assert f"results/{game}/tiny/index.md" in wf.targets(game)
    assert set(wf.targets()) == set(wf.targets("reversi"))
    assert set(wf.all_games_targets()) == {t for g in GAMES for t in wf.targets(g)}
    rdir = re.compile(wf.constraints()["rdir"])  # a prefix tree of the directories
    assert all(rdir.fullmatch(f"results/{g}/tiny") for g in GAMES)
    assert not any(rdir.fullmatch(d) for d in ["results/reversi", "results/reversi/quick",
                                               "results/rev/tiny", "results/reversi/tiny/x"])


def test_another_games_config_error_waits_until_that_game_is_asked_for() -> None:
    """An override meant for Reversi breaks every other game's config: the Reversi workflow
    runs, and asking for another game raises its error."""
    wf = setup_workflow({"overrides": ["scale=tiny", "game.targets=[rev3]"]}, CONFIG)
    assert wf.main().targets == ["rev3"]
    others = [g for g in GAMES if g != "reversi"]
    assert set(wf.errors) == set(others)
    for game in others:
        with pytest.raises(ConfigError, match=f"game {game}: .*rev3"):
            wf.plan(game)
    if others:
        with pytest.raises(ConfigError):
            wf.all_games_targets()


@pytest.mark.slow
def test_each_games_config_error_is_raised_for_that_game_and_a_shared_one_at_once() -> None:
    """A bot that no game has: every game's error names its own bots file, raised when that
    game is asked for (rule ``all`` asks for the default game's), so a Doudizhu target never
    reports Reversi's bots. An error every game shares stops the setup at once."""
    wf = setup_workflow({"overrides": ["game.targets=[nobody]"]}, CONFIG)
    assert wf.plans == {} and set(wf.errors) == set(GAMES)
    with pytest.raises(ConfigError, match="not in config/bots/reversi.yaml"):
        wf.targets()
    for game in GAMES:
        with pytest.raises(ConfigError, match=f"game {game}: .*config/bots/{game}.yaml"):
            wf.targets(game)
    with pytest.raises(ConfigError, match="unknown --config key"):
        setup_workflow({"scale": "tiny"}, CONFIG)
    with pytest.raises(ConfigError, match="no.such is not a config key"):
        setup_workflow({"overrides": ["no.such=1"]}, CONFIG)


@pytest.mark.slow
def test_a_pool_of_one_bot_builds_no_identification() -> None:
    # which bot played this needs two bots; <game>_tables for one target builds the rest
    one = setup_workflow({"overrides": ["scale=tiny", "game.targets=[rev3]"]}, CONFIG)
    two = setup_workflow({"overrides": ["scale=tiny"]}, CONFIG)
    for wf, wanted in ((one, False), (two, True)):
        names = {t.rsplit("/", 1)[-1] for t in wf.targets("reversi")}
        assert ("identification.csv" in names) == wanted
        assert "table4_5.csv" in names and "index.md" in names


def test_reversi_names_its_results_after_the_thesis() -> None:
    wf = setup_workflow({"overrides": ["scale=tiny"]}, CONFIG)
    rdir = "results/reversi/tiny"
    targets = set(wf.targets("reversi"))
    thesis = ["table4_2.csv", "table4_3.csv", "table4_4.csv", "table4_5.csv", "table4_6.csv",
              "table4_7.csv", "table4_8.csv", "table6_1.csv", "figures/fig4_2.png",
              "figures/fig4_2.pdf", "run_report.json", "index.md"]
    assert {f"{rdir}/{n}" for n in thesis} <= targets
    assert wf.artifact_source(rdir, "table4_5.csv") == f"{rdir}/s1s2_imitator.csv"
    assert wf.artifact_source(rdir, "figures/fig4_2.pdf") == f"{rdir}/figures/move_choice_pair.pdf"
    with pytest.raises(KeyError):
        wf.artifact_source(rdir, "table9_9.csv")
    rows = wf.index_spec(rdir)["rows"]
    row = next(r for r in rows if r["files"] == ["table4_5.csv", "s1s2_imitator.csv"])
    assert row["what"] == A.GENERIC_ARTIFACTS["s1s2_imitator.csv"]
    assert ["S1_lo", "lower end of the CI of S1", "%"] in row["columns"]  # index.md's columns


def test_a_games_own_results_are_built_and_listed() -> None:
    wf = setup_workflow({"overrides": ["scale=tiny"]}, CONFIG)
    for game in GAMES:
        v = wf.main(game)
        for name in A.game_results(game):
            assert v.table_path(name) in wf.targets(game)
            spec = wf.result_spec(v.results_dir, name)
            assert spec["game"] == game and spec["config"] == without_runtime(v.cfg)
            assert any(r["files"] == [name] for r in wf.index_spec(v.results_dir)["rows"])
        with pytest.raises(ConfigError, match="has no result"):
            wf.result_spec(v.results_dir, "no_such_result.csv")


def test_a_file_no_composed_variant_writes_names_the_right_directory() -> None:
    import re

    wf = setup_workflow({"overrides": ["scale=tiny"]}, CONFIG)
    c = wf.misplaced_constraints()
    assert re.fullmatch(c["misplaced"], "reversi")
    assert re.fullmatch(c["anything"], "table4_5.csv")
    assert not re.fullmatch(c["anything"], "tiny/table4_5.csv")  # the variant's own files
    with pytest.raises(ConfigError, match="ask for results/reversi/tiny/table4_5.csv"):
        wf.misplaced("reversi", "table4_5.csv")
    # another variant's directory: the file of the same name in this composition's
    with pytest.raises(ConfigError, match="results/reversi/quick__x-1/ is not a results dir.*"
                                          "ask for results/reversi/tiny/table4_5.csv "):
        wf.misplaced("reversi", "quick__x-1/table4_5.csv")
    with pytest.raises(ConfigError, match="ask for results/reversi/tiny/figures/fig4_2.png "):
        wf.misplaced("reversi", "figures/fig4_2.png")
    default = setup_workflow({"overrides": []}, CONFIG)
    assert not re.fullmatch(default.misplaced_constraints()["misplaced"], "reversi")


def test_job_logging_sends_output_and_logging_to_the_log(tmp_path) -> None:
    import logging
    import os

    from ime.workflow.jobs.logging import job_logging

    log = tmp_path / "logs" / "job.log"
    with job_logging(str(log)):
        os.write(1, b"from fd 1\n")  # numba, torch, worker processes
        os.write(2, b"from fd 2\n")
        logging.getLogger("ime.test").info("from logging")
    text = log.read_text()
    assert "from fd 1" in text and "from fd 2" in text and "ime.test: from logging" in text
    with pytest.raises(RuntimeError), job_logging(str(log)):
        raise RuntimeError("boom")
    assert "job failed" in log.read_text() and "boom" in log.read_text()
