"""docs/games/doudizhu/rows_per_match.py: its records are the datasets stage's rows (same count,
same legal-major counts) and its variants count what their names say (docs/games/doudizhu.md,
"Rows per match and the random baseline")."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from ime.bots.registry import make_bot
from ime.datasets.build import random_baseline
from ime.datasets.extract import extract_part
from ime.datasets.schema import read_decisions
from ime.games.doudizhu.game import GAME
from ime.matches.judge import run_match

SCRIPT = Path(__file__).resolve().parents[3] / "docs/games/doudizhu/rows_per_match.py"
SPECS = {"s": {"kind": "smallest"}, "r": {"kind": "random"}}


def _load():
    spec = importlib.util.spec_from_file_location("rows_per_match", SCRIPT)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


@pytest.fixture(scope="module")
def logs(tmp_path_factory) -> Path:
    """8 seeded matches: ``s`` is the landlord in the even ones, both farmers in the odd ones."""
    s, r = make_bot("doudizhu", "s", SPECS), make_bot("doudizhu", "r", SPECS)
    path = tmp_path_factory.mktemp("rows") / "shard000.jsonl"
    with path.open("w") as f:
        for i in range(8):
            names = ["s", "r", "r"] if i % 2 == 0 else ["r", "s", "s"]
            res = run_match(GAME, [s if n == "s" else r for n in names], match_id=f"m{i}",
                            seed=i, player_ids=names,
                            initdata=GAME.new_initial_state(seed=40 + i).initdata())
            f.write(json.dumps(res.to_json()) + "\n")
    return path


def test_records_are_the_datasets_stage_rows(logs, tmp_path):
    mod = _load()
    df = mod.decision_records(logs, "s")
    extract_part(logs, tmp_path / "p.parquet", tmp_path / "p.json", game="doudizhu",
                 targets=["s"], keep_forced=True)
    table, _ = read_decisions(tmp_path / "p.parquet")
    assert len(df) == table.num_rows > 0
    got = df.sort_values(["match_id", "ply"])
    assert got["num_legal"].tolist() == table["num_legal"].to_pylist()
    assert got["seat"].tolist() == table["seat"].to_pylist()
    # a legal major stands for one or more plays; a forced decision has one of each
    assert (df["num_legal"] <= df["n_plays"]).all()
    assert (df.loc[df["n_plays"] == 1, "num_legal"] == 1).all()
    assert (df["n_plays"] == 1).any() and (df["kickers"] > 0).any()
    assert set(df.loc[df["seat"] > 0, "n_seats"]) == {2} and set(df.loc[df["seat"] == 0,
                                                                          "n_seats"]) == {1}


def test_variants_count_matches_seats_and_rows(logs):
    mod = _load()
    df = mod.decision_records(logs, "s")
    t = mod.variants(df).set_index("variant")
    team = t.loc["team, forced kept (scale=thesis)"]
    assert team["matches"] == 8 and team["pairs"] == len(df)
    assert team["baseline"] == pytest.approx(random_baseline(df["num_legal"].to_numpy()))
    per_seat = t.loc["team, forced kept, per seat played (farmer match = 2)"]
    assert per_seat["matches"] == 4 + 2 * 4 and per_seat["pairs"] == len(df)
    both = t.loc["farmer matches, both seats, forced kept", "pairs"]
    assert both == (t.loc["farmer matches, seat 1 only, forced kept", "pairs"]
                    + t.loc["farmer matches, seat 2 only, forced kept", "pairs"])
    assert both + t.loc["landlord matches, forced kept", "pairs"] == len(df)
    dropped = t.loc["team, forced dropped"]
    assert dropped["pairs"] == int((df["n_plays"] > 1).sum()) < len(df)
    assert t.loc["team, forced kept, one pair per net call", "pairs"] == len(df) + df[
        "kickers"].sum()


def test_two_step_and_full_play_baselines_on_hand_built_rows():
    mod = _load()
    rows = pd.DataFrame({"match_id": ["a", "a"], "seat": [0, 0], "num_legal": [1, 4],
                         "n_plays": [1, 8], "kickers": [0, 2], "minor_inv": [1.0, 0.5],
                         "passed": [True, False], "opponent": ["x+y", "x+y"]})
    t = mod.variants(rows).set_index("variant")
    assert t.loc["team, forced kept (scale=thesis)", "baseline"] == pytest.approx(62.5)
    assert t.loc["team, forced kept, baseline over full plays", "baseline"] == pytest.approx(
        56.25)
    # a random major (1/4), then a random kicker at each step (1/2 in all): 1/8 for row 2
    assert t.loc["team, forced kept, random major then kickers", "baseline"] == pytest.approx(
        np.mean([1.0, 0.125]) * 100)
    assert t.loc["team, forced kept, one pair per net call", "pairs"] == 4
