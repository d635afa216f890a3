"""The opponent-model search experiment's config (issue 49, Deliver 3): the ``om_search`` section
composes for every game that has one, with the game's targets and evaluation from its own
config, the scale's games per cell, and the schema's checks; and the plan puts each cell where it
belongs (cells without an imitator shared by every imitator family, model cells under the
imitator's models, listing its checkpoints as inputs)."""

from __future__ import annotations

import copy

import pytest

from ime.bots.registry import load_bot_specs
from ime.workflow import ConfigError, compose, make_plan, to_plain
from ime.workflow.om_search import PLAIN, OmIndex, OmPlan
from ime.workflow.schema import validate


def plan_of(overrides: list[str]) -> OmPlan:
    plan = make_plan(overrides)
    v = plan.main
    return OmIndex(plan.variants(), {v.game: load_bot_specs(v.game)}).for_rdir(v.results_dir)


@pytest.mark.parametrize("game, targets, evaluation", [
    ("reversi", ["rev1", "rev2", "rev4", "rev5"], "rev1"),
    ("connect4", ["c4_ab3"], "c4_ab3"),
    ("snake", ["snk04", "snk07", "snk08"], "snk04"),
])
def test_each_game_names_its_targets_and_evaluation(game: str, targets: list[str],
                                                    evaluation: str) -> None:
    c = to_plain(compose([f"game={game}"]))
    om = c["om_search"]
    assert om["targets"] == targets and om["evaluation"] == evaluation
    assert om["games"] == 40 and om["depth"] == 4 and om["equal_nodes"] == "measured"
    assert om["cells"] == ["plain_depth", "plain_nodes", "om", "om_wrong", "om_true"]
    specs = load_bot_specs(game)
    assert all(t in c["game"]["targets"] and t in specs for t in targets)
    from ime.bots.registry import make_bot

    assert hasattr(make_bot(game, evaluation), "search_evaluation")


def test_scales_size_the_games() -> None:
    assert to_plain(compose(["scale=thesis"]))["om_search"]["games"] == 400
    tiny = to_plain(compose(["scale=tiny"]))["om_search"]
    assert (tiny["games"], tiny["depth"]) == (4, 2)
    other = to_plain(compose(["game=gongzhu"]))["om_search"]
    assert other["targets"] == [] and other["evaluation"] is None
    assert other["misspecified"] is None


@pytest.mark.parametrize("key, value, words", [
    ("games", 41, ["om_search.games", "must be even"]),
    ("games", 0, ["om_search.games must be > 0"]),
    ("cells", ["om", "om_bad"], ["om_search.cells.1 must be one of"]),
    ("cells", [], ["om_search.cells: is empty"]),
    ("cells", ["plain_nodes"], ["plain_nodes with equal_nodes=measured needs cell om"]),
    ("equal_nodes", "matched", ["om_search.equal_nodes"]),
    ("mode", "none", ["om_search.mode must be one of"]),
    ("mix", 1.5, ["om_search.mix must be <= 1"]),
    ("evaluation", "rev 1", ["no bot id"]),
    ("depht", 3, ["om_search.depht is not a config key", "om_search.depth"]),
    ("accuracy_sample", -1, ["om_search.accuracy_sample must be >= 0"]),
])
def test_the_schema_refuses(key: str, value: object, words: list[str]) -> None:
    c = copy.deepcopy(to_plain(compose(["scale=tiny"])))
    c["om_search"][key] = value
    with pytest.raises(ConfigError) as e:
        validate(c, ["x=1"])
    for w in words:
        assert w in str(e.value), str(e.value)


@pytest.mark.slow  # plans of several compositions (3-4 s on 2 busy cores)
def test_cells_paths_and_inputs() -> None:
    p = plan_of([])
    assert p.targets == ["rev1", "rev2", "rev4", "rev5"]
    assert p.ptag == "rev1-d4_n20000_a100000000_r20_p4_s0_g3"
    assert p.model_dir == "quick/conv/ensemble/policy_b64_emeasured_k200"
    assert p.path("rev4", "plain_depth") == \
        f"data/reversi/om_search/{p.ptag}/plain/rev4/plain_depth.csv"
    assert p.path("rev4", "om") == f"data/reversi/om_search/{p.ptag}/{p.model_dir}/rev4/om.csv"
    # (d): the next target in game.targets, cyclically (rev3's imitator for rev2)
    assert [p.wrong_model(t) for t in p.targets] == ["rev2", "rev3", "rev5", "rev1"]
    assert p.cell_inputs("rev4", "om")["checkpoints"] == [
        "data/reversi/models/quick/conv/rev4/fold0.pt",
        "data/reversi/models/quick/conv/rev4/fold1.pt"]
    assert p.cell_inputs("rev4", "om_wrong")["checkpoints"][0].endswith("conv/rev5/fold0.pt")
    # cell (d)'s files are named by its model, and the rule's stem names the model it plays
    assert p.path("rev4", "om_wrong").endswith("/rev4/om_wrong-rev5.csv")
    assert p.cell_inputs("rev4", "om_wrong-rev2")["checkpoints"][0].endswith("conv/rev2/fold0.pt")
    stem = p.cell_spec("rev4", "om_wrong-rev2")
    assert stem["cell"] == "om_wrong" and stem["spec"]["params"]["opponent"]["bot"] == "rev2"
    assert p.cell_inputs("rev4", "plain_nodes") == {"checkpoints": [],
                                                    "budget": [p.path("rev4", "om")]}
    assert p.cell_inputs("rev4", "om_true") == {"checkpoints": [], "budget": []}
    spec = p.cell_spec("rev4", "om")
    opp = spec["spec"]["params"]["opponent"]
    assert opp["bot"] == "rev4" and opp["checkpoints"] == p.checkpoints("rev4")
    assert spec["spec"]["params"]["evaluation"]["kind"] == "alphabeta"  # rev1's, inline
    assert spec["rounds"] == 20 and spec["opening_plies"] == 4
    # the model cells record their model's accuracy (om_search.accuracy_sample); no other cell
    assert spec["accuracy_sample"] == 200
    assert [p.cell_spec("rev4", c)["accuracy_sample"] for c in ("om_wrong", "plain_depth",
                                                                "plain_nodes", "om_true")] == [
        200, 0, 0, 0]
    assert p.cell_spec("rev4", "plain_nodes")["spec"] is None  # measured from (c) by the job
    true = p.cell_spec("rev4", "om_true")["spec"]["params"]
    assert true["mode"] == "search" and true["opponent"] == {"bot": "rev4", "source": "zoo"}
    assert len(p.table_inputs()["games"]) == 4 * 5
    # (e): another imitator family shares the cells without an imitator and plays its own
    s = plan_of(["imitator=search"])
    assert s.ptag == p.ptag and s.model_dir.startswith("quick/search/ensemble/")
    assert s.path("rev4", "plain_depth") == p.path("rev4", "plain_depth")
    assert s.path("rev4", "om") != p.path("rev4", "om")
    assert s.cell_inputs("rev4", "om")["checkpoints"][0] == \
        "data/reversi/models/quick/search/rev4/fold0.pt"


@pytest.mark.slow  # plans of several compositions (3-4 s on 2 busy cores)
def test_tiny_scale_plays_the_targets_it_trains() -> None:
    p = plan_of(["scale=tiny"])
    assert p.targets == ["rev1", "rev2"] and p.rounds == 2
    assert [p.wrong_model(t) for t in p.targets] == ["rev2", "rev1"]
    c4 = plan_of(["game=connect4", "scale=tiny"])
    assert c4.targets == ["c4_ab3"] and c4.wrong_model("c4_ab3") == "c4_uct200"
    assert c4.ptag.startswith("c4_ab3-d2_") and "_b" in c4.ptag  # the board options' hash
    one = plan_of(["scale=tiny", "game.targets=[rev1]"])
    assert one.cells("rev1") == ["plain_depth", "plain_nodes", "om", "om_true"]  # no (d)


@pytest.mark.slow  # plans of several compositions (3-4 s on 2 busy cores)
def test_the_misspecified_model_can_be_named() -> None:
    p = plan_of(["om_search.misspecified={rev5:rev4}"])
    assert [p.wrong_model(t) for t in p.targets] == ["rev2", "rev3", "rev5", "rev4"]
    assert p.v.results_dir.startswith("results/reversi/quick__")
    bad = plan_of(["scale=tiny", "om_search.misspecified={rev1:rev4}"])
    with pytest.raises(ConfigError, match="rev4.*not targets of this variant"):
        bad.table_inputs()


@pytest.mark.slow  # plans of several compositions (3-4 s on 2 busy cores)
def test_a_game_without_an_experiment_says_so() -> None:
    p = plan_of(["game=big2", "scale=tiny"])
    with pytest.raises(ConfigError, match="om_search.targets is empty for big2"):
        p.table_inputs()
    p = plan_of(["scale=tiny", "om_search.targets=[rev4]"])
    with pytest.raises(ConfigError, match="none of them is a target of this variant"):
        p.table_inputs()
    assert PLAIN == "plain"


def test_doudizhu_names_its_player_template() -> None:
    om = to_plain(compose(["game=doudizhu"]))["om_search"]
    assert om["targets"] == ["ddz1", "ddz5"] and om["evaluation"] is None
    assert om["cells"] == ["plain_depth", "om", "om_wrong", "om_true"]
    assert om["player"]["kind"] == "pimc_om" and om["games"] % 3 == 0
    assert om["accuracy_sample"] == 200


@pytest.mark.parametrize("key, value, words", [
    ("cells", ["plain_depth", "plain_nodes", "om"], ["plain_nodes needs a node-counting"]),
    ("player", {"kind": "pimc_om", "params": {"opponent": {"bot": "ddz1"}}},
     ["must not hold an opponent"]),
    ("player", {"params": {}}, ["must be {kind, params}"]),
])
def test_the_schema_refuses_a_bad_template(key: str, value: object, words: list[str]) -> None:
    c = copy.deepcopy(to_plain(compose(["game=doudizhu", "scale=tiny"])))
    c["om_search"][key] = value
    with pytest.raises(ConfigError) as e:
        validate(c, ["x=1"])
    for w in words:
        assert w in str(e.value), str(e.value)


def test_the_schema_takes_an_accuracy_record_with_a_template() -> None:
    """A player template's model cells record their imitator's accuracy too (the rollouts'
    positions, the target in every seat it holds): the schema keeps the sample."""
    c = copy.deepcopy(to_plain(compose(["game=doudizhu", "scale=tiny"])))
    c["om_search"]["accuracy_sample"] = 10
    validate(c, ["x=1"])  # refused before: the record watched one opponent
    c["om_search"]["cells"] = ["plain_depth", "plain_nodes", "om"]
    with pytest.raises(ConfigError, match="plain_nodes needs a node-counting"):
        validate(c, ["x=1"])  # what cannot work is still refused


@pytest.mark.slow  # plans of two compositions
def test_doudizhu_plans_its_cells() -> None:
    """Doudizhu's cells: the pimc_om template as it is in (a), the imitator as its opponent in
    (c) and (d), the target itself in om_true; each deal played in all three seats."""
    p = plan_of(["game=doudizhu"])
    assert p.targets == ["ddz1", "ddz5"] and p.seats == 3 and p.rounds == 20
    assert p.ptag.startswith("pimc_om-h") and p.ptag.endswith("_r20_p0_s0")
    assert [c for t, c in p.all_cells() if t == "ddz1"] == ["plain_depth", "om", "om_wrong",
                                                          "om_true"]
    assert p.path("ddz1", "om_wrong").endswith("/ddz1/om_wrong-ddz5.csv")
    assert p.path("ddz1", "plain_depth").startswith(f"data/doudizhu/om_search/{p.ptag}/plain/")
    plain = p.cell_spec("ddz1", "plain_depth")
    assert plain["spec"]["kind"] == "pimc_om" and "opponent" not in plain["spec"]["params"]
    assert plain["spec"]["params"]["simulations"] == 300 and plain["accuracy_sample"] == 0
    assert [p.cell_spec("ddz1", c)["accuracy_sample"] for c in ("om", "om_wrong", "om_true")] \
        == [200, 200, 0]  # the imitators' cells record their accuracy, the true model not
    assert p.path("ddz1", "om").split("/")[-3].endswith("_k200")
    om = p.cell_spec("ddz1", "om")["spec"]["params"]
    assert om["opponent"]["bot"] == "ddz1" and om["opponent"]["checkpoints"] == \
        p.checkpoints("ddz1") and om["simulations"] == 300
    assert p.cell_spec("ddz1", "om_wrong")["spec"]["params"]["opponent"]["bot"] == "ddz5"
    assert p.cell_spec("ddz1", "om_true")["spec"]["params"]["opponent"] == {
        "bot": "ddz1", "source": "zoo"}
    assert p.cell_inputs("ddz1", "om")["checkpoints"] == p.checkpoints("ddz1")
    assert len(p.table_inputs()["games"]) == 2 * 4 and p.table_spec()["player"] == "pimc_om"
    tiny = plan_of(["game=doudizhu", "scale=tiny"])
    assert tiny.targets == ["ddz5"] and tiny.rounds == 2 and tiny.wrong_model("ddz5") == "ddz4"
    bad = plan_of(["game=doudizhu", "om_search.games=40"])
    with pytest.raises(ConfigError, match="multiple of the 3 seats"):
        bad.table_inputs()
