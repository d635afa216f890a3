"""The search imitator as a pipeline family (issue 46, Deliver 1): selected by config, fitted by
the train stage's own entry point with the nets' split and files, loaded back and played as a
net is, and refused clearly where a game offers no such family."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
import torch

from ime.bots.imitator import ImitatorBot
from ime.datasets.schema import make_table, write_table
from ime.games.reversi.encode import ENCODER_VERSION, encode_boards
from ime.imitators.book import book_entries, input_digest
from ime.imitators.family import cap_rows, fit_member, get_family, select_split
from ime.imitators.kinds import is_fitted
from ime.imitators.reversi_family import ReversiSearchPolicy
from ime.imitators.reversi_search import LinearSearch, SearchSettings
from ime.nets import load_checkpoint
from ime.train.ensemble import Member, train_members
from ime.workflow import make_plan
from ime.workflow.compose import compose_plain
from ime.workflow.index import WorkflowIndex
from imitators.helpers import random_positions
from imitators.test_fit import hidden_weights

TRAIN = {"folds": 4, "seed": 3, "lr": 5e-3, "batch_size": 64, "max_epochs": 8, "patience": 2,
         "device": "cpu", "weight_decay": 0.0, "split": "kfold", "run_folds": None,
         "holdout": 0.1, "monitor": "val_acc", "lr_decay": 1.0, "augment": "none"}
MLP = {"name": "mlp", "kind": "mlp", "hidden": [32]}
FAST = {"depths": [1, 2], "passes": 2, "patience": None, "pass_patience": None, "phases": [1],
        "ties": ["first", "last"], "endgames": [0], "endgame_modes": ["exact"],
        "endgames_wld": [0], "budgets": [0],
        "max_fit": None, "inner_iters": 40, "l2": 1e-4, "margin": 12.0, "order_min": 2,
        "select_share": 0.2}
SEARCH = {"name": "search", "kind": "search", "search": FAST}


def _dataset(path: Path, n: int = 1200, per_match: int = 20,
             settings: SearchSettings | None = None, min_ply: int = 2,
             max_ply: int = 48) -> LinearSearch:
    """A Reversi dataset of a synthetic deterministic target (a depth-2 search with hidden
    weights, tie rule ``last``, or ``settings``): ``n`` decisions in matches of ``per_match``."""
    positions = random_positions(n, seed=461, min_ply=min_ply, max_ply=max_ply)
    target = LinearSearch(hidden_weights(positions),
                          settings or SearchSettings(depth=2, tie="last"))
    P = np.array([p for p, _ in positions], dtype=np.uint64)
    O = np.array([o for _, o in positions], dtype=np.uint64)
    planes, mask = encode_boards(P, O)
    cols = {"bot": ["t"] * n, "match_id": [f"m{i // per_match:03d}" for i in range(n)],
            "ply": np.arange(n) % per_match, "seat": np.zeros(n), "players": [["t", "o"]] * n,
            "response": ["{}"] * n, "state": planes.reshape(n, -1), "mask": mask,
            "action": np.array([target.choose(int(p), int(o)) for p, o in positions])}
    write_table(make_table(cols, 128, 64), path,
                {"game": "reversi", "encoder_version": ENCODER_VERSION, "state_shape": [2, 8, 8],
                 "num_actions": 64})
    return target


def test_imitator_search_selects_the_search_family_and_names_the_variant() -> None:
    c = compose_plain(["imitator=search"])
    assert c["net"]["name"] == c["evaluate"]["imitator"]["net"] == "search"
    assert is_fitted(c["net"]) and not is_fitted(c["nets"]["conv"])
    default = compose_plain([])
    assert default == compose_plain(["imitator=policy"])  # policy: the thesis's nets, unchanged
    v = make_plan(["imitator=search"]).main
    assert v.results_dir == "results/reversi/quick__net-search"
    assert v.model_dir("search") == "data/reversi/models/quick/search"
    # Table 4.4's rows: train.nets and the search imitators beside them
    assert WorkflowIndex.table_nets(None, v) == [  # type: ignore[arg-type]
        "mlp1", "mlp2", "conv", "search"]


@pytest.mark.parametrize("override,message", [
    ("net.search.depthz=[1]", "depthz"),
    ("net.search.passes=[1,2]", "one entry per depth"),
    ("net.search.ties=[lowest]", "ties"),
    ("net.search.round_refit_passes=0", "round_refit_passes"),
    ("net.search.round_refit_positions=-1", "round_refit_positions"),
    ("net.search.round_repeats=0", "round_repeats"),
])
def test_a_bad_search_setting_is_refused_before_any_job(override: str, message: str) -> None:
    from ime.workflow.errors import ConfigError

    with pytest.raises(ConfigError, match=message):
        make_plan(["imitator=search", override])


def test_a_game_without_the_family_says_so() -> None:
    from ime.workflow.errors import ConfigError

    with pytest.raises(ValueError, match="game 'doudizhu' has no 'search' imitator family"):
        get_family("doudizhu", "search")
    # before any job: the game's own net does not silently replace the family asked for
    with pytest.raises(ConfigError, match="game 'doudizhu' offers no 'search' imitator family"):
        make_plan(["game=doudizhu", "imitator=search"])


def test_selection_split_is_by_match_and_disjoint() -> None:
    ids = np.array([f"m{i // 10}" for i in range(200)], dtype=object)
    rows = np.arange(0, 200)
    fit_rows, sel = select_split(ids, rows, 0.2, seed=1)
    assert len(fit_rows) + len(sel) == 200 and not set(fit_rows) & set(sel)
    assert not set(ids[fit_rows]) & set(ids[sel])  # no match on both sides
    assert 30 <= len(sel) <= 60


def test_max_select_caps_the_selection_rows_by_a_seeded_sample(tmp_path: Path,
                                                                caplog: pytest.LogCaptureFixture
                                                                ) -> None:
    rows = np.arange(100, 400, 3)
    assert cap_rows(rows, None, 5) is rows and cap_rows(rows, 500, 5) is rows
    capped = cap_rows(rows, 40, 5)
    assert len(capped) == 40 and set(capped) <= set(rows)
    assert list(capped) == sorted(capped)  # in the rows' order
    np.testing.assert_array_equal(capped, cap_rows(rows, 40, 5))  # seeded
    assert not np.array_equal(capped, cap_rows(rows, 40, 6))
    # the train stage applies it: the fit scores its settings on that many positions
    ds = tmp_path / "t.parquet"
    _dataset(ds, n=400)
    quick = {**FAST, "depths": [1], "passes": 1, "ties": ["first"], "max_select": 30}
    with caplog.at_level("INFO", logger="ime.train"):
        metrics = fit_member(ds, {"name": "search", "kind": "search", "search": quick}, 0,
                             tmp_path / "s0.pt", tmp_path / "s0.json", TRAIN, bot="t")
    fit = load_checkpoint(tmp_path / "s0.pt").config["fit"]
    assert fit["select_positions"] == 30 and fit["train_positions"] > 200
    # the validation pass, as long as the fit for a deep search, is announced and timed
    said = caplog.text
    assert f"scoring the fold's {metrics['val_rows']} validation rows" in said
    assert f"validation agreement {metrics['val_acc']:.2f}%" in said


def test_max_train_acc_scores_train_acc_on_a_sample_and_changes_no_validation_figure(
        tmp_path: Path) -> None:
    ds = tmp_path / "t.parquet"
    _dataset(ds, n=400)
    quick = {**FAST, "depths": [1], "passes": 1, "ties": ["first"]}
    runs = {}
    for cap in (None, 40):
        net = {"name": "search", "kind": "search", "search": {**quick, "max_train_acc": cap}}
        runs[cap] = fit_member(ds, net, 0, tmp_path / f"s{cap}.pt", tmp_path / f"s{cap}.json",
                               TRAIN, bot="t")
    full, sampled = runs[None], runs[40]
    assert "train_acc_rows" not in full and sampled["train_acc_rows"] == 40
    assert sampled["train_rows"] == full["train_rows"] > 40
    for key in ("val_acc", "val_acc_unseen", "val_acc_unseen_distinct", "val_loss", "params"):
        assert sampled[key] == full[key], key
    # a sample of 40 of some 300 rows: near the whole training set's figure, not equal to it
    assert abs(sampled["train_acc"] - full["train_acc"]) < 25.0


def test_a_search_imitator_searches_each_distinct_position_once(tmp_path: Path) -> None:
    ds = tmp_path / "t.parquet"
    _dataset(ds, n=300)
    quick = {**FAST, "depths": [2], "passes": 1, "ties": ["first"]}
    fit_member(ds, {"name": "search", "kind": "search", "search": quick}, 0, tmp_path / "s.pt",
               tmp_path / "s.json", TRAIN, bot="t")
    model = load_checkpoint(tmp_path / "s.pt")
    positions = random_positions(40, seed=5, min_ply=4, max_ply=40)
    planes, mask = encode_boards(np.array([p for p, _ in positions], dtype=np.uint64),
                                 np.array([o for _, o in positions], dtype=np.uint64))
    order = np.array([0, 1, 2, 0, 3, 1, 1, *range(4, 40)])  # rows 0 and 1 asked again
    x, m = torch.as_tensor(planes[order]), torch.as_tensor(mask[order])
    plain = torch.as_tensor(np.log(np.maximum(model.decide(planes[order])[1], 1e-30)))
    with torch.no_grad():
        first = model(x, m)
        assert model.memo.searched == 40  # the 43 rows' 40 positions, each once
        again = model(x.flip(0), m.flip(0))
    assert model.memo.searched == 40  # all of them decided before
    assert torch.equal(again, first.flip(0))
    assert torch.equal(first.argmax(1), plain.argmax(1))  # the memo changes no decision
    # new weights are a new imitator: nothing is read from the old one's decisions
    with torch.no_grad():
        model.weights.mul_(-1.0)
        flipped = model(x, m)
    assert model.memo.searched == 80
    assert torch.equal(flipped.argmax(1), torch.as_tensor(model.moves(planes[order])))
    assert not torch.equal(flipped, first)
    # a decision's timing searches: it does not time the memo's lookups
    from ime.train.loop import load_dataset, ms_per_decision

    data, _ = load_dataset(ds, torch.device("cpu"))
    rows = torch.arange(10)
    model(data.planes[rows], data.mask[rows])  # all ten in the memo now
    searched, decide = [], model.decide
    model.decide = lambda p: (searched.append(len(p)), decide(p))[1]
    ms_per_decision(model, data, rows)
    assert searched == [1] * 10  # each timed decision was a search, one position at a time
    assert model.memo is not None  # and the memo is back


@pytest.mark.slow
def test_the_train_stage_fits_saves_loads_and_plays_a_search_imitator(tmp_path: Path) -> None:
    ds = tmp_path / "t.parquet"
    target = _dataset(ds)
    members = [Member(SEARCH, 0, tmp_path / "s0.pt", tmp_path / "s0.json"),
               Member(MLP, 0, tmp_path / "m0.pt", tmp_path / "m0.json")]
    search, mlp = train_members(ds, members, TRAIN, bot="t", progress=False)
    # the nets' metrics, same split: the same validation rows and unseen rows
    assert search["val_rows"] == mlp["val_rows"] and search["val_unseen_rows"] > 100
    assert search["val_unseen_rows"] == mlp["val_unseen_rows"]
    assert search["net"] == "search" and search["params"] == 27  # the fitted weights
    assert search["val_acc_unseen"] >= 90.0, search
    # Maia's columns: every distinct unseen position once, the opening apart
    assert 0 < search["val_unseen_positions"] <= search["val_unseen_rows"]
    assert search["val_acc_unseen_distinct"] >= 90.0 and search["opening_plies"] == 10
    assert search["val_acc_unseen"] > mlp["val_acc_unseen"] + 30, (search, mlp)
    # the checkpoint loads as a module with the nets' signature, with the fitted settings
    model = load_checkpoint(tmp_path / "s0.pt")
    assert isinstance(model, ReversiSearchPolicy) and model.settings.tie == "last"
    assert model.checkpoint["game"] == "reversi"
    saved = json.loads((tmp_path / "s0.json").read_text())
    assert saved["val_acc_unseen"] == search["val_acc_unseen"]
    # and plays: the imitator bot (as every later stage builds it) picks what the search picks
    bot = ImitatorBot.from_checkpoints("im", [tmp_path / "s0.pt"])
    P = np.array([p for p, _ in random_positions(40, seed=9)], dtype=np.uint64)
    O = np.array([o for _, o in random_positions(40, seed=9)], dtype=np.uint64)
    planes, mask = encode_boards(P, O)
    chosen = bot.choose(planes.astype(np.float32), mask.astype(np.float32))
    np.testing.assert_array_equal(chosen, model.moves(planes))
    agree = np.mean([c == target.choose(int(p), int(o))
                     for c, p, o in zip(chosen, P, O, strict=True)])
    assert agree >= 0.85
    logits = model(torch.as_tensor(planes, dtype=torch.float32),
                   torch.as_tensor(mask, dtype=torch.float32))
    assert bool((logits[torch.as_tensor(mask) == 0] < -1e8).all())  # illegal: masked
    # where it disagrees, with counts (scripts/imitator_disagreements.py), on the same fold
    import importlib.util

    spec = importlib.util.spec_from_file_location(
        "imitator_disagreements", Path(__file__).parents[2] / "scripts" /
        "imitator_disagreements.py")
    script = importlib.util.module_from_spec(spec)  # type: ignore[arg-type]
    spec.loader.exec_module(script)  # type: ignore[union-attr]
    assert script.main([str(ds), str(tmp_path / "s0.pt"), "--folds", "4", "--seed", "3",
                        "--solve-sample", "3", "--out", str(tmp_path / "dis.json")]) == 0
    dis = json.loads((tmp_path / "dis.json").read_text())
    assert dis["positions"] == search["val_unseen_positions"]
    assert dis["agreement"] == pytest.approx(search["val_acc_unseen_distinct"], abs=0.01)
    assert dis["disagreements"] == sum(b["disagreements"] for b in dis["by_empties"])
    assert dis["disagreements"] == (dis["wrong_target_tied_best"] + dis["wrong_target_second"]
                                    + dis["wrong_target_third_or_lower"])
    # the same config gives the same bytes (torch.save names its archive after the file)
    (tmp_path / "again").mkdir()
    again = [Member(SEARCH, 0, tmp_path / "again" / "s0.pt", tmp_path / "again" / "s0.json")]
    train_members(ds, again, TRAIN, bot="t", progress=False)
    assert (tmp_path / "again" / "s0.pt").read_bytes() == (tmp_path / "s0.pt").read_bytes()


def test_a_familys_folds_fitted_at_once_give_the_same_files(tmp_path: Path,
                                                             monkeypatch: pytest.MonkeyPatch
                                                             ) -> None:
    """``threads`` (train.threads) fits that many folds at once, in forked processes, and
    shares the cores left over among them as search threads; neither count changes a byte of a
    checkpoint or a metric, only the job's time."""
    import ime.evaluate.parallel as parallel

    ds = tmp_path / "t.parquet"
    _dataset(ds, n=600)
    net = {"name": "search", "kind": "search",
           "search": {**FAST, "depths": [1], "passes": 1, "ties": ["first", "last"]}}
    pools: list[int] = []
    real = parallel.ordered_map

    def recorded(*args, workers: int = 1, **kw):  # type: ignore[no-untyped-def]
        pools.append(workers)
        return real(*args, workers=workers, **kw)

    monkeypatch.setattr(parallel, "ordered_map", recorded)

    def fit(name: str, threads: int) -> list[dict]:
        d = tmp_path / name
        d.mkdir()
        members = [Member(net, k, d / f"s{k}.pt", d / f"s{k}.json") for k in range(3)]
        return train_members(ds, members, TRAIN, bot="t", threads=threads, progress=False)

    one, two, six = fit("one", 1), fit("two", 2), fit("six", 6)
    # the second job ran its three folds two at a time, the third all three, 2 threads each
    assert pools == [1, 2, 3]
    assert [m["timing"]["threads"] for m in six] == [2, 2, 2]
    for other, got in (("two", two), ("six", six)):
        for k in range(3):
            assert ((tmp_path / "one" / f"s{k}.pt").read_bytes()
                    == (tmp_path / other / f"s{k}.pt").read_bytes())
            assert ({c: v for c, v in one[k].items() if c != "timing"}
                    == {c: v for c, v in got[k].items() if c != "timing"})
    assert [m["fold"] for m in two] == [0, 1, 2]  # in the members' order


@pytest.mark.parametrize("tie,solve", [("first", {}), ("last_col", {}),
                                       ("last", {"endgame": 10, "endgame_wld": 14})])
def test_the_module_plays_the_searchs_move_and_an_ensemble_weighs_values(tie: str,
                                                                        solve: dict) -> None:
    """Its decision window (margin 12) chooses as the deciding search does; half the mass goes to
    that move, the rest is the softmax of the root values, so two folds that disagree are
    settled by how they value the two moves, not by the square's number."""
    from ime.imitators.reversi_features import num_features
    from ime.imitators.search_fit import predict

    positions = random_positions(150, seed=12, min_ply=4, max_ply=56)
    P = np.array([p for p, _ in positions], dtype=np.uint64)
    O = np.array([o for _, o in positions], dtype=np.uint64)
    planes, mask = encode_boards(P, O)
    rng = np.random.default_rng(3)
    models = []
    for _ in range(2):
        m = ReversiSearchPolicy({"name": "search", "kind": "search", "game": "reversi",
                                 "settings": {"depth": 3, "tie": tie, "phases": 2,
                                              **solve}})
        with torch.no_grad():
            m.weights.copy_(torch.as_tensor(rng.normal(size=num_features(2))))
        models.append(m)
        chosen, soft = m.decide(planes)
        w = m.weights.detach().numpy()
        np.testing.assert_array_equal(chosen, predict(w, m.settings, P, O))
        np.testing.assert_allclose(soft.sum(axis=1), 1.0)
        assert (soft[mask == 0] == 0).all()
    bot = ImitatorBot("ens", models, game="reversi")
    x = torch.as_tensor(planes, dtype=torch.float32)
    mk = torch.as_tensor(mask, dtype=torch.float32)
    probs = [torch.softmax(m(x, mk).double(), dim=1).numpy() for m in models]
    ens = bot.choose(planes.astype(np.float32), mask.astype(np.float32))
    a, b = (m.moves(planes) for m in models)
    agree = a == b
    np.testing.assert_array_equal(ens[agree], a[agree])  # both vote for it
    split = np.flatnonzero(~agree)
    assert len(split) > 10
    mean = (probs[0] + probs[1]) / 2
    for i in split:  # a tied vote goes to the higher mean value-softmax of the two moves
        assert ens[i] in (a[i], b[i])
        assert mean[i, ens[i]] >= mean[i, [a[i], b[i]]].max() - 1e-12


def test_the_endgame_pick_diagnostic_names_a_fastest_last_solver(tmp_path: Path) -> None:
    """scripts/endgame_pick_rules.py on the logs of a target that solves for win/draw/loss and
    keeps the last winning move in fastest-first order: every such choice is the one leaving
    the most replies, and no other rule comes close."""
    import subprocess
    import sys

    ds = tmp_path / "t.parquet"
    _dataset(ds, n=300, min_ply=50, max_ply=58,
             settings=SearchSettings(depth=1, endgame=14, endgame_mode="wld",
                                     endgame_pick="fastest_last"))
    out = tmp_path / "r.json"
    root = Path(__file__).resolve().parents[2]
    subprocess.run([sys.executable, str(root / "scripts" / "endgame_pick_rules.py"), str(ds),
                    "--max-empties", "14", "--sample", "200", "--out", str(out)], check=True,
                   capture_output=True, timeout=600)
    r = json.loads(out.read_text())
    assert r["positions"] >= 30, r
    assert r["move_effects"]["most_opponent_moves"] == 100.0, r
    assert r["move_effects_ties_split"]["most_opponent_moves"] > \
        max(v for k, v in r["move_effects_ties_split"].items() if k != "most_opponent_moves")
    assert r["chance"] < 60.0 and max(r["tie_rules"].values()) < 90.0, r


def test_the_endgame_whatif_finds_a_fastest_first_solver_and_the_targets_depth(
        tmp_path: Path) -> None:
    """scripts/endgame_whatif.py on a synthetic target (a depth-2 search that solves exactly
    from 10 empties and keeps the first best move in fastest-first order) and an imitator with
    its weights that picks by value: the settings grid finds the fastest_first pick (every
    solved position agrees), and the depth diagnostic, outside the solve, names depth 2."""
    import subprocess
    import sys

    from ime.nets import save_checkpoint

    ds = tmp_path / "t.parquet"
    target = _dataset(ds, n=240, min_ply=40, max_ply=58,
                      settings=SearchSettings(depth=2, tie="first", endgame=10,
                                              endgame_pick="fastest_first"))
    m = ReversiSearchPolicy({"name": "search", "kind": "search", "game": "reversi",
                             "settings": {"depth": 2, "tie": "first", "endgame": 10,
                                          "phases": target.settings.phases}})
    with torch.no_grad():
        m.weights.copy_(torch.as_tensor(target.w))
    ck = tmp_path / "fold0.pt"
    save_checkpoint(ck, m, game="reversi", encoder_version=ENCODER_VERSION, fold=0,
                    in_shape=[2, 8, 8], num_actions=64)
    out = tmp_path / "w.json"
    root = Path(__file__).resolve().parents[2]
    subprocess.run([sys.executable, str(root / "scripts" / "endgame_whatif.py"), str(ds),
                    str(ck), "--folds", "2", "--max-empties", "10", "--wld", "0",
                    "--band", "11,20", "--among", "legal", "--depths", "1,2,3",
                    "--out", str(out)], check=True, capture_output=True, timeout=600)
    r = json.loads(out.read_text())
    grid = {g["endgame_pick"]: g for g in r["settings_grid"]}
    assert r["sampled"]["positions"] >= 20, r["sampled"]
    assert grid["fastest_first"]["agreement"] == 100.0, grid
    assert grid["value"]["agreement"] < 100.0 and grid["fastest_last"]["agreement"] < 100.0
    depth = r["depth"]
    assert depth["positions"] >= 20 and depth["target_in_kept"] == 100.0, depth
    assert depth["rules"]["search_depth2"] == 100.0, depth
    assert max(v for k, v in depth["rules"].items() if k != "search_depth2") < 100.0, depth


def test_book_entries_keep_the_most_frequent_move_then_the_lowest_square() -> None:
    planes = np.zeros((6, 2, 8, 8), dtype=np.float32)
    planes[3:, 0, 0, 0] = 1.0  # two inputs: rows 0-2 and rows 3-5
    mask = np.ones((6, 64), dtype=bool)
    actions = np.array([5, 3, 5, 9, 7, 7])
    keys, moves = book_entries(planes, mask, actions, np.arange(6))
    assert len(keys) == 2 and sorted(moves.tolist()) == [5, 7]
    keys, moves = book_entries(planes, mask, actions, np.array([3, 4]))  # 9 and 7 once each
    assert moves.tolist() == [7]
    # the float mask a player passes and the train stage's bool mask give one digest
    assert input_digest(planes[:1], mask[:1]) == input_digest(planes[:1],
                                                              mask[:1].astype(np.float32))


def test_the_book_answers_training_positions_and_changes_no_unseen_figure(
        tmp_path: Path) -> None:
    """A fold's book holds its training positions with the target's move: the reloaded
    imitator plays them all as the target did without searching them, and its figures on
    positions it never trained on are the book-less imitator's."""
    ds = tmp_path / "t.parquet"
    _dataset(ds, n=400)
    quick = {**FAST, "depths": [1], "passes": 1, "ties": ["first"]}
    runs = {}
    for book in (False, True):
        net = {"name": "search", "kind": "search", "search": {**quick, "book": book}}
        runs[book] = fit_member(ds, net, 0, tmp_path / f"b{book}.pt", tmp_path / f"b{book}.json",
                                TRAIN, bot="t")
    plain, booked = runs[False], runs[True]
    for key in ("val_acc_unseen", "val_acc_unseen_distinct", "val_unseen_rows"):
        assert booked[key] == plain[key], key
    assert plain["train_acc"] < 100.0 and booked["train_acc"] == 100.0
    model = load_checkpoint(tmp_path / "bTrue.pt")
    assert model.config["book"] == len(model.book_moves) > 250  # the fold's training positions
    assert "book" not in load_checkpoint(tmp_path / "bFalse.pt").config
    table = pd.read_parquet(ds)
    state = np.stack(table["state"].to_numpy()).reshape(-1, 2, 8, 8).astype(np.float32)
    mask = np.stack(table["mask"].to_numpy()).astype(np.float32)
    with torch.no_grad():  # every row: the fold's training rows and its validation rows
        chosen = model(torch.as_tensor(state), torch.as_tensor(mask)).argmax(1)
    digests = np.frombuffer(b"".join(input_digest(state, mask)),
                            dtype=np.uint8).reshape(-1, 16).view("V16").ravel()
    in_book = np.isin(digests, model.book_keys.numpy().view("V16").ravel())
    assert len(np.unique(digests[in_book])) == model.config["book"]  # each a dataset input
    assert booked["train_rows"] <= in_book.sum() < len(table)  # validation rows are not all in
    played = table["action"].to_numpy()
    assert (chosen.numpy()[in_book] == played[in_book]).all()
    assert model.memo.searched == int((~in_book).sum())  # the book's rows were not searched


def test_a_checkpoint_saved_before_the_edge_features_plays_with_them_at_zero() -> None:
    """A checkpoint's config names its features; one fitted before v12's edge features has
    fewer weights, loads, and plays as the same weights with the new ones at 0."""
    from ime.imitators.reversi_features import ADDED_FEATURES, feature_names
    from ime.imitators.search_fit import predict

    names = feature_names(2)
    old = [n for n in names if n.split("@")[0] not in ADDED_FEATURES]
    assert len(old) < len(names)
    cfg = {"name": "search", "kind": "search", "game": "reversi",
           "settings": {"depth": 2, "phases": 2}, "features": old}
    m = ReversiSearchPolicy(cfg)
    w_old = np.random.default_rng(8).normal(size=len(old))
    m.load_state_dict({"weights": torch.as_tensor(w_old)})
    full = np.array([dict(zip(old, w_old, strict=True)).get(n, 0.0) for n in names])
    np.testing.assert_array_equal(m.search_weights(), full)
    positions = random_positions(40, seed=4, min_ply=6, max_ply=50)
    P = np.array([p for p, _ in positions], dtype=np.uint64)
    O = np.array([o for _, o in positions], dtype=np.uint64)
    planes, _ = encode_boards(P, O)
    np.testing.assert_array_equal(m.moves(planes), predict(full, m.settings, P, O))
