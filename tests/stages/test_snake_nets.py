"""The Snake nets of Table 2.2 (config/net/snake_*.yaml, built by src/ime/nets/layers.py): exact
parameter counts, Keras-style padding and strides, batch norm after every hidden layer, forward
and checkpoint contracts, configs the schema accepts, and the other games' nets built exactly as
before these options existed."""

from __future__ import annotations

from pathlib import Path

import pytest
import torch
from torch import nn

from ime.nets import MASK_VALUE, build_net, count_params, describe, load_checkpoint, save_checkpoint
from ime.nets.branches import BranchNet
from ime.nets.layers import DenseNorm, conv_specs, layer_params, same_pad, uses_layers
from ime.train.bench import load_net
from ime.workflow.schema.net import Net

THESIS = {"snake_mlp1": 56964, "snake_mlp2": 57044, "snake_conv1": 58052,
          "snake_conv2": 61724, "snake_conv3": 59452}
NETS = {n: load_net(n) for n in THESIS}
SHAPE = (4, 10, 11)  # the thesis's 10 x 11 board, four planes (encoding pad, fixed size)


@pytest.fixture(autouse=True)
def one_thread():
    before = torch.get_num_threads()
    torch.set_num_threads(1)
    yield
    torch.set_num_threads(before)


def batch(n: int = 8, shape=SHAPE, seed: int = 0) -> tuple[torch.Tensor, torch.Tensor]:
    g = torch.Generator().manual_seed(seed)
    x = torch.randint(0, 2, (n, *shape), generator=g).float()
    mask = (torch.rand(n, 4, generator=g) < 0.6).float()
    mask[:, 1] = 1
    return x, mask


# --- Table 2.2 ------------------------------------------------------------------------------------
@pytest.mark.parametrize("name", sorted(THESIS))
def test_table_2_2_parameter_counts(name):
    net = build_net(NETS[name], SHAPE, 4, seed=0)
    assert NETS[name]["thesis_params"] == THESIS[name]
    assert count_params(net) == layer_params(net) == THESIS[name]
    norms = [m for m in net.modules() if isinstance(m, nn.BatchNorm1d | nn.BatchNorm2d)]
    hidden = len(NETS[name].get("channels") or []) + len(NETS[name]["hidden"])
    assert len(norms) == hidden and not any(m.affine for m in norms)  # BN after every layer


def test_layer_lists():
    got = {n: describe(NETS[n], SHAPE, 4) for n in sorted(THESIS)}
    assert got == {
        "snake_conv1": "conv 4-64(3x3)-64(2x2/2)-64(3x3/2) same + BN all + dense 576-4",
        "snake_conv2": "conv 4-8(3x3)-16(2x2/2)-32(3x3/2) same + BN all + dense 288-192-4",
        "snake_conv3": "conv 4-8(2x2)-8(3x3)-16(2x2/2) same + BN all + dense 480-120-4",
        "snake_mlp1": "dense 440-128-4 + BN all",
        "snake_mlp2": "dense 440-80-256-4 + BN all",
    }
    for n in ("snake_conv1", "snake_conv2", "snake_conv3"):
        ks = {int(k) for k in NETS[n]["kernels"]}
        assert ks == {2, 3} and max(NETS[n]["strides"]) == 2


def test_keras_same_and_valid_sizes():
    assert same_pad(10, 2, 1) == (0, 1) and same_pad(11, 3, 2) == (1, 1)
    assert same_pad(10, 3, 2) == (0, 1) and same_pad(5, 3, 1) == (1, 1)
    specs = conv_specs(NETS["snake_conv1"], 10, 11)
    assert [s.out_hw for s in specs] == [(10, 11), (5, 6), (3, 3)]
    valid = conv_specs({**NETS["snake_conv1"], "padding": "valid"}, 10, 11)
    assert [s.out_hw for s in valid] == [(8, 9), (4, 4), (1, 1)] and not any(
        any(s.pad) for s in valid)
    net = build_net({**NETS["snake_conv1"], "padding": "valid"}, SHAPE, 4, seed=0)
    assert layer_params(net) == 58052 - 9 * 64 * 4 + 64 * 4  # dense 64 -> 4 instead of 576
    for bad, words in [({"strides": [1, 2]}, "one entry per"), ({"padding": "full"}, "same or"),
                       ({"kernels": [3, 2, 9], "padding": "valid"}, "leaves no cell"),
                       ({"batch_norm": "each"}, "batch_norm must be")]:
        with pytest.raises(ValueError, match=words):
            build_net({**NETS["snake_conv1"], **bad}, SHAPE, 4)


# --- forward --------------------------------------------------------------------------------------
@pytest.mark.parametrize("name", sorted(THESIS))
@pytest.mark.parametrize("shape", [SHAPE, (5, 16, 12), (5, 19, 21)])
def test_forward_shapes_masks_and_single_rows(name, shape):
    net = build_net(NETS[name], shape, 4, seed=1)
    x, mask = batch(6, shape)
    net.train()
    out = net(x, mask)
    assert out.shape == (6, 4)
    assert torch.all(out[mask == 0] == MASK_VALUE) and torch.all(out[mask > 0].abs() < 1e6)
    assert net(x[:1], mask[:1]).shape == (1, 4)  # a last batch of one row trains too
    net.eval()
    alone = net(x[2:3], mask[2:3])
    assert torch.allclose(alone[0], net(x, mask)[2], atol=1e-5)


def test_training_steps_fit_a_small_batch():
    torch.manual_seed(0)
    for name in ("snake_mlp1", "snake_conv1"):
        net = build_net(NETS[name], SHAPE, 4, seed=2)
        x, mask = batch(32, seed=3)
        y = torch.stack([torch.nonzero(m).flatten()[-1] for m in mask])
        opt = torch.optim.Adam(net.parameters(), lr=0.02)  # the thesis's starting rate
        for _ in range(40):
            loss = nn.functional.cross_entropy(net(x, mask), y)
            opt.zero_grad()
            loss.backward()
            opt.step()
        net.eval()
        assert (net(x, mask).argmax(dim=1) == y).float().mean() == 1.0


def test_same_seed_same_weights_and_multi_head():
    a = build_net(NETS["snake_conv2"], SHAPE, 4, seed=9).state_dict()
    b = build_net(NETS["snake_conv2"], SHAPE, 4, seed=9).state_dict()
    c = build_net(NETS["snake_conv2"], SHAPE, 4, seed=10).state_dict()
    assert all(torch.equal(a[k], b[k]) for k in a)
    first = next(k for k in a if k.endswith("weight"))
    assert not torch.equal(a[first], c[first])
    multi = build_net(NETS["snake_conv3"], SHAPE, [4, 3], seed=0)
    x, mask = batch(4)
    outs = multi(x, [mask, torch.ones(4, 3)])
    assert [tuple(o.shape) for o in outs] == [(4, 4), (4, 3)]
    assert layer_params(multi) == 59452 + 120 * 3 + 3


def test_checkpoint_round_trip(tmp_path: Path):
    net = build_net(NETS["snake_conv1"], SHAPE, 4, seed=6)
    x, mask = batch(6)
    net.train()
    net(x, mask)  # move the batch-norm statistics off their initial values
    net.eval()
    want = net(x, mask)
    path = tmp_path / "snake.pt"
    save_checkpoint(path, net, game="snake", encoder_version="snake-pad-v1:10x11", fold=0,
                    in_shape=SHAPE, num_actions=4)
    back = load_checkpoint(path)
    assert back.name == "snake_conv1" and back.checkpoint["in_shape"] == list(SHAPE)
    assert torch.equal(back(x, mask), want)
    assert any(isinstance(m, DenseNorm) for m in build_net(NETS["snake_mlp2"], SHAPE,
                                                           4).modules())


def test_configs_validate_and_bad_ones_are_named():
    for name, cfg in NETS.items():
        Net.model_validate(cfg)
        assert uses_layers(cfg), name
    with pytest.raises(ValueError, match="one entry per channels"):
        Net.model_validate({**NETS["snake_conv1"], "kernels": [3, 2]})
    with pytest.raises(ValueError, match="conv only"):
        Net.model_validate({**NETS["snake_mlp1"], "strides": [2]})
    with pytest.raises(ValueError, match="no mask_input"):
        Net.model_validate({**NETS["snake_mlp1"], "mask_input": True})
    with pytest.raises(ValueError, match="no mask_input"):
        build_net({**NETS["snake_mlp1"], "mask_input": True}, SHAPE, 4)


# --- the other nets are untouched -----------------------------------------------------------------
# (params, first 4 values of the first tensor, last 3 of the last weight, sum of |all tensors|,
# number of state-dict entries) for seed 13, recorded with src/ime/nets/__init__.py as it was
# before ime.nets.layers existed.
BEFORE = {
    "mlp1/reversi": (33469, [0.054645, 0.046258, 0.197697, -0.019455],
                     [-0.068134, -0.021352, -0.131897], 3435.1914, 6),
    "mlp1/connect4": (28527, [0.055077, 0.046623, 0.199259, -0.019609],
                      [0.203606, -0.278686, 0.071456], 2849.5329, 6),
    "mlp1/multi": (33879, [0.054645, 0.046258, 0.197697, -0.019455],
                   [0.117148, 0.377321, -0.333877], 3489.2503, 8),
    "mlp2/reversi": (79104, [0.054645, 0.046258, 0.197697, -0.019455],
                     [-0.141494, -0.024678, 0.021551], 6740.7361, 6),
    "mlp2/connect4": (70547, [0.055077, 0.046623, 0.199259, -0.019609],
                      [-0.012095, -0.043555, 0.04367], 5940.0041, 6),
    "mlp2/multi": (79809, [0.054645, 0.046258, 0.197697, -0.019455],
                   [0.1422, -0.15802, -0.103367], 6807.7535, 8),
    "conv/reversi": (75102, [0.14572, 0.123354, 0.527191, -0.05188],
                     [0.020204, -0.058597, -0.005791], 3036.85, 11),
    "conv/connect4": (14735, [0.118979, 0.100718, 0.43045, -0.04236],
                      [0.021179, 0.075284, 0.009383], 997.4398, 11),
    "conv/multi": (80227, [0.14572, 0.123354, 0.527191, -0.05188],
                   [0.056955, 0.03677, 0.047195], 3218.3708, 13),
    "ddz_conv1/ddz": (432843, [0.084131, 0.071218, 0.304374, -0.029953],
                      [-0.179758, -0.001077, 0.143454], 19406.8992, 36),
    "ddz_conv2/ddz": (191103, [0.084131, 0.071218, 0.304374, -0.029953],
                      [0.056322, 0.151578, 0.049144], 13299.305, 36),
}
SHAPES = {"reversi": ((2, 8, 8), 64), "connect4": ((3, 6, 7), 7), "multi": ((2, 8, 8), [64, 5]),
          "ddz": ((26, 4, 15), [309, 28, 28, 28, 28, 28])}


@pytest.mark.parametrize("key", sorted(BEFORE))
def test_other_nets_are_built_as_before(key):
    name, shape_key = key.split("/")
    shape, actions = SHAPES[shape_key]
    cfg = load_net(name)
    assert not uses_layers(cfg)
    net = build_net(cfg, shape, actions, seed=13)
    assert isinstance(net, BranchNet) == (shape_key == "ddz")
    sd = net.state_dict()
    params, first, last, abs_sum, entries = BEFORE[key]
    weights = [k for k in sd if k.endswith("weight")]
    assert count_params(net) == params and len(sd) == entries
    assert sd[next(iter(sd))].flatten()[:4].tolist() == pytest.approx(first, abs=1e-6)
    assert sd[weights[-1]].flatten()[-3:].tolist() == pytest.approx(last, abs=1e-6)
    total = sum(float(v.double().abs().sum()) for v in sd.values() if v.dtype.is_floating_point)
    assert total == pytest.approx(abs_sum, abs=1e-3)
