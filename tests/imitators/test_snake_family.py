"""Snake's search imitator: the maximin search matches a brute-force reference, the MMTO fit
recovers a hidden search, and the family's module plays, masks, saves and loads as a net does
(issue 46)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
import torch
import yaml

from ime.games.snake import board as B
from ime.games.snake.encode import make_encoder
from ime.imitators.family import get_family
from ime.imitators.snake_family import FAMILY, SnakeSearchPolicy
from ime.imitators.snake_features import (
    feature_names,
    features,
    num_features,
    planes_to_positions,
)
from ime.imitators.snake_fit import SnakeFitConfig, SnakeSettings, decide, fit
from ime.imitators.snake_search import TERMINAL, pops, search_all, tie_ranks
from ime.nets import load_checkpoint, save_checkpoint
from imitators.snake_helpers import GAME, maximin_root, random_planes, random_seats

ROOT = Path(__file__).resolve().parents[2]
ENCODER = make_encoder(GAME)


def _roots(mask: np.ndarray) -> list[list[int]]:
    return [np.flatnonzero(m).tolist() for m in mask]


def _target(n: int, seed: int, tie: str) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``n`` decisions of a synthetic deterministic target: this imitator's own search at depth
    2 with hidden weights and tie rule ``tie`` over the legal mask; (planes, mask, moves)."""
    planes, mask = random_planes(n, seed)
    w = np.random.default_rng(seed).normal(size=num_features())
    moves, _ = decide(w, SnakeSettings(depth=2, tie=tie), planes_to_positions(planes),
                      _roots(mask))
    return planes, mask, moves


def _model(seed: int = 0, depth: int = 2, tie: str = "up") -> SnakeSearchPolicy:
    model = SnakeSearchPolicy({"name": "search", "kind": "search", "game": "snake",
                               "settings": {"depth": depth, "tie": tie}})
    with torch.no_grad():
        model.weights.copy_(torch.as_tensor(np.random.default_rng(seed).normal(
            size=num_features())))
    return model


@pytest.mark.parametrize(("depth", "phase"), [(1, 0), (2, 1), (3, 2), (4, 0), (4, 1), (4, 2),
                                              (5, 0), (3, -1)])
def test_the_search_matches_a_brute_force_maximin(depth: int, phase: int) -> None:
    planes, mask = random_planes(40, seed=10 + depth + 7 * phase)
    positions = planes_to_positions(planes)
    assert max(p.length for p in positions) > 11  # tails leave in some of them
    w = np.random.default_rng(depth).normal(size=num_features())
    roots = _roots(mask)
    res = search_all(positions, w, depth, roots, phase)
    for i, pos in enumerate(positions):
        ref = maximin_root(pos, w, depth, roots[i], phase)
        a, b = res.offsets[i], res.offsets[i + 1]
        assert res.squares[a:b].tolist() == roots[i]
        got = res.values[a:b]
        want = np.array([ref[d] for d in roots[i]])
        np.testing.assert_allclose(got, want, rtol=1e-9, atol=1e-9)
        live = ~res.terminal[a:b]
        # a live PV's leaf features give its value; a finished one carries none
        np.testing.assert_allclose(res.features[a:b][live] @ w, got[live], rtol=1e-9, atol=1e-9)
        assert (np.abs(got[~live]) >= TERMINAL).all() or (got[~live] == 0).all()


@pytest.mark.parametrize(("depth", "phase"), [(2, 0), (4, 0), (5, 1)])
def test_the_search_matches_a_brute_force_maximin_with_whole_bodies(depth: int,
                                                                    phase: int) -> None:
    """With the order plane both bodies' whole orders are known, so ``territory_tails`` reads
    a release step for every body cell but the heads, the cells the heads leave too (the
    reference carries each body as a list; the search keeps the heads it placed)."""
    planes, mask = random_planes(40, seed=40 + depth + 7 * phase, max_turn=60,
                                 encoder=make_encoder(GAME, opponent_head=True,
                                                      order_plane=True))
    positions = planes_to_positions(planes, opponent_head=True, order_plane=True)
    assert all(len(p.my_tail) == p.length - 1 for p in positions)
    assert max(p.length for p in positions) > 11
    w = np.zeros(num_features())
    w[-1], w[0] = 1.0, 0.3  # territory_tails, which the bodies' orders move, and territory
    roots = _roots(mask)
    res = search_all(positions, w, depth, roots, phase)
    moved = 0
    for i, pos in enumerate(positions):
        ref = maximin_root(pos, w, depth, roots[i], phase)
        a, b = res.offsets[i], res.offsets[i + 1]
        np.testing.assert_allclose(res.values[a:b], [ref[d] for d in roots[i]], rtol=1e-9,
                                   atol=1e-9)
        live = ~res.terminal[a:b]
        tails = res.features[a:b][live]
        moved += int((tails[:, -1] != tails[:, 0]).any())
    assert moved >= 10  # the two territories differ at many positions' PV leaves


def test_a_search_that_reads_no_leaf_features_skips_territory_tails_only_at_weight_0() -> None:
    """``features=False`` (a scoring): where ``territory_tails`` weighs 0 it is not computed
    (its column reads 0) and the values are the same; where it weighs anything it is."""
    planes, mask = random_planes(30, seed=44, max_turn=60,
                                 encoder=make_encoder(GAME, opponent_head=True, order_plane=True))
    positions = planes_to_positions(planes, opponent_head=True, order_plane=True)
    roots = _roots(mask)
    w = np.random.default_rng(8).normal(size=num_features())
    w[-1] = 0.0
    full = search_all(positions, w, 64, roots, 0, 200, "exits")
    lean = search_all(positions, w, 64, roots, 0, 200, "exits", features=False)
    np.testing.assert_array_equal(lean.values, full.values)
    assert (lean.features[:, -1] == 0).all() and (full.features[:, -1] != 0).any()
    w[-1] = 0.5
    weighed = search_all(positions, w, 64, roots, 0, 200, "exits", features=False)
    assert (weighed.features[:, -1] != 0).any()


def test_territory_tails_waits_for_a_tail_to_leave() -> None:
    """A 1 x 5 corridor: our head at its west end, our body's next cell blocking it, two free
    cells, the opponent's head at the east end. A body cell with a release step may be entered
    from that step on, by either head, a head waiting in its room until then."""
    grid = np.ones((3, 7), dtype=np.int8)
    grid[1, 1:6] = 0
    me, block, opp = 1 * 7 + 1, 1 * 7 + 2, 1 * 7 + 5
    grid[1, 1] = grid[1, 2] = grid[1, 5] = 2
    flat = grid.ravel()

    def tails(release: int) -> float:
        return features(flat, 7, me, np.array([opp]), [block], (), [release])[-1]

    plain = features(flat, 7, me, np.array([opp]))
    assert plain[0] == -2 and plain[-1] == -2  # no release: both free cells are the opponent's
    # released at step 1: the block ours (1 against 3), the next cell neutral (2 and 2)
    assert tails(1) == 0
    # at step 2: we wait a step and enter it at 2 (the opponent at 3): the block ours, the
    # free cells theirs
    assert tails(2) == -1
    # at step 5: both heads wait for it (5 and 5): neutral
    assert tails(5) == -2


def test_features_read_a_small_position() -> None:
    """Territory, reach, mobility, distance and walls on a hand-made 3 x 4 board."""
    # rows 1..3, columns 1..4 padded: our head at (1, 1), the opponent's at (3, 4)
    grid = np.ones((5, 6), dtype=np.int8)
    grid[1:4, 1:5] = 0
    grid[1, 1] = grid[3, 4] = 2
    f = features(grid.ravel(), 6, 1 * 6 + 1, np.array([3 * 6 + 4]))
    # 10 free cells, the board symmetric through its centre: territory 0, both reach all 10,
    # 2 free and 2 wall neighbours each, heads 2 + 3 apart, 5 free cells within 2 steps of
    # each, each head 1 + 1.5 from the centre (2, 2.5)
    # (and with no body cell to leave, territory_tails is territory)
    assert f.tolist() == [0.0, 10.0, 10.0, 2.0, 2.0, 5.0, 2.0, 2.0, 5.0, 5.0, 2.5, 2.5, 0.0]


def test_tie_ranks_are_orders_of_the_four_directions() -> None:
    assert tie_ranks("up").tolist() == [0, 1, 2, 3]
    assert tie_ranks("right").tolist() == [3, 0, 1, 2]
    assert tie_ranks("reverse").tolist() == [3, 2, 1, 0]
    with pytest.raises(ValueError):
        tie_ranks("centre")


@pytest.mark.parametrize("tie", ["left", "reverse"])
def test_a_fit_reproduces_a_hidden_depth2_search_on_held_out_positions(tie: str) -> None:
    planes, mask, moves = _target(900, seed=21, tie=tie)
    pos = planes_to_positions(planes)
    result = fit(pos[:500], moves[:500], pos[500:650], moves[500:650],
                 SnakeFitConfig(depths=(1, 2, 3), passes=3))
    assert result.settings.depth == 2 and result.settings.tie == tie
    held, _ = decide(result.weights, result.settings, pos[650:], _roots(mask[650:]))
    assert np.mean(held == moves[650:]) >= 0.9


def test_the_module_has_the_nets_signature_and_masks_illegal_directions() -> None:
    model = _model()
    planes, mask = random_planes(30, seed=8)
    x, m = torch.as_tensor(planes, dtype=torch.float32), torch.as_tensor(mask, dtype=torch.float32)
    m[3] = 0  # a row without a legal direction (a forced decision): every logit masked
    logits = model(x, m)
    assert logits.shape == (30, 4)
    assert bool((logits[m == 0] <= -1e8).all()) and bool((logits[m > 0] > -1e8).all())
    rows = [i for i in range(30) if i != 3]
    chosen = model.moves(planes[rows], mask[rows])
    np.testing.assert_array_equal(logits[rows].argmax(dim=1).numpy(), chosen)
    p = logits[rows].exp()
    assert torch.allclose(p.sum(dim=1), torch.ones(len(rows)), atol=1e-5)
    assert bool((p.max(dim=1).values >= 0.5).all())  # CHOICE_SHARE on the search's move


def test_a_checkpoint_round_trip_plays_the_same(tmp_path: Path) -> None:
    model = _model(seed=3)
    path = tmp_path / "fold0.pt"
    save_checkpoint(path, model, game="snake", encoder_version=ENCODER.version, fold=0,  # type: ignore[arg-type]
                    in_shape=(4, 10, 11), num_actions=4)
    back = load_checkpoint(path)
    assert isinstance(back, SnakeSearchPolicy) and back.settings == model.settings
    planes, mask = random_planes(25, seed=4)
    x, m = torch.as_tensor(planes, dtype=torch.float32), torch.as_tensor(mask, dtype=torch.float32)
    assert torch.equal(back(x, m), model(x, m))


def test_a_checkpoint_fitted_before_a_feature_was_added_weighs_it_zero(tmp_path: Path) -> None:
    """A checkpoint names the features it weighs: one fitted with the first 12 (before
    ``territory_tails``) loads and plays as the same weights with 0 on the new one; a feature
    this code has not is refused by name."""
    old = feature_names()[:12]
    w = np.random.default_rng(5).normal(size=12)
    model = SnakeSearchPolicy({"name": "search", "kind": "search", "game": "snake",
                               "settings": {"depth": 2}, "features": old})
    with torch.no_grad():
        model.weights.copy_(torch.as_tensor(w))
    path = tmp_path / "fold0.pt"
    save_checkpoint(path, model, game="snake", encoder_version=ENCODER.version, fold=0,  # type: ignore[arg-type]
                    in_shape=(4, 10, 11), num_actions=4)
    back = load_checkpoint(path)
    assert isinstance(back, SnakeSearchPolicy) and back.features == old
    planes, mask = random_planes(25, seed=6)
    full = np.append(w, 0.0)
    want, _ = decide(full, SnakeSettings(depth=2), planes_to_positions(planes), _roots(mask))
    assert back.moves(planes, mask).tolist() == want.tolist()
    with pytest.raises(ValueError, match="features this code has not"):
        SnakeSearchPolicy({"settings": {"depth": 2}, "features": [*old, "length"]})


def test_the_plugin_offers_the_family_and_reads_the_pipelines_config() -> None:
    family = get_family("snake", "search")
    assert family is FAMILY
    search = yaml.safe_load((ROOT / "config" / "net" / "search.yaml").read_text())["search"]
    planes, _, moves = _target(300, seed=5, tie="up")
    lines: list[str] = []
    model = family.fit(planes.astype(np.float32), moves, np.arange(0, 240), np.arange(240, 300),
                       {**search, "depths": [1, 2], "passes": [1, 2], "name": "search"},
                       seed=0, say=lines.append)
    assert isinstance(model, SnakeSearchPolicy)
    assert model.config["game"] == "snake" and lines[-1].startswith("chosen")
    # the budget stage reads net.search's budgets, budget_depth and budget_passes
    lines.clear()
    model = family.fit(planes.astype(np.float32), moves, np.arange(0, 240), np.arange(240, 300),
                       {**search, "depths": [1, 2], "passes": [1, 1], "budgets": [0, 60],
                        "budget_depth": 8, "budget_passes": 1, "budget_kinds": ["deepen", "leaves"],
                        "name": "search"},
                       seed=0, say=lines.append)
    for kind in ("deepen", "leaves"):  # both orderings tried under each kind
        assert sum(f"budget=60 ({kind}) order=" in line for line in lines) == 2
    assert {"budget", "order", "kind"} <= set(model.config["settings"])
    with pytest.raises(ValueError, match="budgets must be"):
        family.fit(planes, moves, np.arange(0, 240), np.arange(240, 300),
                   {**search, "budgets": [0, -5]}, seed=0, say=lines.append)


def test_imitator_search_composes_for_snake() -> None:
    from ime.workflow import make_plan

    v = make_plan(["game=snake", "imitator=search"]).main
    assert v.results_dir.endswith("__net-search") and "snake" in v.results_dir


def test_positions_from_planes_find_the_heads() -> None:
    """Our head from plane 0; the opponent's head among its path's ends; bodies and obstacles
    blocked, the padding a wall; the variable-size layout's off-board plane a wall too."""
    planes, _ = random_planes(20, seed=6)
    for pos, p in zip(planes_to_positions(planes), planes, strict=True):
        x, y = divmod(pos.me, pos.stride)
        assert p[0, x - 1, y - 1] == 1
        for o in pos.opps:
            ox, oy = divmod(int(o), pos.stride)
            assert p[2, ox - 1, oy - 1] == 1
    wide = np.zeros((1, 5, 16, 12), dtype=np.uint8)
    wide[0, :4, :10, :11] = planes[0]
    wide[0, 4] = 1
    wide[0, 4, :10, :11] = 0
    (pos,) = planes_to_positions(wide)
    (small,) = planes_to_positions(planes[:1])
    assert pos.me // pos.stride == small.me // small.stride
    grid = pos.grid.reshape(18, 14)
    assert (grid[11:17, 1:13] == 1).all() and (grid[1:11, 12] == 1).all()


def test_positions_from_planes_know_the_heads_and_tails_the_rules_give() -> None:
    """Against the engine's own bodies: the opponent's true head is always a candidate, every
    known tail order is the true one, and the chessboard colour and the start corners leave a
    single candidate in most positions."""
    single = 0
    for st, seat in random_seats(2, 60):
        (pos,) = planes_to_positions(ENCODER.encode([st], [seat]).planes)
        body = [[int(B.segment(st.S, p, k)) for k in range(int(st.S[B.I_LEN + p]))]
                for p in (0, 1)]  # tail first
        mine, theirs = body[seat], body[1 - seat]
        assert pos.length == len(mine) and pos.me == mine[-1]
        assert list(pos.my_tail) == mine[:len(pos.my_tail)]
        k = pos.opps.tolist().index(theirs[-1])
        assert list(pos.tails()[k]) == theirs[:len(pos.tails()[k])]
        single += len(pos.opps) == 1
    assert single >= 30


def test_the_opponent_head_plane_leaves_one_candidate_with_its_true_tail() -> None:
    """With the encoder's ``opponent_head`` plane the position's only head candidate is the
    opponent's true head, and every known tail order is the true one (against the engine's own
    bodies, 60 seeded positions; without the plane several candidates remain in some)."""
    headed = make_encoder(GAME, opponent_head=True)
    several = 0
    for st, seat in random_seats(7, 60):
        (pos,) = planes_to_positions(headed.encode([st], [seat]).planes, opponent_head=True)
        (plain,) = planes_to_positions(ENCODER.encode([st], [seat]).planes)
        body = [[int(B.segment(st.S, p, k)) for k in range(int(st.S[B.I_LEN + p]))]
                for p in (0, 1)]  # tail first
        theirs = body[1 - seat]
        assert pos.opps.tolist() == [theirs[-1]]
        assert list(pos.tails()[0]) == theirs[:len(pos.tails()[0])]
        assert pos.my_tail == plain.my_tail and pos.me == plain.me
        np.testing.assert_array_equal(pos.grid, plain.grid)
        several += len(plain.opps) > 1
    assert several > 0
    with pytest.raises(ValueError, match="opponent head plane"):
        planes_to_positions(np.zeros((1, 4, 10, 11)), opponent_head=True)
    st, seat = random_seats(9, 1)[0]
    planes = headed.encode([st], [seat]).planes.copy()
    for heads in (0, 2):  # a head plane with no head or two: the row is named
        bad = planes.copy()
        bad[0, -1] = 0
        bad[0, -1, 0, :heads] = 1
        with pytest.raises(ValueError, match=f"row 0: {heads} opponent heads"):
            planes_to_positions(bad, opponent_head=True)


def test_the_family_reads_the_opponent_head_plane_when_the_encoder_has_it() -> None:
    """A fit on a ``+head`` encoder's planes keeps ``opponent_head`` in its module's config, and
    the module (also after a save and load) reads its positions from that plane."""
    headed = make_encoder(GAME, opponent_head=True)
    x, masks = random_planes(200, 8, encoder=headed)
    x = x.astype(np.float32)
    moves = np.array([np.flatnonzero(m)[0] for m in masks])
    model = FAMILY.fit(x, moves, np.arange(0, 150), np.arange(150, 200),
                       {"depths": [1], "passes": 1, "name": "search"}, seed=0,
                       say=lambda _line: None, encoder_version=headed.version)
    assert model.config["opponent_head"] is True
    chosen = model.moves(x, masks)
    want, _ = decide(model.weights.detach().numpy(), model.settings,
                     planes_to_positions(x, opponent_head=True), _roots(masks))
    np.testing.assert_array_equal(chosen, want)
    back = FAMILY.build(model.config)
    with torch.no_grad():
        back.weights.copy_(model.weights)
    np.testing.assert_array_equal(back.moves(x, masks), chosen)
    plain = FAMILY.fit(x[:, :-1], moves, np.arange(0, 150), np.arange(150, 200),
                       {"depths": [1], "passes": 1, "name": "search"}, seed=0,
                       say=lambda _line: None, encoder_version=ENCODER.version)
    assert "opponent_head" not in plain.config


def test_the_turn_plane_gives_the_search_the_true_turn() -> None:
    """With the encoder's ``turn_plane`` every position knows its turn, so the tails leave on
    the engine's own turns (the growth rule), where the length's guess misses some; the grid and
    the head candidates are those read without it; 255 (this turn or later) is unknown."""
    both = make_encoder(GAME, opponent_head=True, turn_plane=True)
    headed = make_encoder(GAME, opponent_head=True)
    missed = 0
    for st, seat in random_seats(11, 80, turns_below=60):
        (pos,) = planes_to_positions(both.encode([st], [seat]).planes, opponent_head=True,
                                     turn_plane=True)
        (plain,) = planes_to_positions(headed.encode([st], [seat]).planes, opponent_head=True)
        assert pos.turn == st.ply and plain.turn == -1
        np.testing.assert_array_equal(pos.grid, plain.grid)
        assert pos.opps.tolist() == plain.opps.tolist() and pos.my_tail == plain.my_tail
        truth = [not B.grows(st.ply + j) for j in range(6)]
        assert pops(pos.length, 0, 6, pos.turn) == truth
        missed += pops(plain.length, 0, 6, plain.turn) != truth
    assert missed > 0
    planes = both.encode([st], [seat]).planes.copy()
    planes[0, -1][planes[0, -1] > 0] = 255
    assert planes_to_positions(planes, opponent_head=True, turn_plane=True)[0].turn == -1
    with pytest.raises(ValueError, match="the opponent head plane and the turn plane"):
        planes_to_positions(np.zeros((1, 5, 10, 11)), opponent_head=True, turn_plane=True)


def test_the_family_reads_the_turn_plane_when_the_encoder_has_it() -> None:
    """A fit on a ``+head+turn`` encoder's planes keeps both options in its module's config, and
    the module reads its positions (the turn among them) from those planes."""
    both = make_encoder(GAME, opponent_head=True, turn_plane=True)
    x, masks = random_planes(120, 9, encoder=both)
    moves = np.array([np.flatnonzero(m)[0] for m in masks])
    model = FAMILY.fit(x, moves, np.arange(0, 90), np.arange(90, 120),
                       {"depths": [2], "passes": 1, "name": "search"}, seed=0,
                       say=lambda _line: None, encoder_version=both.version)
    assert model.config["opponent_head"] is True and model.config["turn_plane"] is True
    want, _ = decide(model.weights.detach().numpy(), model.settings,
                     planes_to_positions(x, opponent_head=True, turn_plane=True), _roots(masks))
    np.testing.assert_array_equal(model.moves(x, masks), want)


def test_the_order_plane_gives_both_bodies_whole_orders() -> None:
    """With the encoder's ``order_plane`` the position holds both snakes' whole bodies in order
    (the tail first) and the opponent's true head, against the engine's own bodies; a plane
    that does not put our head last names its row."""
    enc = make_encoder(GAME, opponent_head=True, turn_plane=True, order_plane=True)
    for st, seat in random_seats(12, 60, turns_below=60):
        (pos,) = planes_to_positions(enc.encode([st], [seat]).planes, opponent_head=True,
                                     turn_plane=True, order_plane=True)
        body = [[int(B.segment(st.S, p, k)) for k in range(int(st.S[B.I_LEN + p]))]
                for p in (0, 1)]  # tail first
        assert list(pos.my_tail) == body[seat][:-1] and pos.me == body[seat][-1]
        assert pos.opps.tolist() == [body[1 - seat][-1]]
        assert list(pos.tails()[0]) == body[1 - seat][:-1]
        assert pos.turn == st.ply
    planes = enc.encode([st], [seat]).planes.copy()
    planes[0, -1][planes[0, 0] > 0] = 0
    with pytest.raises(ValueError, match="row 0: the order plane"):
        planes_to_positions(planes, opponent_head=True, turn_plane=True, order_plane=True)


def test_the_family_reads_the_order_plane_when_the_encoder_has_it() -> None:
    enc = make_encoder(GAME, opponent_head=True, turn_plane=True, order_plane=True)
    x, masks = random_planes(100, 13, encoder=enc)
    moves = np.array([np.flatnonzero(m)[0] for m in masks])
    model = FAMILY.fit(x, moves, np.arange(0, 70), np.arange(70, 100),
                       {"depths": [2], "passes": 1, "name": "search"}, seed=0,
                       say=lambda _line: None, encoder_version=enc.version)
    assert model.config["order_plane"] is True
    want, _ = decide(model.weights.detach().numpy(), model.settings,
                     planes_to_positions(x, opponent_head=True, turn_plane=True,
                                         order_plane=True), _roots(masks))
    np.testing.assert_array_equal(model.moves(x, masks), want)
