"""The case study's job inputs and params (EvalPlan.case_study_inputs / case_study_spec), on a
real composition, without snakemake: every target's key set and imitator scores are inputs (the
key is chosen among them), and the specs are those the score jobs play the same bots with, so
the trace re-plays exactly what S2 played."""

from __future__ import annotations

from ime.workflow import EvalPlan, make_plan

SPECS = {b: {"kind": "alphabeta", "thesis": {"bot": i + 1}} for i, b in
         enumerate(["rev1", "rev2", "rev3", "rev4", "rev5"])}
SPECS.update({"opp_random": {"kind": "random"}, "opp_greedy": {"kind": "greedy"}})
BASE = ["game.targets=[rev1,rev2,rev5]", "game.opponents=[opp_random]", "game.sparring=null",
        "matches.seed=7", "train.nets=[conv]", "game.references=null"]


def test_case_study_inputs_and_spec_follow_the_score_jobs():
    ep = EvalPlan(make_plan(BASE).main, SPECS)
    ins = ep.case_study_inputs()
    assert ins["keysets"] == [ep.keys_path(t) for t in ("rev1", "rev2", "rev5")]
    assert ins["scores"] == [ep.score_path(f"imit_{t}", t) for t in ("rev1", "rev2", "rev5")]
    assert ins["checkpoints"] == [c for t in ("rev1", "rev2", "rev5") for c in ep.checkpoints(t)]
    spec = ep.case_study_spec()
    assert spec["targets"] == ["rev1", "rev2", "rev5"]
    assert spec["imitators"] == {"rev1": "imit_rev1", "rev2": "imit_rev2", "rev5": "imit_rev5"}
    for t in spec["targets"]:
        own = ep.score_spec(f"imit_{t}", t)["bot_specs"]  # what S2 played the imitator with
        for bot, s in own.items():
            assert spec["bot_specs"][bot] == s, (t, bot)
        for ref in ep.references(t):
            assert spec["bot_specs"][ref] == SPECS[ref]
    assert list(spec["bot_specs"]) == sorted(spec["bot_specs"])  # stable params
