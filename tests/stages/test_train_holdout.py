"""``train.split=holdout``: the thesis's single 9:1 split by match (ch. 4.3, 5.4) beside k-fold.

The split itself, training with it (alone and stacked, one model written as ``fold0``), the
held-out evaluation's reading of it, and Table 4.4's ``split`` column (src/ime/train,
src/ime/evaluate/heldout.py). The config side (keys, tags, errors) is in
tests/workflow/test_train_split.py.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import numpy as np
import pytest

# the learnable toy bot of the k-fold training tests (40 matches of 20 decisions)
from test_train import NET, _synthetic

from ime.datasets.schema import read_arrays
from ime.train.ensemble import Member, train_bots
from ime.train.folds import TRAIN_ONLY, Split, holdout_count, holdout_matches, split_label
from ime.train.loop import train_fold
from ime.train.tables import table4_4

HOLDOUT = {"split": "holdout", "holdout": 0.1, "folds": 5, "seed": 0, "lr": 2e-3,
           "batch_size": 64, "max_epochs": 4, "patience": 3, "device": "cpu",
           "weight_decay": 0.0}


def _ids(n_matches: int, per: int = 7) -> np.ndarray:
    return np.array([f"m{i // per:03d}" for i in range(per * n_matches)], dtype=object)


@pytest.mark.parametrize(("n", "expected"), [(2, 1), (5, 1), (9, 1), (14, 1), (15, 2),
                                             (23, 2), (40, 4), (200, 20), (1000, 100)])
def test_holdout_count_is_ten_percent_rounded_at_least_one(n: int, expected: int) -> None:
    assert holdout_count(n, 0.1) == expected
    assert holdout_count(2, 0.5) == 1 and holdout_count(3, 0.5) == 2  # one match left to train


def test_holdout_split_is_by_match_disjoint_and_seeded() -> None:
    ids = _ids(23)
    split = Split.of(HOLDOUT)
    tr, va = split.indices(ids, 0)
    assert split.models == 1 and split.label == "holdout 10%"
    assert not set(ids[tr]) & set(ids[va])  # no match on both sides
    assert len(tr) + len(va) == len(ids) and len(set(ids[va])) == 2  # 2.3 -> 2 of 23 matches
    for m in set(ids):
        assert len({i in set(va) for i in np.flatnonzero(ids == m)}) == 1  # a match never splits
    # deterministic for a seed, another seed draws other matches, row order changes nothing
    assert np.array_equal(va, Split.of(HOLDOUT).indices(ids, 0)[1])
    others = {frozenset(holdout_matches(ids, 0.1, s)) for s in range(6)}
    assert len(others) > 1
    perm = np.random.default_rng(0).permutation(len(ids))
    assert set(ids[perm][split.indices(ids[perm], 0)[1]]) == set(ids[va])
    # the evaluation's table says the same: validation matches are fold 0's
    table = split.match_table(ids)
    assert {m for m, f in table.items() if f == 0} == set(ids[va])
    assert set(table.values()) == {0, TRAIN_ONLY}
    with pytest.raises(ValueError, match="one model"):
        split.indices(ids, 1)
    with pytest.raises(ValueError, match="at least 2"):
        holdout_matches(["only"], 0.1, 0)


def test_split_of_a_train_config() -> None:
    assert Split.of({"folds": 5, "seed": 1}) == Split("kfold", 5, 0.0, 1)  # before the option
    assert Split.of({"split": "kfold", "folds": 3, "holdout": 0.1, "seed": 1}).models == 3
    assert split_label({"split": "kfold", "folds": 5}) == "5-fold"
    assert split_label({"split": "holdout", "holdout": 0.25, "folds": 5}) == "holdout 25%"
    with pytest.raises(ValueError, match="kfold or holdout"):
        Split.of({"split": "loo", "folds": 5, "seed": 1})


def _files(metrics_path: Path, ckpt_path: Path) -> tuple[dict, str]:
    metrics = json.loads(metrics_path.read_text())
    metrics.pop("timing")
    return metrics, hashlib.sha256(ckpt_path.read_bytes()).hexdigest()


def test_holdout_training_writes_one_model_that_beats_chance(tmp_path: Path) -> None:
    """The job's path (``train_bots``) with a hold-out: fold 0 trains on 36 of the toy bot's
    40 matches, validates on the other 4, beats chance there, and the same config gives the
    same bytes (the lone ``train_fold`` writes the very same files)."""
    ds = tmp_path / "b.parquet"
    _synthetic(ds)
    out = train_bots({"b": (ds, [Member(NET, 0, tmp_path / "j" / "fold0.pt",
                                        tmp_path / "j" / "fold0.json")])}, HOLDOUT,
                     progress=False)
    m = out["b"][0]
    assert sorted(p.name for p in (tmp_path / "j").iterdir()) == ["fold0.json", "fold0.pt"]
    assert m["folds"] == 1 and m["fold"] == 0
    assert m["val_rows"] == 4 * 20 and m["train_rows"] == 36 * 20
    assert m["config"]["train"]["split"] == "holdout"
    arr = read_arrays(ds)
    _, va = Split.of(HOLDOUT).indices(arr.match_id, 0)
    chance = 100 * float(np.mean(1 / arr.mask[va].sum(axis=1)))
    assert m["val_acc"] > 3 * chance, (m["val_acc"], chance)  # measured 46.25 % vs 7.56 %
    train_fold(ds, NET, HOLDOUT, bot="b", fold=0, checkpoint_path=tmp_path / "s" / "fold0.pt",
               metrics_path=tmp_path / "s" / "fold0.json", progress=False)
    assert (_files(tmp_path / "j" / "fold0.json", tmp_path / "j" / "fold0.pt")
            == _files(tmp_path / "s" / "fold0.json", tmp_path / "s" / "fold0.pt"))


def test_holdout_stacks_bots_like_each_bot_alone(tmp_path: Path) -> None:
    """``train.stack_bots`` with a hold-out: each bot is split by its own matches, and its
    files are those of the bot trained alone, byte for byte on CPU."""
    a, b = tmp_path / "a.parquet", tmp_path / "b.parquet"
    _synthetic(a, n_matches=30, per=10)
    _synthetic(b, n_matches=12, per=10)

    def member(run: str, bot: str) -> list[Member]:
        return [Member(NET, 0, tmp_path / run / f"{bot}.pt", tmp_path / run / f"{bot}.json")]

    together = train_bots({"a": (a, member("t", "a")), "b": (b, member("t", "b"))}, HOLDOUT,
                          progress=False)
    assert together["a"][0]["val_rows"] == 3 * 10 and together["b"][0]["val_rows"] == 1 * 10
    for bot, ds in (("a", a), ("b", b)):
        train_bots({bot: (ds, member("s", bot))}, HOLDOUT, progress=False)
        assert (_files(tmp_path / "t" / f"{bot}.json", tmp_path / "t" / f"{bot}.pt")
                == _files(tmp_path / "s" / f"{bot}.json", tmp_path / "s" / f"{bot}.pt"))


def test_heldout_keys_come_from_the_validation_matches(tmp_path: Path) -> None:
    """With a hold-out, a key from one of the 10 % validation matches is played by the one
    model (fold 0); a key from its training matches by nobody; a match in no dataset (not
    trained on at all) by the ensemble, as under k-fold."""
    import pandas as pd
    import pyarrow as pa
    import pyarrow.parquet as pq

    from ime.evaluate.heldout import dataset_match_folds, fold_agent_id, heldout_agents

    ids = [f"m{i}" for i in range(30) for _ in range(3)]
    pq.write_table(pa.table({"match_id": ids}), tmp_path / "d.parquet")
    fold_of = dataset_match_folds(tmp_path / "d.parquet", 5, seed=3, holdout=0.1)
    _, va = Split("holdout", 1, 0.1, 3).indices(ids, 0)
    val = {ids[i] for i in va}
    assert len(val) == 3 and val == {m for m, f in fold_of.items() if f == 0}
    train_only = sorted(set(ids) - val)
    keys = pd.DataFrame({"match_id": [*sorted(val), *train_only[:4], "zz"]})
    agents = heldout_agents(keys, fold_of, trained=[0], imitator="imit_x")
    assert agents == [fold_agent_id("imit_x", 0)] * 3 + [None] * 4 + ["imit_x"]
    # the k-fold table of the same dataset is another (the default stays as it was)
    assert dataset_match_folds(tmp_path / "d.parquet", 5, seed=3) != fold_of


def _metrics(fold: int, train: dict | None) -> dict:
    m = {"bot": "b", "net": "conv", "fold": fold, "train_acc": 90.0, "val_acc": 80.0 - fold,
         "epochs": 5, "folds": 5}
    return {**m, "config": {"train": train}} if train is not None else m


def test_table4_4_says_which_split_ran() -> None:
    stats = {"b": {"baseline": 20.0, "pairs": 100}}
    kfold = {"folds": 5, "seed": 0}  # metrics written before the option: k-fold
    df = table4_4([_metrics(k, kfold) for k in range(5)], stats, ["b"], ["conv"])
    assert df.iloc[0].split == "5-fold" and df.iloc[0].folds == 5
    assert list(df.columns[:9]) == ["bot", "baseline", "net", "train_acc_mean", "train_acc_std",
                                    "val_acc_mean", "val_acc_std", "folds", "split"]
    two = table4_4([_metrics(k, kfold) for k in range(2)], stats, ["b"], ["conv"]).iloc[0]
    assert (two.split, two.folds) == ("5-fold", 2)  # run_folds=2: two of the 5-fold split ran
    hold = {**kfold, "split": "holdout", "holdout": 0.1}
    row = table4_4([{**_metrics(0, hold), "folds": 1}], stats, ["b"], ["conv"]).iloc[0]
    assert (row.split, row.folds, row.val_acc_std) == ("holdout 10%", 1, 0.0)
    with pytest.raises(ValueError, match="different splits"):
        table4_4([_metrics(0, hold), _metrics(1, kfold)], stats, ["b"], ["conv"])
