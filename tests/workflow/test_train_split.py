"""``train.split`` / ``train.holdout`` in the workflow: composition, tags, job params, errors.

A hold-out (the thesis's 9:1 split) trains one model per (bot, net) as ``fold0``; its models and
results live under their own tags, and the k-fold default keeps the tags and the train jobs'
params it had before the option existed (so nothing re-trains).
"""

from __future__ import annotations

import pytest

from ime.workflow import (
    ConfigError,
    EvalPlan,
    WorkflowIndex,
    compose,
    default_config_dir,
    make_plan,
    to_plain,
)

HOLD = ["train.split=holdout"]
GAMES = sorted(p.stem for p in (default_config_dir() / "game").glob("*.yaml"))


def _specs(plan) -> dict:
    g = plan.main.cfg["game"]
    return {b: {"kind": "random", "params": {"id": b}}
            for b in [*g["targets"], *g["opponents"], *(g["sparring"] or [])]}


def test_defaults_are_kfold_and_ten_percent() -> None:
    t = to_plain(compose([]))["train"]
    assert (t["split"], t["holdout"]) == ("kfold", 0.1)


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("scale", ["tiny", "thesis"])
def test_every_game_composes_with_a_holdout(game: str, scale: str) -> None:
    kfold = make_plan([f"game={game}", f"scale={scale}", "train.split=kfold"]).main
    hold = make_plan([f"game={game}", f"scale={scale}", *HOLD, "train.run_folds=null"]).main
    assert hold.folds == 1 and kfold.folds > 1
    assert hold.train_tag != kfold.train_tag
    # the tag names the split that differs from the scale's own (Doudizhu's thesis scale is a
    # hold-out, config/game/doudizhu.yaml)
    assert "train.split-holdout" in hold.train_tag or "train.split-kfold" in kfold.train_tag
    assert hold.results_dir != kfold.results_dir  # its tables never overwrite k-fold's
    assert (hold.logs_tag, hold.dataset_tag) == (kfold.logs_tag, kfold.dataset_tag)  # shared
    assert hold.checkpoint_path(hold.targets[0]).endswith("/fold0.pt")


def test_a_scale_that_holds_out_names_kfold_when_asked_for_it() -> None:
    """Doudizhu's thesis scale trains one model on 9:1 (5.4); k-fold is then the variant, and its
    tag names it instead of reading ``unset``; the hold-out share k-fold ignores is left out."""
    hold = make_plan(["game=doudizhu", "scale=thesis"]).main
    assert (hold.train_tag, hold.folds) == ("thesis", 1)
    kfold = make_plan(["game=doudizhu", "scale=thesis", "train.split=kfold"]).main
    assert (kfold.train_tag, kfold.folds) == ("thesis__train.split-kfold", 5)
    other = make_plan(["game=doudizhu", "scale=thesis", "train.split=kfold",
                       "train.holdout=0.3"]).main
    assert other.train_tag == kfold.train_tag


def test_tags_only_change_with_a_holdout() -> None:
    base = make_plan(["scale=tiny"]).main
    assert base.train_tag == "tiny"
    # under k-fold the hold-out share is not read: same models, same tag, same results
    same = make_plan(["scale=tiny", "train.holdout=0.3"]).main
    assert (same.train_tag, same.results_dir) == (base.train_tag, base.results_dir)
    hold = make_plan(["scale=tiny", *HOLD]).main
    assert hold.train_tag == "tiny__train.holdout-0.1__train.split-holdout"
    other = make_plan(["scale=tiny", *HOLD, "train.holdout=0.2"]).main
    assert other.train_tag == "tiny__train.holdout-0.2__train.split-holdout"


def test_train_params_of_kfold_are_unchanged_and_holdout_trains_fold0() -> None:
    plan = make_plan(["scale=tiny"])
    idx = WorkflowIndex([plan], {"reversi": _specs(plan)})
    v = plan.main
    spec = idx.train_spec(v.game, v.train_tag, v.net_dirs["conv"], "rev1")
    assert not {"split", "holdout"} & set(spec["train"])  # the params it had before
    hplan = make_plan(["scale=tiny", *HOLD])
    hidx = WorkflowIndex([hplan], {"reversi": _specs(hplan)})
    h = hplan.main
    hspec = hidx.train_spec(h.game, h.train_tag, h.net_dirs["conv"], "rev1")
    assert hspec["folds"] == [0]
    assert (hspec["train"]["split"], hspec["train"]["holdout"]) == ("holdout", 0.1)
    assert hidx.train_groups() == {"train_reversi": ("reversi", 1, [h.train_tag])}
    assert hidx.metrics_paths(h) == [h.metrics_path(b, n, 0) for b in h.targets
                                     for n in h.cfg["train"]["nets"]]


def test_stacked_holdout_is_one_rule_of_one_fold() -> None:
    plan = make_plan(["scale=tiny", *HOLD, "train.stack_bots=true"])
    v = plan.main
    idx = WorkflowIndex([plan], {"reversi": _specs(plan)})
    assert idx.train_stacks() == {"train_reversi_stacked": ("reversi", 1, ["rev1", "rev2"],
                                                            [v.train_tag])}
    assert idx.train_stack_spec(v.game, v.train_tag, v.net_dirs["conv"])["folds"] == [0]


def test_a_sweep_over_the_split_trains_both_side_by_side() -> None:
    plan = make_plan(["scale=tiny", "sweep.key=train.split", "sweep.values=[kfold,holdout]"])
    tags = [p.train_tag for _, p in plan.sweep.points]
    assert tags == ["tiny", "tiny__train.holdout-0.1__train.split-holdout"]
    groups = WorkflowIndex([plan], {"reversi": _specs(plan)}).train_groups()
    assert sorted(g[1] for g in groups.values()) == [1, 2]  # 2 folds beside the one model


def test_heldout_evaluation_reads_the_holdout() -> None:
    plan = make_plan(["scale=tiny", *HOLD])
    ep = EvalPlan(plan.main, _specs(plan))
    spec = ep.heldout_spec("rev1")
    assert spec["trained"] == [0] and spec["holdout"] == 0.1
    assert "holdout" not in EvalPlan(make_plan(["scale=tiny"]).main, _specs(plan)
                                     ).heldout_spec("rev1")  # k-fold: the params as before


@pytest.mark.parametrize("bad, words", [
    (["scale=tiny", *HOLD, "train.holdout=0"], ["train.holdout", "> 0"]),
    (["scale=tiny", *HOLD, "train.holdout=0.6"], ["train.holdout", "0.5"]),
    (["scale=tiny", "train.holdout=-1"], ["train.holdout"]),  # checked under k-fold too
    (["scale=quick", *HOLD], ["train.run_folds=2", "train.run_folds=null"]),
    (["scale=tiny", *HOLD, "train.run_folds=1"], ["train.split=holdout", "run_folds"]),
    (["scale=tiny", *HOLD, "evaluate.imitator.fold=1"], ["evaluate.imitator.fold=1",
                                                         "train.split"]),
    (["scale=tiny", "train.split=9:1"], ["train.split", "kfold", "holdout"]),
])
def test_bad_split_settings_fail_clearly(bad: list[str], words: list[str]) -> None:
    with pytest.raises(ConfigError) as e:
        make_plan(bad)
    for w in words:
        assert w in str(e.value)
