"""The network zoo of Table 4.3 and the checkpoint contract (src/ime/nets)."""

from __future__ import annotations

from pathlib import Path

import pytest
import torch

from ime.core.registry import get_encoder
from ime.nets import MASK_VALUE, build_net, count_params, load_checkpoint, save_checkpoint
from ime.train.bench import load_net
from ime.train.tables import table4_3

NETS = {n: load_net(n) for n in ("mlp1", "mlp2", "conv")}
ENC = get_encoder("reversi")
SHAPE, ACTIONS = ENC.state_shape, ENC.num_actions
THESIS = {"mlp1": 33472, "mlp2": 79104, "conv": 75088}


@pytest.mark.parametrize("name", ["mlp1", "mlp2", "conv"])
def test_param_counts_match_thesis(name: str) -> None:
    n = count_params(build_net(NETS[name], SHAPE, ACTIONS, seed=0))
    assert abs(n - THESIS[name]) / THESIS[name] < 0.001, n
    assert NETS[name]["thesis_params"] == THESIS[name]


def test_exact_counts() -> None:
    df = table4_3(NETS, SHAPE, ACTIONS)
    assert dict(zip(df.net, df.params, strict=True)) == {
        "mlp1": 33469, "mlp2": 79104, "conv": 75102}
    assert "BN" in df.set_index("net").loc["conv", "layers"]


@pytest.mark.parametrize("name", ["mlp1", "mlp2", "conv"])
def test_mask_removes_illegal_actions(name: str) -> None:
    net = build_net(NETS[name], SHAPE, ACTIONS, seed=1).eval()
    x = torch.randint(0, 2, (8, 2, 8, 8)).float()
    mask = torch.zeros(8, 64)
    mask[:, [3, 17, 40]] = 1
    logits = net(x, mask)
    assert logits.shape == (8, 64)
    p = torch.softmax(logits, dim=1)
    assert torch.all(p[:, [i for i in range(64) if i not in (3, 17, 40)]] == 0)
    assert torch.allclose(p.sum(dim=1), torch.ones(8))
    assert torch.all(logits[mask == 0] == MASK_VALUE)
    assert set(logits.argmax(dim=1).tolist()) <= {3, 17, 40}


def test_init_is_normal_not_zero() -> None:
    net = build_net(NETS["mlp1"], SHAPE, ACTIONS, seed=0)
    w = net.body[1].weight
    assert w.std().item() == pytest.approx((2 / 128) ** 0.5, rel=0.1)
    assert abs(w.mean().item()) < 0.02
    a = build_net(NETS["conv"], SHAPE, ACTIONS, seed=3).state_dict()
    b = build_net(NETS["conv"], SHAPE, ACTIONS, seed=3).state_dict()
    assert all(torch.equal(a[k], b[k]) for k in a)
    wide = build_net({**NETS["mlp1"], "init_std": 1.0}, SHAPE, ACTIONS, seed=0)
    std1 = wide.body[1].weight.std().item()
    assert std1 == pytest.approx(1.0, rel=0.1)


def test_checkpoint_round_trip(tmp_path: Path) -> None:
    net = build_net(NETS["conv"], SHAPE, ACTIONS, seed=0)
    net.train()
    x = torch.randint(0, 2, (16, 2, 8, 8)).float()
    mask = torch.ones(16, 64)
    net(x, mask)  # move the batch-norm running stats away from their init
    net.eval()
    path = tmp_path / "m.pt"
    save_checkpoint(path, net, game="reversi", encoder_version="reversi-planes-v1", fold=2,
                    in_shape=(2, 8, 8), num_actions=64, extra={"bot": "rev1"})
    raw = torch.load(path, weights_only=True)
    assert {"net", "net_config", "state_dict", "game", "encoder_version", "fold"} <= set(raw)
    assert raw["net"] == "conv" and raw["fold"] == 2 and raw["game"] == "reversi"
    back = load_checkpoint(path)
    assert not back.training
    assert back.checkpoint["bot"] == "rev1"
    with torch.no_grad():
        assert torch.equal(back(x, mask), net(x, mask))


def test_options_mask_input_and_dropout() -> None:
    base = count_params(build_net(NETS["conv"], SHAPE, ACTIONS, seed=0))
    with_mask = build_net({**NETS["conv"], "mask_input": True}, SHAPE, ACTIONS, seed=0)
    assert count_params(with_mask) == base + 9 * NETS["conv"]["channels"][0]
    x = torch.randint(0, 2, (4, 2, 8, 8)).float()
    mask = torch.ones(4, 64)
    assert with_mask(x, mask).shape == (4, 64)
    drop = build_net({**NETS["mlp1"], "dropout": 0.5}, SHAPE, ACTIONS, seed=0).eval()
    assert torch.equal(drop(x, mask), drop(x, mask))  # identity in eval mode


def test_resnet_counts_shapes_and_residual_tower() -> None:
    """``net=resnet``: stem + blocks x 2 conv + 1x1 head, BN throughout, any board size."""
    cfg = load_net("resnet")
    assert cfg["kind"] == "resnet" and (cfg["blocks"], cfg["width"]) == (6, 64)
    net = build_net(cfg, SHAPE, ACTIONS, seed=0)
    c, w, b, hc = SHAPE[0], 64, 6, 2
    expected = (c * w * 9 + 2 * w) + b * 2 * (w * w * 9 + 2 * w) + (w * hc + 2 * hc) \
        + (hc * 64 * ACTIONS + ACTIONS)
    assert count_params(net) == expected == 453572
    small = {**cfg, "blocks": 2, "width": 8}
    net = build_net(small, (4, 10, 11), 4, seed=0).eval()
    mask = torch.tensor([[1, 0, 1, 0]] * 5).float()
    logits = net(torch.rand(5, 4, 10, 11), mask)
    assert logits.shape == (5, 4) and torch.all(logits[mask == 0] == MASK_VALUE)
    # the skip is real: zeroing every block's second BN scale leaves relu(x) of the block input
    blocks = [m for m in net.modules() if type(m).__name__ == "ResidualBlock"]
    assert len(blocks) == 2
    x = torch.randn(3, 8, 10, 11)
    with torch.no_grad():
        blocks[0].bn2.weight.zero_()
        blocks[0].bn2.bias.zero_()
        assert torch.equal(blocks[0](x), torch.relu(x))
    assert "6 residual blocks" in describe_net(cfg)


def describe_net(cfg: dict) -> str:
    from ime.nets import describe

    return describe(cfg, SHAPE, ACTIONS)


def test_resnet_trains_alone_with_the_same_outputs_as_a_lone_run(tmp_path: Path) -> None:
    """The stacked trainer cannot run residual additions: members fall back to ``train_fold``
    and write the same checkpoint and metrics a lone run writes."""
    import hashlib
    import json

    import numpy as np

    from ime.datasets.schema import make_table, write_table
    from ime.train.ensemble import Member, train_members
    from ime.train.loop import train_fold

    rng = np.random.default_rng(0)
    n = 120
    state = rng.integers(0, 2, (n, 2, 8, 8)).astype(np.uint8)
    mask = (rng.random((n, 64)) < 0.3).astype(np.uint8)
    mask[np.arange(n), rng.integers(0, 64, n)] = 1
    action = np.where(mask == 1, rng.random((n, 64)), -1).argmax(axis=1)
    cols = {"bot": ["b"] * n, "match_id": [f"m{k // 8:03d}" for k in range(n)],
            "ply": np.arange(n) % 8, "seat": np.zeros(n), "players": [["b", "o"]] * n,
            "response": ["{}"] * n, "state": state.reshape(n, -1), "mask": mask,
            "action": action}
    ds = tmp_path / "b.parquet"
    write_table(make_table(cols, 128, 64), ds, {"game": "reversi",
                                                 "encoder_version": "reversi-planes-v1",
                                                 "state_shape": [2, 8, 8], "num_actions": 64})
    cfg = {**load_net("resnet"), "blocks": 1, "width": 8}
    train = {"folds": 3, "seed": 1, "lr": 1e-3, "batch_size": 32, "max_epochs": 2,
             "patience": 1, "device": "cpu", "weight_decay": 0.0}
    members = [Member(cfg, k, tmp_path / "a" / f"{k}.pt", tmp_path / "a" / f"{k}.json")
               for k in range(2)]
    train_members(ds, members, train, bot="b", progress=False)
    train_fold(ds, cfg, train, bot="b", fold=1, checkpoint_path=tmp_path / "c" / "1.pt",
               metrics_path=tmp_path / "c" / "1.json", progress=False)

    def files(d: Path) -> tuple:
        m = json.loads((d / "1.json").read_text())
        m.pop("timing")
        return m, hashlib.sha256((d / "1.pt").read_bytes()).hexdigest()

    assert files(tmp_path / "a") == files(tmp_path / "c")
    assert json.loads((tmp_path / "a" / "0.json").read_text())["epochs"] >= 1
