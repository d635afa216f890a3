"""Many members trained at once (``ime.train.ensemble``) equal the same members trained alone."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import numpy as np
import pytest
import torch
from synthetic_games import registered  # noqa: F401 - fixture by name

from ime.datasets.schema import heads_metadata, make_table, write_table
from ime.nets import build_net
from ime.train.augment import Symmetries
from ime.train.ensemble import (
    Member,
    StackedSymmetries,
    adam_step,
    train_bots,
    train_epoch,
    train_members,
)
from ime.train.loop import TensorData, train_fold
from ime.train.stacked import StackedNet, StackState

MLP = {"name": "mlp", "kind": "mlp", "hidden": [24, 16]}
CONV = {"name": "conv", "kind": "conv", "channels": [6, 4], "kernel": 3, "batch_norm": True,
        "hidden": []}  # Table 4.3's CONV shape: conv -> conv -> BN -> ReLU -> dense
SNAKE = {"name": "snk", "kind": "conv", "channels": [6, 6], "kernels": [3, 2], "strides": [1, 2],
         "padding": "same", "batch_norm": "all", "hidden": [12]}  # BN after every layer
DROP = {"name": "drop", "kind": "mlp", "hidden": [16], "dropout": 0.2}
TRAIN = {"folds": 4, "seed": 3, "lr": 5e-3, "batch_size": 49, "max_epochs": 6, "patience": 1,
         "device": "cpu", "weight_decay": 0.0}
META = {"game": "reversi", "encoder_version": "reversi-planes-v1", "state_shape": [2, 8, 8],
        "num_actions": 64}


def _columns(match_of_row: np.ndarray) -> dict:
    n = len(match_of_row)
    return {"bot": ["b"] * n, "match_id": [f"m{m:03d}" for m in match_of_row],
            "ply": np.arange(n) % 7, "seat": np.zeros(n), "players": [["b", "o"]] * n,
            "response": ["{}"] * n}


def _one_head(path: Path, n_matches: int = 23) -> None:
    """Reversi-shaped rows of matches of 6-19 decisions whose label is mostly the legal square
    with an own disc. With 23 matches, 4 folds and seed 3 the folds train on 211, 211, 246 and
    238 rows: at batch 49, 5 or 6 batches ending on 15, 15, 1 and 42 rows."""
    lengths = np.random.default_rng(0).integers(6, 20, n_matches)
    match_of_row = np.repeat(np.arange(n_matches), lengths)
    rng = np.random.default_rng(5)
    n = len(match_of_row)
    state = rng.integers(0, 2, (n, 2, 8, 8)).astype(np.uint8)
    mask = (rng.random((n, 64)) < 0.2).astype(np.uint8)
    mask[np.arange(n), rng.integers(0, 64, n)] = 1
    score = state[:, 0].reshape(n, 64) * 2.0 + rng.random((n, 64))
    action = np.where(mask == 1, score, -1).argmax(axis=1)
    cols = {**_columns(match_of_row), "state": state.reshape(n, -1), "mask": mask,
            "action": action}
    write_table(make_table(cols, 128, 64), path, dict(META))


def _two_heads(path: Path, n_matches: int = 19, per: int = 9) -> None:
    """``synthetic_heads`` rows: a major code (4) and, for majors 2 and 3, a minor code (3)."""
    rng = np.random.default_rng(6)
    n = n_matches * per
    state = rng.integers(0, 2, (n, 2, 1, 4)).astype(np.uint8)
    major = (rng.random((n, 4)) < 0.5).astype(np.uint8)
    major[np.arange(n), rng.integers(0, 4, n)] = 1
    a_major = np.where(major == 1, state[:, 0, 0] + rng.random((n, 4)), -1).argmax(axis=1)
    minor = (rng.random((n, 3)) < 0.6).astype(np.uint8)
    minor[np.arange(n), a_major % 3] = 1
    used = a_major >= 2
    minor[~used] = 0
    cols = {**_columns(np.arange(n) // per), "state": state.reshape(n, -1), "mask": major,
            "action": a_major, "mask_minor": minor, "action_minor": np.where(used, a_major % 3,
                                                                             -1)}
    heads = [("major", 4), ("minor", 3)]
    write_table(make_table(cols, 8, 4, heads[1:]), path,
                {"game": "synthetic_heads", "encoder_version": "synthetic-heads-v1",
                 "state_shape": [2, 1, 4], "num_actions": 4, **heads_metadata(heads)})


def _files(metrics_path: Path, ckpt_path: Path) -> tuple[dict, str]:
    """The metrics JSON without its timing, and the checkpoint's bytes (its name is part of
    them: compare files of one name in two folders)."""
    metrics = json.loads(metrics_path.read_text())
    metrics.pop("timing")
    return metrics, hashlib.sha256(ckpt_path.read_bytes()).hexdigest()


def test_members_equal_serial_runs_bit_for_bit(tmp_path: Path) -> None:
    """Folds of different sizes (and a one-row last batch), BN nets, members that stop at
    different epochs: on CPU each member writes exactly the files of its lone ``train_fold``
    run (mode ``exact``, the CPU default)."""
    ds = tmp_path / "b.parquet"
    _one_head(ds)
    jobs = [(MLP, f) for f in range(4)] + [(CONV, 2), (CONV, 3), (SNAKE, 0), (SNAKE, 2)]
    members = [Member(cfg, f, tmp_path / "e" / f"{i}.pt", tmp_path / "e" / f"{i}.json")
               for i, (cfg, f) in enumerate(jobs)]
    ens = train_members(ds, members, TRAIN, bot="b", progress=False)
    assert len({m["epochs"] for m in ens}) > 1  # members stopped at different epochs
    assert any(m["epochs"] < TRAIN["max_epochs"] for m in ens)
    rows = [m["train_rows"] for m in ens]
    assert len({-(-n // 49) for n in rows}) > 1  # different numbers of batches per epoch
    assert rows[7] % 49 == 1  # a BN-everywhere net with a one-row last batch
    for i, (cfg, f) in enumerate(jobs):
        train_fold(ds, cfg, TRAIN, bot="b", fold=f, checkpoint_path=tmp_path / "s" / f"{i}.pt",
                   metrics_path=tmp_path / "s" / f"{i}.json", progress=False)
        serial = _files(tmp_path / "s" / f"{i}.json", tmp_path / "s" / f"{i}.pt")
        assert _files(tmp_path / "e" / f"{i}.json", tmp_path / "e" / f"{i}.pt") == serial
        metrics = json.loads(json.dumps(ens[i]))
        metrics.pop("timing")
        assert metrics == serial[0]


@pytest.mark.usefixtures("registered")
def test_multi_head_augmented_members_equal_serial_runs(tmp_path: Path) -> None:
    """Two heads, symmetry augmentation, val_acc monitor, lr decay and weight decay."""
    ds = tmp_path / "h.parquet"
    _two_heads(ds)
    cfg = {**TRAIN, "folds": 3, "batch_size": 16, "augment": "mirror", "monitor": "val_acc",
           "lr_decay": 0.8, "weight_decay": 1e-3, "max_epochs": 4, "patience": 2}
    jobs = [(MLP, 0), (MLP, 2), (CONV, 1), (SNAKE, 0)]
    members = [Member(c, f, tmp_path / "e" / f"{i}.pt", tmp_path / "e" / f"{i}.json")
               for i, (c, f) in enumerate(jobs)]
    train_members(ds, members, cfg, bot="b", progress=False)
    for i, (c, f) in enumerate(jobs):
        s = train_fold(ds, c, cfg, bot="b", fold=f, checkpoint_path=tmp_path / "s" / f"{i}.pt",
                       metrics_path=tmp_path / "s" / f"{i}.json", progress=False)
        assert "val_acc_major" in s and [h["lr"] for h in s["history"]][:2] == [5e-3, 4e-3]
        assert (_files(tmp_path / "e" / f"{i}.json", tmp_path / "e" / f"{i}.pt")
                == _files(tmp_path / "s" / f"{i}.json", tmp_path / "s" / f"{i}.pt"))


@pytest.mark.parametrize("mode", ["loop", "grouped"])
def test_batched_modes_equal_serial_runs_to_rounding(tmp_path: Path, mode: str) -> None:
    """The batched modes (``grouped`` is the CUDA default) sum in another order, so they agree
    with a lone run to float rounding. (Nets here have no bias right before a batch norm: such
    a bias's gradient is pure rounding noise, which Adam scales up to full steps, so runs that
    round differently part there; the forward test covers CONV's layers.)"""
    ds = tmp_path / "b.parquet"
    _one_head(ds, n_matches=16)
    jobs = [(MLP, 0), (MLP, 1), (SNAKE, 2), (SNAKE, 3)]
    members = [Member(c, f, tmp_path / f"e{i}.pt", tmp_path / f"e{i}.json")
               for i, (c, f) in enumerate(jobs)]
    cfg = {**TRAIN, "max_epochs": 4, "augment": "sym8"}
    ens = train_members(ds, members, cfg, bot="b", progress=False, mode=mode)
    for i, (c, f) in enumerate(jobs):
        s = train_fold(ds, c, cfg, bot="b", fold=f, checkpoint_path=tmp_path / f"s{i}.pt",
                       metrics_path=tmp_path / f"s{i}.json", progress=False)
        e = ens[i]
        assert s.keys() == e.keys() and s["timing"].keys() == e["timing"].keys()
        assert (s["epochs"], s["best_epoch"]) == (e["epochs"], e["best_epoch"])
        for k, v in s.items():
            if isinstance(v, float):
                assert e[k] == pytest.approx(v, rel=1e-4, abs=1e-6, nan_ok=True), k
        for a, b in zip(s["history"], e["history"], strict=True):
            assert a["lr"] == b["lr"] and b == pytest.approx(a, rel=1e-4)
        sa = torch.load(tmp_path / f"s{i}.pt", weights_only=True)["state_dict"]
        sb = torch.load(tmp_path / f"e{i}.pt", weights_only=True)["state_dict"]
        for k, v in sa.items():
            if v.dtype.is_floating_point:
                assert torch.allclose(v, sb[k], rtol=1e-4, atol=1e-5 * float(v.abs().max())), k
            else:
                assert torch.equal(v, sb[k]), k  # num_batches_tracked: as many steps


def test_same_config_same_bytes_and_lone_fallback(tmp_path: Path) -> None:
    """Deterministic on CPU in a batched mode too; a net that does not stack (dropout) is
    trained by ``train_fold``."""
    ds = tmp_path / "b.parquet"
    _one_head(ds, n_matches=12)
    cfg = {**TRAIN, "max_epochs": 2, "augment": "sym8"}
    runs = []
    for run in ("a", "b"):
        members = [Member(c, f, tmp_path / run / f"{i}.pt", tmp_path / run / f"{i}.json")
                   for i, (c, f) in enumerate([(SNAKE, 0), (SNAKE, 1), (DROP, 2)])]
        train_members(ds, members, cfg, bot="b", progress=False, mode="loop")
        runs.append([_files(Path(m.metrics_path), Path(m.checkpoint_path)) for m in members])
    assert runs[0] == runs[1]
    train_fold(ds, DROP, cfg, bot="b", fold=2, checkpoint_path=tmp_path / "c" / "2.pt",
               metrics_path=tmp_path / "c" / "2.json", progress=False)
    assert runs[0][2] == _files(tmp_path / "c" / "2.json", tmp_path / "c" / "2.pt")


def _tiny(n: int = 96) -> TensorData:
    g = torch.Generator().manual_seed(0)
    idx = torch.arange(n)
    return TensorData(planes=(torch.rand(n, 2, 8, 8, generator=g) < 0.5).float(),
                      mask=torch.ones(n, 64), action=torch.randint(0, 64, (n,), generator=g),
                      train_idx=idx, val_idx=idx[:0], val_unseen_idx=idx[:0], in_shape=(2, 8, 8),
                      num_actions=64, encoder_version="v", game="reversi")


@pytest.mark.parametrize("cfg", [SNAKE, CONV])
@pytest.mark.parametrize("mode", ["exact", "loop", "grouped"])
def test_stacked_forward_and_batch_norm_match_the_modules(mode: str, cfg: dict) -> None:
    """Every mode (``grouped`` is the CUDA one) gives each member's own logits, gradients and
    batch-norm statistics; a one-row batch uses DenseNorm's running statistics."""
    models = [build_net(cfg, (2, 8, 8), [64], seed=s) for s in range(3)]
    net = StackedNet(models[0], torch.device("cpu"), mode)
    st = net.stack(models, torch.device("cpu"))
    # seeded inputs: the global generator's state depends on which tests ran before in the worker
    gen = torch.Generator().manual_seed(7)
    for rows in (5, 1):
        x = torch.rand(3, rows, 2, 8, 8, generator=gen)
        mask = (torch.rand(3, rows, 64, generator=gen) < 0.5).float()
        out = net.forward(st, x, [mask], train=True)[0]
        (out.masked_fill(mask <= 0, 0) ** 2).sum().backward()
        for g, model in enumerate(models):
            model.train().zero_grad()
            ref = model(x[g], mask[g])
            (ref.masked_fill(mask[g] <= 0, 0) ** 2).sum().backward()
            # float32 sums in another order (grouped convolutions): ~1e-5 relative apart
            assert torch.allclose(out[g], ref, rtol=1e-4, atol=1e-5)
            for p, (_, q) in zip(st.params, model.named_parameters(), strict=True):
                scale = 1e-4 * (1 + float(q.grad.abs().max()))
                assert torch.allclose(p.grad[g], q.grad, rtol=1e-4, atol=scale)
            for b, (_, c) in zip(st.buffers, model.named_buffers(), strict=True):
                assert torch.allclose(b[g].to(c.dtype), c, rtol=1e-5, atol=1e-6)
        for p in st.params:
            p.grad = None


def test_adam_matches_torch_with_per_member_steps_and_idle_members_do_not_move() -> None:
    data = _tiny()
    models = [build_net(MLP, (2, 8, 8), [64], seed=s) for s in range(3)]
    lone = [build_net(MLP, (2, 8, 8), [64], seed=s) for s in range(3)]
    opts = [torch.optim.Adam(m.parameters(), lr=1e-2, weight_decay=1e-3) for m in lone]
    net = StackedNet(models[0], torch.device("cpu"))
    for fused in (True, False):
        st = net.stack(models, torch.device("cpu"))
        for step in range(3):
            for p in st.params:
                p.grad = torch.rand(p.shape, generator=torch.Generator().manual_seed(step))
            take = [0, 1, 2] if step != 1 else [0, 2]  # member 1 sits out step 1
            sub = st.select(torch.tensor(take))
            for p, q in zip(sub.params, st.params, strict=True):
                p.grad = q.grad[take]
            adam_step(sub, 1e-2, 1e-3, fused=fused)
            st.scatter(torch.tensor(take), sub)
            if fused:
                for g in take:
                    for p, q in zip(lone[g].parameters(), st.params, strict=True):
                        p.grad = q.grad[g].clone()
                    opts[g].step()
        assert st.step.tolist() == [3, 2, 3]
        for g, m in enumerate(lone):
            for p, q in zip(m.parameters(), st.params, strict=True):
                assert torch.allclose(p, q[g], rtol=1e-6, atol=1e-7)
    # a member without rows this epoch is untouched, bit for bit
    st = net.stack(models, torch.device("cpu"))
    before = StackState([p.detach().clone() for p in st.params], [b.clone() for b in st.buffers],
                        [t.clone() for t in st.exp_avg], [t.clone() for t in st.exp_avg_sq],
                        st.step.clone())
    sym = StackedSymmetries(Symmetries.of(_encoder(), "sym8", torch.device("cpu")))
    train_epoch(net, st, data, [data.train_idx[:70], data.train_idx[:0], data.train_idx[5:30]],
                32, 1e-2, sym=sym, ks=[[3, 1, 0], [], [7]])
    assert st.step.tolist() == [3, 0, 1]
    for now, then in ((st.params, before.params), (st.exp_avg, before.exp_avg)):
        for a, b in zip(now, then, strict=True):
            assert torch.equal(a[1], b[1]) and not torch.equal(a[0], b[0])


def _encoder():  # noqa: ANN202 - the registry's type
    from ime.core.registry import get_encoder

    return get_encoder("reversi")


def test_training_benchmark_times_members_at_once() -> None:
    from ime.train.bench import bench_training

    r = bench_training(nets={"mlp": MLP, "drop": DROP}, rows=256, epochs=1, game="reversi",
                       members=(1, 3))
    ens = r["nets"]["mlp"]["ensemble"]
    assert set(ens) == {"exact", "loop"} and all(set(e) == {1, 3} for e in ens.values())
    assert all(e[m]["samples_per_s"] > 0 for e in ens.values() for m in (1, 3))
    assert ens["loop"][3]["members"] == 3 and ens["loop"][3]["rows_per_member"] % 64 == 0
    assert "dropout" in r["nets"]["drop"]["ensemble"]["exact"][3]["unsupported"].lower()


def test_bots_stacked_together_equal_each_bot_alone(tmp_path: Path) -> None:
    """Two bots' folds in one stack (``train_bots``): each member's files are those of its bot
    trained alone, byte for byte on CPU, with its own rows, split and seed."""
    a, b = tmp_path / "a.parquet", tmp_path / "b.parquet"
    _one_head(a, n_matches=23)
    _one_head(b, n_matches=17)
    jobs = [(MLP, 0), (CONV, 1), (DROP, 2)]  # DROP does not stack: trained alone, per bot

    def members(run: str, bot: str) -> list[Member]:
        return [Member(c, f, tmp_path / run / f"{bot}{i}.pt", tmp_path / run / f"{bot}{i}.json")
                for i, (c, f) in enumerate(jobs)]

    together = train_bots({"a": (a, members("t", "a")), "b": (b, members("t", "b"))}, TRAIN,
                          progress=False)
    assert [m["bot"] for m in together["b"]] == ["b"] * 3
    for bot, ds in (("a", a), ("b", b)):
        alone = train_members(ds, members("s", bot), TRAIN, bot=bot, progress=False)
        assert [m["train_rows"] for m in alone] == [m["train_rows"] for m in together[bot]]
        for i in range(len(jobs)):
            assert (_files(tmp_path / "t" / f"{bot}{i}.json", tmp_path / "t" / f"{bot}{i}.pt")
                    == _files(tmp_path / "s" / f"{bot}{i}.json", tmp_path / "s" / f"{bot}{i}.pt"))
    assert together["a"][0]["val_acc"] != together["b"][0]["val_acc"]  # the bots' own rows


def test_bots_of_different_shapes_do_not_stack(tmp_path: Path) -> None:
    a, h = tmp_path / "a.parquet", tmp_path / "h.parquet"
    _one_head(a)
    _two_heads(h)
    with pytest.raises(ValueError, match="does not stack"):
        train_bots({"a": (a, []), "h": (h, [])}, TRAIN, progress=False)
