"""Self-agreement (Table 4.4's ceiling) and the top-1 ceiling beside it: a bot re-asked at its
own logged decisions (issue 46: an imitator may beat self-agreement, never the top-1 ceiling)."""

from __future__ import annotations

import numpy as np
import pytest

from ime.bots.registry import make_bot
from ime.core.registry import get_game
from ime.datasets.build import build_dataset
from ime.datasets.extract import extract_part
from ime.datasets.schema import read_arrays
from ime.evaluate.ceiling import (
    TOP1_COLUMNS,
    UNSEEN_CEILING_COLUMNS,
    ceiling_columns,
    sample_decisions,
    self_agreement,
    top1_columns,
    top1_estimates,
    unseen_ceiling_columns,
    unseen_decisions,
)
from ime.matches.judge import run_match
from ime.matches.logs import write_matches
from ime.train.folds import Split
from ime.train.tables import table4_4

GAME = get_game("reversi")
SEED = 11


@pytest.fixture(scope="module")
def logged(tmp_path_factory):
    """Six matches of the deterministic rev5 against the uniformly random opponent."""
    det, rnd = make_bot("reversi", "rev5"), make_bot("reversi", "opp_random")
    results = []
    for k in range(6):
        seats = [det, rnd] if k % 2 == 0 else [rnd, det]
        results.append(run_match(GAME, seats, match_id=f"ceil-{k}", seed=SEED,
                                 player_ids=[b.bot_id for b in seats], record_decisions=True))
    path = tmp_path_factory.mktemp("ceiling") / "m.jsonl"
    write_matches(path, results)
    return path, results


def _rows(results, bot_id):
    rows, legal = [], []
    for r in results:
        for d in r.decisions:
            if r.players[d.player] == bot_id:
                rows.append((r.match_id, d.ply, d.player))
                legal.append(len(d.state.legal_actions(d.player)))
    return rows, legal


def test_a_deterministic_bot_agrees_with_itself_always(logged):
    path, results = logged
    rows, _ = _rows(results, "rev5")
    out = self_agreement(GAME, "rev5", make_bot("reversi", "rev5"), [path], rows,
                         default_seed=SEED)
    assert out["decisions"] == len(rows) > 50 and out["matches"] == 6
    assert out["self_agreement"] == 100.0 and out["agree"] == len(rows)
    cols = ceiling_columns(out, bootstrap=200, ci=0.95, seed=0)
    # every decision agrees: the exact interval over its 6 matches, not a zero-width one
    assert cols == {"self_agreement": 100.0,
                    "self_agreement_lo": round(100 * 0.025 ** (1 / 6), 2),
                    "self_agreement_hi": 100.0}
    # asked once, whatever repeats says: its top-1 ceiling is its self-agreement, CIs included
    again = self_agreement(GAME, "rev5", make_bot("reversi", "rev5"), [path], rows,
                           default_seed=SEED, repeats=4)
    assert again["repeats"] == 1 and again["rows"] == out["rows"]
    assert again["top1_mode"] == again["top1_max"] == again["self_agreement"] == 100.0
    top1 = top1_columns(again, bootstrap=200, ci=0.95, seed=0)
    assert top1 == {c: cols["self_agreement_lo"] if c.endswith("_lo") else 100.0
                    for c in TOP1_COLUMNS}


def test_a_random_bot_agrees_about_as_often_as_chance(logged):
    """Re-asked under another seed, the random bot replays its move with chance 1/#legal."""
    path, results = logged
    rows, legal = _rows(results, "opp_random")
    out = self_agreement(GAME, "opp_random", make_bot("reversi", "opp_random"), [path], rows,
                         default_seed=SEED)
    chance = 100.0 * float(np.mean(1.0 / np.asarray(legal)))
    assert out["self_agreement"] < 60.0
    assert abs(out["self_agreement"] - chance) < 12.0, (out["self_agreement"], chance)
    cols = ceiling_columns(out, bootstrap=300, ci=0.95, seed=0)
    assert cols["self_agreement_lo"] <= out["self_agreement"] <= cols["self_agreement_hi"]
    assert cols["self_agreement_hi"] - cols["self_agreement_lo"] > 1.0


def test_top1_estimates_of_one_decision():
    assert top1_estimates("a", ["a", "a", "b", "c"]) == (1, 3 / 5)
    assert top1_estimates("a", ["b", "b", "a", "c"]) == (0, 2 / 5)
    assert top1_estimates("a", ["b", "a", "a", "b"]) == (0, 3 / 5)  # tie: b came first
    assert top1_estimates("a", ["a", "b", "b", "a"]) == (1, 3 / 5)  # tie: a came first
    assert top1_estimates(7, [7]) == (1, 1.0) and top1_estimates(7, [8]) == (0, 1 / 2)
    # an unreadable answer (None) is never the mode, and counts for no action
    assert top1_estimates("a", [None, None, "a"]) == (1, 2 / 4)
    assert top1_estimates("a", [None, None]) == (0, 1 / 3)
    with pytest.raises(ValueError, match="at least one"):
        top1_estimates("a", [])


def test_files_without_the_top1_ceiling_give_nan_columns():
    old = {"bot": "b", "self_agreement": 50.0, "rows": [["m", 1, 0, 1], ["m", 3, 0, 0]]}
    cols = top1_columns(old, bootstrap=10, ci=0.95, seed=0)
    assert list(cols) == TOP1_COLUMNS and all(np.isnan(v) for v in cols.values())
    assert ceiling_columns(old, bootstrap=10, ci=0.95, seed=0)["self_agreement"] == 50.0
    assert all(np.isnan(v) for v in top1_columns(None, bootstrap=10, ci=0.95, seed=0).values())


def test_a_noisy_bots_top1_ceiling_is_above_its_self_agreement(tmp_path):
    """opp_noisy1 plays its greedy move with probability about 0.85 + 0.15/#legal: re-asked
    once it agrees with itself on about sum p^2 (~75 %), while always playing its mode would
    score max p (~88 %). Repeat 0 of the top-1 run is the single re-ask, verdict for verdict."""
    noisy, rnd = make_bot("reversi", "opp_noisy1"), make_bot("reversi", "opp_random")
    assert not noisy.deterministic
    results = []
    for k in range(4):
        seats = [noisy, rnd] if k % 2 == 0 else [rnd, noisy]
        results.append(run_match(GAME, seats, match_id=f"noisy-{k}", seed=SEED,
                                 player_ids=[b.bot_id for b in seats], record_decisions=True))
    path = tmp_path / "m.jsonl"
    write_matches(path, results)
    rows, _ = _rows(results, "opp_noisy1")
    once = self_agreement(GAME, "opp_noisy1", make_bot("reversi", "opp_noisy1"), [path], rows,
                          default_seed=SEED)
    out = self_agreement(GAME, "opp_noisy1", make_bot("reversi", "opp_noisy1"), [path], rows,
                         default_seed=SEED, repeats=4)
    assert out["rows"] == once["rows"] and out["self_agreement"] == once["self_agreement"]
    assert out["repeats"] == 4 and len(out["top1_rows"]) == len(rows) > 50
    assert out["top1_max"] > out["self_agreement"] + 5.0, out
    assert out["top1_mode"] > out["self_agreement"], out
    cols = top1_columns(out, bootstrap=300, ci=0.95, seed=0)
    assert cols["top1_max_lo"] <= out["top1_max"] <= cols["top1_max_hi"]
    assert cols["top1_mode_lo"] <= out["top1_mode"] <= cols["top1_mode_hi"]
    assert ceiling_columns(out, bootstrap=300, ci=0.95, seed=0) == ceiling_columns(
        once, bootstrap=300, ci=0.95, seed=0)


def test_sampling_is_seeded_and_bounded():
    mids = [f"m{k // 10}" for k in range(100)]
    plies, seats = list(range(100)), [0] * 100
    a = sample_decisions(mids, plies, seats, 30, 5, "b")
    assert a == sample_decisions(mids, plies, seats, 30, 5, "b") and len(a) == 30
    assert a != sample_decisions(mids, plies, seats, 30, 6, "b")
    assert len(sample_decisions(mids, plies, seats, 500, 5, "b")) == 100


def test_a_dataset_match_missing_from_the_logs_is_named(logged):
    path, _ = logged
    with pytest.raises(ValueError, match=r"rev5: 1 dataset match.*first nowhere-7"):
        self_agreement(GAME, "rev5", make_bot("reversi", "rev5"), [path], [("nowhere-7", 3, 0)],
                       default_seed=SEED)


def test_a_player_no_config_rebuilds_gets_no_figure_and_says_why(logged):
    path, _ = logged
    out = self_agreement(GAME, "botzone_player", None, [path], [("ceil-0", 0, 0)],
                         default_seed=SEED)
    assert out["self_agreement"] is None and "not a bot of config/bots/reversi.yaml" in out["why"]
    assert np.isnan(ceiling_columns(out, bootstrap=10, ci=0.95, seed=0)["self_agreement"])


def test_the_unseen_ceiling_counts_only_decisions_on_positions_no_model_trained_on(
        logged, tmp_path):
    """unseen_decisions splits the dataset as training does; the unseen ceiling is
    self-agreement on the sampled decisions among them, with their count."""
    path, _ = logged
    extract_part(path, tmp_path / "p.parquet", tmp_path / "p.json", game="reversi",
                 targets=["rev5"], num_actions=64, mode="strict",
                 rejects_path=tmp_path / "p.rejects.jsonl")
    build_dataset([tmp_path / "p.parquet"], [tmp_path / "p.json"], "rev5",
                  tmp_path / "rev5.parquet", tmp_path / "rev5.json", game="reversi")
    split = Split("kfold", 3, 0.0, 0)
    got = unseen_decisions(tmp_path / "rev5.parquet", split)
    # by hand: a decision is unseen when no match of another fold holds its position
    arr = read_arrays(tmp_path / "rev5.parquet")
    fold = split.match_table(arr.match_id)
    keys = [(str(m), int(p), int(s)) for m, p, s in zip(arr.match_id, arr.ply, arr.seat,
                                                        strict=True)]
    pos = [arr.state[i].tobytes() for i in range(len(arr))]
    want = {keys[i] for i in range(len(arr))
            if not any(pos[j] == pos[i] and fold[keys[j][0]] != fold[keys[i][0]]
                       for j in range(len(arr)))}
    assert got == want and 0 < len(got) < len(arr)  # the opening is seen, the midgame not
    # verdict 1 on unseen rows and 0 on seen ones: only the unseen rows count
    ceiling = {"bot": "rev5", "self_agreement": 50.0,
               "rows": [[*k, int(k in want)] for k in keys]}
    cols = unseen_ceiling_columns(ceiling, got, bootstrap=200, ci=0.95, seed=0)
    matches = len({k[0] for k in want})
    assert cols == {"self_agreement_unseen": 100.0,
                    "self_agreement_unseen_lo": round(100 * 0.025 ** (1 / matches), 2),
                    "self_agreement_unseen_hi": 100.0, "self_agreement_unseen_n": len(want)}
    nan = unseen_ceiling_columns(ceiling, None, bootstrap=200, ci=0.95, seed=0)
    assert set(nan) == set(UNSEEN_CEILING_COLUMNS) and np.isnan(nan["self_agreement_unseen"])
    assert nan["self_agreement_unseen_n"] == 0
    # the accuracy table sets it beside the ceiling
    metrics = [{"bot": "rev5", "net": "conv", "fold": k, "train_acc": 90.0, "val_acc": 80.0,
                "epochs": 3, "val_acc_unseen": 70.0, "val_seen_share": 40.0} for k in range(3)]
    t = table4_4(metrics, {"rev5": {"baseline": 10.0, "pairs": len(arr)}}, ["rev5"], ["conv"],
                 ceilings={"rev5": ceiling}, unseen={"rev5": got}, bootstrap=200)
    row = t.iloc[0]
    assert row.self_agreement == 50.0 and row.self_agreement_unseen == 100.0
    assert row.self_agreement_unseen_n == len(want)
    assert list(t.columns)[-4:] == UNSEEN_CEILING_COLUMNS  # appended, nothing moved
