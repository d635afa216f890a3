"""Gongzhu at the tiny scale through the real ``snakemake`` CLI: four seats, hidden hands, the show
phase as decisions, key endgames, S1/S2 of the imitators and the 4-seat tournament."""

from __future__ import annotations

import json
import shutil
import sys
from pathlib import Path

import pandas as pd
import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "workflow"))
from workflow_helpers import copy_workflow, overrides_arg, snakemake  # noqa: E402

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(shutil.which("snakemake") is None, reason="snakemake CLI not installed"),
]

RES = "results/gongzhu/tiny"
TARGETS = [f"{RES}/{n}" for n in ("dataset_stats.csv", "s1s2_imitator.csv", "tournament.csv")]


@pytest.fixture(scope="module")
def run(tmp_path_factory: pytest.TempPathFactory) -> Path:
    work = copy_workflow(tmp_path_factory.mktemp("ime_gz"))
    proc = snakemake(work, "-j2", *TARGETS, "--config", overrides_arg(["scale=tiny"]),
                     timeout=900)
    assert proc.returncode == 0, (proc.stdout[-3000:], proc.stderr[-3000:])
    return work


def test_logs_are_four_seat_logs_with_shows(run: Path) -> None:
    line = next(iter((run / "data/gongzhu/logs/tiny/gz_dmc/shard000.jsonl").open()))
    m = json.loads(line)
    assert len(m["players"]) == 4 and "gz_dmc" in [p["bot"] for p in m["players"]]
    first = m["log"][0]["output"]
    hands = first["initdata"]["hands"]
    assert sorted(c for h in hands for c in h) == list(range(52))
    ((seat, req),) = first["content"].items()
    assert req["seat"] == int(seat) and len(req["own"]) == 13 and 39 in req["own"]  # club 2
    responses = [next(iter(e.values()))["response"] for e in m["log"] if "output" not in e]
    assert len(responses) == 56 and all(len(r) == 1 for r in responses[4:])
    assert len(m["scores"]) == 4


def test_s1s2_table(run: Path) -> None:
    t = pd.read_csv(run / RES / "s1s2_imitator.csv")
    assert list(t.bot) == ["gz_dmc", "gz_low"]
    assert list(t.imitator) == ["imit_gz_dmc", "imit_gz_low"]
    for col in ("S1", "S2", "S1_lo", "S1_hi", "S2_lo", "S2_hi", "baseline_S1"):
        assert t[col].between(0, 1).all(), col
    assert (t.S1_lo <= t.S1).all() and (t.S1 <= t.S1_hi).all()
    assert (t["keys"] > 0).all()


def test_dataset_and_tournament(run: Path) -> None:
    d = pd.read_csv(run / RES / "dataset_stats.csv")
    assert list(d.bot) == ["gz_dmc", "gz_low"]
    games = pd.read_csv(run / RES / "tournament_games.csv")
    assert {f"player{s}" for s in range(4)} <= set(games.columns)
    assert {f"score{s}" for s in range(4)} <= set(games.columns)
    t = pd.read_csv(run / RES / "tournament.csv")
    assert {"gz_dmc", "gz_low", "imit_gz_dmc", "imit_gz_low"} <= set(t.bot)
