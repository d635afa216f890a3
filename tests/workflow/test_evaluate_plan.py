"""Evaluation paths, specs and config validation (ime.evaluate.workflow), without snakemake."""

from __future__ import annotations

from dataclasses import dataclass, field

import pytest

from ime.evaluate.workflow import EvalConfigError, EvalIndex, EvalPlan, eval_config

SPECS = {b: {"kind": "alphabeta", "thesis": {"bot": i + 1}} for i, b in
         enumerate(["rev1", "rev2", "rev3", "rev4", "rev5"])}
SPECS.update({"opp_random": {"kind": "random"}, "opp_greedy": {"kind": "greedy"}})


@dataclass
class FakeVariant:
    cfg: dict
    logs_tag: str = "quick"
    train_tag: str = "quick"
    results_dir: str = "results/reversi"
    net_dirs: dict = field(default_factory=lambda: {"conv": "conv"})

    @property
    def game(self):
        return "reversi"

    @property
    def targets(self):
        return self.cfg["game"]["targets"]

    @property
    def folds(self):
        t = self.cfg["train"]
        return t.get("run_folds") or t["folds"]

    def players_of(self, target):
        from ime.config import sparring_pool

        return list(dict.fromkeys([target, *self.cfg["game"]["opponents"],
                                   *sparring_pool(self.cfg, target)]))

    def dataset_path(self, bot):
        return f"data/reversi/datasets/quick/{bot}.parquet"

    def log_paths(self, target=None):
        return [f"data/reversi/logs/quick/{t}/shard000.jsonl"
                for t in ([target] if target else self.targets)]

    def checkpoint_path(self, bot, net=None, fold=0):
        return f"data/reversi/models/{self.train_tag}/{net}/{bot}/fold{fold}.pt"

    def table_path(self, name):
        return f"{self.results_dir}/{name}"


def _cfg(**evaluate):
    return {"game": {"targets": ["rev1", "rev2", "rev5"], "opponents": ["opp_random"]},
            "matches": {"seed": 7},
            "train": {"folds": 5, "run_folds": 2, "nets": ["conv"], "seed": 0},
            "net": {"name": "conv"}, "evaluate": evaluate}


def test_paths_and_specs():
    ep = EvalPlan(FakeVariant(_cfg(n_keys=40)), SPECS)
    assert ep.ktag == "n40_l2_s0"
    assert ep.keys_path("rev1") == "data/reversi/eval/quick/n40_l2_s0/keys/rev1.parquet"
    assert ep.references("rev2") == ["rev1", "rev5"]
    assert ep.imitators() == ["imit_rev1", "imit_rev2", "imit_rev5"]
    assert ep.score_path("rev2", "rev1").endswith("scores/zoo/rev2/rev1.parquet")
    assert ep.score_path("imit_rev2", "rev1").endswith(
        "scores/imit/quick/conv/ensemble/imit_rev2/rev1.parquet")
    # ensemble over the trained folds only (run_folds = 2)
    assert ep.checkpoints("rev2") == ["data/reversi/models/quick/conv/rev2/fold0.pt",
                                      "data/reversi/models/quick/conv/rev2/fold1.pt"]
    spec = ep.keys_spec("rev1")
    assert spec["match_seed"] == 7 and spec["references"] == ["rev2", "rev5"]
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
    assert ep.pair_path("rev1", "imit_rev1").endswith("r50_p4_g3_s0/rev1__imit_rev1.csv")


def test_heldout_spec_builds_one_imitator_per_trained_fold():
    ep = EvalPlan(FakeVariant(_cfg()), SPECS)
    spec = ep.heldout_spec("rev2")
    assert spec["trained"] == [0, 1] and spec["folds"] == 5
    assert spec["bot_specs"]["imit_rev2@fold1"]["params"]["checkpoints"] == [
        "data/reversi/models/quick/conv/rev2/fold1.pt"]
    assert len(spec["bot_specs"]["imit_rev2"]["params"]["checkpoints"]) == 2
    assert ep.heldout_path("rev2").endswith("scores/heldout/quick/conv/imit_rev2/rev2.parquet")
    assert ep.similarity_spec()["heldout"]["rev2"] == ep.heldout_path("rev2")
    off = EvalPlan(FakeVariant(_cfg(imitator={"heldout": False})), SPECS)
    assert off.similarity_spec()["heldout"] == {}


def test_adding_an_agent_does_not_touch_existing_key_or_score_specs():
    base = EvalPlan(FakeVariant(_cfg()), SPECS)
    more = EvalPlan(FakeVariant(_cfg(agents=["opp_greedy"])), SPECS)
    assert more.eval_dir == base.eval_dir
    for t in base.targets:
        assert more.keys_spec(t) == base.keys_spec(t)
        for a in base.agents():
            if a != t:
                assert more.score_spec(a, t) == base.score_spec(a, t)
    new = set(more.score_paths()) - set(base.score_paths())
    assert new == {more.score_path("opp_greedy", t) for t in base.targets}


def test_fixed_fold_and_frozen_references():
    ep = EvalPlan(FakeVariant(_cfg(imitator={"fold": 1},
                                   references={"reversi": ["rev1", "rev2", "rev3"]})), SPECS)
    assert ep.ens == "fold1" and ep.checkpoints("rev1")[0].endswith("fold1.pt")
    assert ep.references("rev1") == ["rev2", "rev3"]


@pytest.mark.parametrize("bad, match", [
    ({"n_keys": 0}, "n_keys"),
    ({"imitator": {"fold": 2}}, "only folds 0..1"),
    ({"imitator": {"fold": "best"}}, "ensemble"),
    ({"imitator": {"net": "mlp9"}}, "not trained"),
    ({"ci": 95}, "ci"),
    ({"tournament": {"points": [3, 0]}}, "points"),
    ({"agents": "opp_random"}, "agents"),
])
def test_bad_config_is_named(bad, match):
    with pytest.raises(EvalConfigError, match=match):
        eval_config(_cfg(**bad))


def test_index_routes_wildcards_and_constrains_them():
    class Plan:
        def variants(self):
            return [FakeVariant(_cfg())]

    idx = EvalIndex(Plan(), SPECS)
    ep = idx.for_rdir("results/reversi")
    assert idx.for_keys("reversi", "quick", ep.ktag) is ep
    assert idx.for_imitator("reversi", "quick", ep.ktag, "quick", "conv", "ensemble") is ep
    assert idx.for_tour("reversi", "quick", "conv", "ensemble", ep.otag) is ep
    c = idx.constraints()
    assert set(c["target"].split("|")) == {"rev1", "rev2", "rev5"}
    assert "imit_rev1" in c["agent"].split("|")
