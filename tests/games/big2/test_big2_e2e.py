"""Big-2 at the tiny scale through the real ``snakemake`` CLI: two seats, hidden hands, the
seed's negamax agent and the smallest-first bot imitated by the Doudizhu major + kicker nets,
key endgames, S1/S2 and the tournament (tests/workflow/test_doudizhu_e2e.py's shape)."""

from __future__ import annotations

import json
import shutil
import sys
from pathlib import Path

import pandas as pd
import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "workflow"))
from workflow_helpers import copy_workflow, snakemake  # noqa: E402

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(shutil.which("snakemake") is None, reason="snakemake CLI not installed"),
]

RES = "results/big2/tiny"
TARGETS = [f"{RES}/{n}" for n in ("dataset_stats.csv", "net_architectures.csv",
                                  "imitation_accuracy.csv", "s1s2_imitator.csv",
                                  "tournament.csv")]


@pytest.fixture(scope="module")
def run(tmp_path_factory: pytest.TempPathFactory) -> Path:
    work = copy_workflow(tmp_path_factory.mktemp("ime_big2"))
    proc = snakemake(work, "-j2", *TARGETS, "--config", "overrides=[scale=tiny]", timeout=900)
    assert proc.returncode == 0, (proc.stdout[-3000:], proc.stderr[-3000:])
    return work


def test_logs_are_two_seat_logs_with_hidden_hands(run: Path) -> None:
    line = next(iter((run / "data/big2/logs/tiny/b2_negamax/shard000.jsonl").open()))
    m = json.loads(line)
    assert len(m["players"]) == 2 and "b2_negamax" in [p["bot"] for p in m["players"]]
    first = m["log"][0]["output"]
    hands = first["initdata"]["hands"]
    assert [len(h) for h in hands] == [26, 26] and not set(hands[0]) & set(hands[1])
    assert first["content"] == {"0": {"own": hands[0], "history": []}}  # only its own hand
    assert m["log"][-1]["output"]["command"] == "finish"


def test_tables(run: Path) -> None:
    stats = pd.read_csv(run / RES / "dataset_stats.csv")
    assert sorted(stats.bot) == ["b2_negamax", "b2_smallest"] and (stats.pairs > 20).all()
    nets = pd.read_csv(run / RES / "net_architectures.csv")
    assert list(nets.net) == ["ddz_conv1", "ddz_conv2"] and (nets.params > 10_000).all()
    acc = pd.read_csv(run / RES / "imitation_accuracy.csv")
    assert len(acc) == 2 * 2 and acc.val_acc_mean.between(0, 100).all()
    s = pd.read_csv(run / RES / "s1s2_imitator.csv")
    assert sorted(s.bot) == ["b2_negamax", "b2_smallest"] and (s["keys"] > 0).all()
    assert s[["S1", "S2", "S1_lo", "S1_hi", "S2_lo", "S2_hi"]].apply(
        lambda c: c.between(0, 1)).all().all()
    assert (s.S1_lo <= s.S1).all() and (s.S1 <= s.S1_hi).all()
    t = pd.read_csv(run / RES / "tournament.csv", keep_default_na=False)
    assert {"b2_negamax", "b2_smallest", "imit_b2_negamax", "imit_b2_smallest"} <= set(t.bot)
    games = pd.read_csv(run / RES / "tournament_games.csv")
    assert len(games) > 0 and set(games.player0) | set(games.player1) == set(t.bot)


def test_imitators_learn_both_heads(run: Path) -> None:
    m = json.loads((run / "data/big2/models/tiny/ddz_conv1/b2_smallest/fold0.json").read_text())
    assert m["val_acc_major"] >= m["val_acc"] and m["train_rows"] > 20
