"""Connect Four's search imitator: the MMTO fit recovers a hidden search, and the family's module
plays, masks, saves and loads as a net does (issue 46)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
import torch
import yaml

from ime.games.connect4.board import Geometry
from ime.games.connect4.encode import ENCODER_VERSION, encode_boards
from ime.imitators.connect4_family import FAMILY, Connect4SearchPolicy, planes_to_boards
from ime.imitators.connect4_features import num_features
from ime.imitators.connect4_fit import Connect4FitConfig, Connect4Settings, decide, fit
from ime.imitators.family import get_family
from ime.nets import load_checkpoint, save_checkpoint
from imitators.c4_helpers import GEO, random_positions

ROOT = Path(__file__).resolve().parents[2]


def _boards(positions: list[tuple[int, int]]) -> tuple[np.ndarray, np.ndarray]:
    return (np.array([p for p, _ in positions], dtype=np.uint64),
            np.array([o for _, o in positions], dtype=np.uint64))


def _target(n: int, seed: int, tie: str = "last") -> tuple[np.ndarray, np.ndarray, np.ndarray,
                                                          np.ndarray]:
    """``n`` decisions of a synthetic deterministic target: this imitator's own search at depth
    2 with hidden weights and tie rule ``tie``; returns (me, opp, columns, hidden weights)."""
    me, opp = _boards(random_positions(n, seed=seed, min_ply=2, max_ply=30))
    w = np.random.default_rng(seed).normal(size=num_features(1))
    cols, _ = decide(w, Connect4Settings(depth=2, phases=1, tie=tie), me, opp, GEO)
    return me, opp, cols, w


@pytest.mark.parametrize("tie", ["last", "centre"])
def test_a_fit_reproduces_a_hidden_depth2_search_on_held_out_positions(tie: str) -> None:
    me, opp, cols, w = _target(1450, seed=46, tie=tie)
    fit_rows, sel, test = slice(0, 1000), slice(1000, 1200), slice(1200, 1450)
    result = fit(me[fit_rows], opp[fit_rows], cols[fit_rows], me[sel], opp[sel], cols[sel], GEO,
                 Connect4FitConfig(depths=(1, 2, 3), phases=(1,), passes=2))
    assert result.settings.depth == 2 and result.settings.tie == tie, result.settings
    chosen, _ = decide(result.weights, result.settings, me[test], opp[test], GEO)
    assert np.mean(chosen == cols[test]) >= 0.95
    assert np.corrcoef(result.weights, w)[0, 1] > 0.8


def test_the_fit_is_deterministic() -> None:
    me, opp, cols, _ = _target(360, seed=7)
    runs = [fit(me[:300], opp[:300], cols[:300], me[300:], opp[300:], cols[300:], GEO,
                Connect4FitConfig(depths=(1, 2), phases=(1,), passes=2)) for _ in range(2)]
    np.testing.assert_array_equal(runs[0].weights, runs[1].weights)
    assert runs[0].settings == runs[1].settings
    assert runs[0].summary["grid"] == runs[1].summary["grid"]


def test_planes_give_the_boards_back() -> None:
    for geo in (GEO, Geometry(blocked=((3, 0), (0, 5))), Geometry(width=8, height=7)):
        me, opp = _boards(random_positions(30, seed=1, geo=geo))
        planes, _ = encode_boards(me, opp, geo)
        me2, opp2, geo2 = planes_to_boards(planes.astype(np.float32))
        np.testing.assert_array_equal(me2, me)
        np.testing.assert_array_equal(opp2, opp)
        assert geo2 == geo
    with pytest.raises(ValueError, match="wide board"):
        planes_to_boards(np.zeros((1, 3, 12, 12), dtype=np.float32))


def _model(seed: int = 0) -> Connect4SearchPolicy:
    model = FAMILY.build({"name": "search", "kind": "search", "game": "connect4",
                          "settings": {"depth": 3, "phases": 2, "tie": "centre"}})
    assert isinstance(model, Connect4SearchPolicy)
    w = np.random.default_rng(seed).normal(size=num_features(2))
    with torch.no_grad():
        model.weights.copy_(torch.as_tensor(w))
    return model


def test_the_module_has_the_nets_signature_and_masks_full_columns() -> None:
    model = _model()
    positions = random_positions(40, seed=8, min_ply=20, max_ply=38)
    me, opp = _boards(positions)
    planes, mask = encode_boards(me, opp, GEO)
    assert (mask == 0).any()  # some columns are full
    x, m = torch.as_tensor(planes, dtype=torch.float32), torch.as_tensor(mask, dtype=torch.float32)
    m[3] = 0  # a row without a legal column: every logit masked
    logits = model(x, m)
    assert logits.shape == (40, 7)
    assert bool((logits[m == 0] <= -1e8).all()) and bool((logits[m > 0] > -1e8).all())
    rows = [i for i in range(40) if i != 3]
    w = model.weights.detach().numpy()
    chosen, _ = decide(w, model.settings, me[rows], opp[rows], GEO)
    np.testing.assert_array_equal(logits[rows].argmax(dim=1).numpy(), chosen)
    p = logits[rows].exp()
    assert torch.allclose(p.sum(dim=1), torch.ones(len(rows)), atol=1e-5)
    assert bool((p.max(dim=1).values >= 0.5).all())  # CHOICE_SHARE on the search's column
    bad = m.clone()
    bad[0, int(chosen[0])] = 0  # a mask that disagrees with the planes is an error
    with pytest.raises(RuntimeError, match="legal mask"):
        model(x, bad)


def test_a_checkpoint_round_trip_plays_the_same(tmp_path: Path) -> None:
    model = _model(seed=3)
    path = tmp_path / "fold0.pt"
    save_checkpoint(path, model, game="connect4", encoder_version=ENCODER_VERSION, fold=0,  # type: ignore[arg-type]
                    in_shape=(3, 6, 7), num_actions=7)
    back = load_checkpoint(path)
    assert isinstance(back, Connect4SearchPolicy) and back.settings == model.settings
    me, opp = _boards(random_positions(30, seed=4))
    planes, mask = encode_boards(me, opp, GEO)
    x, m = torch.as_tensor(planes, dtype=torch.float32), torch.as_tensor(mask, dtype=torch.float32)
    assert torch.equal(back(x, m), model(x, m))
    # the same module gives the same bytes (torch's archive names the file: same name)
    save_checkpoint(tmp_path / "again" / "fold0.pt", model, game="connect4",  # type: ignore[arg-type]
                    encoder_version=ENCODER_VERSION, fold=0, in_shape=(3, 6, 7), num_actions=7)
    assert (tmp_path / "again" / "fold0.pt").read_bytes() == path.read_bytes()


def test_the_plugin_offers_the_family_and_reads_the_pipelines_config() -> None:
    family = get_family("connect4", "search")
    assert family is FAMILY
    search = yaml.safe_load((ROOT / "config" / "net" / "search.yaml").read_text())["search"]
    me, opp, cols, _ = _target(300, seed=5)
    planes, _ = encode_boards(me, opp, GEO)
    lines: list[str] = []
    model = family.fit(planes.astype(np.float32), cols, np.arange(0, 240), np.arange(240, 300),
                       {**search, "depths": [1, 2], "passes": [1, 2], "name": "search"},
                       seed=0, say=lines.append)
    assert isinstance(model, Connect4SearchPolicy)
    assert model.config["game"] == "connect4" and model.config["board"]["width"] == 7
    assert model.settings.phases == 2 and lines[-1].startswith("chosen")
    with pytest.raises(ValueError, match="node budget"):
        family.fit(planes, cols, np.arange(0, 240), np.arange(240, 300),
                   {**search, "budgets": [0, 2000]}, seed=0, say=lines.append)


def test_imitator_search_composes_for_connect4() -> None:
    from ime.workflow import make_plan

    v = make_plan(["game=connect4", "imitator=search"]).main
    assert v.results_dir.endswith("__net-search") and "connect4" in v.results_dir


def test_the_fit_keeps_drawn_moves_and_drops_forced_results() -> None:
    """A lost move leaves the loss, a drawn one stays as a row of zero features (its value, 0,
    whatever the weights), and a position with a forced win, or whose target move loses by
    force, leaves it (the search's choice there does not depend on the weights)."""
    from ime.imitators.connect4_fit import problem
    from ime.imitators.connect4_search import TERMINAL, tie_ranks
    from ime.imitators.mmto import SearchResults

    big = TERMINAL + 5
    values = np.array([-big, 2.0, 0.0, big, 1.0, -big, 3.0])
    terminal = np.array([True, False, True, True, False, True, False])
    feats = np.zeros((7, 2))
    feats[1], feats[4], feats[6] = [2.0, 0.0], [1.0, 0.0], [0.0, 3.0]
    res = SearchResults(np.array([0, 3, 5, 7]), np.array([0, 1, 2, 0, 1, 0, 1]), values, feats,
                        terminal, np.zeros(3, np.int64), np.ones(7, bool), np.ones(3, np.int64))
    prob = problem(res, np.array([1, 1, 0]), np.ones(2), tie_ranks("first", 7))
    assert prob.kept == 1  # position 1 has a forced win; position 2's target loses by force
    np.testing.assert_array_equal(prob.X, [[2.0, 0.0], [0.0, 0.0]])  # its move and the draw
    assert list(prob.chosen) == [0] and list(prob.starts) == [0]


def test_family_vs_net_counts_where_the_imitator_disagrees(tmp_path: Path) -> None:
    """scripts/family_vs_net.py's disagreement counts add up and match the module's moves on
    the fold's unseen rows (a Connect Four dataset of a hidden depth-2 search, fitted at depth
    1 so that it disagrees)."""
    import importlib.util

    from ime.datasets.schema import make_table, write_table
    from ime.train.folds import Split
    from ime.train.loop import load_dataset, split_fold

    me, opp, cols, _ = _target(400, seed=12)
    planes, mask = encode_boards(me, opp, GEO)
    n = len(cols)
    table = make_table({"bot": ["t"] * n, "match_id": [f"m{i // 20:03d}" for i in range(n)],
                        "ply": np.arange(n) % 20, "seat": np.zeros(n), "players": [["t", "o"]] * n,
                        "state": planes.reshape(n, -1), "mask": mask, "action": cols,
                        "response": [""] * n}, 126, 7)
    ds = tmp_path / "t.parquet"
    write_table(table, ds, {"state_shape": [3, 6, 7], "game": "connect4",
                            "encoder_version": ENCODER_VERSION, "num_actions": 7})
    train = {"split": "kfold", "folds": 4, "seed": 0, "holdout": 0.1, "run_folds": None}
    search = yaml.safe_load((ROOT / "config" / "net" / "search.yaml").read_text())["search"]
    model = FAMILY.fit(planes.astype(np.float32), cols, np.arange(0, 300), np.arange(300, 400),
                       {**search, "depths": [1], "passes": 1, "phases": [1]}, seed=0,
                       say=lambda _line: None)
    save_checkpoint(tmp_path / "s.pt", model, game="connect4",  # type: ignore[arg-type]
                    encoder_version=ENCODER_VERSION, fold=0, in_shape=(3, 6, 7), num_actions=7)
    spec = importlib.util.spec_from_file_location("family_vs_net",
                                                  ROOT / "scripts" / "family_vs_net.py")
    script = importlib.util.module_from_spec(spec)  # type: ignore[arg-type]
    spec.loader.exec_module(script)  # type: ignore[union-attr]
    got = script.disagreements(str(ds), tmp_path / "s.pt", 0, train)
    data, arr = load_dataset(ds, torch.device("cpu"))
    data = split_fold(data, arr, 0, Split.of(train))
    rows = data.val_unseen_idx.numpy()
    wrong = int((model.moves(data.planes[rows].numpy()) != data.action[rows].numpy()).sum())
    assert got["unseen_rows"] == len(rows) > 0 and got["wrong"] == wrong > 0
    assert got["wrong_tied_for_best"] + got["wrong_second"] + got["wrong_lower"] == wrong
    assert sum(b["rows"] for b in got["agree_by_ply"].values()) == len(rows)
