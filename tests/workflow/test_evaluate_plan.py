"""Evaluation paths, specs and config checks (ime.workflow.evalplan), without snakemake.

Plans are made from real compositions: three targets (rev1, rev2, rev5), one opponent, the
quick scale's folds (2 of 5 trained), match seed 7 and the references null (the other targets),
unless a test says otherwise.
"""

from __future__ import annotations

import re

import pytest

from ime.workflow import ConfigError, EvalIndex, EvalPlan, make_plan

SPECS = {b: {"kind": "alphabeta", "thesis": {"bot": i + 1}} for i, b in
         enumerate(["rev1", "rev2", "rev3", "rev4", "rev5"])}
SPECS.update({"opp_random": {"kind": "random"}, "opp_greedy": {"kind": "greedy"}})
BASE = ["game.targets=[rev1,rev2,rev5]", "game.opponents=[opp_random]", "game.sparring=null",
        "matches.seed=7", "train.nets=[conv]", "game.references=null"]


def _variant(*extra: str):
    return make_plan([*BASE, *extra]).main


def _plan(*extra: str) -> EvalPlan:
    return EvalPlan(_variant(*extra), SPECS)


def test_paths_and_specs():
    ep = _plan("evaluate.n_keys=40")
    v = ep.v
    assert ep.ktag == "n40_l2_s0"
    assert ep.keys_path("rev1") == f"data/reversi/eval/{v.logs_tag}/n40_l2_s0/keys/rev1.parquet"
    assert ep.references("rev2") == ["rev1", "rev5"]
    assert ep.imitators() == ["imit_rev1", "imit_rev2", "imit_rev5"]
    assert ep.score_path("rev2", "rev1").endswith("scores/zoo/rev2/rev1.parquet")
    assert ep.score_path("imit_rev2", "rev1").endswith(
        f"scores/imit/{v.train_tag}/conv/ensemble/imit_rev2/rev1.parquet")
    assert ep.score_path("imit_rev2", "rev1", timing=True).endswith("imit_rev2/rev1.timing.json")
    # ensemble over the trained folds only (run_folds = 2)
    assert ep.checkpoints("rev2") == [f"data/reversi/models/{v.train_tag}/conv/rev2/fold0.pt",
                                      f"data/reversi/models/{v.train_tag}/conv/rev2/fold1.pt"]
    spec = ep.keys_spec("rev1")
    assert spec["match_seed"] == 7 and spec["references"] == ["rev2", "rev5"]
    assert spec["game_params"] == {}
    assert set(spec["bot_specs"]) == {"rev1", "rev2", "rev5", "opp_random"}
    s = ep.score_spec("imit_rev5", "rev1")
    assert s["bot_specs"]["imit_rev5"]["kind"] == "imitator"
    # 6 agents x 3 targets, minus self, minus the 6 stored (reference) pairs
    assert len(ep.score_paths()) == 6 * 3 - 3 - 6
    assert ep.stored("rev2", "rev1") and not ep.stored("imit_rev1", "rev1")
    assert set(ep.similarity_spec()["stored"]) == {
        f"{a}|{t}" for a in ep.targets for t in ep.targets if a != t}
    assert len(ep.pairs()) == 15  # 6 players
    assert ep.moves_spec()["pair"] == ["rev1", "rev5"]  # thesis bots 1 and 5
    # the tournament directory names the game's opening parameters (Reversi: max_mobility_gap)
    assert ep.pair_path("rev1", "imit_rev1").endswith("r4_p4_g3_s0/rev1__imit_rev1.csv")
    assert ep.pair_spec("rev1", "rev2")["openings"] == {"max_mobility_gap": 3}
    timing = ep.timing_inputs()
    assert len(timing["keysets"]) == 3 and len(timing["pairs"]) == 15
    assert len(timing["scores"]) == len(ep.score_paths()) + 3  # + the held-out scores


def test_heldout_spec_builds_one_imitator_per_trained_fold():
    ep = _plan()
    spec = ep.heldout_spec("rev2")
    assert spec["trained"] == [0, 1] and spec["folds"] == 5
    assert spec["bot_specs"]["imit_rev2@fold1"]["params"]["checkpoints"] == [
        ep.v.checkpoint_path("rev2", "conv", 1)]
    assert len(spec["bot_specs"]["imit_rev2"]["params"]["checkpoints"]) == 2
    assert ep.heldout_path("rev2").endswith(
        f"scores/heldout/{ep.v.train_tag}/conv/imit_rev2/rev2.parquet")
    assert ep.similarity_spec()["heldout"]["rev2"] == ep.heldout_path("rev2")
    off = _plan("evaluate.imitator.heldout=false")
    assert off.similarity_spec()["heldout"] == {}


def test_adding_an_agent_does_not_touch_existing_key_or_score_specs():
    base = _plan()
    more = _plan("evaluate.agents=[opp_greedy]")
    assert more.where["ltag"] == base.where["ltag"] and more.ktag == base.ktag
    for t in base.targets:
        assert more.keys_spec(t) == base.keys_spec(t)
        for a in base.agents():
            if a != t:
                assert more.score_spec(a, t) == base.score_spec(a, t)
    new = set(more.score_paths()) - set(base.score_paths())
    assert new == {more.score_path("opp_greedy", t) for t in base.targets}


def test_fixed_fold_and_pinned_references():
    ep = _plan("evaluate.imitator.fold=1", "game.references=[rev1,rev2,rev3]")
    assert ep.ens == "fold1" and ep.checkpoints("rev1")[0].endswith("fold1.pt")
    assert ep.references("rev1") == ["rev2", "rev3"]


def test_opening_parameters_name_the_tournament_directory():
    assert _plan("game.openings.max_mobility_gap=null").otag == "r4_p4_gx_s0"
    assert _plan("+game.openings.seat_balance=2").otag == "r4_p4_g3_b2_s0"
    assert _plan("+game.openings.max_gap=2").otag.startswith("r4_p4_o")  # two "g" words


@pytest.mark.parametrize("bad, match", [
    (["evaluate.n_keys=0"], "evaluate.n_keys must be >= 1"),
    (["evaluate.imitator.fold=2"], "only folds 0..1"),
    (["evaluate.imitator.fold=best"], "ensemble"),
    (["evaluate.imitator.net=mlp9"], "not trained"),
    (["evaluate.ci=95"], "evaluate.ci"),
    (["evaluate.tournament.points=[3,0]"], "points"),
    (["evaluate.agents=opp_random"], "evaluate.agents must be a list"),
    (["evaluate.tournament.max_mobility_gap=3"], "max_mobility_gap"),
])
def test_bad_config_is_named(bad, match):
    with pytest.raises(ConfigError, match=match):
        make_plan([*BASE, *bad])


def test_index_routes_wildcards_and_constrains_them():
    v = _variant()
    idx = EvalIndex([v], {"reversi": SPECS})
    ep = idx.for_rdir(v.results_dir)
    w = ep.where
    assert idx.for_keys("reversi", w["ltag"], ep.ktag) is ep
    assert idx.for_imitator("reversi", w["ltag"], ep.ktag, w["ttag"], "conv", "ensemble") is ep
    assert idx.for_heldout("reversi", w["ltag"], ep.ktag, w["ttag"], "conv") is ep
    assert idx.for_tour("reversi", w["ttag"], "conv", "ensemble", ep.otag) is ep
    c = idx.constraints()
    target = re.compile(c["target"])  # a prefix tree of the targets
    assert [t for t in ["rev1", "rev2", "rev3", "rev5", "rev", "rev12"] if target.fullmatch(t)] \
        == ["rev1", "rev2", "rev5"]
    assert re.fullmatch(c["agent"], "imit_rev1") and not re.fullmatch(c["agent"], "imit_rev3")
