"""Every path is one pattern of ime.workflow.paths, and Reversi's paths and tags are the ones its
existing data and results use (a moved file would re-run everything, a changed tag orphan it)."""

from __future__ import annotations

import re
from pathlib import Path

from ime.bots.registry import load_bot_specs
from ime.workflow import EvalIndex, make_plan
from ime.workflow import paths as P
from ime.workflow.tags import params_tag

ROOT = Path(__file__).resolve().parents[2]


def test_reversi_tiny_paths_are_unchanged() -> None:
    plan = make_plan(["scale=tiny"])
    v = plan.main
    ep = EvalIndex(plan.variants(), {"reversi": load_bot_specs("reversi")}).for_rdir(
        v.results_dir)
    assert v.results_dir == "results/reversi/tiny"
    assert v.log_path("rev1/shard001") == "data/reversi/logs/tiny/rev1/shard001.jsonl"
    assert v.decisions_path("rev2/shard000") == \
        "data/reversi/decisions/tiny/strict/rev2/shard000.parquet"
    assert v.decisions_path("rev2/shard000", P.DECISIONS_REPORT) == \
        "data/reversi/decisions/tiny/strict/rev2/shard000.json"
    assert v.dataset_path("rev1") == "data/reversi/datasets/tiny/rev1.parquet"
    assert v.dataset_stats_path("rev1") == "data/reversi/datasets/tiny/rev1.json"
    assert v.checkpoint_path("rev2", "conv", 1) == "data/reversi/models/tiny/conv/rev2/fold1.pt"
    assert v.metrics_path("rev2", "mlp1", 0) == "data/reversi/models/tiny/mlp1/rev2/fold0.json"
    assert ep.keys_path("rev1") == "data/reversi/eval/tiny/n8_l2_s0/keys/rev1.parquet"
    assert ep.keys_path("rev1", P.KEYS_CANDIDATES) == \
        "data/reversi/eval/tiny/n8_l2_s0/keys/rev1.candidates.parquet"
    assert ep.score_path("imit_rev2", "rev1") == \
        "data/reversi/eval/tiny/n8_l2_s0/scores/imit/tiny/conv/ensemble/imit_rev2/rev1.parquet"
    assert ep.heldout_path("rev1") == \
        "data/reversi/eval/tiny/n8_l2_s0/scores/heldout/tiny/conv/imit_rev1/rev1.parquet"
    assert ep.pair_path("rev1", "imit_rev2") == \
        "data/reversi/eval/tournament/tiny/conv/ensemble/r1_p4_g3_s0/rev1__imit_rev2.csv"
    assert [ep.pair_path(a, b) for a, b in ep.pairs()][0].endswith("rev1__rev2.csv")
    assert v.table_path("figures/fig4_2.png") == "results/reversi/tiny/figures/fig4_2.png"


def test_quick_and_thesis_tags() -> None:
    quick = make_plan([]).main
    assert (quick.logs_tag, quick.dataset_tag, quick.train_tag) == ("quick",) * 3
    assert quick.results_dir == "results/reversi"
    thesis = make_plan(["scale=thesis"]).main
    assert thesis.results_dir == "results/reversi/thesis"


def test_patterns_are_the_rules_outputs() -> None:
    """The rules name their outputs by these patterns, never by a literal path."""
    rules = "\n".join(p.read_text() for p in sorted((ROOT / "rules").glob("*.smk")))
    rules += (ROOT / "Snakefile").read_text()
    assert not re.search(r'"(data|results|logs|benchmarks)/', rules)
    for name in ("LOG", "DECISIONS", "DATASET", "CHECKPOINT", "KEYS", "SCORES_ZOO",
                 "SCORES_IMIT", "SCORES_HELDOUT", "PAIR"):
        assert f"P.{name}," in rules, name
    assert P.job_log("train", "{ttag}/{bot}") == "logs/{game}/train/{ttag}/{bot}.log"
    assert P.result("table4_5.csv") == "{rdir}/table4_5.csv"
    assert P.result_log("moves") == "logs/tables/{rdir}/moves.log"
    assert P.fill(P.PAIR, game="g", ttag="t", netdir="n", ens="e", otag="o", pa="a", pb="b") \
        == "data/g/eval/tournament/t/n/e/o/a__b.csv"


def test_params_tag() -> None:
    assert params_tag({}) == ""
    assert params_tag({"max_mobility_gap": 3}) == "_g3"
    assert params_tag({"max_mobility_gap": None}) == "_gx"
    assert params_tag({"max_gap": 1, "gap": 2}).startswith("_o")
    assert params_tag({"rule": "a_b"}).startswith("_o")


def test_the_ceiling_tag_names_the_top1_re_asks() -> None:
    """evaluate.ceiling_repeats enters the ceiling's tag as ``_r<n>`` (a file of one re-ask keeps
    the tag it had before the top-1 ceiling) and comes back to the job from the tag."""
    from ime.workflow import WorkflowIndex

    plan = make_plan(["scale=tiny"])
    v = plan.main
    assert v.ceiling_tag == "n20_s0_r4"
    assert v.ceiling_path("rev1") == "data/reversi/ceiling/tiny/n20_s0_r4/rev1.json"
    once = make_plan(["scale=tiny", "evaluate.ceiling_repeats=1"]).main
    assert once.ceiling_path("rev1") == "data/reversi/ceiling/tiny/n20_s0/rev1.json"
    idx = WorkflowIndex([plan], {"reversi": load_bot_specs("reversi")})
    spec = idx.ceiling_spec("reversi", v.dataset_tag, v.ceiling_tag, "rev1")
    assert (spec["decisions"], spec["seed"], spec["repeats"]) == (20, 0, 4)
    assert idx.ceiling_spec("reversi", v.dataset_tag, "n20_s0", "rev1")["repeats"] == 1
