"""k-fold split by match, the training loop's determinism, and Table 4.4 (src/ime/train)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from ime.datasets.schema import make_table, read_arrays, write_table
from ime.nets import load_checkpoint
from ime.train.folds import match_folds, row_folds, split_indices
from ime.train.loop import train_fold
from ime.train.tables import table4_4


def test_folds_split_by_match() -> None:
    ids = np.array([f"m{i // 7:03d}" for i in range(7 * 23)], dtype=object)  # 23 matches
    f = row_folds(ids, 5, seed=0)
    for m in set(ids):
        assert len(set(f[ids == m])) == 1  # a match never straddles folds
    sizes = np.bincount([match_folds(ids, 5, 0)[m] for m in sorted(set(ids))])
    assert sizes.max() - sizes.min() <= 1 and sizes.sum() == 23
    assert np.array_equal(f, row_folds(ids, 5, seed=0))
    assert not np.array_equal(f, row_folds(ids, 5, seed=1))
    covered = np.zeros(len(ids), dtype=int)
    for k in range(5):
        tr, va = split_indices(ids, 5, k, seed=0)
        assert not set(ids[tr]) & set(ids[va])
        assert len(tr) + len(va) == len(ids)
        covered[va] += 1
    assert (covered == 1).all()  # every row validates exactly once
    # order of rows does not change a match's fold
    perm = np.random.default_rng(0).permutation(len(ids))
    assert np.array_equal(row_folds(ids[perm], 5, 0), f[perm])
    with pytest.raises(ValueError):
        match_folds(["a", "b"], 5, 0)


def _synthetic(path: Path, n_matches: int = 40, per: int = 20) -> None:
    """A learnable bot: plays the legal square with the most own-disc neighbours... roughly."""
    rng = np.random.default_rng(0)
    n = n_matches * per
    state = rng.integers(0, 2, (n, 2, 8, 8)).astype(np.uint8)
    mask = (rng.random((n, 64)) < 0.2).astype(np.uint8)
    mask[np.arange(n), rng.integers(0, 64, n)] = 1
    score = state[:, 0].reshape(n, 64) * 2.0 + np.arange(64) / 64.0
    action = np.where(mask == 1, score, -1).argmax(axis=1)
    cols = {
        "bot": ["b"] * n, "match_id": [f"m{i // per:03d}" for i in range(n)],
        "ply": np.arange(n) % per, "seat": np.zeros(n), "players": [["b", "o"]] * n,
        "state": state.reshape(n, -1), "mask": mask, "action": action,
        "response": ["{}"] * n,
    }
    write_table(make_table(cols, 128, 64), path,
                {"game": "reversi", "encoder_version": "reversi-planes-v1",
                 "state_shape": [2, 8, 8], "num_actions": 64})


NET = {"name": "mlp1", "kind": "mlp", "hidden": [32, 32], "init_std": None}
TRAIN = {"folds": 4, "seed": 0, "lr": 2e-3, "batch_size": 64, "max_epochs": 4, "patience": 3,
         "device": "cpu", "weight_decay": 0.0}


def test_train_fold_is_deterministic(tmp_path: Path) -> None:
    ds = tmp_path / "b.parquet"
    _synthetic(ds)
    runs = []
    for k in range(2):
        m = train_fold(ds, NET, TRAIN, bot="b", fold=1, checkpoint_path=tmp_path / f"{k}.pt",
                       metrics_path=tmp_path / f"{k}.json", threads=1, progress=False)
        runs.append(m)
    a, b = (json.loads((tmp_path / f"{k}.json").read_text()) for k in range(2))
    a.pop("timing"), b.pop("timing")
    assert a == b
    m = runs[0]
    assert m["val_rows"] == 10 * 20 and m["train_rows"] == 30 * 20
    assert 1 <= m["epochs"] <= 4 and len(m["history"]) == m["epochs"]
    assert m["train_acc"] > 30  # far above chance (~1/14): the toy bot is learnable
    # ... and the net generalises: on matches it never saw, it is right well above chance
    # (chance = mean 1/legal moves of those rows, ~7.7 %; measured val_acc 34 %, 4.4x)
    arr = read_arrays(ds)
    _, va = split_indices(arr.match_id, TRAIN["folds"], 1, TRAIN["seed"])
    chance = 100 * float(np.mean(1 / arr.mask[va].sum(axis=1)))
    assert m["val_acc"] > 3 * chance, (m["val_acc"], chance)
    assert m["timing"]["samples_per_s"] > 0
    net = load_checkpoint(tmp_path / "0.pt")
    assert net.checkpoint["fold"] == 1 and net.checkpoint["encoder_version"]


def test_determinism_switches_the_kernels_without_loading_inductor() -> None:
    """set_determinism makes torch's kernels deterministic (warn-only off the CPU) and does not
    import ``torch._inductor.config`` (1.5 s a train job; IME never calls torch.compile). In a
    fresh interpreter, since this one may have loaded inductor already."""
    code = """
import json, sys, torch
from ime.train.loop import set_determinism
out = {"before": torch.are_deterministic_algorithms_enabled()}
set_determinism(1, torch.device("cpu"))
out["cpu"] = [torch.are_deterministic_algorithms_enabled(),
              torch.is_deterministic_algorithms_warn_only_enabled()]
out["inductor"] = "torch._inductor.config" in sys.modules
set_determinism(1, torch.device("meta"))
out["other"] = [torch.are_deterministic_algorithms_enabled(),
                torch.is_deterministic_algorithms_warn_only_enabled()]
print(json.dumps(out))
"""
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         timeout=300)
    assert run.returncode == 0, run.stderr[-2000:]
    out = json.loads(run.stdout.strip().splitlines()[-1])
    assert out == {"before": False, "cpu": [True, False], "inductor": False,
                   "other": [True, True]}


def test_validation_rows_seen_in_training_are_reported(tmp_path: Path) -> None:
    """Repeated games are counted: val_seen_share and the accuracy on the unseen positions."""
    import pyarrow as pa
    import pyarrow.parquet as pq
    import torch

    uniq = tmp_path / "u.parquet"
    _synthetic(uniq, n_matches=20, per=10)
    m = train_fold(uniq, NET, TRAIN, bot="b", fold=0, checkpoint_path=tmp_path / "u.pt",
                   metrics_path=tmp_path / "u.json", progress=False)
    assert m["val_seen_share"] == 0 and m["val_unseen_rows"] == m["val_rows"]
    assert m["val_acc_unseen"] == m["val_acc"]

    # every match played twice (a deterministic pairing): the twin's rows repeat exactly
    t = pq.read_table(uniq)
    twin = t.set_column(t.schema.get_field_index("match_id"), "match_id",
                        [[mid.replace("m", "r") for mid in t.column("match_id").to_pylist()]])
    twice = tmp_path / "t.parquet"
    pq.write_table(pa.concat_tables([t, twin.cast(t.schema)]), twice)
    m = train_fold(twice, NET, TRAIN, bot="b", fold=0, checkpoint_path=tmp_path / "t.pt",
                   metrics_path=tmp_path / "t.json", progress=False)
    arr = read_arrays(twice)
    tr, va = split_indices(arr.match_id, TRAIN["folds"], 0, TRAIN["seed"])
    train_states = {arr.state[i].tobytes() for i in tr}
    unseen = [i for i in va if arr.state[i].tobytes() not in train_states]
    assert 0 < len(unseen) < len(va)  # some twins fell in another fold, some in the same one
    assert m["val_unseen_rows"] == len(unseen)
    assert m["val_seen_share"] == pytest.approx(100 * (len(va) - len(unseen)) / len(va))
    net = load_checkpoint(tmp_path / "t.pt")
    with torch.no_grad():
        logits = net(torch.from_numpy(arr.state[unseen]).float(),
                     torch.from_numpy(arr.mask[unseen]).float())
    acc = 100 * float((logits.argmax(1).numpy() == arr.action[unseen]).mean())
    assert m["val_acc_unseen"] == pytest.approx(acc)


def test_early_stopping(tmp_path: Path) -> None:
    ds = tmp_path / "b.parquet"
    _synthetic(ds, n_matches=12, per=10)
    cfg = {**TRAIN, "max_epochs": 50, "patience": 1, "lr": 2e-3}
    m = train_fold(ds, NET, cfg, bot="b", fold=0, checkpoint_path=tmp_path / "c.pt",
                   metrics_path=tmp_path / "c.json", progress=False)
    assert m["epochs"] < 50
    assert m["epochs"] - m["best_epoch"] == 1  # stopped one epoch after the best
    losses = [h["val_loss"] for h in m["history"]]
    assert min(losses) == losses[m["best_epoch"] - 1]


def test_table4_4() -> None:
    metrics = [{"bot": "b", "net": "conv", "fold": k, "train_acc": 90 + k, "val_acc": 80 - k,
                "epochs": 5} for k in range(3)]
    df = table4_4(metrics, {"b": {"baseline": 20.0, "pairs": 100}}, ["b"], ["conv"])
    row = df.iloc[0]
    assert row.train_acc_mean == 91 and row.val_acc_mean == 79
    assert row.val_acc_std == pytest.approx(1.0) and row.folds == 3
    assert np.isnan(row.val_acc_unseen_mean)  # metrics from before the field: unknown, not 0
    seen = [{**m, "val_acc_unseen": 70 - m["fold"], "val_seen_share": 10.0} for m in metrics]
    row = table4_4(seen, {"b": {"baseline": 20.0, "pairs": 100}}, ["b"], ["conv"]).iloc[0]
    assert row.val_acc_unseen_mean == 69 and row.val_seen_share_mean == 10
    with pytest.raises(ValueError):
        table4_4(metrics, {"b": {"baseline": 20.0, "pairs": 100}}, ["b"], ["mlp1"])


def test_symmetries_commute_with_the_rules() -> None:
    """Transforming a position's planes gives the legal moves of the transformed position."""
    import torch

    from ime.games.reversi import GAME
    from ime.games.reversi.encode import encode_boards, encode_states
    from ime.train.augment import Symmetries

    st = GAME.new_initial_state()
    rng = np.random.default_rng(3)
    states = []
    for _ in range(20):
        acts = st.legal_actions()
        st.apply_action(acts[int(rng.integers(len(acts)))])
        states.append(st.clone())
    planes, mask = encode_states(states)
    from ime.core.registry import get_encoder

    sym = Symmetries.of(get_encoder("reversi"), "sym8", torch.device("cpu"))
    action = torch.from_numpy(mask.argmax(axis=1))
    for k in range(len(sym)):
        p, m, a = sym.apply(k, torch.from_numpy(planes).float(), torch.from_numpy(mask).float(),
                            action)
        bits = (p.numpy().reshape(len(states), 2, 64).astype(np.uint64)
                << np.arange(64, dtype=np.uint64)).sum(axis=2, dtype=np.uint64)
        _, legal = encode_boards(bits[:, 0], bits[:, 1])
        assert np.array_equal(legal, m.numpy().astype(np.uint8)), sym.names[k]
        assert (m[torch.arange(len(states)), a] == 1).all()


def test_augment_and_monitor_options(tmp_path: Path) -> None:
    ds = tmp_path / "b.parquet"
    _synthetic(ds, n_matches=12, per=10)
    for opts in ({"augment": "sym8", "monitor": "val_acc"}, {"augment": "none",
                                                             "monitor": "val_loss"}):
        cfg = {**TRAIN, "max_epochs": 2, **opts}
        ms = [train_fold(ds, NET, cfg, bot="b", fold=0, checkpoint_path=tmp_path / "c.pt",
                         metrics_path=tmp_path / f"c{k}.json", progress=False) for k in range(2)]
        assert ms[0]["history"] == ms[1]["history"]
    with pytest.raises(ValueError, match="monitor"):
        train_fold(ds, NET, {**TRAIN, "monitor": "f1"}, bot="b", fold=0,
                   checkpoint_path=tmp_path / "c.pt", metrics_path=tmp_path / "c.json",
                   progress=False)


def test_training_benchmark_runs_the_real_step_on_valid_synthetic_rows() -> None:
    import torch

    from ime.train.bench import bench_training, synthetic_data

    d = synthetic_data(500, torch.device("cpu"), seed=3, game="reversi")
    assert d.planes.shape == (500, 2, 8, 8) and d.mask.shape == (500, 64)
    own, opp = d.planes[:, 0].reshape(500, -1), d.planes[:, 1].reshape(500, -1)
    assert not bool((own * opp).any())                       # a cell holds one plane's bit
    assert bool(((d.mask.sum(1) >= 4) & (d.mask.sum(1) <= 12)).all())
    assert bool(d.mask.gather(1, d.action[:, None]).all())   # the action is legal
    r = bench_training(nets=("mlp1", "conv"), rows=256, epochs=1, game="reversi")
    assert set(r["nets"]) == {"mlp1", "conv"} and r["device"] == "cpu"
    assert r["nets"]["mlp1"]["params"] == 33469 and r["nets"]["conv"]["params"] == 75102
    assert all(v["samples_per_s"] > 0 for v in r["nets"].values())


def test_training_benchmark_times_the_nets_and_batch_the_game_trains() -> None:
    """``ime bench <game> --only train`` times the game's own nets at its own batch size (Snake:
    Table 2.2's five at batch 32, lr 0.02), not Reversi's three at 64."""
    from ime.cli.bench import train_setup

    snake = train_setup("snake")
    assert list(snake["nets"]) == ["snake_mlp1", "snake_mlp2", "snake_conv1", "snake_conv2",
                                   "snake_conv3"]
    assert (snake["batch_size"], snake["lr"]) == (32, 0.02)
    assert snake["nets"]["snake_conv1"]["kernels"] == [3, 2, 3]
    reversi = train_setup("reversi")
    assert list(reversi["nets"]) == ["mlp1", "mlp2", "conv"]
    assert (reversi["batch_size"], reversi["lr"]) == (64, 1e-3)


def test_lr_decay_scales_every_epoch(tmp_path: Path) -> None:
    """``train.lr_decay``: epoch e trains at lr * decay ** (e - 1); 1.0 keeps the lr fixed."""
    ds = tmp_path / "b.parquet"
    _synthetic(ds, n_matches=12, per=10)
    cfg = {**TRAIN, "max_epochs": 4, "patience": 10, "lr": 0.02, "lr_decay": 0.5}
    m = train_fold(ds, NET, cfg, bot="b", fold=0, checkpoint_path=tmp_path / "c.pt",
                   metrics_path=tmp_path / "c.json", progress=False)
    assert [h["lr"] for h in m["history"]] == pytest.approx([0.02, 0.01, 0.005, 0.0025])
    flat = train_fold(ds, NET, {**cfg, "lr_decay": 1.0}, bot="b", fold=0,
                      checkpoint_path=tmp_path / "f.pt", metrics_path=tmp_path / "f.json",
                      progress=False)
    assert [h["lr"] for h in flat["history"]] == pytest.approx([0.02] * 4)
    assert flat["history"][-1]["train_loss"] != m["history"][-1]["train_loss"]
