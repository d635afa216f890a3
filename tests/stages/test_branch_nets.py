"""Nets made of branches (src/ime/nets/branches.py): Table 5.5's parameter counts, the forward
contract (masks, shared kicker-step weights, unused heads), checkpoints, and the one-body nets
of Table 4.3 built exactly as before branches existed."""

from __future__ import annotations

from pathlib import Path

import pytest
import torch

from ime.nets import (
    MASK_VALUE,
    build_net,
    count_params,
    describe,
    load_checkpoint,
    save_checkpoint,
)
from ime.nets.branches import BranchNet, branch_params
from ime.train.bench import load_net
from ime.train.loop import heads_correct, heads_loss
from ime.train.tables import table4_3

SHAPE = (26, 4, 15)  # 6 major planes + 5 kicker steps of 4 planes, 4 x 15 card sets
HEADS = [309, 28, 28, 28, 28, 28]
DDZ = {n: load_net(n) for n in ("ddz_conv1", "ddz_conv2")}


@pytest.fixture(autouse=True)
def one_thread():
    before = torch.get_num_threads()
    torch.set_num_threads(1)
    yield
    torch.set_num_threads(before)


def batch(n: int = 12, seed: int = 0) -> tuple[torch.Tensor, list[torch.Tensor]]:
    """Random planes; every row has a major, row ``i`` uses ``i % 4`` kicker steps."""
    g = torch.Generator().manual_seed(seed)
    x = torch.randint(0, 2, (n, *SHAPE), generator=g).float()
    masks = [(torch.rand(n, s, generator=g) < 0.3).float() for s in HEADS]
    for m in masks:
        m[:, 0] = 1
    for i in range(n):
        for k in range(i % 4, 5):
            masks[1 + k][i] = 0
            x[i, 6 + 4 * k: 10 + 4 * k] = 0
    return x, masks


# --- Table 5.5 ----------------------------------------------------------------------------------
def test_table_5_5_parameter_counts():
    """Majors: exactly the thesis's. Minor-CONV-2: exactly. Minor-CONV-1: 33,624 trainable, and
    the thesis's 33,720 with batch norm's 96 running statistics (Keras's "Total params")."""
    c1 = build_net(DDZ["ddz_conv1"], SHAPE, HEADS, seed=0)
    c2 = build_net(DDZ["ddz_conv2"], SHAPE, HEADS, seed=0)
    assert isinstance(c1, BranchNet) and isinstance(c2, BranchNet)
    assert branch_params(c1) == {"major": 399219, "minor": 33624}
    assert branch_params(c1, buffers=True)["minor"] == 33720 == DDZ["ddz_conv1"]["thesis_params"][1]
    assert branch_params(c2) == {"major": 173247, "minor": 17856}
    assert list(branch_params(c2).values()) == DDZ["ddz_conv2"]["thesis_params"]
    assert DDZ["ddz_conv1"]["thesis_params"][0] == 399219
    assert count_params(c1) == 399219 + 33624 and count_params(c2) == 173247 + 17856
    df = table4_3(DDZ, SHAPE, HEADS)
    assert dict(zip(df.net, df.params, strict=True)) == {"ddz_conv1": 432843,
                                                          "ddz_conv2": 191103}
    assert describe(DDZ["ddz_conv1"], SHAPE, HEADS) == (
        "major 399219: conv3x3 6-32-16 + BN each + dense 960-309-309 | minor x5 shared 33624: "
        "conv3x3 4-32-16 + BN each + dense 960-28-28")


# --- forward --------------------------------------------------------------------------------------
@pytest.mark.parametrize("name", ["ddz_conv1", "ddz_conv2"])
def test_forward_shapes_and_masks(name):
    net = build_net(DDZ[name], SHAPE, HEADS, seed=1).eval()
    x, masks = batch()
    out = net(x, masks)
    assert [tuple(o.shape) for o in out] == [(12, s) for s in HEADS]
    for o, m in zip(out, masks, strict=True):
        assert torch.all(o[m == 0] == MASK_VALUE)
        assert torch.all(o[m > 0].abs() < 1e6)  # legal codes get real logits
        p = torch.softmax(o, dim=1)
        used = m.sum(dim=1) > 0
        assert torch.allclose(p[used].sum(dim=1), torch.ones(int(used.sum())))
    with pytest.raises(ValueError, match="6 heads"):
        net(x, masks[:2])


def test_kicker_steps_share_one_net_and_rows_are_independent():
    net = build_net(DDZ["ddz_conv1"], SHAPE, HEADS, seed=2).eval()
    x, masks = batch(8)
    for k in range(1, 5):  # the same step planes and mask in every slot
        x[:, 6 + 4 * k: 10 + 4 * k] = x[:, 6:10]
        masks[1 + k] = masks[1].clone()
    out = net(x, masks)
    for k in range(1, 5):
        assert torch.equal(out[1 + k], out[1])
    alone = net(x[3:4], [m[3:4] for m in masks])  # eval mode: a row does not see the others
    assert all(torch.allclose(a[0], o[3], atol=1e-5) for a, o in zip(alone, out, strict=True))


def test_unused_heads_are_masked_and_skipped():
    net = build_net(DDZ["ddz_conv2"], SHAPE, HEADS, seed=3).eval()
    x, masks = batch(4)
    for m in masks[1:]:
        m.zero_()
    out = net(x, masks)
    assert all(torch.all(o == MASK_VALUE) for o in out[1:])
    x2 = x.clone()
    x2[:, 6:] = torch.rand_like(x2[:, 6:])  # the unused steps' planes do not matter
    assert torch.equal(net(x2, masks)[0], out[0])


def test_training_steps_learn_every_head():
    """The loss and accuracy of ime.train.loop (labels -1 = head unused) train both branches."""
    torch.manual_seed(0)
    net = build_net(DDZ["ddz_conv2"], SHAPE, HEADS, seed=4)
    x, masks = batch(16, seed=5)
    y = torch.full((16, 6), -1, dtype=torch.long)
    for h, m in enumerate(masks):
        for i in range(16):
            legal = torch.nonzero(m[i]).flatten()
            if len(legal):
                y[i, h] = legal[-1]
    opt = torch.optim.Adam(net.parameters(), lr=3e-3)
    before = [p.detach().clone() for p in net.parameters()]
    for _ in range(60):
        loss = heads_loss(net(x, masks), y) / 16
        opt.zero_grad()
        loss.backward()
        opt.step()
    assert all(not torch.equal(a, b) for a, b in zip(before, net.parameters(), strict=True))
    net.eval()
    assert heads_correct(net(x, masks), y).all()


def test_same_seed_same_weights():
    a = build_net(DDZ["ddz_conv1"], SHAPE, HEADS, seed=9).state_dict()
    b = build_net(DDZ["ddz_conv1"], SHAPE, HEADS, seed=9).state_dict()
    c = build_net(DDZ["ddz_conv1"], SHAPE, HEADS, seed=10).state_dict()
    assert all(torch.equal(a[k], b[k]) for k in a)
    assert not torch.equal(a["branches.1.body.0.weight"], c["branches.1.body.0.weight"])


def test_checkpoint_round_trip(tmp_path: Path):
    net = build_net(DDZ["ddz_conv1"], SHAPE, HEADS, seed=6)
    x, masks = batch(6)
    net.train()
    net(x, masks)  # move the batch-norm statistics off their initial values
    net.eval()
    want = net(x, masks)
    path = tmp_path / "ddz.pt"
    save_checkpoint(path, net, game="g", encoder_version="v", fold=0, in_shape=SHAPE,
                    num_actions=HEADS)
    back = load_checkpoint(path)
    assert isinstance(back, BranchNet) and back.checkpoint["head_sizes"] == HEADS
    assert back.name == "ddz_conv1"
    got = back(x, masks)
    assert all(torch.equal(a, b) for a, b in zip(want, got, strict=True))


@pytest.mark.parametrize("change, words", [
    ({"branches": []}, "non-empty"),
    ({"branches": [{"planes": [0, 6], "heads": 1, "kind": "mlp"}]}, "serve 1 heads"),
    ({"branches": [{"planes": [0, 6], "heads": 2, "kind": "mlp"},
                   {"planes": [6, 10], "heads": 4, "kind": "mlp"}]}, "one size"),
    ({"branches": [{"planes": [0, 6], "heads": 1, "kind": "mlp"},
                   {"planes": [6, 10], "heads": 5, "plane_stride": 5, "kind": "mlp"}]},
     "do not fit"),
    ({"branches": [{"planes": [0, 6], "heads": 1, "kind": "rnn"},
                   {"planes": [6, 10], "heads": 5, "plane_stride": 4, "kind": "mlp"}]}, "kind"),
])
def test_bad_branch_configs_are_named(change, words):
    with pytest.raises(ValueError, match=words):
        build_net({"name": "x", "kind": "branches", **change}, SHAPE, HEADS)
    with pytest.raises(ValueError, match="no mask_input"):
        build_net({**DDZ["ddz_conv2"], "dropout": 0.5}, SHAPE, HEADS)


def test_mlp_branches():
    cfg = {"name": "x", "kind": "branches", "branches": [
        {"planes": [0, 6], "heads": 1, "kind": "mlp", "hidden": [20]},
        {"planes": [6, 10], "heads": 5, "plane_stride": 4, "kind": "mlp", "hidden": []}]}
    net = build_net(cfg, SHAPE, HEADS, seed=0)
    assert branch_params(net) == {"branch0": 360 * 20 + 20 + 20 * 309 + 309,
                                  "branch1": 240 * 28 + 28}
    assert describe(cfg, SHAPE, HEADS).startswith("branch0 13709: dense 360-20-309 | branch1 x5")


# --- Table 4.3's nets are untouched ---------------------------------------------------------------
# (params, first 4 values of the first tensor, last 3 of the last weight, sum of |all tensors|)
# for seed 7, recorded with src/ime/nets/__init__.py as it was before branches were added.
BEFORE = {
    "mlp1/reversi": (33469, [-0.102517, 0.049454, 0.112364, -0.17355],
                     [0.188415, 0.071581, -0.223256], 3408.0456),
    "mlp1/connect4": (28527, [-0.103327, 0.049845, 0.113252, -0.174922],
                      [0.045374, 0.01314, -0.105041], 2824.856),
    "mlp1/multi": (33879, [-0.102517, 0.049454, 0.112364, -0.17355],
                   [0.016091, 0.054559, 0.061024], 3460.1351),
    "mlp2/reversi": (79104, [-0.102517, 0.049454, 0.112364, -0.17355],
                     [0.032084, 0.206598, 0.050719], 6701.909),
    "mlp2/connect4": (70547, [-0.103327, 0.049845, 0.113252, -0.174922],
                      [0.040734, -0.070554, -0.197853], 5933.5973),
    "mlp2/multi": (79809, [-0.102517, 0.049454, 0.112364, -0.17355],
                   [0.005921, 0.142719, 0.019212], 6767.8951),
    "conv/reversi": (75102, [-0.273378, 0.131877, 0.299636, -0.462801],
                     [0.008552, -0.001244, 0.031744], 3028.9082),
    "conv/connect4": (14735, [-0.223212, 0.107677, 0.244652, -0.377876],
                      [-0.036959, -0.011284, 0.020931], 987.2632),
    "conv/multi": (80227, [-0.273378, 0.131877, 0.299636, -0.462801],
                   [-0.063356, -0.021701, -0.047749], 3206.8177),
}
SHAPES = {"reversi": ((2, 8, 8), 64), "connect4": ((3, 6, 7), 7), "multi": ((2, 8, 8), [64, 5])}


@pytest.mark.parametrize("key", sorted(BEFORE))
def test_table_4_3_nets_are_built_as_before(key):
    name, shape_key = key.split("/")
    shape, actions = SHAPES[shape_key]
    net = build_net(load_net(name), shape, actions, seed=7)
    assert not isinstance(net, BranchNet)
    sd = net.state_dict()
    params, first, last, abs_sum = BEFORE[key]
    weights = [k for k in sd if k.endswith("weight")]
    assert count_params(net) == params
    assert sd[next(iter(sd))].flatten()[:4].tolist() == pytest.approx(first, abs=1e-6)
    assert sd[weights[-1]].flatten()[-3:].tolist() == pytest.approx(last, abs=1e-6)
    total = sum(float(v.double().abs().sum()) for v in sd.values() if v.dtype.is_floating_point)
    assert total == pytest.approx(abs_sum, abs=1e-3)
