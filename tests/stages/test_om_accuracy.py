"""The opponent model's accuracy where the search asks it (ime.evaluate.om_accuracy, issue 49):
a model cell played with a real (untrained) imitator records a seeded sample of the positions
the model was asked about and of the target's moves; the games are the same bytes with the
record and without, the record the same for one worker and two, and the table's top-1 and
Wilson intervals follow from its counts."""

from __future__ import annotations

import pytest

from ime.bots.om_search import resolve_specs
from ime.core.intervals import wilson
from ime.evaluate.agents import ProviderFactory
from ime.evaluate.om_accuracy import (
    ACCURACY_COLUMNS,
    AccuracySample,
    BottomK,
    accuracy_table,
    measure,
    measure_cell,
    sample_key,
)
from ime.evaluate.om_experiment import PLAYER, cell_spec, play_cell

SETTINGS = {"evaluation": "c4_ab3", "depth": 2, "nodes": 5000, "plain_nodes": 10**8,
            "mode": "policy", "mix": 1.0, "min_prob": 0.0, "batch": 16}
SEED = 3


@pytest.fixture(scope="module")
def checkpoint(tmp_path_factory) -> str:
    """An untrained MLP-1 imitator of Connect Four (a real checkpoint: its moves are poor,
    which is all the record needs)."""
    from ime.core.registry import get_encoder
    from ime.nets import build_net, save_checkpoint

    enc = get_encoder("connect4")
    net = build_net({"name": "mlp1", "kind": "mlp", "hidden": [16]}, enc.state_shape,
                    enc.num_actions, seed=0)
    path = tmp_path_factory.mktemp("imit") / "fold0.pt"
    save_checkpoint(path, net, game="connect4", encoder_version=enc.version, fold=0,
                    in_shape=enc.state_shape, num_actions=enc.num_actions)
    return str(path)


def _spec(checkpoint: str) -> dict:
    spec = cell_spec("om", "c4_ab3", SETTINGS, model_bot="c4_ab3", net="mlp1", fold=0)
    return resolve_specs({PLAYER: spec}, lambda ref: [checkpoint])[PLAYER]


def _play(checkpoint: str, workers: int, k: int | None):
    factory = ProviderFactory("connect4", extra={PLAYER: _spec(checkpoint)})
    sample = AccuracySample(k, SEED) if k is not None else None
    games, _ = play_cell("connect4", "c4_ab3", factory, rounds=2, opening_plies=2, seed=SEED,
                         workers=workers, progress=False, tag="om", accuracy=sample)
    return games, sample, factory


def test_bottom_k_is_a_sample_that_ignores_the_order() -> None:
    keys = [sample_key(0, "m", "asked", i) for i in range(50)]
    a, b = BottomK(7), BottomK(7)
    for i, key in enumerate(keys):
        if a.wants(key):
            a.add(key, i)
    b.extend(list(zip(keys, range(50), strict=True))[::-1])
    assert a.pairs() == b.pairs() == sorted(zip(keys, range(50), strict=True))[:7]
    assert sample_key(0, "m", "asked", 1) != sample_key(1, "m", "asked", 1)
    assert BottomK(0).wants(0) is False


def test_a_model_cell_records_the_models_accuracy(checkpoint: str) -> None:
    plain, _, _ = _play(checkpoint, 1, None)
    games, sample, factory = _play(checkpoint, 1, 12)
    assert games.to_csv(index=False) == plain.to_csv(index=False)  # the record only watches
    asked, moved = sample.asked(), sample.moved()
    assert len(asked) == min(12, sample.n_asked) and len(moved) == min(12, sample.n_moved)
    assert sample.n_asked <= int(games["model_positions"].sum())
    assert all(len(a.state.legal_actions(a.player)) > 1 for a in asked)
    assert all(m.move in m.state.legal_actions(m.player) for m in moved)
    assert all(a.below_root >= 1 for a in asked)

    acc = measure_cell(sample, factory(), PLAYER, "c4_ab3", _spec(checkpoint))
    assert acc["search"]["n"] == len(asked) and acc["games"]["n"] == len(moved)
    assert 0 <= acc["search"]["agree"] <= acc["search"]["n"]
    assert sum(n for n, _ in acc["search"]["by_plies_below_root"].values()) == len(asked)
    assert acc["target_deterministic"] is True

    # the target as its own model agrees everywhere (its decisions are the truth)
    from ime.bots.registry import make_bot

    target = make_bot("connect4", "c4_ab3")
    true = measure(sample, lambda s, p, c: [target.act(x.clone(), y) for x, y in
                                            zip(s, c, strict=True)], target)
    assert true["search"]["agree"] == len(asked) and true["games"]["agree"] == len(moved)

    _, two, f2 = _play(checkpoint, 2, 12)  # the same sample from two workers
    assert measure_cell(two, f2(), PLAYER, "c4_ab3", _spec(checkpoint)) == acc

    t = accuracy_table([{"target": "c4_ab3", "cell": "om", "label": "c",
                         "model": "c4_ab3:mlp1:0", "mode": "policy", "accuracy": acc},
                        {"target": "c4_ab3", "cell": "om_true", "label": "t", "model": "",
                         "mode": "search", "accuracy": None}], level=0.9)
    assert list(t.columns) == ACCURACY_COLUMNS and len(t) == 1
    r = t.iloc[0]
    assert r.search_top1 == pytest.approx(acc["search"]["agree"] / acc["search"]["n"])
    assert (r.search_top1_lo, r.search_top1_hi) == pytest.approx(
        wilson(acc["search"]["agree"], acc["search"]["n"], 0.9))
    assert (r.game_n, r.game_positions) == (len(moved), sample.n_moved)
