"""Chapter 5's protocol as configuration: what ``scale=thesis`` composes for Doudizhu, and how
``matches.team_seats`` and ``dataset.keep_forced`` reach the stages' params and paths (real
compositions of config/, no snakemake)."""

from __future__ import annotations

import re

import pytest

from ime.bots.registry import load_bot_specs
from ime.workflow import EvalPlan, WorkflowIndex, compose, default_config_dir, make_plan, to_plain
from ime.workflow.tags import dataset_key, logs_key

RULE_BOTS = ["ddz1", "ddz2", "ddz3", "ddz4", "ddz5"]
SCALES = sorted(p.stem for p in (default_config_dir() / "scale").glob("*.yaml"))


@pytest.mark.parametrize("scale", SCALES)
@pytest.mark.slow
def test_doudizhu_composes_and_plans_at_every_scale(scale: str) -> None:
    c = to_plain(compose(["game=doudizhu", f"scale={scale}"]))
    assert c["run"]["choices"]["scale"] == scale and c["game"]["name"] == "doudizhu"
    plan = make_plan(["game=doudizhu", f"scale={scale}"])
    WorkflowIndex([plan], {"doudizhu": load_bot_specs("doudizhu")})  # the zoo has every bot


def test_thesis_scale_is_chapter_5s_protocol() -> None:
    v = make_plan(["game=doudizhu", "scale=thesis"]).main
    c = v.cfg
    assert c["game"]["targets"] == RULE_BOTS  # no ddz_mc
    assert c["matches"]["per_target"] == 10600
    assert c["matches"]["team_seats"] == "all" and c["dataset"]["keep_forced"] is True
    assert c["evaluate"]["tournament"]["rounds"] == 200
    ep = EvalPlan(v, load_bot_specs("doudizhu"))
    assert ep.targets == RULE_BOTS
    for t in RULE_BOTS:
        assert ep.references(t) == [b for b in RULE_BOTS if b != t]  # four rule bots each
    assert len(ep.players()) == 10 and len(ep.pairs()) == 45
    # the thesis's 18,000 matches: 200 rounds x 90 ordered pairs, one deal each
    assert c["evaluate"]["tournament"]["rounds"] * 2 * len(ep.pairs()) == 18000


def test_quick_keeps_todays_protocol_and_its_directories() -> None:
    v = make_plan(["game=doudizhu"]).main
    c = v.cfg
    assert c["game"]["targets"] == [*RULE_BOTS, "ddz_mc"]
    assert c["matches"]["team_seats"] == "one" and c["dataset"]["keep_forced"] is False
    # the defaults are not in the keys: the logs and datasets made before the options existed
    # keep their tags, metadata and params
    assert "matches.team_seats" not in logs_key(c)
    assert "dataset.keep_forced" not in dataset_key(c)
    assert v.decisions_path("ddz1/shard000") == \
        "data/doudizhu/decisions/quick/strict/ddz1/shard000.parquet"


@pytest.mark.slow
def test_the_options_reach_the_jobs_params_and_paths() -> None:
    over = ["game=doudizhu", "scale=tiny", "matches.team_seats=all", "dataset.keep_forced=true"]
    plan = make_plan(over)
    v = plan.main
    assert v.logs_tag != "tiny" and "team_seats" in v.logs_tag
    idx = WorkflowIndex([plan], {"doudizhu": load_bot_specs("doudizhu")})
    part = v.parts()[0]
    assert idx.matches_spec(v.game, v.logs_tag, part)["team_seats"] == "all"
    path = v.decisions_path(part)
    assert f"/{v.logs_tag}/strict-forced/" in path
    spec = idx.decisions_spec(v.game, v.logs_tag, "strict-forced", part)
    assert spec["mode"] == "strict" and spec["keep_forced"] is True
    assert "keep_forced" not in idx.decisions_spec(v.game, v.logs_tag, "strict", part)
    assert idx.dataset_spec(v.game, v.dataset_tag, "ddz4")["config"]["dataset"]["keep_forced"]
    # a game without sides: team seating changes no log, so it changes no tag
    rev = make_plan(["scale=tiny", "matches.team_seats=all"]).main
    assert rev.logs_tag == "tiny"


def test_the_seats_observation_re_encodes_the_same_logs() -> None:
    """``+game.params.observation=seats`` is the encoder's option: the variant shares the match
    logs (tag and matches' params) with the thesis's, and has its own decisions, datasets,
    models and results, the decisions' jobs building the seats encoder."""
    base = make_plan(["game=doudizhu", "scale=tiny"])
    seats = make_plan(["game=doudizhu", "scale=tiny", "+game.params.observation=seats"])
    b, v = base.main, seats.main
    assert v.logs_tag == b.logs_tag == "tiny"
    assert v.dataset_tag == "tiny__game.params.observation-seats" != b.dataset_tag
    assert v.train_tag != b.train_tag
    assert v.results_dir == "results/doudizhu/tiny__game.params.observation-seats"
    part = v.parts()[0]
    assert v.log_path(part) == b.log_path(part)
    assert v.decisions_path(part) == b.decisions_path(part).replace(
        "/strict/", "/strict__observation-seats/")
    idx = WorkflowIndex([base, seats], {"doudizhu": load_bot_specs("doudizhu")})
    assert idx.matches_spec(v.game, v.logs_tag, part)["game_params"] == {}
    spec = idx.decisions_spec(v.game, v.logs_tag, "strict__observation-seats", part)
    assert spec["game_params"] == {"observation": "seats"} and spec["mode"] == "strict"
    assert idx.decisions_spec(v.game, v.logs_tag, "strict", part)["game_params"] == {}
    assert re.fullmatch(idx.constraints()["mode"], "strict__observation-seats")
    assert re.fullmatch(idx.constraints()["mode"], "strict")
    assert idx.dataset_spec(v.game, v.dataset_tag, "ddz4")["game_params"] == {
        "observation": "seats"}


def test_keep_forced_for_an_encoder_without_it_fails_before_any_job() -> None:
    plan = make_plan(["scale=tiny", "dataset.keep_forced=true"])
    v = plan.main
    idx = WorkflowIndex([plan], {"reversi": load_bot_specs("reversi")})
    with pytest.raises(ValueError, match="reversi encoder has no keep_forced"):
        idx.decisions_spec(v.game, v.logs_tag, "strict-forced", v.parts()[0])
