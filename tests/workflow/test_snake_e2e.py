"""Snake at the tiny scale through the real ``snakemake`` CLI: simultaneous moves (both seats
decide every turn), the Table 2.2 nets, key endgames and S1/S2 of the imitators."""

from __future__ import annotations

import json
from pathlib import Path

import pandas as pd
import pytest
from workflow_helpers import learning_margins

pytestmark = pytest.mark.slow

RES = "results/snake/tiny"


@pytest.fixture(scope="module")
def run(tiny_run: Path) -> Path:
    return tiny_run


def test_logs_hold_both_players_in_one_entry(run: Path) -> None:
    m = json.loads(next(iter((run / "data/snake/logs/tiny/snk04/shard000.jsonl").open())))
    assert len(m["players"]) == 2
    first = m["log"][0]["output"]
    assert set(first["content"]) == {"0", "1"}  # both players are asked every turn
    moves = [e for e in m["log"] if "output" not in e]
    assert moves and all(set(e) == {"0", "1"} for e in moves[:-1])
    assert {"width", "height", "obstacle"} <= set(first["content"]["0"])


def test_tables(run: Path) -> None:
    t3 = pd.read_csv(run / RES / "table2_2.csv")
    assert dict(zip(t3.net, t3.params, strict=True)) == {
        "snake_mlp1": 56964, "snake_mlp2": 57044, "snake_conv1": 58052, "snake_conv2": 61724,
        "snake_conv3": 59452}
    t4 = pd.read_csv(run / RES / "imitation_accuracy.csv")
    assert len(t4) == 2 * 5 and t4.val_acc_mean.between(0, 100).all()
    assert t4.baseline.between(25, 100).all()  # 4 directions at most, fewer when some kill
    t5 = pd.read_csv(run / RES / "s1s2_imitator.csv")
    assert list(t5.bot) == ["snk04", "snk18"]
    assert t5[["S1", "S2"]].apply(lambda c: c.between(0, 100)).all().all()


def test_fig2_7_and_the_split_beside_the_thesiss(run: Path) -> None:
    """Fig 2.7 is the generic accuracy figure under Snake's name; the split table lays our two
    accuracy clusters beside the thesis's {1,2,3,4,5,6,7,10,13,15,16} vs the rest, and at this
    scale they agree: alpha-beta snk04 (thesis: harder) is imitated worse than the depth-1
    expert snk18 (thesis: easier). Measured: 64.8 % against 73.1 % (mean over the five nets)."""
    assert (run / RES / "fig2_7.png").read_bytes() == (
        run / RES / "figures/accuracy.png").read_bytes()
    assert (run / RES / "fig2_7.pdf").is_file()
    acc = pd.read_csv(run / RES / "accuracy_clusters.csv").set_index("bot")
    split = pd.read_csv(run / RES / "split_vs_thesis.csv").set_index("bot")
    assert list(split.index) == ["snk04", "snk18"] and set(split.cluster) == {1, 2}
    assert split.val_acc.to_dict() == acc.val_acc.to_dict()
    assert split.loc["snk04", "group"] == "harder" and split.loc["snk18", "group"] == "easier"
    assert split.agrees.astype(bool).all(), split[["group", "thesis_group"]]


def test_the_imitators_of_the_depth_1_expert_learn_beyond_chance(run: Path) -> None:
    """snk18 (depth-1 rules) is deterministic: averaged over the five Table 2.2 nets, validation
    accuracy beats the random baseline on matches no fold trained on, and the imitator's S1
    beats a random player's. Measured: val_acc +18.5 points, S1 +39.6 (8 keys)."""
    acc, s1 = learning_margins(run, "snake", "snk18")
    assert acc >= 9, acc
    assert s1 >= 20, s1
