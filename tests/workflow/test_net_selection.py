"""What ``net=`` selects, and the variant directory it names (issue 45).

``net=<name>`` selects the imitators' net: ``evaluate.imitator.net`` follows it
(config/evaluate/default.yaml), so the evaluation (S1/S2, the tournament) uses that net's
checkpoints, trained even if ``train.nets`` does not list it; Table 4.4 still trains every net of
``train.nets``; ``net.*`` overrides edit the selected net. Before, ``net=mlp2`` changed no result
and wrote the default's results again under ``quick__net.name-mlp2``; now the directory is named
after what changed: ``quick__net-mlp2``, and a composition whose results equal the default's is
the default.
"""

from __future__ import annotations

import pytest

from ime.workflow import EvalPlan, make_plan

SPECS = {b: {"kind": "alphabeta"} for b in ["rev1", "rev2", "rev3", "rev4", "rev5"]}


def _main(*overrides: str):
    return make_plan(list(overrides)).main


def test_net_selects_the_imitators_net_and_names_the_directory() -> None:
    default, v = _main(), _main("net=mlp2")
    assert v.cfg["evaluate"]["imitator"]["net"] == "mlp2"
    assert v.results_dir == "results/reversi/quick__net-mlp2"
    ep = EvalPlan(v, SPECS)
    assert ep.checkpoints("rev1") == [f"data/reversi/models/quick/mlp2/rev1/fold{k}.pt"
                                      for k in range(v.folds)]
    # Table 4.4 trains the same nets into the same model directories as the default
    assert v.cfg["train"]["nets"] == default.cfg["train"]["nets"] == ["mlp1", "mlp2", "conv"]
    assert v.net_dirs == default.net_dirs and v.train_tag == default.train_tag
    # the default is unchanged: CONV's imitators, results/reversi/
    assert default.cfg["evaluate"]["imitator"]["net"] == "conv"
    assert default.results_dir == "results/reversi"


@pytest.mark.parametrize("overrides,rdir", [
    # the imitators' net set back to the default's: no result changes, so no variant
    (["net=mlp2", "evaluate.imitator.net=conv"], "results/reversi"),
    # the imitators' net set directly: the same results as net=mlp1, the same directory
    (["evaluate.imitator.net=mlp1"], "results/reversi/quick__net-mlp1"),
    (["net=mlp1"], "results/reversi/quick__net-mlp1"),
    # a net outside train.nets: named by the selection, not by its architecture's keys (a hash)
    (["net=resnet"], "results/reversi/quick__net-resnet"),
    (["net=resnet", "net.blocks=4"], "results/reversi/quick__net-resnet__nets.resnet.blocks-4"),
    (["train.nets=[mlp1,mlp2,conv,resnet]"],
     "results/reversi/quick__train.nets-mlp1-mlp2-conv-resnet"),
    (["net=mlp2", "net.hidden=[300,100]"],
     "results/reversi/quick__net-mlp2__nets.mlp2.hidden-300-100"),
])
def test_the_directory_is_named_after_what_changed(overrides: list[str], rdir: str) -> None:
    assert _main(*overrides).results_dir == rdir


def test_a_net_outside_train_nets_is_trained_for_the_imitators() -> None:
    v = _main("net=resnet")
    assert v.cfg["train"]["nets"] == ["mlp1", "mlp2", "conv"]
    assert "resnet" in v.net_dirs
    first = EvalPlan(v, SPECS).checkpoints("rev2")[0]
    assert first == "data/reversi/models/quick/resnet/rev2/fold0.pt"


@pytest.mark.parametrize("game,own,other", [("snake", "snake_conv1", "snake_mlp1"),
                                            ("doudizhu", "ddz_conv1", "ddz_conv2"),
                                            ("big2", "ddz_conv1", "ddz_conv2")])
def test_a_games_own_net_makes_its_imitators_and_net_still_selects(game: str, own: str,
                                                                   other: str) -> None:
    default = _main(f"game={game}")
    assert default.cfg["net"]["name"] == default.cfg["evaluate"]["imitator"]["net"] == own
    assert default.results_dir == f"results/{game}"
    v = _main(f"game={game}", f"net={other}")
    assert v.cfg["evaluate"]["imitator"]["net"] == other
    assert v.results_dir == f"results/{game}/quick__net-{other}"
