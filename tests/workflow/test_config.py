"""Config composition, validation, and variant directories (ime.workflow)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from ime.workflow import (
    ConfigError,
    EvalIndex,
    WorkflowIndex,
    compose,
    default_config_dir,
    make_plan,
    parse_overrides,
    tag,
    to_plain,
)

CONFIG = default_config_dir()


def _options(group: str) -> list[str]:
    return sorted(p.stem for p in (CONFIG / group).glob("*.yaml"))


def test_default_composes() -> None:
    c = to_plain(compose([]))
    assert c["game"]["name"] == "reversi"
    assert c["game"]["num_actions"] == 64 and c["game"]["planes"] == 2
    assert c["game"]["targets"] == ["rev1", "rev2", "rev3", "rev4", "rev5"]
    assert c["run"]["choices"]["scale"] == "quick"
    assert set(c["nets"]) == {"mlp1", "mlp2", "conv"}
    assert "hydra" not in c


@pytest.mark.parametrize("group", ["game", "net", "scale", "experiment"])
@pytest.mark.slow
def test_every_group_option_composes(group: str) -> None:
    options = _options(group)
    assert options, f"config/{group}/ is empty"
    for option in options:
        c = to_plain(compose([f"{group}={option}"]))
        assert c["run"]["choices"][group] == option


@pytest.mark.slow
def test_every_experiment_plans() -> None:
    for option in _options("experiment"):
        raw = to_plain(compose([f"experiment={option}"]))["sweep"]
        plan = make_plan([f"experiment={option}"])
        if raw["key"] is not None:
            assert len(plan.sweep.points) == len(raw["values"])
            assert plan.main.cfg["sweep"]["key"] is None  # a variant carries no sweep


def test_scales() -> None:
    thesis = to_plain(compose(["scale=thesis"]))
    assert thesis["matches"]["per_target"] == 5800
    assert thesis["train"]["folds"] == 5 and thesis["train"]["max_epochs"] == 30
    tiny = to_plain(compose(["scale=tiny"]))
    assert tiny["matches"]["per_target"] < 50


def test_net_override_reaches_nets() -> None:
    c = to_plain(compose(["net=mlp2", "net.hidden=[64,64]"]))
    assert c["nets"]["mlp2"]["hidden"] == [64, 64]
    assert c["nets"]["conv"]["channels"] == to_plain(compose([]))["nets"]["conv"]["channels"]


@pytest.mark.parametrize("bad, words", [
    (["scale=huge"], ["scale", "huge"]),
    (["nosuchkey=1"], ["nosuchkey"]),
    (["matches.per_target=abc"], ["matches.per_target", "int"]),
    (["train.lr=fast"], ["train.lr"]),
    (["dataset.mode=sloppy"], ["dataset.mode", "strict"]),
    (["train.folds=1"], ["train.folds"]),
    (["train.nets=[mlp1,transformer]"], ["transformer"]),
    (["net.kind=rnn"], ["net.kind"]),
    (["game.targets=[]"], ["game.targets"]),
    (["sweep.key=no.such.key", "sweep.values=[1]"], ["sweep.key"]),
    (["game.opponents=[]", "game.sparring=null", "game.targets=[rev1]"], ["sparring", "rev1"]),
    (["game.sparring=rev1"], ["game.sparring", "list"]),
])
def test_bad_overrides_fail_clearly(bad: list[str], words: list[str]) -> None:
    with pytest.raises(ConfigError) as e:
        make_plan(bad)
    for w in words:
        assert w in str(e.value)


def test_parse_overrides() -> None:
    assert parse_overrides(None) == []
    assert parse_overrides("scale=tiny") == ["scale=tiny"]
    assert parse_overrides(["scale=tiny", "net=conv"]) == ["scale=tiny", "net=conv"]
    assert parse_overrides("[scale=tiny,net=conv]") == ["scale=tiny", "net=conv"]
    assert parse_overrides('[scale=tiny,"game.targets=[rev1,rev2]"]') == [
        "scale=tiny", "game.targets=[rev1,rev2]"]
    with pytest.raises(ConfigError):
        parse_overrides([1, 2])
    with pytest.raises(ConfigError, match="quote"):
        parse_overrides("[scale=tiny,game.targets=[rev1,rev2]]")


def test_default_variant_writes_results_game() -> None:
    v = make_plan([]).main
    assert v.results_dir == "results/reversi"
    assert v.logs_tag == v.dataset_tag == v.train_tag == "quick"
    assert v.dataset_path("rev1") == "data/reversi/datasets/quick/rev1.parquet"
    assert v.checkpoint_path("rev1", "conv", 2) == "data/reversi/models/quick/conv/rev1/fold2.pt"


def test_variants_get_their_own_directories() -> None:
    base = make_plan([]).main
    size = make_plan(["dataset.matches=100"]).main
    assert size.logs_tag == base.logs_tag  # same logs, subsampled
    assert size.dataset_tag != base.dataset_tag and "dataset.matches-100" in size.dataset_tag
    assert size.results_dir != base.results_dir
    lr = make_plan(["train.lr=0.0005"]).main
    assert lr.dataset_tag == base.dataset_tag and lr.train_tag != base.train_tag
    arch = make_plan(["net.channels=[32,16]"]).main
    assert arch.train_tag == base.train_tag and arch.net_dirs["conv"] != "conv"
    assert arch.net_dirs["mlp1"] == "mlp1"
    tiny = make_plan(["scale=tiny"]).main
    assert tiny.results_dir == "results/reversi/tiny" and tiny.logs_tag == "tiny"
    named = make_plan(["dataset.matches=100", "run.name=small"]).main
    assert named.results_dir == "results/reversi/small"
    # runtime-only settings change no directory
    rt = make_plan(["train.threads=2", "train.device=cpu"]).main
    assert rt.results_dir == base.results_dir and rt.train_tag == base.train_tag


def test_tag_falls_back_to_hash() -> None:
    ref = {"a.b": 1}
    assert tag(ref, ref, "quick") == "quick"
    assert tag({"a.b": 2}, ref, "quick") == "quick__a.b-2"
    long = {"a.b": "x" * 200}
    assert tag(long, ref, "quick").startswith("quick__h")


def test_sweep_plan_shares_logs() -> None:
    plan = make_plan(["experiment=dataset_size_quick"])
    points = plan.sweep.points
    tags = {v.dataset_tag for _, v in points}
    assert len(tags) == len(points)
    assert {v.logs_tag for _, v in points} == {plan.main.logs_tag}
    idx = WorkflowIndex([plan], {"reversi": {b: {"kind": "random"} for b in [
        *plan.main.cfg["game"]["targets"], *plan.main.cfg["game"]["opponents"]]}})
    rdir = plan.sweep.results_dir
    assert rdir == "results/reversi/sweep_dataset.matches-25-50-100-200__nets-conv"
    assert plan.sweep.table_name == "sweep_dataset.matches.csv"
    assert idx.sweep(rdir) is plan.sweep
    assert len(idx.sweep_spec(rdir)["points"]) == len(points)


def test_sweep_base_is_the_default_variant() -> None:
    """A sweep's base variant is the default composition itself (same config, same params),
    so running the sweep cannot change what the default's jobs see."""
    default = make_plan([]).main
    base = make_plan(["experiment=dataset_size_quick"]).main
    assert base.results_dir == default.results_dir == "results/reversi"
    assert base.cfg == default.cfg


@pytest.mark.slow
def test_sweep_grid_is_the_product_of_its_keys() -> None:
    plan = make_plan(["scale=tiny", "sweep.grid={dataset.matches:[4,8],net:[mlp1,conv]}"])
    labels = [lab for lab, _ in plan.sweep.points]
    assert labels == [{"dataset.matches": 4, "net": "mlp1"}, {"dataset.matches": 4, "net": "conv"},
                      {"dataset.matches": 8, "net": "mlp1"}, {"dataset.matches": 8, "net": "conv"}]
    assert len({v.results_dir for _, v in plan.sweep.points}) == 4
    assert [plan.sweep.nets_of(v) for _, v in plan.sweep.points] == [["mlp1"], ["conv"]] * 2
    assert plan.sweep.file_key == "dataset.matches+net"
    assert plan.sweep.results_dir.startswith("results/reversi/tiny__")


@pytest.mark.slow
def test_sweep_over_training_symmetries() -> None:
    """``game.augment`` is the one game key a sweep may vary: it changes the training only, so
    its points share the base variant's match logs and datasets."""
    plan = make_plan(["scale=tiny", "sweep.grid={dataset.matches:[4,8],game.augment:[none,sym8]}"])
    labels = [lab for lab, _ in plan.sweep.points]
    assert labels[1] == {"dataset.matches": 4, "game.augment": "sym8"}
    variants = [v for _, v in plan.sweep.points]
    assert [v.cfg["game"]["augment"] for v in variants] == ["none", "sym8"] * 2
    assert variants[0].logs_tag == variants[1].logs_tag
    assert variants[0].dataset_tag == variants[1].dataset_tag
    assert variants[0].train_tag != variants[1].train_tag


@pytest.mark.parametrize("overrides,needle", [
    (["sweep.key=train.lr", "sweep.grid={train.lr:[0.1]}"], "not both"),
    (["sweep.grid={train.lr:[]}"], "non-empty"),
    (["sweep.key=seed", "sweep.values=[1,2]"], "cannot be swept"),
    (["sweep.key=game.targets", "sweep.values=[[rev1],[rev2]]"], "cannot be swept"),
    (["sweep.key=train.lr", "sweep.values=[0.1,0.1]"], "repeat"),
    (["sweep.key=dataset.matches", "sweep.values=[4,8]", "sweep.fit_target=100"], "fit_target"),
    (["sweep.grid={no.such:[1]}"], "is not a config key"),
])
def test_bad_sweeps_are_refused(overrides: list[str], needle: str) -> None:
    with pytest.raises(ConfigError, match=needle):
        make_plan(overrides)


def test_unknown_bot_is_reported() -> None:
    plan = make_plan(["scale=tiny"])
    with pytest.raises(ConfigError, match="not in config/bots"):
        WorkflowIndex([plan], {"reversi": {"rev1": {"kind": "random"}}})


def test_raw_source_needs_files(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="holds no"):
        make_plan(["matches.source=raw"], base=tmp_path)
    raw = tmp_path / "data" / "raw" / "reversi"
    raw.mkdir(parents=True)
    (raw / "pack.matches").write_text("{}\n")
    (raw / "b.jsonl").write_text("{}\n")
    v = make_plan(["matches.source=raw"], base=tmp_path).main
    assert v.log_paths() == ["data/raw/reversi/b.jsonl", "data/raw/reversi/pack.matches"]
    assert v.parts() == ["b_jsonl", "pack_matches"]
    assert v.results_dir != "results/reversi"


def test_run_folds() -> None:
    v = make_plan(["train.run_folds=2"]).main
    assert v.folds == 2 and v.cfg["train"]["folds"] == 5
    base = make_plan(["train.run_folds=5"]).main
    assert base.train_tag == v.train_tag  # the same fold trains into the same file
    assert base.results_dir != v.results_dir  # but the table averages different folds
    with pytest.raises(ConfigError, match="run_folds"):
        make_plan(["train.run_folds=6"])


def _specs(plan) -> dict:
    g = plan.main.cfg["game"]
    return {b: {"kind": "random", "params": {"id": b}}
            for b in [*g["targets"], *g["opponents"], *(g["sparring"] or [])]}


def test_index_params_are_plain_and_minimal() -> None:
    plan = make_plan(["scale=tiny"])
    idx = WorkflowIndex([plan], {"reversi": _specs(plan)})
    v = plan.main
    spec = idx.train_spec(v.game, v.train_tag, v.net_dirs["conv"], "rev1")
    assert not {"threads", "gpu", "nets", "run_folds"} & set(spec["train"])
    assert spec["net"]["kind"] == "conv" and spec["folds"] == list(range(v.folds))
    assert idx.train_groups() == {"train_reversi": ("reversi", v.folds, [v.train_tag])}
    assert v.parts() == ["rev1/shard000", "rev1/shard001", "rev2/shard000", "rev2/shard001"]
    assert v.log_paths("rev2") == ["data/reversi/logs/tiny/rev2/shard000.jsonl",
                                   "data/reversi/logs/tiny/rev2/shard001.jsonl"]
    m = idx.matches_spec(v.game, v.logs_tag, "rev1/shard001")
    assert m["shard"] == 1 and m["target"] == "rev1"
    assert m["sparring"] == ["rev2", "rev3", "rev4", "rev5"]  # the pinned pool minus rev1
    assert set(m["bot_specs"]) == {"rev1", *m["sparring"], *v.cfg["game"]["opponents"]}
    assert idx.decisions_input(v.game, v.logs_tag, "rev1/shard001") == v.log_paths()[1]
    assert idx.decisions_spec(v.game, v.logs_tag, "strict", "rev2/shard000")["targets"] == [
        "rev2"]
    assert idx.dataset_inputs(v.game, v.dataset_tag, "rev2")["parts"] == [
        "data/reversi/decisions/tiny/strict/rev2/shard000.parquet",
        "data/reversi/decisions/tiny/strict/rev2/shard001.parquet"]
    assert len(idx.run_report_inputs(v.results_dir)["reports"]) == 4
    cons = idx.constraints()
    assert re.fullmatch(cons["part"], "rev2/shard001")
    assert not re.fullmatch(cons["part"], "tiny/rev2/shard001")
    assert re.fullmatch(cons["rdir"], "results/reversi/tiny")
    assert not re.fullmatch(cons["rdir"], "results/reversi/other")

    def plain(x: object) -> bool:
        if isinstance(x, dict):
            return all(isinstance(k, str) and plain(v) for k, v in x.items())
        if isinstance(x, list):
            return all(plain(v) for v in x)
        return x is None or isinstance(x, str | int | float | bool)

    assert plain(spec) and plain(m) and plain(idx.run_report_spec(v.results_dir))


@pytest.mark.slow
def test_train_rule_names_do_not_depend_on_the_scale() -> None:
    """Profiles set a rule's resources by its name: ``train_reversi`` at every scale; only a
    sweep whose points train another number of folds adds ``train_reversi_<k>folds``."""
    for scale in ("tiny", "quick", "thesis"):
        plan = make_plan([f"scale={scale}"])
        idx = WorkflowIndex([plan], {"reversi": _specs(plan)})
        assert list(idx.train_groups()) == ["train_reversi"], scale
    grid = make_plan(["scale=tiny", "sweep.grid={train.folds:[3,4],train.run_folds:[2,3]}"])
    groups = WorkflowIndex([grid], {"reversi": _specs(grid)}).train_groups()
    assert groups["train_reversi"] == ("reversi", grid.main.folds, [grid.main.train_tag])
    assert set(groups) == {"train_reversi", "train_reversi_3folds"}
    assert groups["train_reversi_3folds"][:2] == ("reversi", 3)


@pytest.mark.slow
def test_stack_bots_makes_one_train_rule_per_tag_and_changes_no_directory() -> None:
    plain = make_plan(["scale=tiny"])
    plan = make_plan(["scale=tiny", "train.stack_bots=true"])
    v = plan.main
    assert (v.train_tag, v.results_dir) == (plain.main.train_tag, plain.main.results_dir)
    idx = WorkflowIndex([plan], {"reversi": _specs(plan)})
    assert idx.train_groups() == {}  # no per-bot rule
    assert idx.train_stacks() == {"train_reversi_stacked": ("reversi", v.folds, ["rev1", "rev2"],
                                                            ["tiny"])}
    spec = idx.train_stack_spec(v.game, v.train_tag, v.net_dirs["conv"])
    one = idx.train_spec(v.game, v.train_tag, v.net_dirs["conv"], "rev1")
    assert spec == {"bots": ["rev1", "rev2"], **{k: x for k, x in one.items() if k != "bot"}}
    assert "stack_bots" not in spec["train"]
    assert idx.train_stack_inputs(v.game, v.train_tag) == [v.dataset_path("rev1"),
                                                           v.dataset_path("rev2")]
    assert sorted(idx.train_stack_nets(v.game, [v.train_tag])) == sorted(v.net_dirs.values())
    # a sweep's tags with the same folds and bots share the rule (its ttag wildcard)
    sweep = make_plan(["scale=tiny", "train.stack_bots=true", "sweep.key=train.lr",
                       "sweep.values=[0.001,0.002]"])
    stacks = WorkflowIndex([sweep], {"reversi": _specs(sweep)}).train_stacks()
    assert list(stacks) == ["train_reversi_stacked"]
    tags = {p.train_tag for _, p in sweep.sweep.points}
    assert tags <= set(stacks["train_reversi_stacked"][3]) and len(tags) == 2
    with pytest.raises(ConfigError, match="stack_bots"):
        make_plan(["scale=tiny", "train.stack_bots=maybe"])


def test_logs_tag_does_not_depend_on_the_targets_when_the_sparring_pool_is_pinned() -> None:
    two = make_plan(["scale=tiny"]).main
    three = make_plan(["scale=tiny", "game.targets=[rev1,rev2,rev3]"]).main
    assert (three.logs_tag, three.dataset_tag, three.train_tag) == ("tiny", "tiny", "tiny")
    assert three.results_dir != two.results_dir  # the tables list another set of bots
    assert set(two.log_paths()) < set(three.log_paths())
    assert three.log_paths("rev1") == two.log_paths("rev1")
    # null: the sparring partners are the other targets, so the logs depend on the list
    coupled = make_plan(["scale=tiny", "game.sparring=null"]).main
    more = make_plan(["scale=tiny", "game.sparring=null", "game.targets=[rev1,rev2,rev3]"]).main
    assert coupled.logs_tag != two.logs_tag and more.logs_tag != coupled.logs_tag
    assert coupled.sparring("rev1") == ["rev2"] and more.sparring("rev1") == ["rev2", "rev3"]
    # raw logs: every part feeds every target, the tag names the targets
    assert make_plan(["scale=tiny", "game.targets=[rev1]"]).main.logs_tag == "tiny"


def test_adding_a_target_changes_no_job_of_the_others() -> None:
    """Every path and param of rev1's and rev2's jobs (matches, decisions, dataset, train, and
    the evaluation's keys, scores, held-out scores, tournament pairs) is the same with a third
    target; only rev3's jobs and the aggregate tables are new."""
    from ime.bots.registry import load_bot_specs

    specs = {"reversi": load_bot_specs("reversi")}
    plans = [make_plan(["scale=tiny"]), make_plan(["scale=tiny", "game.targets=[rev1,rev2,rev3]"])]
    idx = [WorkflowIndex([p], specs) for p in plans]
    ev = [EvalIndex(p.variants(), specs) for p in plans]
    v = [p.main for p in plans]
    e = [x.for_rdir(vv.results_dir) for x, vv in zip(ev, v, strict=True)]

    def jobs(k: int, bot: str) -> dict:
        i, vv, ep = idx[k], v[k], e[k]
        g, lt, dt, tt = vv.game, vv.logs_tag, vv.dataset_tag, vv.train_tag
        out: dict = {}
        for part in vv.parts(bot):
            out[vv.log_path(part)] = i.matches_spec(g, lt, part)
            out[vv.decisions_path(part)] = (i.decisions_input(g, lt, part),
                                            i.decisions_spec(g, lt, "strict", part))
        out[vv.dataset_path(bot)] = (i.dataset_inputs(g, dt, bot), i.dataset_spec(g, dt, bot))
        for net, d in vv.net_dirs.items():
            for fold in range(vv.folds):
                out[vv.checkpoint_path(bot, net, fold)] = (i.train_input(g, tt, bot),
                                                           i.train_spec(g, tt, d, bot))
        out[ep.keys_path(bot)] = (vv.log_paths(bot), ep.keys_spec(bot))
        for a, t in ep.scored_pairs():
            if bot in (t, a.removeprefix("imit_")):
                score = ep.score_spec(a, t)
                # a score job can build every player of the target's matches
                assert set(score["bot_specs"]) >= set(vv.players_of(t)) | {a}
                out[ep.score_path(a, t)] = score
        out[ep.heldout_path(bot)] = (ep.heldout_inputs(bot), ep.heldout_spec(bot))
        for a, b in ep.pairs():
            out[ep.pair_path(a, b)] = (ep.agent_inputs(a) + ep.agent_inputs(b),
                                       ep.pair_spec(a, b))
        return out

    for bot in ("rev1", "rev2"):
        before, after = jobs(0, bot), jobs(1, bot)
        assert set(before) <= set(after)
        for path, job in before.items():
            assert after[path] == job, path
        new = set(after) - set(before)
        assert new and all("rev3" in p for p in new), sorted(new)
    assert e[1].keys_spec("rev3")["references"] == ["rev1", "rev2", "rev4", "rev5"]
    assert e[0].keys_spec("rev1")["references"] == ["rev2", "rev3", "rev4", "rev5"]


def test_game_scales_are_applied_below_the_command_line_and_removed() -> None:
    tiny = to_plain(compose(["scale=tiny"]))
    assert tiny["game"]["targets"] == ["rev1", "rev2"]  # config/game/reversi.yaml scales.tiny
    assert "scales" not in tiny["game"]
    mine = to_plain(compose(["scale=tiny", "game.targets=[rev3]"]))
    assert mine["game"]["targets"] == ["rev3"]  # the command line wins
    quick = to_plain(compose([]))
    assert quick["game"]["targets"] == ["rev1", "rev2", "rev3", "rev4", "rev5"]


def test_an_experiment_beats_the_games_scale_settings() -> None:
    """Snake's quick scale sets matches.per_target=100 and its dataset-size experiment 1600:
    the experiment is the more specific choice, and the command line still beats both."""
    quick = to_plain(compose(["game=snake"]))
    assert quick["matches"]["per_target"] == 100
    study = to_plain(compose(["game=snake", "experiment=snake_dataset_size"]))
    assert study["matches"]["per_target"] == 1600
    assert study["game"]["targets"] == ["snk01", "snk02", "snk04", "snk06"]
    assert study["train"]["lr"] == 0.02  # game.overrides the experiment does not set stay
    mine = to_plain(compose(["game=snake", "experiment=snake_dataset_size",
                             "matches.per_target=700"]))
    assert mine["matches"]["per_target"] == 700


def test_evaluate_targets_is_a_subset_of_the_targets() -> None:
    from ime.workflow.setup import setup_workflow

    wf = setup_workflow({"overrides": ["game=snake"]}, CONFIG)
    plan = wf.evals.for_rdir("results/snake")
    assert plan.targets == ["snk01", "snk02", "snk04", "snk10", "snk11", "snk18"]
    assert len(plan.pairs()) == 66  # 6 originals + 6 imitators
    assert plan.references("snk01") == ["snk02", "snk04", "snk10", "snk11", "snk18"]
    assert len(wf.index.variant(plan.v.results_dir).targets) == 22  # all trained
    with pytest.raises(ConfigError, match=r"evaluate.targets=\['snk01', 'zz'\]: \['zz'\] are "
                                          r"not bots of config/bots/snake.yaml"):
        setup_workflow({"overrides": ["game=snake", "evaluate.targets=[snk01,zz]"]}, CONFIG)
    # the scale's list survives other targets: those listed are evaluated, else every one
    wf = setup_workflow({"overrides": ["game=snake", "game.targets=[snk18,snk03,snk04]"]},
                        CONFIG)
    (rdir,) = [r for r in wf.evals.plans if r.startswith("results/snake")]
    assert wf.evals.for_rdir(rdir).targets == ["snk18", "snk04"]
    wf = setup_workflow({"overrides": ["game=snake", "game.targets=[snk03,snk09]"]}, CONFIG)
    (rdir,) = [r for r in wf.evals.plans if r.startswith("results/snake")]
    assert wf.evals.for_rdir(rdir).targets == ["snk03", "snk09"]


def test_scale_files_name_no_bot() -> None:
    for path in (CONFIG / "scale").glob("*.yaml"):
        text = path.read_text()
        assert "targets" not in text.split("#")[0] and "game:" not in text, path


def test_reversi_logs_key_is_the_old_one() -> None:
    """Written into every dataset's Parquet metadata: it must not grow with the game keys that
    do not change the logs (augment, references, openings, params, extra)."""
    from ime.workflow import logs_key

    c = make_plan(["scale=tiny"]).main.cfg
    assert logs_key(c) == {
        "game.name": "reversi",
        "game.opponents": ["opp_random", "opp_greedy", "opp_positional", "opp_noisy1",
                           "opp_noisy2"],
        "game.sparring": ["rev1", "rev2", "rev3", "rev4", "rev5"],
        "game.num_actions": 64, "game.planes": 2, "game.board": [8, 8],
        "matches.source": "generated", "matches.per_target": 12, "matches.vs_targets": 0.1,
        "matches.shards": 2, "matches.seed": 0}


def test_game_keys_tag_only_the_stages_that_use_them() -> None:
    base = make_plan(["scale=tiny"]).main
    aug = make_plan(["scale=tiny", "game.augment=sym8"]).main
    assert (aug.logs_tag, aug.dataset_tag) == ("tiny", "tiny")
    assert aug.train_tag == "tiny__game.augment-sym8" and aug.results_dir != base.results_dir
    refs = make_plan(["scale=tiny", "game.references=[rev1,rev2,rev3]"]).main
    assert (refs.logs_tag, refs.dataset_tag, refs.train_tag) == ("tiny", "tiny", "tiny")
    assert refs.results_dir != base.results_dir
    gap = make_plan(["scale=tiny", "game.openings.max_mobility_gap=5"]).main
    assert gap.train_tag == "tiny" and gap.results_dir != base.results_dir
