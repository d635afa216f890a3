"""The typed config schemas (ime.workflow.schema): every section rejects what it must, in the
workflow's words, and accepts the shipped configs."""

from __future__ import annotations

import copy

import pytest

from ime.workflow import ConfigError, compose, make_plan, to_plain
from ime.workflow.schema import validate, validate_net
from ime.workflow.schema.bots import validate_bot_specs


@pytest.fixture(scope="module")
def plain() -> dict:
    return to_plain(compose(["scale=tiny"]))


def _problems(c: dict) -> str:
    with pytest.raises(ConfigError) as e:
        validate(c, ["x=1"])
    return str(e.value)


@pytest.mark.parametrize("key, value, words", [
    ("seed", "0", ["seed must be an int", "'0' (str)"]),
    ("matches.per_target", 0, ["matches.per_target must be >= 1"]),
    ("matches.vs_targets", 1.5, ["matches.vs_targets must be <= 1"]),
    ("matches.source", "ftp", ["matches.source must be one of", "'generated' or 'raw'"]),
    ("dataset.matches", True, ["dataset.matches must be an int"]),
    ("train.lr", 0.0, ["train.lr must be > 0"]),
    ("train.lr", float("nan"), ["train.lr must be a finite number"]),
    ("train.gpu", "yes", ["train.gpu must be true or false"]),
    ("train.run_folds", 3, ["train.run_folds=3 exceeds train.folds=2"]),
    ("train.nets", [], ["train.nets: is empty"]),
    ("train.augment", "sym4", ["train.augment is not a config key"]),
    ("net.dropout", 1.0, ["net.dropout must be < 1"]),
    ("net.kernel", 4, ["kernel must be an odd int"]),
    ("net.channels", None, ["a conv net needs channels"]),
    ("game.targets", ["rev1", "rev1"], ["game.targets: has duplicates"]),
    ("game.targets", ["a/b"], ["cannot name files"]),
    ("game.openings", [3], ["game.openings must be a mapping"]),
    ("game.augment", "sym5", ["game.augment must be one of", "'sym4'"]),
    ("game.num_actions", 65, ["game.num_actions=65", "64 actions"]),
    ("game.name", "chess", ["unknown game 'chess'"]),
    ("game.params", {"size": 9}, ["game.params {'size': 9} do not build a reversi game"]),
    ("evaluate.tournament.rounds", 0, ["evaluate.tournament.rounds must be >= 1"]),
    ("evaluate.imitator.heldout", 1, ["evaluate.imitator.heldout must be true or false"]),
    ("evaluate.references", None, ["evaluate.references is not a config key"]),
    ("sweep.key", "no.such", ["sweep.values must be a non-empty list"]),
    ("run.name", "a/b", ["plain directory name"]),
])
def test_bad_values_are_named(plain: dict, key: str, value: object, words: list[str]) -> None:
    c = copy.deepcopy(plain)
    *path, last = key.split(".")
    node = c
    for part in path:
        node = node[part]
    node[last] = value
    text = _problems(c)
    for w in words:
        assert w in text, text


def test_missing_and_unknown_keys(plain: dict) -> None:
    c = copy.deepcopy(plain)
    del c["dataset"]["dedup"]
    c["matches"]["shardz"] = 2
    text = _problems(c)
    assert "dataset.dedup is missing" in text and "matches.shardz is not a config key" in text


def test_every_problem_is_listed(plain: dict) -> None:
    c = copy.deepcopy(plain)
    c["train"]["folds"] = 1
    c["evaluate"]["ci"] = 2
    text = _problems(c)
    assert "train.folds must be >= 2" in text and "evaluate.ci must be < 1" in text


def test_sweep_key_must_be_a_config_key(plain: dict) -> None:
    c = copy.deepcopy(plain)
    c["sweep"].update(key="no.such", values=[1])
    assert "sweep key 'no.such' is not a config key" in _problems(c)


def test_net_files_are_checked() -> None:
    with pytest.raises(ConfigError, match="net.kind must be one of"):
        validate_net({"name": "x", "kind": "rnn", "hidden": [], "init_std": None,
                      "mask_input": False, "dropout": 0.0}, "config/net/x.yaml")
    with pytest.raises(ConfigError, match="an mlp needs at least one hidden layer"):
        validate_net({"name": "x", "kind": "mlp", "hidden": [], "init_std": None,
                      "mask_input": False, "dropout": 0.0}, "config/net/x.yaml")


def test_bot_specs_are_checked() -> None:
    from ime.bots.registry import load_bot_specs

    validate_bot_specs("reversi", load_bot_specs("reversi"), "config/bots/reversi.yaml")
    with pytest.raises(ConfigError, match="b1.params must be a mapping"):
        validate_bot_specs("reversi", {"b1": {"kind": "random", "params": [1]}}, "f.yaml")
    with pytest.raises(ConfigError, match="b1.kind is missing"):
        validate_bot_specs("reversi", {"b1": {"params": {}}}, "f.yaml")
    with pytest.raises(ConfigError, match="b1.speed is not a config key"):
        validate_bot_specs("reversi", {"b1": {"kind": "random", "speed": 3}}, "f.yaml")
    with pytest.raises(ConfigError, match=r"unknown kind\(s\) \['telepathy'\]"):
        validate_bot_specs("reversi", {"b1": {"kind": "telepathy"}}, "f.yaml")
    validate_bot_specs("reversi", {"b1": {"kind": "external", "params": {"command": ["x"]}}},
                       "f.yaml")


def test_overrides_are_validated_before_planning() -> None:
    with pytest.raises(ConfigError, match=r"overrides \['train.batch_size=0'\]"):
        make_plan(["train.batch_size=0"])
