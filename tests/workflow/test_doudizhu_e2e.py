"""Doudizhu's chapter at the tiny scale through the real ``snakemake`` CLI: three seats, hidden
hands, two-net (major + kicker) imitators, key endgames, S1/S2 and the thesis's Table 5.10."""

from __future__ import annotations

import json
from pathlib import Path

import pandas as pd
import pytest
from workflow_helpers import first_head_margins, learning_margins

pytestmark = pytest.mark.slow

RES = "results/doudizhu/tiny"


@pytest.fixture(scope="module")
def run(tiny_run: Path) -> Path:
    return tiny_run


def test_logs_are_three_seat_botzone_logs(run: Path) -> None:
    line = next(iter((run / "data/doudizhu/logs/tiny/ddz5/shard000.jsonl").open()))
    m = json.loads(line)
    assert len(m["players"]) == 3 and "ddz5" in [p["bot"] for p in m["players"]]
    first = m["log"][0]["output"]
    assert {"allocation", "publiccard"} <= set(first["initdata"])
    req = first["content"]["0"]
    assert {"own", "history", "publiccard"} <= set(req) and len(req["own"]) == 20


def test_tables(run: Path) -> None:
    t4 = pd.read_csv(run / RES / "table5_4.csv")
    assert list(t4.bot) == ["ddz4", "ddz5"] and (t4.pairs > 20).all()
    t5 = pd.read_csv(run / RES / "table5_5.csv")
    assert list(t5.net) == ["ddz_conv1", "ddz_conv2"]
    assert list(t5.params) == [399219 + 33624, 173247 + 17856]
    t6 = pd.read_csv(run / RES / "table5_6.csv")
    assert len(t6) == 2 * 2 and t6.val_acc_mean.between(0, 100).all()
    t7 = pd.read_csv(run / RES / "table5_7.csv")
    assert list(t7.bot) == ["ddz4", "ddz5"]
    assert t7[["S1", "S2"]].apply(lambda c: c.between(0, 100)).all().all()
    t10 = pd.read_csv(run / RES / "table5_10.csv")
    assert set(t10.agent) == {"ddz4", "ddz5", "imit_ddz4", "imit_ddz5"}
    games = pd.read_csv(run / RES / "tournament_games.csv")
    lone = games[(games.player1 == games.player2) & (games.player0 != games.player1)]
    assert t10.points.sum() == 3 * len(lone)  # every thesis-protocol game has one winning side


def test_imitators_learn_both_heads(run: Path) -> None:
    """Head by head, on each fold's held-out matches: the major head of ddz5's CONV-1 beats its
    own chance (mean 1/legal majors over the rows; measured 60-61 % against 24-26 %), and
    val_acc_major is that head's accuracy. The kicker heads see 0-3 held-out rows a fold at this
    scale, too few to test here: tests/stages/test_action_heads.py checks a kicker head beyond
    chance on held-out matches."""
    for accuracy, chance in first_head_margins(run, "doudizhu", "ddz5", "ddz_conv1"):
        assert accuracy >= chance + 20, (accuracy, chance)


def test_the_imitator_of_the_smallest_first_bot_learns_beyond_chance(run: Path) -> None:
    """ddz5 (always the smallest legal combination) is deterministic: its CONV-1 imitator beats
    the random baseline on matches no fold trained on, and S1 beats a random player's.
    Measured: val_acc +35.7 points, S1 +78.2 (8 keys)."""
    acc, s1 = learning_margins(run, "doudizhu", "ddz5", "ddz_conv1")
    assert acc >= 18, acc
    assert s1 >= 40, s1
