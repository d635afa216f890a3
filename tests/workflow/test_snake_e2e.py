"""Snake at the tiny scale through the real ``snakemake`` CLI: simultaneous moves (both seats
decide every turn), the Table 2.2 nets, key endgames and S1/S2 of the imitators."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pandas as pd
import pytest
from test_pipeline_e2e import smk

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(shutil.which("snakemake") is None, reason="snakemake CLI not installed"),
]

RES = "results/snake/tiny"


@pytest.fixture(scope="module")
def run(tmp_path_factory: pytest.TempPathFactory) -> Path:
    work = tmp_path_factory.mktemp("ime_snake")
    smk(work, "-j2", f"{RES}/imitation_accuracy.csv", f"{RES}/s1s2_imitator.csv",
        f"{RES}/table2_2.csv", f"{RES}/fig2_7.png", f"{RES}/fig2_7.pdf",
        f"{RES}/split_vs_thesis.csv",
        "--config", "overrides=[scale=tiny]", timeout=1200)
    return work


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
    assert t5[["S1", "S2"]].apply(lambda c: c.between(0, 1)).all().all()


def test_fig2_7_and_the_split_beside_the_thesiss(run: Path) -> None:
    """Fig 2.7 is the generic accuracy figure under Snake's name; the split table lays our two
    accuracy clusters beside the thesis's {1,2,3,4,5,6,7,10,13,15,16} vs the rest."""
    assert (run / RES / "fig2_7.png").read_bytes() == (
        run / RES / "figures/accuracy.png").read_bytes()
    assert (run / RES / "fig2_7.pdf").is_file()
    acc = pd.read_csv(run / RES / "accuracy_clusters.csv")
    assert list(acc.bot) == ["snk04", "snk18"] and set(acc.cluster) == {1, 2}
    split = pd.read_csv(run / RES / "split_vs_thesis.csv")
    assert list(split.thesis_bot) == [4, 18]
    assert list(split.thesis_group) == ["harder", "easier"]
    harder = acc.loc[acc.val_acc.idxmin(), "bot"]
    assert split.set_index("bot").loc[harder, "group"] == "harder"
